package claude_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt/provider/claude"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/bytedance/sonic"
)

// TestTopKeys checks the one-pass look for a toolUseResult's members
// against a search of each by the JSON library: synthetic edge cases, and
// every toolUseResult object of the corpus.
func TestTopKeys(t *testing.T) {
	cases := []struct {
		r          string
		agent, dur bool
	}{
		{`{"status":"completed","agentId":"a1","totalDurationMs":5}`, true, true},
		{`{"filenames":["a"],"durationMs":3,"numFiles":1}`, false, true},
		{`{"content":[{"agentId":"nested","durationMs":1}],"x":{"agentId":1}}`, false, false},
		{`{"stdout":"say \"agentId\": \\\"durationMs\\\"","agentId":"a"}`, true, false},
		{`{"a":"\\\\","durationMs":1}`, false, true},
		{`{"a":[{"b":"}"},"]"],"agentId":"x"}`, true, false},
		{`"agentId"`, false, false},
		{`["agentId","durationMs"]`, false, false},
		{`{"agentId`, false, false},
		{``, false, false},
	}
	for _, c := range cases {
		if a, d := claude.TopKeys([]byte(c.r)); a != c.agent || d != c.dur {
			t.Errorf("TopKeys(%s) = %v, %v; want %v, %v", c.r, a, d, c.agent, c.dur)
		}
	}
	files, _ := filepath.Glob(filepath.Join(providertest.CorpusDir(t), "claude", "*.jsonl"))
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(data, []byte("\n")) {
			var rec struct {
				R sonic.NoCopyRawMessage `json:"toolUseResult"`
			}
			if sonic.Unmarshal(l, &rec) != nil || len(rec.R) == 0 || rec.R[0] != '{' {
				continue
			}
			n++
			a, d := claude.TopKeys(rec.R)
			_, ea := sonic.Get(rec.R, "agentId")
			_, e1 := sonic.Get(rec.R, "durationMs")
			_, e2 := sonic.Get(rec.R, "totalDurationMs")
			if a != (ea == nil) || d != (e1 == nil || e2 == nil) {
				t.Errorf("%s: topKeys = %v, %v; the library finds %v, %v", f, a, d, ea == nil, e1 == nil || e2 == nil)
			}
		}
	}
	if n == 0 {
		t.Error("no toolUseResult object in the corpus")
	}
}
