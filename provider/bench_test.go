package provider_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/price"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// BenchmarkParse runs agt-parse over the generated tree, as the CLI does
// for a folder argument.
func BenchmarkParse(b *testing.B) {
	for _, sub := range []string{"claude", "codex"} {
		b.Run(sub, func(b *testing.B) {
			dir := filepath.Join(providertest.BenchTree(b, 200), sub)
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
			ins, _ := stage.Expand([]string{filepath.Join(providertest.BenchTree(b, 200), sub)}, nil, provider.Claim)
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
