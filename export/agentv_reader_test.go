package export_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

// agentvEntry is what tools/agentv/check.mjs prints for a transcript read
// back by AgentV's own code, as agentv eval --transcript reads it.
type agentvEntry struct {
	TestID     string   `json:"test_id"`
	Target     string   `json:"target"`
	Messages   int      `json:"messages"`
	ToolCalls  int      `json:"tool_calls"`
	Tools      []string `json:"tools"`
	TokenUsage *struct {
		Input, Output, Cached int64
	} `json:"token_usage"`
	CostUSD     *float64 `json:"cost_usd"`
	FinalAnswer string   `json:"final_answer"`
	Triggered   bool     `json:"skill_triggered"`
	Skills      []string `json:"skills"`
}

// agentvReader reads the AgentV rows of paths with AgentV's reader and its
// skill-trigger grader for skill (tools/agentv, installed with
// npm install --prefix tools/agentv --no-save), or skips.
func agentvReader(t *testing.T, skill string, paths ...string) ([]*transcript.Transcript, []agentvEntry) {
	t.Helper()
	dir := filepath.Join(providertest.RepoRoot(t), "tools", "agentv")
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentv", "core")); err != nil {
		t.Skip("AgentV not installed (npm install --prefix tools/agentv --no-save, as .ci/run does)")
	}
	bin := agtTranscript(t)
	out, err := exec.Command(bin, append([]string{"-q"}, paths...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := exec.Command(bin, append([]string{"-q", "--format", "agentv"}, paths...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "rows.jsonl")
	os.WriteFile(file, rows, 0o644)
	cmd := exec.Command("node", "check.mjs", file, skill)
	cmd.Dir = dir
	read, err := cmd.Output()
	if err != nil {
		t.Fatalf("check.mjs: %v", err)
	}
	entries, err := jsonLines[agentvEntry](read)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, out), entries
}

// checkAgentVRead compares each transcript AgentV read back with its
// conversation (the session's own, or a subagent's under
// <session>/<stream>): messages, tool calls in order, final answer (the
// conversation's last assistant text), token totals and cost (missing
// where the log has no usage). It returns the sessions in which the
// grader found the skill.
func checkAgentVRead(t *testing.T, trs []*transcript.Transcript, entries []agentvEntry) map[string]bool {
	t.Helper()
	by := map[string]agentvEntry{}
	for _, e := range entries {
		by[e.Target+"/"+e.TestID] = e
	}
	triggered := map[string]bool{}
	n, subs, answers := 0, 0, 0
	for _, tr := range trs {
		id := export.SessionID(tr)
		convs := export.Convs(tr)
		root := export.Root(convs)
		for i, c := range convs {
			if len(c.Messages) == 0 {
				continue // no row
			}
			n++
			testID, u, cost, usage := id, &tr.Usage, tr.CostUSD, hasUsage(tr)
			if i != root {
				testID, u, cost, usage = id+"/"+c.Stream, &tr.Subagents[i-1].Usage, c.CostUSD, convHasUsage(&c)
				subs++
			}
			key := tr.Provider + "/" + testID
			e, ok := by[key]
			if !ok {
				t.Errorf("%s: AgentV read no transcript", key)
				continue
			}
			if e.Triggered {
				triggered[tr.Provider+"/"+id] = true
			}
			var tools []string
			answer := ""
			for _, m := range c.Messages {
				for _, tc := range m.ToolCalls {
					tools = append(tools, tc.Name)
				}
				if m.Role == transcript.RoleAssistant {
					answer = export.Text(m.Text)
				}
			}
			if i == root && len(tr.Subagents) > 0 {
				answers++
			}
			if e.FinalAnswer != answer {
				t.Errorf("%s: AgentV's final answer %.60q, the conversation's last assistant text %.60q", key, e.FinalAnswer, answer)
			}
			if len(e.Tools) != len(tools) {
				t.Errorf("%s: AgentV read %d tool calls, the conversation has %d", key, len(e.Tools), len(tools))
			} else {
				for j := range tools {
					if e.Tools[j] != tools[j] && e.Tools[j] != "Skill" {
						t.Errorf("%s: tool call %d is %s for AgentV, %s in the transcript", key, j, e.Tools[j], tools[j])
						break
					}
				}
			}
			s := sumsOf(u)
			if !usage && (u.Input|u.CacheRead|u.CacheWrite|u.Output|u.Reasoning) == 0 {
				if e.TokenUsage != nil {
					t.Errorf("%s: AgentV read usage %+v where the log has none", key, *e.TokenUsage)
				}
			} else if e.TokenUsage == nil || e.TokenUsage.Input != s.prompt || e.TokenUsage.Output != s.output || e.TokenUsage.Cached != s.cacheRead {
				t.Errorf("%s: AgentV read usage %+v, transcript %+v", key, e.TokenUsage, s)
			}
			if e.Messages != len(c.Messages) || !sameCost(e.CostUSD, cost) {
				t.Errorf("%s: AgentV read %d messages, cost %v; the conversation has %d, cost %v", key, e.Messages, e.CostUSD, len(c.Messages), cost)
			}
		}
	}
	if len(entries) != n {
		t.Errorf("AgentV read %d transcripts, %d conversations have messages", len(entries), n)
	}
	t.Logf("AgentV read %d transcripts back (%d of them subagents'); final answer checked in %d sessions with subagents", len(entries), subs, answers)
	return triggered
}

// TestAgentVReader reads the AgentV rows back as agentv eval --transcript
// does (@agentv/core's TranscriptProvider): the six agents' skill logs, each
// transcript found with its messages, tool calls in order, final answer,
// usage and cost, and AgentV's skill-trigger grader finds the skill in all
// six; then every corpus session and live capture (subagents' transcripts
// apart, the session's final answer its own last assistant text), and for
// every skill the corpus loads the grader finds it where skills.jq does.
func TestAgentVReader(t *testing.T) {
	logs, _ := filepath.Glob(filepath.Join(providertest.RepoRoot(t), "testdata", "examples", "*-skill.jsonl"))
	trs, entries := agentvReader(t, "brainstorming", logs...)
	if got := checkAgentVRead(t, trs, entries); len(got) != 6 {
		t.Errorf("AgentV's skill-trigger grader found brainstorming in %v, want all six", got)
	}
	corpus := providertest.CorpusDir(t)
	var dirs []string
	for _, p := range harborDirs(t) {
		dirs = append(dirs, filepath.Join(corpus, p))
	}
	// each folder apart: AgentV groups rows by test_id alone, and
	// sessions of two agents may share an id (trimmed fixtures do)
	skills := strings.Join(append([]string{"ce-work"}, corpusSkills(t, dirs)...), ",")
	got := map[string]bool{}
	var read, loads, agree int
	for _, d := range dirs {
		trs, entries := agentvReader(t, skills, d)
		for k := range checkAgentVRead(t, trs, entries) {
			got[k] = true
		}
		l, a := checkSkills(t, trs, entries)
		loads, agree, read = loads+l, agree+a, read+len(entries)
	}
	// two sessions that load it (a Codex and a Pi log), by their ids
	for _, id := range []string{"019ed99c-d00d-7613-b2e7-d2f512f78afd", "019f4e6f-89f2-7f82-9bf9-a4790d571aa6"} {
		if !hasSession(got, id) {
			t.Errorf("AgentV's grader did not find ce-work in session %s", id)
		}
	}
	t.Logf("AgentV read %d corpus transcripts back; its grader found ce-work in %v; skill loads: it agrees with skills.jq on %d of %d", read, got, agree, loads)
}

// skillsOf are the skills a session loaded as examples/skills.jq finds
// them: the canonical input.skill of every tool call, its subagents' too.
func skillsOf(tr *transcript.Transcript) map[string]bool {
	out := map[string]bool{}
	for _, c := range export.Convs(tr) {
		for _, m := range c.Messages {
			for _, tc := range m.ToolCalls {
				var in struct {
					Skill *string `json:"skill"`
				}
				if json.Unmarshal(tc.Input, &in) == nil && in.Skill != nil {
					out[*in.Skill] = true
				}
			}
		}
	}
	return out
}

// corpusSkills are the skills the sessions of dirs load.
func corpusSkills(t *testing.T, dirs []string) []string {
	out, err := exec.Command(agtTranscript(t), append([]string{"-q"}, dirs...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	all := map[string]bool{}
	for _, tr := range decode(t, out) {
		for s := range skillsOf(tr) {
			all[s] = true
		}
	}
	var names []string
	for s := range all {
		names = append(names, s)
	}
	sort.Strings(names)
	return names
}

// checkSkills compares, session by session, the skills AgentV's
// skill-trigger grader finds (in any of the session's transcripts) with
// those skills.jq finds, for every skill the corpus loads; it returns the
// loads skills.jq finds and how many of them the grader finds.
func checkSkills(t *testing.T, trs []*transcript.Transcript, entries []agentvEntry) (loads, agree int) {
	t.Helper()
	found := map[string]map[string]bool{} // provider/session → skills
	for _, e := range entries {
		session, _, _ := strings.Cut(e.TestID, "/")
		k := e.Target + "/" + session
		if found[k] == nil {
			found[k] = map[string]bool{}
		}
		for _, s := range e.Skills {
			found[k][s] = true
		}
	}
	for _, tr := range trs {
		k := tr.Provider + "/" + export.SessionID(tr)
		want := skillsOf(tr)
		for s := range want {
			loads++
			if found[k][s] {
				agree++
			} else {
				t.Errorf("%s: skills.jq finds skill %s, AgentV's grader does not", k, s)
			}
		}
		for s := range found[k] {
			if !want[s] {
				t.Logf("%s: AgentV's grader finds skill %s, skills.jq does not (a substring of a loaded skill's name, or a tool output naming skills/%s/)", k, s, s)
			}
		}
	}
	return loads, agree
}

// hasSession tells whether keys ("<provider>/<test id>") hold the session
// id's main conversation.
func hasSession(keys map[string]bool, id string) bool {
	for k := range keys {
		if strings.HasSuffix(k, "/"+id) {
			return true
		}
	}
	return false
}
