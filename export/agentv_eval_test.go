package export_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

// evalExpect is what agentv eval --transcript should report for one
// transcript of the rows: a conversation of a session.
type evalExpect struct {
	key    string // provider/test_id of the rows
	usage  *sums  // nil: the log has none
	cost   *float64
	answer string
	tools  []string
}

// evalExpected are the transcripts of trs's rows in row order.
func evalExpected(trs []*transcript.Transcript) []evalExpect {
	var out []evalExpect
	for _, tr := range trs {
		id := export.SessionID(tr)
		convs := export.Convs(tr)
		root := export.Root(convs)
		for i, c := range convs {
			if len(c.Messages) == 0 {
				continue
			}
			e := evalExpect{key: tr.Provider + "/" + id, cost: tr.CostUSD}
			u, has := &tr.Usage, hasUsage(tr)
			if i != root {
				e.key, e.cost = e.key+"/"+c.Stream, c.CostUSD
				u, has = &tr.Subagents[i-1].Usage, convHasUsage(&c)
			}
			if has || (u.Input|u.CacheRead|u.CacheWrite|u.Output|u.Reasoning) != 0 {
				s := sumsOf(u)
				e.usage = &s
			}
			for _, m := range c.Messages {
				for _, tc := range m.ToolCalls {
					e.tools = append(e.tools, tc.Name)
				}
				if m.Role == transcript.RoleAssistant {
					e.answer = export.Text(m.Text)
				}
			}
			out = append(out, e)
		}
	}
	return out
}

// evalResult is a line of the index.jsonl agentv eval writes.
type evalResult struct {
	TestID     string `json:"test_id"`
	TokenUsage *struct {
		Input, Output, Cached int64
	} `json:"token_usage"`
	CostUSD         *float64 `json:"cost_usd"`
	ExecutionStatus string   `json:"execution_status"`
	AnswerPath      string   `json:"answer_path"`
	TranscriptPath  string   `json:"transcript_path"`
}

// TestAgentVEval runs the agentv CLI (tools/agentv, pinned) as a user
// would: agentv eval --transcript over the rows of every corpus session
// and live capture, one test per transcript. What AgentV reports for each
// test (token usage, missing where the log has none; cost; the final
// answer it grades; the tool calls of the replayed transcript, in order)
// equals the conversation's in agt's transcript.
func TestAgentVEval(t *testing.T) {
	root := providertest.RepoRoot(t)
	agentvBin := filepath.Join(root, "tools", "agentv", "node_modules", ".bin", "agentv")
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed")
	}
	if _, err := os.Stat(agentvBin); err != nil {
		t.Skip("the agentv CLI is not installed (npm install --prefix tools/agentv --no-save, as .ci/run does)")
	}
	corpus := providertest.CorpusDir(t)
	bin := agtTranscript(t)
	var checked, agree int
	for _, d := range harborDirs(t) {
		dir := filepath.Join(corpus, d)
		out, err := exec.Command(bin, "-q", dir).Output()
		if err != nil {
			t.Fatal(err)
		}
		want := evalExpected(decode(t, out))
		rows, err := exec.Command(bin, "-q", "--format", "agentv", dir).Output()
		if err != nil {
			t.Fatal(err)
		}
		work := t.TempDir()
		rowsFile := filepath.Join(work, "rows.jsonl")
		os.WriteFile(rowsFile, rows, 0o644)
		// one test per transcript, in row order (agentv eval --transcript
		// maps them by position; one worker keeps the order), each with a
		// deterministic assertion: a test without one gets AgentV's LLM
		// grader, whose model would be the transcript itself
		var yaml bytes.Buffer
		yaml.WriteString("tests:\n")
		for i := range want {
			fmt.Fprintf(&yaml, "  - id: t%04d\n    input: replay\n    assertions:\n      - type: contains\n        value: \"the\"\n", i)
		}
		os.WriteFile(filepath.Join(work, "replay.yaml"), yaml.Bytes(), 0o644)
		cmd := exec.Command(agentvBin, "eval", "run", "replay.yaml", "--transcript", rowsFile, "--output", "out", "--threshold", "0", "--workers", "1")
		cmd.Dir = work
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: agentv eval: %v\n%s", d, err, b)
		}
		index, err := os.ReadFile(filepath.Join(work, "out", "index.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		results, err := jsonLines[evalResult](index)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]evalResult{}
		for _, r := range results {
			got[r.TestID] = r
		}
		for i, w := range want {
			checked++
			r, ok := got[fmt.Sprintf("t%04d", i)]
			if !ok {
				t.Errorf("%s: agentv eval gave no result", w.key)
				continue
			}
			var bad []string
			if r.ExecutionStatus != "ok" {
				bad = append(bad, "status "+r.ExecutionStatus)
			}
			switch {
			case w.usage == nil && r.TokenUsage != nil:
				bad = append(bad, fmt.Sprintf("usage %+v where the log has none", *r.TokenUsage))
			case w.usage != nil && (r.TokenUsage == nil || r.TokenUsage.Input != w.usage.prompt || r.TokenUsage.Output != w.usage.output || r.TokenUsage.Cached != w.usage.cacheRead):
				bad = append(bad, fmt.Sprintf("usage %v, transcript %+v", r.TokenUsage, *w.usage))
			}
			if !sameCost(r.CostUSD, w.cost) {
				bad = append(bad, fmt.Sprintf("cost %v, transcript %v", r.CostUSD, w.cost))
			}
			var answer []byte
			if r.AnswerPath != "" { // none: no answer
				answer, err = os.ReadFile(filepath.Join(work, "out", r.AnswerPath))
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					t.Fatal(err)
				}
			}
			if string(answer) != w.answer {
				bad = append(bad, fmt.Sprintf("final answer %.60q, the conversation's last assistant text %.60q", answer, w.answer))
			}
			replayed, err := os.ReadFile(filepath.Join(work, "out", r.TranscriptPath))
			if err != nil {
				t.Fatal(err)
			}
			lines, err := jsonLines[struct {
				ToolCalls []struct {
					Tool string `json:"tool"`
				} `json:"tool_calls"`
			}](replayed)
			if err != nil {
				t.Fatal(err)
			}
			var tools []string
			for _, l := range lines {
				for _, tc := range l.ToolCalls {
					tools = append(tools, tc.Tool)
				}
			}
			if !sameTools(tools, w.tools) {
				bad = append(bad, fmt.Sprintf("tools %v, transcript %v", tools, w.tools))
			}
			if len(bad) > 0 {
				t.Errorf("%s: agentv eval: %s", w.key, strings.Join(bad, "; "))
				continue
			}
			agree++
		}
	}
	t.Logf("agentv eval --transcript: %d transcripts checked, %d as the transcripts say", checked, agree)
}

// sameTools is whether AgentV's tools are the transcript's, a skill load
// being Skill.
func sameTools(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] && got[i] != "Skill" {
			return false
		}
	}
	return true
}
