package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// TestReportReference: agt-report, which reads usage only (the usage-only
// parse: Claude Code's contents and Codex's lines without usage are not
// decoded), gives each corpus file of reference.json its reference figures
// in its totals row: the same records counted once as by a full parse.
func TestReportReference(t *testing.T) {
	if raceBuild {
		t.Skip("a corpus-wide property, not concurrency: make long runs it")
	}
	corpus := providertest.CorpusDir(t)
	raw, err := os.ReadFile(filepath.Join(corpus, "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	type figures struct {
		Input      int64 `json:"input"`
		CacheRead  int64 `json:"cache_read"`
		CacheWrite int64 `json:"cache_write"`
		Output     int64 `json:"output"`
		Total      int64 `json:"total"`
	}
	var ref []struct {
		File string `json:"file"`
		figures
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref) < 20 {
		t.Fatalf("reference.json: %d files", len(ref))
	}
	for _, r := range ref {
		out := bytes.TrimSpace(runApp(t, Report, nil, "-q", "--json", "--by", "provider", "--tz", "UTC", filepath.Join(corpus, r.File)))
		var got struct {
			Totals bool `json:"totals"`
			figures
		}
		if err := json.Unmarshal(out[bytes.LastIndexByte(out, '\n')+1:], &got); err != nil || !got.Totals {
			t.Fatalf("%s: no totals row (%v): %s", r.File, err, out)
		}
		if got.figures != r.figures {
			t.Errorf("%s: report %+v, reference %+v", r.File, got.figures, r.figures)
		}
	}
}
