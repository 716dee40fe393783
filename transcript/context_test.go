package transcript_test

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

// injectedOpening is how the context blocks agents send as user messages
// open: an XML-like tag (<environment_context>, <session_context>,
// <skill>, <turn_aborted>, …) or Codex's AGENTS.md heading.
var injectedOpening = regexp.MustCompile(`^\s*(<[A-Za-z][\w-]*[\s>/]|# AGENTS\.md instructions)`)

// injectedKept are corpus files whose transcripts still open user
// messages with an injected block, and why.
var injectedKept = map[string]string{
	"other/cmtest-cursor__b8-b6fbd5f55f-0.jsonl": "the agent's transcript wraps prompts and their context alike in tags (<user_query>, <attached_files>, <external_links>)",
}

// messages are a transcript's messages and its subagents'.
func messages(tr *transcript.Transcript) []transcript.Message {
	ms := tr.Messages
	for _, s := range tr.Subagents {
		ms = append(ms, s.Messages...)
	}
	return ms
}

// TestCorpusInjectedContext checks every corpus log (each provider's
// folder, the other agents' logs and the live outputs): no user message
// starts with an injected block. (That a Codex rollout's user messages
// are exactly the prompts it logged as typed is in provider/codex.)
func TestCorpusInjectedContext(t *testing.T) {
	dir := providertest.CorpusDir(t)
	var files []string
	for _, g := range append(providertest.CorpusProviders(dir), "other", filepath.Join("live", "*")) {
		m, _ := filepath.Glob(filepath.Join(dir, g, "*"))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no corpus files")
	}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		t.Run(rel, func(t *testing.T) {
			if why, ok := injectedKept[filepath.ToSlash(rel)]; ok {
				t.Skip(why)
			}
			ts, _ := consolidate(t, provider.Config{}, f)
			for _, tr := range ts {
				for _, m := range messages(tr) {
					if m.Role == transcript.RoleUser && m.Kind == "" && injectedOpening.MatchString(m.Text.Str()) {
						t.Errorf("user message is an injected block: %.80q", m.Text.Str())
					}
				}
			}
		})
	}
}
