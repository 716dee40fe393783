package provider_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/price"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// bigTree returns a generated log tree of about mib MiB of Claude Code and
// mib/2 of Codex logs, made once by the shared generator and kept in the
// temp folder ($AGT_BENCH_DIR overrides it).
func bigTree(b *testing.B, mib int) string {
	if d := os.Getenv("AGT_BENCH_DIR"); d != "" {
		return d
	}
	corpus := providertest.CorpusDir(b)
	gen := filepath.Join(corpus, "..", "tools", "gen-big-logs.py")
	out := filepath.Join(os.TempDir(), "agt-bench-"+strconv.Itoa(mib))
	if _, err := os.Stat(filepath.Join(out, "MANIFEST.json")); err == nil {
		return out
	}
	cmd := exec.Command("python3", gen, strconv.Itoa(mib), strconv.Itoa(mib/2), "--out", out, "--samples", corpus)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		b.Skipf("generating the tree: %v", err)
	}
	return out
}

// BenchmarkParse runs agt-parse over the generated tree, as the CLI does
// for a folder argument.
func BenchmarkParse(b *testing.B) {
	for _, sub := range []string{"claude", "codex"} {
		b.Run(sub, func(b *testing.B) {
			dir := filepath.Join(bigTree(b, 200), sub)
			ins, errs := stage.Expand([]string{dir}, nil, provider.Claim)
			if len(errs) > 0 {
				b.Fatal(errs)
			}
			var size int64
			for _, in := range ins {
				st, _ := os.Stat(in.Path)
				size += st.Size()
			}
			b.SetBytes(size)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := provider.Parse(context.Background(), provider.Config{Config: stage.Config{Quiet: true}}, ins, io.Discard, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNormalize runs agt-normalize over the events agt-parse writes
// for the generated tree (the piped stage alone).
func BenchmarkNormalize(b *testing.B) {
	for _, sub := range []string{"claude", "codex"} {
		b.Run(sub, func(b *testing.B) {
			ins, _ := stage.Expand([]string{filepath.Join(bigTree(b, 200), sub)}, nil, provider.Claim)
			var events bytes.Buffer
			if _, err := provider.Parse(context.Background(), provider.Config{Config: stage.Config{Quiet: true}}, ins, &events, io.Discard); err != nil {
				b.Fatal(err)
			}
			n := &provider.Normalizer{Prices: price.Default()}
			b.SetBytes(int64(events.Len()))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				in := stage.Input{Path: "-", Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(events.Bytes())), nil }}
				if _, err := provider.Parse(context.Background(), provider.Config{Config: stage.Config{Quiet: true, Transform: n.Event}}, []stage.Input{in}, io.Discard, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseCorpus parses each provider's corpus folder (for the
// providers the generator does not cover).
func BenchmarkParseCorpus(b *testing.B) {
	dir := providertest.CorpusDir(b)
	for _, p := range []string{"claude", "codex", "gemini", "copilot", "pi", "opencode", "live"} {
		b.Run(p, func(b *testing.B) {
			ins, _ := stage.Expand([]string{filepath.Join(dir, p)}, nil, provider.Claim)
			var size int64
			for _, in := range ins {
				if st, err := os.Stat(in.Path); err == nil {
					size += st.Size()
				}
			}
			b.SetBytes(size)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := provider.Parse(context.Background(), provider.Config{Config: stage.Config{Quiet: true}}, ins, io.Discard, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
