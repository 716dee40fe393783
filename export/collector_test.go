package export_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// collectorConfig is the Collector's configuration: the OTLP receiver over
// HTTP on 127.0.0.1 (the port is filled in), the debug exporter reporting
// each request's span count, its own logs as JSON on stderr, unsampled
// (by default it keeps 10 of the lines of a second with the same message),
// and no
// metrics server (no fixed port that parallel runs would share).
const collectorConfig = `receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:%d
exporters:
  debug:
    verbosity: basic
service:
  telemetry:
    logs:
      encoding: json
      sampling:
        enabled: false
    metrics:
      level: none
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [debug]
`

// otelcol is the Collector built from tools/otelcol (its own module, the
// release its go.mod pins), in $AGT_OTELCOL or the user's cache: built
// there when missing (not with -short: minutes on 2 cores); the test skips
// when it cannot be built.
func otelcol(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("AGT_OTELCOL")
	if bin == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Skipf("otelcol: no cache folder to build the Collector in: %v", err)
		}
		bin = filepath.Join(cache, "agt", "otelcol", "otelcol")
	}
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	if testing.Short() {
		t.Skipf("otelcol: the Collector is not built at %s, and -short does not build it (tools/otelcol)", bin)
	}
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join(providertest.RepoRoot(t), "tools", "otelcol")
	if out, err := cmd.CombinedOutput(); err != nil {
		first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		t.Skipf("otelcol: the Collector (tools/otelcol) cannot be built: %v: %s", err, first)
	}
	return bin
}

// freePort is a TCP port free on 127.0.0.1 a moment ago.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// collectorLog gathers the span counts the debug exporter reports, one per
// request, from the Collector's JSON log lines.
type collectorLog struct {
	mu     sync.Mutex
	counts []int
	other  []string // the lines that are not a report, for a failure's message
}

func (l *collectorLog) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Msg   string `json:"msg"`
			Spans *int   `json:"spans"`
		}
		l.mu.Lock()
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "Traces" && line.Spans != nil {
			l.counts = append(l.counts, *line.Spans)
		} else if len(l.other) < 50 {
			l.other = append(l.other, sc.Text())
		}
		l.mu.Unlock()
	}
}

func (l *collectorLog) snapshot() ([]int, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.counts...), append([]string(nil), l.other...)
}

// wait polls until done says so, or the deadline passes (a stuck Collector
// fails the test rather than hanging it; nothing is measured).
func wait(deadline time.Duration, done func() bool) bool {
	for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if done() {
			return true
		}
	}
	return done()
}

// TestCollector starts a real OpenTelemetry Collector (tools/otelcol: the
// OTLP receiver and the debug exporter) on 127.0.0.1, posts to its OTLP/HTTP
// endpoint the OTLP export of every golden transcript and, where the corpus
// is, of every corpus session and live capture, and checks that each
// request is accepted whole (HTTP 200, no partial success) and that the
// debug exporter reports the request's span count.
func TestCollector(t *testing.T) {
	bin := otelcol(t)
	port := freePort(t)
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, collectorConfig, port), 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config", "file:"+cfg)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = cmd.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	col := &collector{url: "http://127.0.0.1:" + strconv.Itoa(port) + "/v1/traces"}
	done := make(chan struct{})
	go func() { col.log.read(stderr); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		<-done
		cmd.Wait()
	})
	exited := func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	if !wait(time.Minute, func() bool {
		if exited() {
			return true
		}
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err == nil {
			c.Close()
		}
		return err == nil
	}) || exited() {
		_, other := col.log.snapshot()
		t.Fatalf("the Collector does not listen on %d:\n%s", port, strings.Join(other, "\n"))
	}

	t.Run("golden", func(t *testing.T) {
		ins, _ := filepath.Glob(filepath.Join(providertest.RepoRoot(t), "testdata", "transcript", "*.transcript.jsonl"))
		for _, in := range ins {
			b, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			col.post(t, filepath.Base(in), decode(t, b))
		}
		col.check(t)
	})
	t.Run("corpus", func(t *testing.T) {
		corpus := providertest.CorpusDir(t)
		bt := agtTranscript(t)
		for _, dir := range append(corpusProviders(t), "other", "live") {
			out, err := exec.Command(bt, "-q", filepath.Join(corpus, dir)).Output()
			if err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
			col.post(t, dir, decode(t, out))
		}
		col.check(t)
	})
}

// collector is a running Collector: where to post, what it reported and
// the span counts of the requests posted.
type collector struct {
	url         string
	log         collectorLog
	want        []int
	docs, spans int
}

// post posts the OTLP export of each of trs (name names them) and checks
// the answer.
func (c *collector) post(t *testing.T, name string, trs []*transcript.Transcript) {
	t.Helper()
	for _, tr := range trs {
		var b bytes.Buffer
		if err := otlpAt.Write(&b, tr); err != nil {
			t.Fatal(err)
		}
		td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(b.Bytes())
		if err != nil {
			t.Fatalf("%s/%s: %v", name, tr.NativeSession, err)
		}
		resp, err := http.Post(c.url, "application/json", &b)
		if err != nil {
			t.Fatalf("%s/%s: %v", name, tr.NativeSession, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s/%s: HTTP %d: %.300s", name, tr.NativeSession, resp.StatusCode, body)
			continue
		}
		var partial struct {
			PartialSuccess *struct {
				RejectedSpans json.Number `json:"rejectedSpans"`
				ErrorMessage  string      `json:"errorMessage"`
			} `json:"partialSuccess"`
		}
		json.Unmarshal(body, &partial)
		if p := partial.PartialSuccess; p != nil && (p.RejectedSpans != "" && p.RejectedSpans != "0" || p.ErrorMessage != "") {
			t.Errorf("%s/%s: partial success: %s", name, tr.NativeSession, body)
		}
		c.want = append(c.want, td.SpanCount())
		c.docs++
		c.spans += td.SpanCount()
	}
}

// check waits for the debug exporter's reports of the requests posted and
// compares them with their span counts.
func (c *collector) check(t *testing.T) {
	t.Helper()
	if !wait(time.Minute, func() bool { got, _ := c.log.snapshot(); return len(got) >= len(c.want) }) {
		got, other := c.log.snapshot()
		t.Fatalf("the debug exporter reported %d of %d requests:\n%s", len(got), len(c.want), strings.Join(other, "\n"))
	}
	got, _ := c.log.snapshot()
	for i := range c.want {
		if i >= len(got) || got[i] != c.want[i] {
			t.Fatalf("request %d: the debug exporter reports %v spans, the request holds %d", i, got[i:min(i+1, len(got))], c.want[i])
		}
	}
	if len(got) != len(c.want) {
		t.Errorf("the debug exporter reported %d requests, %d were posted", len(got), len(c.want))
	}
	t.Logf("%d documents, %d spans: every request accepted (HTTP 200), the debug exporter reports each one's span count", c.docs, c.spans)
	c.want, c.docs, c.spans = nil, 0, 0
	c.log.mu.Lock()
	c.log.counts = nil
	c.log.mu.Unlock()
}
