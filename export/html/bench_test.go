package html_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"testing"

	"github.com/agt-project/agt/export/html"
	"github.com/agt-project/agt/transcript"
)

// BenchmarkWrite renders the transcripts of $AGT_HTML_BENCH (a file of
// agt.transcript/1 lines: agt-transcript's output) as pages.
func BenchmarkWrite(b *testing.B) {
	path := os.Getenv("AGT_HTML_BENCH")
	if path == "" {
		b.Skip("AGT_HTML_BENCH: a file of transcripts")
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var trs []*transcript.Transcript
	var size int64
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		var t transcript.Transcript
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			b.Fatal(err)
		}
		size += int64(len(sc.Bytes()))
		trs = append(trs, &t)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range trs {
			if err := html.Write(io.Discard, t); err != nil {
				b.Fatal(err)
			}
		}
	}
}
