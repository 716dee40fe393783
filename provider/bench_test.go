package provider_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agt-project/agt/provider"
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
				if _, err := provider.Parse(context.Background(), provider.Config{Quiet: true}, ins, io.Discard, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
