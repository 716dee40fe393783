package claude_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	paths := providertest.TestdataAndCorpus(t, "claude")
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

// TestUsageOnlyLeavesOut: for a usage report, a record's meta event (a
// user record, whose content is not decoded, gives only that; a progress
// record) is left out, unless it is its file's first event or the first
// to name its session's folder; every line is still counted, and the
// usage and folders are a full parse's.
func TestUsageOnlyLeavesOut(t *testing.T) {
	const sid = "5f0d3c1e-0000-4000-8000-000000000027"
	rec := func(typ, uuid, cwd, rest string) string {
		return `{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"` + cwd + `","sessionId":"` + sid + `","version":"2.1.0","type":"` + typ + `",` + rest + `,"uuid":"` + uuid + `","timestamp":"2026-01-05T10:00:0` + uuid[len(uuid)-1:] + `.000Z"}`
	}
	user := func(uuid, cwd string) string {
		return rec("user", uuid, cwd, `"message":{"role":"user","content":"hello"}`)
	}
	asst := func(uuid, id string) string {
		return rec("assistant", uuid, "/a", `"requestId":"req_`+id+`","message":{"id":"msg_`+id+`","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":10,"output_tokens":5}}`)
	}
	lines := []string{
		user("00000000-0000-4000-8000-000000000001", ""),   // the file's first: kept
		user("00000000-0000-4000-8000-000000000002", "/a"), // the session's first folder: kept
		asst("00000000-0000-4000-8000-000000000003", "1"),
		user("00000000-0000-4000-8000-000000000004", "/a"), // left out
		user("00000000-0000-4000-8000-000000000005", "/b"), // left out: not the first folder
		asst("00000000-0000-4000-8000-000000000006", "2"),
		rec("progress", "00000000-0000-4000-8000-000000000007", "/a", `"data":{"type":"hook_progress","hookEvent":"PostToolUse"}`), // left out
	}
	path := filepath.Join(t.TempDir(), sid+".jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type view struct {
		usage, folders, lines []string
		stats                 provider.Stats
	}
	parse := func(opts agt.Options) view {
		out, _, st := providertest.Parse(t, provider.Config{Config: stage.Config{Quiet: true}, Provider: "claude", Opts: opts}, path)
		v := view{stats: st}
		for _, l := range bytes.Split(out, []byte("\n")) {
			if len(l) == 0 {
				continue
			}
			var ev agt.Event
			if err := json.Unmarshal(l, &ev); err != nil {
				t.Fatalf("%v: %s", err, l)
			}
			v.lines = append(v.lines, fmt.Sprint(ev.Src.Line))
			switch {
			case ev.Kind == agt.KindUsage:
				v.usage = append(v.usage, fmt.Sprint(ev.ID, ev.Usage.Total, ev.Src.Line))
			case ev.Meta != nil && ev.Meta.Cwd != "":
				v.folders = append(v.folders, ev.Meta.Cwd)
			}
		}
		return v
	}
	full, fast := parse(agt.Options{}), parse(agt.Options{Usage: true})
	if !slices.Equal(full.usage, fast.usage) || len(full.usage) != 2 {
		t.Errorf("usage:\n full %q\n fast %q", full.usage, fast.usage)
	}
	if len(fast.folders) == 0 || len(full.folders) == 0 || fast.folders[0] != full.folders[0] {
		t.Errorf("first folder: full %q, fast %q", full.folders, fast.folders)
	}
	if fast.stats.Lines != int64(len(lines)) || full.stats.Lines != fast.stats.Lines {
		t.Errorf("lines counted: full %d, fast %d, want %d", full.stats.Lines, fast.stats.Lines, len(lines))
	}
	for _, l := range []string{"4", "5", "7"} {
		if slices.Contains(fast.lines, l) {
			t.Errorf("line %s gave an event for a usage report: %q", l, fast.lines)
		}
		if !slices.Contains(full.lines, l) {
			t.Errorf("line %s gave no event in a full parse: %q", l, full.lines)
		}
	}
	for _, l := range []string{"1", "2"} {
		if !slices.Contains(fast.lines, l) {
			t.Errorf("line %s gave no event for a usage report: %q", l, fast.lines)
		}
	}
}
