package provider_test

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// provenance reads a PROVENANCE.tsv into file → the value of column col.
func provenance(t *testing.T, path, col string) map[string]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var head []string
	m := map[string]string{}
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "\t")
		if head == nil {
			head = cells
			continue
		}
		for i, h := range head {
			if h == col && i < len(cells) {
				m[strings.TrimSuffix(strings.TrimSuffix(cells[0], " (dir)"), "/")] = cells[i]
			}
		}
	}
	return m
}

// readNow are the files of other/ (agents agt did not read when the corpus
// was made) that a provider added since reads.
var readNow = map[string]string{
	"other/splitrail__qwen-code-0.18.1.jsonl":           "qwen",
	"other/cmtest-cursor__b8-b6fbd5f55f-0.jsonl":        "cursor",
	"other/splitrail__vscode-copilot-chat-session.json": "copilot",
}

// TestWholeCorpus parses the whole corpus folder at once, as
// `agt-parse ../shared/corpus` does: no error exit, every file given the
// provider (on-disk logs) or format (live output) its PROVENANCE.tsv row
// names, and the files of agents not supported (other/) skipped, counted
// in one stderr line for the walked folder.
func TestWholeCorpus(t *testing.T) {
	dir := providertest.CorpusDir(t)
	want := provenance(t, filepath.Join(dir, "PROVENANCE.tsv"), "provider")
	for f, format := range provenance(t, filepath.Join(dir, "live", "PROVENANCE.tsv"), "format") {
		want["live/"+f] = format
	}
	for f, p := range readNow {
		if want[f] == "other" {
			want[f] = p
		}
	}
	ins, errs := stage.Expand([]string{dir}, nil, provider.Claim)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var out, diag bytes.Buffer
	st, err := provider.Parse(context.Background(), provider.Config{}, ins, &out, &diag)
	if err != nil || st.Unreadable > 0 {
		t.Fatalf("err %v, unreadable %d", err, st.Unreadable)
	}
	// the files of agents not supported are skipped, in one line
	var skippedLine string
	for _, l := range strings.Split(diag.String(), "\n") {
		if strings.HasPrefix(l, dir+": ") && strings.Contains(l, "no provider recognises") {
			if skippedLine != "" {
				t.Errorf("a second line of skipped files: %s", l)
			}
			skippedLine = l
		} else if strings.Contains(l, "no provider recognises") {
			t.Errorf("a walked file reported alone: %s", l)
		}
	}
	others := 0
	got := map[string]map[string]bool{} // PROVENANCE file → provider or format seen
	unknown := map[string]int{}
	for _, ev := range providertest.Events(t, out.Bytes()) {
		rel := strings.TrimPrefix(ev.Src.Path, dir+string(filepath.Separator))
		key := rel
		for f := range want { // a store's files belong to its row
			if strings.HasPrefix(rel, f+"/") {
				key = f
			}
		}
		v := ev.Provider
		if strings.HasPrefix(rel, "live/") {
			v = ev.Format
		}
		if got[key] == nil {
			got[key] = map[string]bool{}
		}
		got[key][v] = true
		if ev.Kind == agt.KindUnknown {
			unknown[key]++
		}
	}
	for f, w := range want {
		g := got[f]
		switch {
		case w == "other":
			if len(g) != 0 {
				t.Errorf("%s: providers %v, want the file skipped", f, g)
			}
			if !strings.Contains(skippedLine, filepath.FromSlash(f)) && !strings.Contains(skippedLine, "more)") {
				t.Errorf("%s: not named among the skipped files: %s", f, skippedLine)
			}
			others++
		case f == "claude/codeinsights__malformed.jsonl" || f == "claude/codeinsights__empty.jsonl":
			// no JSON object at all (or nothing): nothing to recognise
		case len(g) != 1 || !g[w]:
			t.Errorf("%s: got %v, want %s", f, g, w)
		}
	}
	if int64(others) > st.Ignored || st.Ignored == 0 {
		t.Errorf("%d files skipped, want at least the %d of other agents", st.Ignored, others)
	}
	t.Logf("%d inputs, %d lines, %d events, %d errors, %d unknown", len(ins), st.Lines, st.Events, st.Errors, st.Unknown)
}
