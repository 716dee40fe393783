package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
// tree, in process, into a new folder each time (none removed meanwhile,
// as in `make bench`: see tools/benchtable): the -o row of `make bench`.
func BenchmarkFolder(b *testing.B) {
	benchTrees(b, Transcript, "agt-transcript", "-q", "-o", "")
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
			tmp := b.TempDir()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				args := slices.Clone(args)
				if j := slices.Index(args, "-o"); j >= 0 { // a new folder each time
					args[j+1] = filepath.Join(tmp, strconv.Itoa(i))
				}
				var errb bytes.Buffer
				app := newApp(IO{In: bytes.NewReader(nil), Out: io.Discard, Err: &errb})
				if code := Run(context.Background(), app, append(args[:len(args):len(args)], dir)); code != ExitOK {
					b.Fatalf("exit %d: %s", code, errb.String())
				}
			}
		})
	}
}
