package copilot_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest"
)

// ev builds one events.jsonl line.
func ev(n int, typ, data string) string {
	return fmt.Sprintf(`{"type":%q,"data":%s,"id":"e%d","timestamp":"2026-01-01T00:00:%02d.000Z","parentId":null}`, typ, data, n, n%60)
}

const start = `{"sessionId":"s1","version":1,"producer":"copilot-agent","copilotVersion":"1.0.80","selectedModel":"m1","context":{"cwd":"/w","branch":"main"}}`

func usages(evs []agt.Event) []string {
	var out []string
	for _, e := range evs {
		if e.Kind == agt.KindUsage {
			u := e.Usage
			out = append(out, fmt.Sprintf("%s %s in=%d cr=%d cw=%d out=%d r=%d total=%d line=%d", u.Scope, e.Model, u.Input, u.CacheRead, u.CacheWrite, u.Output, u.Reasoning, u.Total, e.Src.Line))
		}
	}
	return out
}

func TestUsage(t *testing.T) {
	shutdown := func(n int, metrics string) string {
		return ev(n, "session.shutdown", `{"shutdownType":"routine","totalPremiumRequests":1,"modelMetrics":`+metrics+`,"currentModel":"m1"}`)
	}
	cases := []struct {
		name  string
		lines []string
		want  []string
	}{
		{
			name: "shutdown: input is gross, cache and reasoning parts",
			lines: []string{
				ev(1, "session.start", start),
				ev(2, "assistant.message", `{"messageId":"a","content":"hi","model":"m1","outputTokens":30}`),
				shutdown(3, `{"m2":{"requests":{"count":1,"cost":0},"usage":{"inputTokens":500,"outputTokens":7,"cacheReadTokens":100,"cacheWriteTokens":50,"reasoningTokens":0}},"m1":{"requests":{"count":1,"cost":1},"usage":{"inputTokens":15534,"outputTokens":30,"cacheReadTokens":14848,"cacheWriteTokens":0,"reasoningTokens":15}}}`),
			},
			want: []string{
				"run m1 in=686 cr=14848 cw=0 out=30 r=15 total=15564 line=3",
				"run m2 in=350 cr=100 cw=50 out=7 r=0 total=507 line=3",
			},
		},
		{
			name: "input smaller than its cache parts is taken as net",
			lines: []string{
				ev(1, "session.start", start),
				shutdown(2, `{"m1":{"usage":{"inputTokens":10,"outputTokens":1,"cacheReadTokens":20,"cacheWriteTokens":0}}}`),
			},
			want: []string{"run m1 in=10 cr=20 cw=0 out=1 r=0 total=31 line=2"},
		},
		{
			name: "per-call usage, the shutdown gives only the rest",
			lines: []string{
				ev(1, "session.start", start),
				ev(2, "assistant.usage", `{"model":"m1","inputTokens":1000,"outputTokens":10,"cacheReadTokens":800,"cacheWriteTokens":0,"apiCallId":"c1"}`),
				ev(3, "assistant.message", `{"messageId":"a","content":"hi","model":"m1","outputTokens":10}`),
				shutdown(4, `{"m1":{"usage":{"inputTokens":2500,"outputTokens":25,"cacheReadTokens":1800,"cacheWriteTokens":0}}}`),
			},
			want: []string{
				"call m1 in=200 cr=800 cw=0 out=10 r=0 total=1010 line=2",
				"run m1 in=500 cr=1000 cw=0 out=15 r=0 total=1515 line=4",
			},
		},
		{
			name: "two runs of a resumed session add up",
			lines: []string{
				ev(1, "session.start", start),
				ev(2, "assistant.message", `{"messageId":"a","content":"x","model":"m1","outputTokens":5}`),
				shutdown(3, `{"m1":{"usage":{"inputTokens":100,"outputTokens":5,"cacheReadTokens":0,"cacheWriteTokens":0}}}`),
				ev(4, "session.resume", `{"resumeTime":"t","eventCount":3,"context":{"cwd":"/w"}}`),
				ev(5, "assistant.message", `{"messageId":"b","content":"y","model":"m1","outputTokens":6}`),
				shutdown(6, `{"m1":{"usage":{"inputTokens":200,"outputTokens":6,"cacheReadTokens":150,"cacheWriteTokens":0}}}`),
			},
			want: []string{
				"run m1 in=100 cr=0 cw=0 out=5 r=0 total=105 line=3",
				"run m1 in=50 cr=150 cw=0 out=6 r=0 total=206 line=6",
			},
		},
		{
			name: "a run killed before shutdown leaves its output tokens",
			lines: []string{
				ev(1, "session.start", start),
				ev(2, "assistant.message", `{"messageId":"a","content":"x","outputTokens":5}`),
				ev(3, "session.model_change", `{"newModel":"m2"}`),
				ev(4, "assistant.message", `{"messageId":"b","content":"y","model":"m2","outputTokens":7}`),
				ev(5, "session.resume", `{"resumeTime":"t","eventCount":4}`),
				ev(6, "assistant.message", `{"messageId":"c","content":"z","model":"m2","outputTokens":9}`),
			},
			want: []string{
				"run m1 in=0 cr=0 cw=0 out=5 r=0 total=5 line=5",
				"run m2 in=0 cr=0 cw=0 out=7 r=0 total=7 line=5",
				"run m2 in=0 cr=0 cw=0 out=9 r=0 total=9 line=6",
			},
		},
		{
			name: "no model usage: the session-wide token details",
			lines: []string{
				ev(1, "session.start", start),
				ev(2, "session.shutdown", `{"shutdownType":"routine","modelMetrics":{"m3":{"requests":2}},"tokenDetails":{"input":{"tokenCount":100},"output":{"tokenCount":15},"cache_read":{"tokenCount":5},"cache_write":{"tokenCount":0}},"currentModel":"m1"}`),
			},
			want: []string{"run m3 in=100 cr=5 cw=0 out=15 r=0 total=120 line=2"},
		},
		{
			name: "zero totals give no usage event",
			lines: []string{
				ev(1, "session.start", start),
				shutdown(2, `{"m1":{"usage":{"inputTokens":0,"outputTokens":0,"cacheReadTokens":0,"cacheWriteTokens":0}}}`),
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, _, st := parse(t, write(t, "events.jsonl", c.lines...))
			if st.Errors != 0 || st.Unknown != 0 {
				t.Errorf("errors %d unknown %d", st.Errors, st.Unknown)
			}
			got := usages(evs)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("usage\n got  %q\n want %q", got, c.want)
			}
		})
	}
}

// TestShutdownTotals checks the usage of every corpus session that has a
// session.shutdown against its modelMetrics (input net of cache), and that
// the per-message outputTokens, which are not usage events, add up to the
// shutdown's output (so that using one or the other is the same).
func TestShutdownTotals(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(providertest.CorpusDir(t), "copilot", "*.jsonl"))
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var want, got agt.Usage
		var outTokens int64
		shutdowns := 0
		for _, line := range strings.Split(string(raw), "\n") {
			var v struct {
				Type string `json:"type"`
				Data struct {
					OutputTokens float64 `json:"outputTokens"`
					ModelMetrics map[string]struct {
						Usage *struct {
							InputTokens, OutputTokens, CacheReadTokens, CacheWriteTokens float64
						} `json:"usage"`
					} `json:"modelMetrics"`
				} `json:"data"`
			}
			if agt.API.UnmarshalFromString(line, &v) != nil {
				continue
			}
			switch v.Type {
			case "assistant.message":
				outTokens += int64(v.Data.OutputTokens)
			case "session.shutdown":
				shutdowns++
				for _, m := range v.Data.ModelMetrics {
					if u := m.Usage; u != nil {
						want.Input += int64(u.InputTokens - u.CacheReadTokens - u.CacheWriteTokens)
						want.CacheRead += int64(u.CacheReadTokens)
						want.CacheWrite += int64(u.CacheWriteTokens)
						want.Output += int64(u.OutputTokens)
					}
				}
			}
		}
		if shutdowns == 0 || want == (agt.Usage{}) {
			continue
		}
		evs, _, _ := parse(t, f)
		for _, e := range evs {
			if e.Kind == agt.KindUsage {
				got.Input += e.Usage.Input
				got.CacheRead += e.Usage.CacheRead
				got.CacheWrite += e.Usage.CacheWrite
				got.Output += e.Usage.Output
			}
		}
		if got != want {
			t.Errorf("%s: usage %+v, shutdown %+v", filepath.Base(f), got, want)
		}
		if outTokens != want.Output {
			t.Errorf("%s: outputTokens of the messages %d, shutdown output %d", filepath.Base(f), outTokens, want.Output)
		}
		t.Logf("%s: %+v", filepath.Base(f), got)
	}
}
