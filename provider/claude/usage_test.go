package claude_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// TestUsageOnly: parsed for a usage report (agt.Options.Usage: message
// contents are not decoded, those of the subagent messages progress records
// relay included), every file gives the usage events and session folders it
// gives in full: same ids, sessions, streams, times, models and figures.
func TestUsageOnly(t *testing.T) {
	paths := []string{providertest.Testdata(t, "claude")}
	if dir := filepath.Join(providertest.RepoRoot(t), "..", "shared", "corpus", "claude"); !testing.Short() {
		if _, err := os.Stat(dir); err == nil {
			paths = append(paths, dir)
		}
	}
	// the usage events, then the sessions' first folders: the report reads
	// each apart, so their order among one another does not matter
	usage := func(opts agt.Options) [][]byte {
		out, _, _ := providertest.Parse(t, provider.Config{Config: stage.Config{Quiet: true}, Provider: "claude", Opts: opts}, paths...)
		var keep, folders [][]byte
		folder := map[string]bool{}
		for _, l := range bytes.Split(out, []byte("\n")) {
			if !bytes.Contains(l, []byte(`"kind":"usage"`)) && !bytes.Contains(l, []byte(`"cwd":`)) {
				continue
			}
			var ev agt.Event
			if err := json.Unmarshal(l, &ev); err != nil {
				continue // an unknown record kept as read (Options.Usage)
			}
			if ev.Kind == agt.KindUsage {
				b, _ := json.Marshal([]any{ev.ID, ev.Session, ev.Stream, ev.TS, ev.Model, ev.Usage, ev.Src})
				keep = append(keep, b)
			} else if ev.Meta != nil && ev.Meta.Cwd != "" && !folder[ev.Session] { // a session's first folder
				folder[ev.Session] = true
				b, _ := json.Marshal([]any{ev.Session, ev.Meta.Cwd})
				folders = append(folders, b)
			}
		}
		return append(keep, folders...)
	}
	full, fast := usage(agt.Options{}), usage(agt.Options{Usage: true})
	n := 0
	for _, b := range full {
		if bytes.Contains(b, []byte(`"scope"`)) {
			n++
		}
	}
	if n < 50 {
		t.Fatalf("%d usage events", n)
	}
	if len(full) != len(fast) {
		t.Fatalf("%d usage and folder events in full, %d for a usage report", len(full), len(fast))
	}
	for i := range full {
		if !bytes.Equal(full[i], fast[i]) {
			t.Fatalf("event %d:\n full %s\n fast %s", i, full[i], fast[i])
		}
	}
}
