package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/urfave/cli/v2"
)

// BenchmarkReport is agt-report --by day over each provider's generated
// tree, in process (the `make bench` row, profiled with -cpuprofile).
func BenchmarkReport(b *testing.B) {
	benchTrees(b, Report, "agt-report", "-q", "--by", "day", "--tz", "UTC", "--json")
}

// BenchmarkFused is agt-transcript over each provider's generated tree, in
// process: the fused run of `make bench`.
func BenchmarkFused(b *testing.B) {
	benchTrees(b, Transcript, "agt-transcript", "-q")
}

// BenchmarkFolder is agt-transcript -o over each provider's generated
// tree, in process, into a fresh folder each time: the -o row of `make
// bench`.
func BenchmarkFolder(b *testing.B) {
	out := filepath.Join(b.TempDir(), "out")
	benchTrees(b, Transcript, "agt-transcript", "-q", "-o", out)
}

// benchTrees runs the app built by newApp with args over each provider's
// generated tree.
func benchTrees(b *testing.B, newApp func(IO) *cli.App, args ...string) {
	for _, sub := range []string{"claude", "codex"} {
		b.Run(sub, func(b *testing.B) {
			dir := filepath.Join(providertest.BenchTree(b, 200), sub)
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
				b.StopTimer()
				for i, a := range args { // a folder written afresh each time (-o)
					if a == "-o" {
						os.RemoveAll(args[i+1])
					}
				}
				b.StartTimer()
				var errb bytes.Buffer
				app := newApp(IO{In: bytes.NewReader(nil), Out: io.Discard, Err: &errb})
				if code := Run(context.Background(), app, append(args[:len(args):len(args)], dir)); code != ExitOK {
					b.Fatalf("exit %d: %s", code, errb.String())
				}
			}
		})
	}
}
