package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agt-project/agt/provider/providertest"
)

// reportFixtures are the logs the report's golden tests read: Claude Code
// and Codex sessions of several days and models.
func reportFixtures(t *testing.T) []string {
	root := providertest.RepoRoot(t)
	return []string{filepath.Join(root, "testdata", "claude"), filepath.Join(root, "testdata", "codex")}
}

// TestReportTable: the table fits 80 columns by dropping the columns of
// least interest first and 200 columns whole (golden files); in a pipe it
// has no escapes.
func TestReportTable(t *testing.T) {
	for _, width := range []int{80, 200} {
		t.Run(itoa(width), func(t *testing.T) {
			t.Setenv("COLUMNS", itoa(width))
			t.Setenv("NO_COLOR", "")
			for _, by := range []string{"day,model", "session"} {
				args := append([]string{"-q", "--format", "table", "--tz", "UTC", "--by", by}, reportFixtures(t)...)
				got := runApp(t, Report, nil, args...)
				for _, l := range strings.Split(strings.TrimSuffix(string(got), "\n"), "\n") {
					if n := utf8.RuneCountInString(l); n > width {
						t.Errorf("--by %s: a line of %d columns in %d: %q", by, n, width, l)
					}
				}
				if bytes.Contains(got, []byte("\x1b")) {
					t.Errorf("--by %s: escapes in a pipe", by)
				}
				name := "table-" + strings.ReplaceAll(by, ",", "-") + "-" + itoa(width) + ".txt"
				providertest.Golden(t, got, filepath.Join(providertest.RepoRoot(t), "testdata", "report", name))
			}
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestReportFormats: in a pipe the report is TSV (a header, the rows, a
// total line) and --json is one object per row then the totals, both with
// the figures of the table, the totals the sum of the rows.
func TestReportFormats(t *testing.T) {
	args := append([]string{"-q", "--tz", "UTC", "--by", "day"}, reportFixtures(t)...)
	tsv := strings.Split(strings.TrimSuffix(string(runApp(t, Report, nil, args...)), "\n"), "\n")
	if tsv[0] != "day\tinput\toutput\tcache_read\tcache_write\treasoning\ttotal\tcost_usd\tnative_cost_usd\tsessions\tcalls" {
		t.Errorf("TSV header %q", tsv[0])
	}
	if !strings.HasPrefix(tsv[len(tsv)-1], "total\t") {
		t.Errorf("TSV last line %q", tsv[len(tsv)-1])
	}
	lines := bytes.Split(bytes.TrimSpace(runApp(t, Report, nil, append(args, "--json")...)), []byte("\n"))
	if len(lines) != len(tsv)-1 {
		t.Fatalf("%d JSON lines, %d TSV lines", len(lines), len(tsv))
	}
	var sum, total int64
	for i, l := range lines {
		var r struct {
			Totals bool  `json:"totals"`
			Total  int64 `json:"total"`
		}
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		if r.Totals != (i == len(lines)-1) {
			t.Errorf("line %d: totals %v", i+1, r.Totals)
		}
		if r.Totals {
			total = r.Total
		} else {
			sum += r.Total
		}
		if f := strings.Split(tsv[i+1], "\t"); f[6] != itoa(int(r.Total)) {
			t.Errorf("line %d: TSV total %s, JSON %d", i+1, f[6], r.Total)
		}
	}
	if sum != total || total < 1000 {
		t.Errorf("rows sum to %d, totals %d", sum, total)
	}
}

// TestReportOrder: --order cost --last 2 keeps the two costliest rows,
// the costliest last, and totals them alone.
func TestReportOrder(t *testing.T) {
	args := append([]string{"-q", "--tz", "UTC", "--by", "model", "--json"}, reportFixtures(t)...)
	var all []float64
	for _, l := range bytes.Split(bytes.TrimSpace(runApp(t, Report, nil, args...)), []byte("\n")) {
		var r struct {
			Totals bool     `json:"totals"`
			Cost   *float64 `json:"cost_usd"`
		}
		json.Unmarshal(l, &r)
		if !r.Totals && r.Cost != nil {
			all = append(all, *r.Cost)
		}
	}
	var got []float64
	for _, l := range bytes.Split(bytes.TrimSpace(runApp(t, Report, nil, append(args, "--order", "cost", "--last", "2")...)), []byte("\n")) {
		var r struct {
			Cost float64 `json:"cost_usd"`
		}
		json.Unmarshal(l, &r)
		got = append(got, r.Cost)
	}
	if len(got) != 3 || got[0] > got[1] || math.Abs(got[2]-got[0]-got[1]) > 1e-5 {
		t.Fatalf("--order cost --last 2: %v", got)
	}
	for _, c := range all {
		if c > got[0] && c != got[1] {
			t.Errorf("cost %v left out, %v kept", c, got[:2])
		}
	}
}

// TestReportUsage: bad values of the report's flags are usage errors.
func TestReportUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--by", "year"}, {"--by", "day,day"}, {"--tz", "Mars/Olympus"}, {"--since", "soon"},
		{"--since", "2026-03-02", "--until", "2026-03-01"}, {"--week-start", "someday"}, {"--format", "xml"},
		{"--order", "size"}, {"--last", "-1"}, {"--color", "maybe"}, {"--json", "--format", "tsv"},
	} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), Report(IO{In: strings.NewReader(""), Out: &out, Err: &errb}), append([]string{"agt-report"}, append(args, "-")...))
		if code != ExitUsage || !strings.Contains(errb.String(), "agt-report: ") {
			t.Errorf("%v: exit %d, %q", args, code, errb.String())
		}
	}
}

// TestReportCopiesCountOnce: a session read again — a copy of its file
// in another folder, its events given twice on stdin, or its events in a
// file beside its log — counts once.
func TestReportCopiesCountOnce(t *testing.T) {
	file := filepath.Join(reportFixtures(t)[0], "entirecli__32-2452abbddc-0.jsonl")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(t.TempDir(), "backup", "s.jsonl")
	os.MkdirAll(filepath.Dir(backup), 0o755)
	if err := os.WriteFile(backup, b, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-q", "--tz", "UTC", "--by", "session", "--format", "tsv"}
	once := runApp(t, Report, nil, append(args, file)...)
	if !bytes.Contains(once, []byte("\t102610\t")) {
		t.Fatalf("one copy:\n%s", once)
	}
	if got := runApp(t, Report, nil, append(args, file, backup)...); !bytes.Equal(got, once) {
		t.Errorf("two copies:\n%s\none:\n%s", got, once)
	}
	events := runApp(t, Parse, nil, "-q", file)
	if got := runApp(t, Report, append(events, events...), args...); !bytes.Equal(got, once) {
		t.Errorf("events twice:\n%s\nlogs once:\n%s", got, once)
	}
	// the session's events in a file beside its log, another session read
	// between them: read in a group of their own, counted once all the
	// same
	evFile := filepath.Join(filepath.Dir(backup), "s.events.jsonl")
	if err := os.WriteFile(evFile, events, 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(reportFixtures(t)[0], "agtrace__agent-0c4c3cf8.jsonl") // another session between them
	want := runApp(t, Report, nil, append(args, file, other)...)
	for _, order := range [][]string{{file, other, evFile}, {evFile, other, file}} {
		if got := runApp(t, Report, nil, append(args, order...)...); !bytes.Equal(got, want) {
			t.Errorf("%v:\n%s\nlogs once:\n%s", order, got, want)
		}
	}
}

// TestReportTranscripts: agt-report reads agt-transcript's output back —
// lines on stdin, or a folder written with -o — and gives the report of
// the logs, costs included (the transcripts' own: a fast call's price is
// not lost), and a transcript read twice counts once.
func TestReportTranscripts(t *testing.T) {
	logs := reportFixtures(t)
	lines := runApp(t, Transcript, nil, append([]string{"-q"}, logs...)...)
	dir := filepath.Join(t.TempDir(), "out")
	runApp(t, Transcript, nil, append([]string{"-q", "-o", dir}, logs...)...)
	for _, by := range []string{"day", "session", "month,provider", "block"} {
		args := []string{"-q", "--tz", "UTC", "--by", by, "--format", "tsv"}
		want := runApp(t, Report, nil, append(args, logs...)...)
		if got := runApp(t, Report, lines, args...); !bytes.Equal(got, want) {
			t.Errorf("--by %s of transcripts on stdin:\n%s\nof the logs:\n%s", by, got, want)
		}
		if got := runApp(t, Report, nil, append(args, dir)...); !bytes.Equal(got, want) {
			t.Errorf("--by %s of a folder of transcripts:\n%s\nof the logs:\n%s", by, got, want)
		}
		if got := runApp(t, Report, append(lines, lines...), args...); !bytes.Equal(got, want) {
			t.Errorf("--by %s of transcripts twice:\n%s\nof the logs:\n%s", by, got, want)
		}
	}
}
