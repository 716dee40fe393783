package provider_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

type refRow struct {
	File                                        string
	Input, CacheRead, CacheWrite, Output, Total int64
}

func reference(t testing.TB, dir string) map[string]refRow {
	b, err := os.ReadFile(filepath.Join(dir, "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		File       string `json:"file"`
		Input      int64  `json:"input"`
		CacheRead  int64  `json:"cache_read"`
		CacheWrite int64  `json:"cache_write"`
		Output     int64  `json:"output"`
		Total      int64  `json:"total"`
	}
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	m := map[string]refRow{}
	for _, r := range rows {
		m[r.File] = refRow{r.File, r.Input, r.CacheRead, r.CacheWrite, r.Output, r.Total}
	}
	return m
}

// corpusProviders are the providers whose corpus folder is checked: those
// that read at least one format.
func corpusProviders() []string {
	var names []string
	for _, p := range provider.All() {
		if len(p.Formats()) > 0 {
			names = append(names, p.Name())
		}
	}
	return names
}

// TestCorpus checks every corpus file of the supported providers: provider
// detected from content, every input line accounted for in some event's src,
// no unknown record types, tool results linked to calls of the same session,
// token sums equal to the reference, identical bytes on a second run.
func TestCorpus(t *testing.T) {
	dir := providertest.CorpusDir(t)
	ref := reference(t, dir)
	for _, prov := range corpusProviders() {
		files, _ := filepath.Glob(filepath.Join(dir, prov, "*"))
		for _, f := range files {
			rel := prov + "/" + filepath.Base(f)
			t.Run(rel, func(t *testing.T) {
				out, _, st := providertest.Parse(t, provider.Config{}, f)
				again, _, _ := providertest.Parse(t, provider.Config{Config: stage.Config{Workers: 1}}, f)
				if _, ok := provider.Claim(f, isDir(f)); ok {
					// a store of sessions (a folder, a database): its events
					// are checked by its provider's tests
					if len(providertest.Events(t, out)) == 0 {
						t.Errorf("no events")
					}
					return
				}
				if !bytes.Equal(out, again) {
					t.Errorf("second run (1 worker) differs")
				}
				evs := providertest.Events(t, out)
				checkEvents(t, f, prov, evs, st)
				if r, ok := ref[rel]; ok {
					var got refRow
					for _, ev := range evs {
						if u := ev.Usage; u != nil && ev.Kind == agt.KindUsage {
							got.Input += u.Input
							got.CacheRead += u.CacheRead
							got.CacheWrite += u.CacheWrite
							got.Output += u.Output
							got.Total += u.Total
						}
					}
					got.File = rel
					if got != r {
						t.Errorf("usage\n got  %+v\n want %+v", got, r)
					}
				}
			})
		}
	}
}

func checkEvents(t *testing.T, path, prov string, evs []agt.Event, st provider.Stats) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// a file with no JSON object at all cannot be recognised: its lines
	// are error events of provider "unknown"
	if !hasObject(raw) {
		prov = "unknown"
	}
	seen := map[int64]bool{}
	doc := false
	calls := map[string]map[string]string{} // session → tool id → event id
	kinds := map[string]int{}
	for _, ev := range evs {
		kinds[ev.Kind]++
		if err := agt.CheckEvent(&ev); err != nil {
			t.Fatalf("event at %v fails the agt.event/1 check: %v", ev.Src, err)
		}
		if ev.Provider != prov {
			t.Fatalf("provider %q, want %q (src %v)", ev.Provider, prov, ev.Src)
		}
		if ev.Src.Line > 0 {
			seen[ev.Src.Line] = true
		} else {
			doc = true
		}
		if ev.Kind == agt.KindUnknown {
			t.Errorf("unknown record at %v: %.200s", ev.Src, ev.Raw)
		}
		if ev.Kind == agt.KindToolCall {
			if calls[ev.Session] == nil {
				calls[ev.Session] = map[string]string{}
			}
			calls[ev.Session][ev.Tool.ID] = ev.ID
		}
	}
	if !doc {
		for i, line := range strings.Split(string(raw), "\n") {
			if strings.TrimSpace(line) != "" && !seen[int64(i+1)] {
				t.Errorf("line %d yields no event", i+1)
			}
		}
	} else if len(evs) == 0 {
		t.Errorf("document yields no event")
	}
	unlinked := 0
	for _, ev := range evs {
		if ev.Kind != agt.KindToolResult {
			continue
		}
		if id, ok := calls[ev.Session][ev.Result.ID]; ok && ev.Result.ID != "" && ev.Result.Call != id {
			unlinked++
			if unlinked < 5 {
				t.Errorf("result %s at %v not linked to its call %s (got %q)", ev.Result.ID, ev.Src, id, ev.Result.Call)
			}
		}
	}
	var ks []string
	for k, n := range kinds {
		ks = append(ks, k+"="+strconv.Itoa(n))
	}
	sort.Strings(ks)
	t.Logf("lines %d events %d errors %d unknown %d: %s", st.Lines, st.Events, st.Errors, st.Unknown, strings.Join(ks, " "))
}

func hasObject(b []byte) bool {
	for _, line := range bytes.Split(b, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) > 0 && line[0] == '{' && json.Valid(line) {
			return true
		}
	}
	return len(bytes.TrimSpace(b)) > 0 && bytes.TrimSpace(b)[0] == '{' && json.Valid(b)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
