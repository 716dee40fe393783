package claude_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/price"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/provider/providertest/transcripts"
	"github.com/agt-project/agt/stage"
)

// runCases are real captures of runs kept in testdata (generated outputs
// of the agent's CLI): each transcript says how its run ended.
var runCases = []transcripts.OutcomeCase{
	{"claude/live/gen__claude-2.1.197__error-max-turns.jsonl", agt.OutcomeMaxTurns, "Reached maximum number of turns (1)"},
	{"claude/live/gen__claude-2.1.197__api-error-400.jsonl", agt.OutcomeError, "API Error: 400 mock: invalid request (simulated)"},
	{"claude/live/gen__claude-2.1.197__tools.jsonl", agt.OutcomeSuccess, "success"},
}

func TestRunOutcomes(t *testing.T) { transcripts.CheckOutcomes(t, runCases) }

// TestCutLogOutcome cuts a real capture of a successful run: after its
// first tool call (the call has no result), and in the middle of a line
// (the last line is not complete JSON). The first says interrupted (live
// output cut before its result line: its usage is still provisional), the
// second truncated.
func TestCutLogOutcome(t *testing.T) {
	data, err := os.ReadFile(providertest.Testdata(t, "claude/live/gen__claude-2.1.197__tools.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	call := -1
	for i, l := range lines {
		if strings.Contains(l, `"type":"tool_use"`) && strings.HasPrefix(l, `{"type":"assistant"`) {
			call = i
			break
		}
	}
	if call < 0 {
		t.Fatal("no tool call in the capture")
	}
	dir := t.TempDir()
	cases := []struct {
		name, text, status, reason string
	}{
		{"mid-call", strings.Join(lines[:call+1], ""), agt.OutcomeInterrupted, "the run ended before its final usage"},
		{"mid-line", strings.Join(lines[:call+2], "") + lines[call+2][:len(lines[call+2])/2], agt.OutcomeTruncated, "the log's last line could not be read: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.name+".jsonl")
			if err := os.WriteFile(p, []byte(c.text), 0o600); err != nil {
				t.Fatal(err)
			}
			ts, _ := transcripts.With(t, provider.Config{Provider: "claude"}, p)
			if len(ts) != 1 {
				t.Fatalf("%d transcripts", len(ts))
			}
			if o := ts[0].Outcome; o.Status != c.status || !strings.HasPrefix(o.Reason, c.reason) {
				t.Errorf("outcome %+v, want %s: %s…", o, c.status, c.reason)
			}
		})
	}
}

// TestInterruptedLiveUsage cuts real `claude -p --output-format
// stream-json` captures before every line up to their result line: the
// transcript of each cut counts the usage its assistant lines carried
// (each message once, its largest output), says it is provisional and
// that the run was interrupted; the whole capture gives the result line's
// figures, final.
func TestInterruptedLiveUsage(t *testing.T) {
	files, _ := filepath.Glob(providertest.Testdata(t, "claude/live/*.jsonl"))
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		type usage struct {
			Input      int64 `json:"input_tokens"`
			CacheRead  int64 `json:"cache_read_input_tokens"`
			CacheWrite int64 `json:"cache_creation_input_tokens"`
			Output     int64 `json:"output_tokens"`
		}
		var rec struct {
			Type    string `json:"type"`
			Message struct {
				ID    string `json:"id"`
				Model string `json:"model"`
				Usage *usage `json:"usage"`
			} `json:"message"`
			ModelUsage map[string]struct {
				Input      int64 `json:"inputTokens"`
				Output     int64 `json:"outputTokens"`
				CacheRead  int64 `json:"cacheReadInputTokens"`
				CacheWrite int64 `json:"cacheCreationInputTokens"`
			} `json:"modelUsage"`
		}
		calls := map[string]usage{}
		var order []string
		dir := t.TempDir()
		for i, l := range lines {
			if strings.TrimSpace(l) == "" {
				continue
			}
			rec.Message.Usage, rec.ModelUsage = nil, nil
			if err := json.Unmarshal([]byte(l), &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Type == "result" {
				var want agt.Usage
				for _, mu := range rec.ModelUsage {
					want.Add(&agt.Usage{Input: mu.Input, CacheRead: mu.CacheRead, CacheWrite: mu.CacheWrite, Output: mu.Output})
				}
				want.Sum()
				whole := filepath.Join(dir, "whole.jsonl")
				if err := os.WriteFile(whole, []byte(strings.Join(lines[:i+1], "")), 0o600); err != nil {
					t.Fatal(err)
				}
				ts, _ := transcripts.With(t, provider.Config{Provider: "claude"}, whole)
				if got := ts[0].Usage; got.Provisional || got.Total != want.Total || got.Input != want.Input || got.Output != want.Output {
					t.Errorf("%s: whole run: usage %+v, want the result's %+v", filepath.Base(f), got, want)
				}
				break
			}
			if i > 0 && len(calls) > 0 {
				// the capture cut before line i
				var want agt.Usage
				for _, id := range order {
					u := calls[id]
					want.Add(&agt.Usage{Input: u.Input, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, Output: u.Output})
				}
				want.Sum()
				cut := filepath.Join(dir, "cut.jsonl")
				if err := os.WriteFile(cut, []byte(strings.Join(lines[:i], "")), 0o600); err != nil {
					t.Fatal(err)
				}
				ts, _ := transcripts.With(t, provider.Config{Config: stage.Config{Transform: (&provider.Normalizer{Prices: price.Default()}).Event}, Provider: "claude"}, cut)
				if len(ts) != 1 {
					t.Fatalf("%d transcripts", len(ts))
				}
				tr := ts[0]
				got := tr.Usage
				if !got.Provisional || got.Total != want.Total || got.Input != want.Input || got.CacheRead != want.CacheRead || got.CacheWrite != want.CacheWrite || got.Output != want.Output {
					t.Errorf("%s cut before line %d: usage %+v, want %+v, provisional", filepath.Base(f), i+1, got, want)
				}
				if tr.CostUSD == nil || *tr.CostUSD <= 0 {
					t.Errorf("%s cut before line %d: no cost", filepath.Base(f), i+1)
				}
				if tr.Outcome.Status != agt.OutcomeInterrupted && tr.Outcome.Status != agt.OutcomeError {
					t.Errorf("%s cut before line %d: outcome %+v, want interrupted", filepath.Base(f), i+1, tr.Outcome)
				}
				n++
			}
			if rec.Type == "assistant" && rec.Message.Usage != nil {
				u, seen := calls[rec.Message.ID]
				if !seen {
					order = append(order, rec.Message.ID)
				}
				if !seen || rec.Message.Usage.Output > u.Output {
					calls[rec.Message.ID] = *rec.Message.Usage
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no capture cut")
	}
	t.Logf("%d cuts", n)
}
