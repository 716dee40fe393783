package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// TestReportByTurnCorpus: over the corpus and the live captures, each row
// of agt-report --by turn has the tokens of the transcript's turn of that
// session and index, and every turn with usage has its row (the report
// sees events only: a Warmup subagent, a late named session and usage a
// log writes after the next prompt still land where the transcript puts
// them).
func TestReportByTurnCorpus(t *testing.T) {
	corpus := providertest.CorpusDir(t)
	rows, turns := 0, 0
	for _, dir := range []string{"claude", "codex", "gemini", "copilot", "pi", "opencode", "other", "live"} {
		path := filepath.Join(corpus, dir)
		got := map[string]int64{}
		sc := bufio.NewScanner(bytes.NewReader(runApp(t, Report, nil, "-q", "--by", "turn", "--json", path)))
		sc.Buffer(nil, 1<<26)
		for sc.Scan() {
			var r struct {
				Turn   string `json:"turn"`
				Total  int64  `json:"total"`
				Totals bool   `json:"totals"`
			}
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			if r.Totals || r.Total == 0 {
				continue
			}
			f := strings.Fields(r.Turn)
			got[f[0]+" "+f[1]] += r.Total
			rows++
		}
		want := map[string]int64{}
		sc = bufio.NewScanner(bytes.NewReader(runApp(t, Transcript, nil, "-q", path)))
		sc.Buffer(nil, 1<<30)
		for sc.Scan() {
			var tr struct {
				NativeSession string `json:"native_session"`
				Turns         []struct {
					Index int `json:"index"`
					Usage struct {
						Total int64 `json:"total"`
					} `json:"usage"`
				} `json:"turns"`
			}
			if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
				t.Fatal(err)
			}
			for _, tu := range tr.Turns {
				if tu.Usage.Total > 0 {
					want[fmt.Sprintf("%s #%d", tr.NativeSession, tu.Index)] += tu.Usage.Total
					turns++
				}
			}
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: %s: report %d tokens, transcript %d", dir, k, got[k], w)
			}
		}
		for k, g := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("%s: %s: report %d tokens, no such turn with usage in the transcripts", dir, k, g)
			}
		}
	}
	if turns == 0 {
		t.Fatal("no turns")
	}
	t.Logf("%d turn rows, %d transcript turns with usage", rows, turns)
}
