package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// A tar.gz of the Claude Code test logs gives the same transcripts read on
// stdin as named (members of stdin's archive are read again as a file's
// are, for subagents grouped into their session).
func TestStdinArchiveAsFile(t *testing.T) {
	dir := filepath.Join(providertest.RepoRoot(t), "testdata", "claude")
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	tw := tar.NewWriter(z)
	logs, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	for _, p := range logs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		tw.WriteHeader(&tar.Header{Name: "claude/" + filepath.Base(p), Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg})
		tw.Write(b)
	}
	tw.Close()
	z.Close()
	archive := filepath.Join(t.TempDir(), "logs")
	os.WriteFile(archive, buf.Bytes(), 0o644)
	sessions := func(out []byte) []string {
		var s []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var tr struct {
				NativeSession string            `json:"native_session"`
				Messages      []json.RawMessage `json:"messages"`
			}
			if err := json.Unmarshal([]byte(l), &tr); err != nil {
				t.Fatal(err)
			}
			s = append(s, tr.NativeSession+" "+string(rune('0'+min(len(tr.Messages), 9))))
		}
		slices.Sort(s)
		return s
	}
	named := sessions(runApp(t, Transcript, nil, "-q", archive))
	piped := sessions(runApp(t, Transcript, buf.Bytes(), "-q"))
	if len(named) < 5 || !slices.Equal(named, piped) {
		t.Errorf("sessions named:\n%v\non stdin:\n%v", named, piped)
	}
}
