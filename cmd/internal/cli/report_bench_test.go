package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// reportBenchTree is the generated tree the report's benchmark reads:
// $AGT_BENCH_DIR, else 200 MiB of Claude Code and 100 of Codex logs made
// once by the shared generator in the temp folder (as provider's
// benchmarks do).
func reportBenchTree(b *testing.B) string {
	if d := os.Getenv("AGT_BENCH_DIR"); d != "" {
		return d
	}
	corpus := providertest.CorpusDir(b)
	out := filepath.Join(os.TempDir(), "agt-bench-200")
	if _, err := os.Stat(filepath.Join(out, "MANIFEST.json")); err == nil {
		return out
	}
	cmd := exec.Command("python3", filepath.Join(corpus, "..", "tools", "gen-big-logs.py"), "200", "100", "--out", out, "--samples", corpus)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		b.Skipf("generating the tree: %v", err)
	}
	return out
}

// BenchmarkReport is agt-report --by day over each provider's generated
// tree, in process (the `make bench` row, profiled with -cpuprofile).
func BenchmarkReport(b *testing.B) {
	for _, sub := range []string{"claude", "codex"} {
		b.Run(sub, func(b *testing.B) {
			dir := filepath.Join(reportBenchTree(b), sub)
			var size int64
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					if st, err := d.Info(); err == nil {
						size += st.Size()
					}
				}
				return nil
			})
			b.SetBytes(size)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var errb bytes.Buffer
				app := Report(IO{In: bytes.NewReader(nil), Out: io.Discard, Err: &errb})
				if code := Run(context.Background(), app, []string{"agt-report", "-q", "--by", "day", "--tz", "UTC", "--json", dir}); code != ExitOK {
					b.Fatalf("exit %d: %s", code, errb.String())
				}
			}
		})
	}
}
