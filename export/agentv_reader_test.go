package export_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

// agentvEntry is what tools/agentv/check.mjs prints for a session read
// back by AgentV's own reader.
type agentvEntry struct {
	TestID     string `json:"test_id"`
	Target     string `json:"target"`
	Messages   int    `json:"messages"`
	ToolCalls  int    `json:"tool_calls"`
	TokenUsage *struct {
		Input, Output, Cached int64
	} `json:"token_usage"`
	CostUSD   *float64 `json:"cost_usd"`
	Triggered bool     `json:"skill_triggered"`
}

// agentvReader reads the AgentV rows of paths with AgentV's reader and its
// skill-trigger grader for skill (tools/agentv, installed with
// npm ci --prefix tools/agentv), or skips.
func agentvReader(t *testing.T, skill string, paths ...string) ([]*transcript.Transcript, []agentvEntry) {
	t.Helper()
	dir := filepath.Join(providertest.RepoRoot(t), "tools", "agentv")
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentv", "core")); err != nil {
		t.Skip("AgentV not installed (npm ci --prefix tools/agentv)")
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

// checkAgentVRead compares each session AgentV read back with its
// transcript: messages, tool calls, token totals and cost.
func checkAgentVRead(t *testing.T, trs []*transcript.Transcript, entries []agentvEntry) map[string]bool {
	t.Helper()
	by := map[string]agentvEntry{}
	for _, e := range entries {
		by[e.Target+"/"+e.TestID] = e
	}
	triggered := map[string]bool{}
	n := 0
	for _, tr := range trs {
		msgs := 0
		for _, c := range export.Convs(tr) {
			msgs += len(c.Messages)
		}
		if msgs == 0 {
			continue // no row
		}
		n++
		key := tr.Provider + "/" + tr.NativeSession
		e, ok := by[key]
		if !ok {
			t.Errorf("%s: AgentV read no session", key)
			continue
		}
		if e.Triggered {
			triggered[key] = true
		}
		s := sumsOf(&tr.Usage)
		if e.Messages != msgs || e.ToolCalls != tr.Counts.ToolCalls || e.TokenUsage == nil ||
			e.TokenUsage.Input != s.prompt || e.TokenUsage.Output != s.output || e.TokenUsage.Cached != s.cacheRead || !sameCost(e.CostUSD, tr.CostUSD) {
			t.Errorf("%s: AgentV read %+v (usage %+v), transcript %d messages, %d tool calls, %+v, cost %v", key, e, e.TokenUsage, msgs, tr.Counts.ToolCalls, s, tr.CostUSD)
		}
	}
	if len(entries) != n {
		t.Errorf("AgentV read %d sessions, %d have messages", len(entries), n)
	}
	return triggered
}

// TestAgentVReader reads the AgentV rows back with AgentV's own reader
// (@agentv/core): the six agents' skill logs, each session found with its
// messages, tool calls, usage and cost, and AgentV's skill-trigger grader
// finds the skill in all six; then every corpus session, and the grader
// finds ce-work where skills.jq does.
func TestAgentVReader(t *testing.T) {
	logs, _ := filepath.Glob(filepath.Join(providertest.RepoRoot(t), "testdata", "examples", "*-skill.jsonl"))
	trs, entries := agentvReader(t, "brainstorming", logs...)
	if got := checkAgentVRead(t, trs, entries); len(got) != 6 {
		t.Errorf("AgentV's skill-trigger grader found brainstorming in %v, want all six", got)
	}
	corpus := providertest.CorpusDir(t)
	var dirs []string
	for _, p := range corpusProviders {
		dirs = append(dirs, filepath.Join(corpus, p))
	}
	trs, entries = agentvReader(t, "ce-work", dirs...)
	got := checkAgentVRead(t, trs, entries)
	for _, k := range []string{"codex/019ed99c-d00d-7613-b2e7-d2f512f78afd", "pi/019f4e6f-89f2-7f82-9bf9-a4790d571aa6"} {
		if !got[k] {
			t.Errorf("AgentV's grader did not find ce-work in %s", k)
		}
	}
	t.Logf("AgentV read %d corpus sessions back; its grader found ce-work in %v", len(entries), got)
}
