package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
)

// usageSum is the sum of the usage of agt.event/1 lines (usage events) or
// of agt.transcript/1 lines (the sessions' usage), and how many duplicate
// events the lines hold.
type usageSum struct {
	Input, CacheRead, CacheWrite, Output, Total int64
	Cost                                        float64
	Duplicates                                  int
}

func sumUsage(t *testing.T, out []byte) usageSum {
	t.Helper()
	var s usageSum
	for _, line := range bytes.Split(out, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var v struct {
			Schema string     `json:"schema"`
			Kind   string     `json:"kind"`
			Usage  *agt.Usage `json:"usage"`
			Cost   *float64   `json:"cost_usd"`
			Meta   *agt.Meta  `json:"meta"`
		}
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		if v.Meta != nil && v.Meta.Type == agt.MetaDuplicate {
			s.Duplicates++
		}
		u, cost := v.Usage, v.Cost
		if v.Schema == agt.Schema {
			if v.Kind != agt.KindUsage {
				continue
			}
			cost = u.CostUSD
		}
		if u == nil {
			continue
		}
		s.Input += u.Input
		s.CacheRead += u.CacheRead
		s.CacheWrite += u.CacheWrite
		s.Output += u.Output
		s.Total += u.Total
		if cost != nil {
			s.Cost += *cost
		}
	}
	return s
}

// sameUsage compares the token counts exactly and the costs to a billionth
// (sums of the same figures in another order).
func sameUsage(a, b usageSum) bool {
	return a.Input == b.Input && a.CacheRead == b.CacheRead && a.CacheWrite == b.CacheWrite && a.Output == b.Output &&
		a.Total == b.Total && math.Abs(a.Cost-b.Cost) <= 1e-9*max(1, math.Abs(a.Cost))
}

// TestCopiesCountOnce: for each corpus folder, its events sum to the usage
// and cost its transcripts do; and a copy of it given beside it (a backup
// folder, a .tar.gz of it) adds nothing: the events of both sum to the
// folder's alone, in agt-parse's and agt-normalize's output alike, and to
// the transcripts' sum; the transcripts are the folder's alone; the copy's
// records are duplicate events; the pipe gives the transcripts' bytes. The
// folder and its copies leave out the stores a provider claims
// (copyFiles). With -short, the Claude Code folder only.
func TestCopiesCountOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("over the corpus: run without -short (the race run leaves it out)")
	}
	corpus := providertest.CorpusDir(t)
	dirs, _ := filepath.Glob(filepath.Join(corpus, "*"))
	for _, f := range dirs {
		if st, err := os.Stat(f); err != nil || !st.IsDir() || filepath.Base(f) == "other" || testing.Short() && filepath.Base(f) != "claude" {
			continue
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			events := sumUsage(t, runApp(t, Normalize, nil, "-q", f))
			if got := sumUsage(t, runApp(t, Transcript, nil, "-q", f)); !sameUsage(got, events) {
				t.Errorf("transcripts sum to %+v, events to %+v", got, events)
			}

			tmp := t.TempDir()
			folder := filepath.Join(tmp, "logs", filepath.Base(f))
			copyTree(t, f, folder)
			backup := filepath.Join(tmp, "backup", filepath.Base(f))
			copyTree(t, folder, backup)
			archive := filepath.Join(tmp, filepath.Base(f)+".tar.gz")
			tarTree(t, folder, archive)

			alone := sumUsage(t, runApp(t, Normalize, nil, "-q", folder))
			transcripts := runApp(t, Transcript, nil, "-q", folder)
			if got := sumUsage(t, transcripts); !sameUsage(got, alone) {
				t.Errorf("alone: transcripts sum to %+v, events to %+v", got, alone)
			}
			if alone.Total == 0 {
				t.Fatalf("no usage in %s: the test proves nothing", f)
			}
			for _, copy := range []string{backup, archive} {
				name := filepath.Base(filepath.Dir(copy)) + "/" + filepath.Base(copy)
				normalized := sumUsage(t, runApp(t, Normalize, nil, "-q", folder, copy))
				if !sameUsage(normalized, alone) {
					t.Errorf("with %s: agt-normalize sums to %+v, want %+v", name, normalized, alone)
				}
				if normalized.Duplicates == 0 {
					t.Errorf("with %s: no duplicate event", name)
				}
				parsed := sumUsage(t, runApp(t, Parse, nil, "-q", folder, copy))
				if parsed.Total != alone.Total || parsed.Input != alone.Input || parsed.Output != alone.Output {
					t.Errorf("with %s: agt-parse sums to %+v, want %+v", name, parsed, alone)
				}
				both := runApp(t, Transcript, nil, "-q", folder, copy)
				if got := sumUsage(t, both); !sameUsage(got, alone) {
					t.Errorf("with %s: transcripts sum to %+v, want %+v", name, got, alone)
				}
				if !slices.Equal(sortedLines(both), sortedLines(transcripts)) {
					t.Errorf("with %s: the transcripts differ from the folder's alone", name)
				}
				if piped := runApp(t, Transcript, runApp(t, Normalize, runApp(t, Parse, nil, "-q", folder, copy), "-q"), "-q"); !bytes.Equal(piped, both) {
					t.Errorf("with %s: agt-transcript differs from the pipe", name)
				}
			}
		})
	}
}

// copyFiles walks the regular files below dir but the stores a provider
// claims (a database, a storage folder: the grouping pre-pass cannot tell
// their sessions, so a copy of one read apart from it counts again, in
// events and transcripts alike).
func copyFiles(dir string, fn func(p string) error) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if _, ok := provider.Claim(p, d.IsDir()); ok {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		return fn(p)
	})
}

// copyTree copies the regular files below src to dst (copyFiles).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := copyFiles(src, func(p string) error {
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// tarTree writes the regular files below dir (copyFiles) to a .tar.gz,
// under dir's name, as `tar czf` of the folder does.
func tarTree(t *testing.T, dir, archive string) {
	t.Helper()
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	tw := tar.NewWriter(z)
	err := copyFiles(dir, func(p string) error {
		rel, _ := filepath.Rel(filepath.Dir(dir), p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = tw.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	z.Close()
	if err := os.WriteFile(archive, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResumedSession: a real Claude Code session file copied as Claude Code
// writes a resumed session (a new file name, the new session id in every
// record) with records of its own appended, given beside its original in
// either order: its copied records add no tokens, its own records count,
// and its transcript holds its own records only and names the session it
// continues. Event ids are unique and every parent names an event of the
// output. The pipe gives the same bytes, and -j 1 the same as -j 8.
func TestResumedSession(t *testing.T) {
	orig := filepath.Join(providertest.CorpusDir(t), "claude", "agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl")
	body, err := os.ReadFile(orig)
	if err != nil {
		t.Skip(err)
	}
	const old, resumed = "7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9", "0c6f6f1e-2b6a-4d7e-9a51-3f0e8c2d9b47"
	own := `{"parentUuid":null,"isSidechain":false,"type":"user","sessionId":"` + resumed + `","uuid":"r-u1","timestamp":"2025-12-10T09:00:00.000Z","message":{"role":"user","content":"and now the tests"}}
{"parentUuid":"r-u1","isSidechain":false,"type":"assistant","sessionId":"` + resumed + `","uuid":"r-a1","requestId":"req_resumed_1","timestamp":"2025-12-10T09:00:05.000Z","message":{"id":"msg_resumed_1","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"Done."}],"usage":{"input_tokens":10,"cache_read_input_tokens":1000,"cache_creation_input_tokens":0,"output_tokens":5}}}
`
	dir := t.TempDir()
	a := filepath.Join(dir, "logs", old+".jsonl")
	b := filepath.Join(dir, "logs", resumed+".jsonl")
	os.MkdirAll(filepath.Dir(a), 0o755)
	if err := os.WriteFile(a, body, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, append(bytes.ReplaceAll(body, []byte(old), []byte(resumed)), own...), 0o644); err != nil {
		t.Fatal(err)
	}
	alone := sumUsage(t, runApp(t, Normalize, nil, "-q", a))
	if alone.Total == 0 {
		t.Fatal("no usage in the original: the test proves nothing")
	}
	want := alone.Total + 10 + 1000 + 5
	type transcript struct {
		NativeSession string            `json:"native_session"`
		Continues     string            `json:"continues"`
		Messages      []json.RawMessage `json:"messages"`
		Usage         agt.Usage         `json:"usage"`
	}
	for _, args := range [][]string{{a, b}, {b, a}, {filepath.Dir(a)}} {
		args = append([]string{"-q"}, args...)
		if got := sumUsage(t, runApp(t, Normalize, nil, args...)); got.Total != want {
			t.Errorf("%v: events sum to %d tokens, want %d (the original's %d and the resumed session's own 1015)", args, got.Total, want, alone.Total)
		}
		fused := runApp(t, Transcript, nil, args...)
		if got := sumUsage(t, fused); got.Total != want {
			t.Errorf("%v: transcripts sum to %d tokens, want %d", args, got.Total, want)
		}
		for _, line := range bytes.Split(bytes.TrimSpace(fused), []byte("\n")) {
			var tr transcript
			if err := json.Unmarshal(line, &tr); err != nil {
				t.Fatal(err)
			}
			switch tr.NativeSession {
			case old:
				if tr.Continues != "" || tr.Usage.Total != alone.Total {
					t.Errorf("%v: the original continues %q with %d tokens, want none and %d", args, tr.Continues, tr.Usage.Total, alone.Total)
				}
			case resumed:
				if tr.Continues != old || tr.Usage.Total != 1015 || len(tr.Messages) != 2 {
					t.Errorf("%v: the resumed session continues %q with %d tokens and %d messages, want %s, 1015 and 2", args, tr.Continues, tr.Usage.Total, len(tr.Messages), old)
				}
			default:
				t.Errorf("%v: a transcript of %s", args, tr.NativeSession)
			}
		}
		parsed := runApp(t, Parse, nil, args...)
		ids, parents := map[string]bool{}, map[string]bool{}
		for _, line := range bytes.Split(bytes.TrimSpace(parsed), []byte("\n")) {
			var ev agt.Event
			if err := json.Unmarshal(line, &ev); err != nil {
				t.Fatal(err)
			}
			if ids[ev.ID] {
				t.Errorf("%v: event id %s twice", args, ev.ID)
			}
			ids[ev.ID], parents[ev.Parent] = true, ev.Parent != ""
		}
		for p, set := range parents {
			if set && !ids[p] {
				t.Errorf("%v: parent %s names no event of the output", args, p)
			}
		}
		if piped := runApp(t, Transcript, runApp(t, Normalize, parsed, "-q"), "-q"); !bytes.Equal(piped, fused) {
			t.Errorf("%v: agt-transcript differs from the pipe", args)
		}
		if one := runApp(t, Transcript, nil, append([]string{"-j", "1"}, args...)...); !bytes.Equal(one, runApp(t, Transcript, nil, append([]string{"-j", "8"}, args...)...)) {
			t.Errorf("%v: -j 1 differs from -j 8", args)
		}
	}
}
