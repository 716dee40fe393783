package transcript_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

// injectedOpening is how the context blocks agents send as user messages
// open: an XML-like tag (<environment_context>, <session_context>,
// <skill>, <turn_aborted>, …) or Codex's AGENTS.md heading.
var injectedOpening = regexp.MustCompile(`^\s*(<[A-Za-z][\w-]*[\s>/]|# AGENTS\.md instructions)`)

// contextCorpus are the corpus folders and files of Codex, Gemini CLI and
// Qwen Code (a Gemini fork), logs and live outputs.
var contextCorpus = []string{"codex/*", "gemini/*", "other/*qwen*", "live/codex-exec-json/*", "live/gemini-json/*", "live/gemini-stream-json/*"}

// messages are a transcript's messages and its subagents'.
func messages(tr *transcript.Transcript) []transcript.Message {
	ms := tr.Messages
	for _, s := range tr.Subagents {
		ms = append(ms, s.Messages...)
	}
	return ms
}

// TestCorpusInjectedContext checks every Codex, Gemini CLI and Qwen Code
// corpus log: no user message starts with an injected block, and in Codex
// rollouts the user messages are exactly the prompts Codex logged as typed
// (its user_message events) while every other user item, the injected
// context, is a system message that keeps its text.
func TestCorpusInjectedContext(t *testing.T) {
	dir := providertest.CorpusDir(t)
	var files []string
	for _, g := range contextCorpus {
		m, _ := filepath.Glob(filepath.Join(dir, g))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no Codex or Gemini corpus files")
	}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		t.Run(rel, func(t *testing.T) {
			ts, _ := consolidate(t, provider.Config{}, f)
			var users, system []string
			for _, tr := range ts {
				for _, m := range messages(tr) {
					switch {
					case m.Role == transcript.RoleUser && m.Kind == "":
						users = append(users, m.Text.Str())
						if injectedOpening.MatchString(m.Text.Str()) {
							t.Errorf("user message is an injected block: %.80q", m.Text.Str())
						}
					case m.Role == transcript.RoleSystem:
						system = append(system, m.Text.Str())
					}
				}
			}
			if len(ts) == 0 || ts[0].Format != "codex-rollout" {
				return
			}
			typed, context := rolloutUserTexts(t, f)
			sort.Strings(users)
			sort.Strings(typed)
			if strings.Join(users, "\x00") != strings.Join(typed, "\x00") {
				t.Errorf("%d user messages, want the %d typed prompts", len(users), len(typed))
			}
			kept := map[string]int{}
			for _, s := range system {
				kept[s]++
			}
			for _, c := range context {
				if kept[c] <= 0 {
					t.Errorf("injected context lost: %.80q", c)
				}
				kept[c]--
			}
		})
	}
}

// rolloutUserTexts reads a rollout's typed prompts (event_msg user_message
// of a typed kind) and its injected context (user response_items whose text
// is no user_message's).
func rolloutUserTexts(t *testing.T, path string) (typed, context []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	logged := map[string]int{}
	var items []string
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		var l struct {
			Type    string `json:"type"`
			Payload struct {
				Type    string `json:"type"`
				Role    string `json:"role"`
				Message string `json:"message"`
				Kind    any    `json:"kind"`
				Content []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
			} `json:"payload"`
		}
		if json.Unmarshal(line, &l) == nil {
			p := l.Payload
			switch {
			case l.Type == "event_msg" && p.Type == "user_message":
				logged[p.Message]++
				if p.Kind == nil || p.Kind == "plain" {
					typed = append(typed, p.Message)
				}
			case l.Type == "response_item" && p.Type == "message" && p.Role == "user":
				var texts []string
				for _, c := range p.Content {
					if c.Type == "input_text" {
						texts = append(texts, c.Text)
					}
				}
				items = append(items, strings.Join(texts, "\n\n"))
			}
		}
		if err != nil {
			break
		}
	}
	for _, it := range items {
		if logged[it] > 0 {
			logged[it]--
			continue
		}
		context = append(context, it)
	}
	return typed, context
}
