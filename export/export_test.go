package export_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/export/agentv"
	"github.com/agt-project/agt/export/atif"
	"github.com/agt-project/agt/export/otlp"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// format is an export with its checker.
type format struct {
	name  string
	ext   string
	write func(w *bytes.Buffer, t *transcript.Transcript) error
	check func(t *testing.T, name string, tr *transcript.Transcript, b []byte)
}

// formats are the exports.
var formats = []format{
	{"atif", atif.Ext, func(w *bytes.Buffer, t *transcript.Transcript) error { return atif.Write(w, t) }, checkATIF},
	{"otlp", otlp.Ext, func(w *bytes.Buffer, t *transcript.Transcript) error { return otlpAt.Write(w, t) }, checkOTLP},
	{"agentv", agentv.Ext, func(w *bytes.Buffer, t *transcript.Transcript) error { return agentv.Write(w, t) }, checkAgentV},
}

// jsonLines reads a value of each line of b.
func jsonLines[T any](b []byte) ([]T, error) {
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// decode reads transcript lines.
func decode(t testing.TB, b []byte) []*transcript.Transcript {
	t.Helper()
	trs, err := jsonLines[*transcript.Transcript](b)
	if err != nil {
		t.Fatal(err)
	}
	return trs
}

// render renders each of trs in f, checks each rendering (name names it)
// and returns them all.
func render(t *testing.T, f format, trs []*transcript.Transcript, name func(*transcript.Transcript) string) []byte {
	t.Helper()
	var all bytes.Buffer
	for _, tr := range trs {
		var one bytes.Buffer
		if err := f.write(&one, tr); err != nil && !errors.Is(err, export.ErrNothing) {
			t.Fatal(err)
		}
		f.check(t, name(tr), tr, one.Bytes())
		all.Write(one.Bytes())
	}
	return all.Bytes()
}

// TestGolden renders the golden transcripts of every provider (real
// sessions, testdata/transcript) in each format, checks the renderings
// and compares them with testdata/export.
func TestGolden(t *testing.T) {
	root := providertest.RepoRoot(t)
	ins, _ := filepath.Glob(filepath.Join(root, "testdata", "transcript", "*.transcript.jsonl"))
	if len(ins) < 6 {
		t.Fatalf("%d golden transcripts", len(ins))
	}
	for _, in := range ins {
		b, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(in), transcript.ExtTranscript)
		trs := decode(t, b)
		for _, f := range formats {
			got := render(t, f, trs, func(*transcript.Transcript) string { return base + f.ext })
			providertest.Golden(t, got, filepath.Join(root, "testdata", "export", base+f.ext))
		}
	}
}

// agtTranscript is agt-transcript, built once (removed by TestMain).
func agtTranscript(t *testing.T) string { return providertest.Filter(t, "agt-transcript") }

// epoch is the clock of the OTLP renderings (and of the agt-transcript
// runs, through SOURCE_DATE_EPOCH), for a session whose log states no time.
const epoch = 1767225600 // 2026-01-01

var otlpAt = otlp.Options{Now: func() time.Time { return time.Unix(epoch, 0) }}

func TestMain(m *testing.M) {
	os.Setenv("SOURCE_DATE_EPOCH", strconv.Itoa(epoch))
	code := m.Run()
	providertest.RemoveFilters()
	os.Exit(code)
}

// corpusProviders are the providers whose corpus sessions are exported:
// the registered providers with a folder in the corpus (the test skips
// without it).
func corpusProviders(t testing.TB) []string {
	return providertest.CorpusProviders(providertest.CorpusDir(t))
}

// TestCorpus renders every corpus session of every provider in each format
// and checks it: the OTLP requests read by the Collector's own unmarshaler
// span by span, the ATIF documents against the schema, the AgentV rows;
// in every format the session totals equal the transcript's. The
// --format runs of agt-transcript give the same bytes as the renderers.
func TestCorpus(t *testing.T) {
	corpus := providertest.CorpusDir(t)
	bin := agtTranscript(t)
	var sessions int
	var total agt.Usage
	for _, p := range corpusProviders(t) {
		dir := filepath.Join(corpus, p)
		out, err := exec.Command(bin, "-q", dir).Output()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		trs := decode(t, out)
		if len(trs) == 0 {
			t.Fatalf("%s: no session", p)
		}
		for _, f := range formats {
			all := render(t, f, trs, func(tr *transcript.Transcript) string { return p + "/" + tr.NativeSession + f.ext })
			cli, err := exec.Command(bin, "-q", "--format", f.name, dir).Output()
			if err != nil {
				t.Fatalf("%s --format %s: %v", p, f.name, err)
			}
			if !bytes.Equal(cli, all) {
				t.Errorf("%s: agt-transcript --format %s differs from the renderer", p, f.name)
			}
		}
		for _, tr := range trs {
			total.Add(&tr.Usage)
		}
		sessions += len(trs)
		t.Logf("%s: %d sessions in each of %d formats", p, len(trs), len(formats))
	}
	t.Logf("%d sessions; totals input %d, cache read %d, cache write %d, output %d", sessions, total.Input, total.CacheRead, total.CacheWrite, total.Output)
}

// sums are token totals as the exports count them.
type sums struct{ prompt, output, cacheRead, cacheWrite int64 }

func sumsOf(u *agt.Usage) sums {
	return sums{export.Prompt(u), u.Output, u.CacheRead, u.CacheWrite}
}

func (s *sums) add(o sums) {
	s.prompt += o.prompt
	s.output += o.output
	s.cacheRead += o.cacheRead
	s.cacheWrite += o.cacheWrite
}

func sameCost(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return math.Abs(*a-*b) < 1e-9
}

// checkATIF checks a trajectory as Harbor's models would (harborCheck),
// its final metrics against the transcript's totals, each conversation
// with messages (and none other) as one trajectory with its step metrics
// (with the usage no model call carries) summing to its totals, and each
// subagent whose starting call is in the session referred to by that
// call's result.
func checkATIF(t *testing.T, name string, tr *transcript.Transcript, b []byte) {
	t.Helper()
	convs := export.Convs(tr)
	var msgs int
	for _, c := range convs {
		msgs += len(c.Messages)
	}
	if msgs == 0 {
		if len(b) != 0 {
			t.Errorf("%s: a document for a session without messages", name)
		}
		return
	}
	if bytes.Count(b, []byte{'\n'}) != 1 || b[len(b)-1] != '\n' {
		t.Errorf("%s: not one line", name)
		return
	}
	if err := harborCheck(t, b); err != nil {
		t.Errorf("%s: Harbor would reject it: %v", name, err)
		return
	}
	var got atif.Trajectory
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.SchemaVersion != atif.Version || got.SessionID != export.SessionID(tr) {
		t.Errorf("%s: schema_version %q, session_id %q", name, got.SchemaVersion, got.SessionID)
	}
	fm := got.FinalMetrics
	if s := sumsOf(&tr.Usage); fm.TotalPromptTokens != s.prompt || fm.TotalCompletionTokens != s.output || fm.TotalCachedTokens != s.cacheRead || !sameCost(fm.TotalCostUSD, tr.CostUSD) {
		t.Errorf("%s: final_metrics %+v, transcript usage %+v cost %v", name, *fm, tr.Usage, tr.CostUSD)
	}
	// the trajectories by stream, and the references of each call
	rootStream := agt.StreamMain
	if s, ok := got.Extra["stream"].(string); ok {
		rootStream = s
	}
	byStream := map[string]*atif.Trajectory{rootStream: &got}
	refs := map[string]string{} // subagent trajectory_id → the call whose result refers to it
	var walk func(p *atif.Trajectory)
	walk = func(p *atif.Trajectory) {
		for _, s := range p.Steps {
			if s.Observation == nil {
				continue
			}
			for _, r := range s.Observation.Results {
				for _, ref := range r.Subagents {
					refs[ref.TrajectoryID] = r.SourceCallID
				}
			}
		}
		for i := range p.Subagents {
			sub := &p.Subagents[i]
			st, _ := sub.Extra["stream"].(string)
			if byStream[st] != nil {
				t.Errorf("%s: stream %q has two trajectories", name, st)
			}
			byStream[st] = sub
			walk(sub)
		}
	}
	walk(&got)
	calls := map[string]bool{}
	for _, c := range convs {
		for _, m := range c.Messages {
			for _, tc := range m.ToolCalls {
				calls[tc.ID] = true
			}
		}
	}
	for i, c := range convs {
		traj := byStream[c.Stream]
		if len(c.Messages) == 0 {
			if traj != nil {
				t.Errorf("%s: %s: a trajectory without messages", name, c.Stream)
			}
			continue
		}
		if traj == nil {
			t.Errorf("%s: %s: no trajectory", name, c.Stream)
			continue
		}
		if traj != &got {
			if s := sumsOf(&c.Usage); traj.FinalMetrics.TotalPromptTokens != s.prompt || traj.FinalMetrics.TotalCompletionTokens != s.output {
				t.Errorf("%s: subagent %s final_metrics %+v, usage %+v", name, c.Stream, *traj.FinalMetrics, c.Usage)
			}
			if call := tr.Subagents[i-1].ToolCallID; call != "" && calls[call] && refs[traj.TrajectoryID] != call {
				t.Errorf("%s: subagent %s started by %s: referred to by %q", name, c.Stream, call, refs[traj.TrajectoryID])
			}
		}
		if len(traj.Steps) != len(c.Messages) || traj.FinalMetrics.TotalSteps != len(traj.Steps) {
			t.Errorf("%s: %s: %d steps (total_steps %d), %d messages", name, c.Stream, len(traj.Steps), traj.FinalMetrics.TotalSteps, len(c.Messages))
		}
		var steps sums
		for _, s := range traj.Steps {
			if m := s.Metrics; m != nil {
				if m.CachedTokens > m.PromptTokens {
					t.Errorf("%s: step %d: cached_tokens %d > prompt_tokens %d", name, s.StepID, m.CachedTokens, m.PromptTokens)
				}
				steps.add(sums{prompt: m.PromptTokens, output: m.CompletionTokens, cacheRead: m.CachedTokens})
			}
		}
		if u, ok := export.Unattributed(&c); ok {
			s := sumsOf(&u)
			s.cacheWrite = 0
			steps.add(s)
		}
		want := sumsOf(&c.Usage)
		want.cacheWrite = 0
		if steps != want {
			t.Errorf("%s: %s: steps sum to %+v with the unattributed usage, totals %+v", name, c.Stream, steps, want)
		}
	}
}

// attrs reads a span's attributes.
func attrs(s ptrace.Span) map[string]pcommon.Value {
	m := map[string]pcommon.Value{}
	s.Attributes().Range(func(k string, v pcommon.Value) bool {
		m[k] = v
		return true
	})
	return m
}

// checkOTLP reads a request with the Collector's JSON unmarshaler and checks
// it span by span: one trace, one root invoke_agent span, an invoke_agent
// span per subagent, every parent present, usage on chat spans only and
// summing to the transcript's, an execute_tool span per tool call with an
// error status for each failed one.
func checkOTLP(t *testing.T, name string, tr *transcript.Transcript, b []byte) {
	t.Helper()
	if bytes.Count(b, []byte{'\n'}) != 1 {
		t.Errorf("%s: not one line", name)
	}
	td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if td.ResourceSpans().Len() != 1 || td.ResourceSpans().At(0).ScopeSpans().Len() != 1 {
		t.Fatalf("%s: %d resource spans", name, td.ResourceSpans().Len())
	}
	spans := td.ResourceSpans().At(0).ScopeSpans().At(0).Spans()
	if spans.Len() != td.SpanCount() {
		t.Fatalf("%s: span count", name)
	}
	ids := map[pcommon.SpanID]string{}
	var traceID pcommon.TraceID
	for i := 0; i < spans.Len(); i++ {
		s := spans.At(i)
		if i == 0 {
			traceID = s.TraceID()
		}
		if s.TraceID() != traceID || s.TraceID().IsEmpty() || s.SpanID().IsEmpty() {
			t.Errorf("%s: span %d: trace %v span %v", name, i, s.TraceID(), s.SpanID())
		}
		if _, dup := ids[s.SpanID()]; dup {
			t.Errorf("%s: span id %v twice", name, s.SpanID())
		}
		ids[s.SpanID()] = attrs(s)["gen_ai.operation.name"].Str()
	}
	var roots, agents, tools, standIns, errs, wantErrs int
	var chat sums
	usageKeys := []string{"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens", "gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_creation.input_tokens"}
	for i := 0; i < spans.Len(); i++ {
		s := spans.At(i)
		a := attrs(s)
		op := a["gen_ai.operation.name"].Str()
		if s.EndTimestamp() < s.StartTimestamp() {
			t.Errorf("%s: %s ends before it starts", name, s.Name())
		}
		if s.ParentSpanID().IsEmpty() {
			roots++
			if op != "invoke_agent" || a["gen_ai.conversation.id"].Str() != tr.NativeSession {
				t.Errorf("%s: root span %q, conversation %q", name, s.Name(), a["gen_ai.conversation.id"].Str())
			}
		} else if p, ok := ids[s.ParentSpanID()]; !ok || p != "invoke_agent" && !(op == "invoke_agent" && p == "execute_tool") {
			t.Errorf("%s: %s: parent %v is %q", name, s.Name(), s.ParentSpanID(), p)
		}
		switch op {
		case "invoke_agent":
			agents++
		case "chat":
			if !strings.HasPrefix(s.Name(), "chat") || s.Kind() != ptrace.SpanKindClient || a["gen_ai.provider.name"].Str() == "" {
				t.Errorf("%s: chat span %q kind %v", name, s.Name(), s.Kind())
			}
			if _, ok := a["gen_ai.usage.input_tokens"]; ok {
				in, out := a["gen_ai.usage.input_tokens"].Int(), a["gen_ai.usage.output_tokens"].Int()
				cr, cw := a["gen_ai.usage.cache_read.input_tokens"].Int(), a["gen_ai.usage.cache_creation.input_tokens"].Int()
				if cr+cw > in {
					t.Errorf("%s: %s: cache tokens %d+%d above input_tokens %d", name, s.Name(), cr, cw, in)
				}
				chat.add(sums{in, out, cr, cw})
			}
		case "execute_tool":
			if _, ok := a[otlp.StandIn]; ok {
				// for the call the log does not record that started a
				// subagent: no tool, no call id
				standIns++
				if _, id := a["gen_ai.tool.call.id"]; id || s.Name() != "execute_tool" || !a[otlp.StandIn].Bool() {
					t.Errorf("%s: stand-in span %q with a call id or flag %v", name, s.Name(), a[otlp.StandIn].AsRaw())
				}
				continue
			}
			tools++
			if s.Name() != "execute_tool "+a["gen_ai.tool.name"].Str() {
				t.Errorf("%s: tool span %q", name, s.Name())
			}
			if _, ok := a["gen_ai.tool.call.id"]; !ok {
				t.Errorf("%s: %s without gen_ai.tool.call.id", name, s.Name())
			}
			if s.Status().Code() == ptrace.StatusCodeError {
				errs++
				if a["error.type"].Str() == "" {
					t.Errorf("%s: %s: error status without error.type", name, s.Name())
				}
			}
		default:
			t.Errorf("%s: span %q: operation %q", name, s.Name(), op)
		}
		if op != "chat" {
			for _, k := range usageKeys {
				if _, ok := a[k]; ok {
					t.Errorf("%s: %s span carries %s", name, op, k)
				}
			}
		}
	}
	for _, c := range export.Convs(tr) {
		for _, m := range c.Messages {
			for _, tc := range m.ToolCalls {
				if tc.IsError || tc.Status == transcript.StatusError {
					wantErrs++
				}
			}
		}
	}
	called := map[string]bool{}
	for _, c := range export.Convs(tr) {
		for _, m := range c.Messages {
			for _, tc := range m.ToolCalls {
				called[tc.ID] = true
			}
		}
	}
	wantStandIns := 0
	for _, sa := range tr.Subagents {
		if sa.ToolCallID == "" || !called[sa.ToolCallID] {
			wantStandIns++
		}
	}
	if roots != 1 || agents != 1+len(tr.Subagents) || tools != tr.Counts.ToolCalls || errs != wantErrs || standIns != wantStandIns {
		t.Errorf("%s: %d roots, %d invoke_agent (want %d), %d execute_tool (want %d), %d stand-ins (want %d), %d errors (want %d)",
			name, roots, agents, 1+len(tr.Subagents), tools, tr.Counts.ToolCalls, standIns, wantStandIns, errs, wantErrs)
	}
	if want := sumsOf(&tr.Usage); chat != want {
		t.Errorf("%s: chat spans sum to %+v, transcript %+v", name, chat, want)
	}
}

// checkAgentV checks a session's rows: one per message, numbered, each with
// the session's totals; the rows' usage (with the usage no model call
// carries) sums to the totals, and the tool calls are the transcript's.
func checkAgentV(t *testing.T, name string, tr *transcript.Transcript, b []byte) {
	t.Helper()
	rows, err := jsonLines[agentv.Row](b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var msgs, calls int
	var got, want sums
	id := export.SessionID(tr)
	convs := export.Convs(tr)
	root := export.Root(convs)
	for i, c := range convs {
		testID, total, cost := id, sumsOf(&tr.Usage), tr.CostUSD
		if i != root {
			testID, total, cost = id+"/"+c.Stream, sumsOf(&c.Usage), c.CostUSD
		}
		if u, ok := export.Unattributed(&c); ok {
			got.add(sums{prompt: export.Prompt(&u), output: u.Output, cacheRead: u.CacheRead})
		}
		want.add(sumsOf(&c.Usage))
		if len(rows) < msgs+len(c.Messages) {
			t.Fatalf("%s: %d rows, more messages", name, len(rows))
		}
		conv := rows[msgs : msgs+len(c.Messages)]
		msgs += len(c.Messages)
		answer, rowAnswer := "", ""
		for j, m := range c.Messages {
			r := conv[j]
			if m.Role == transcript.RoleAssistant {
				answer, rowAnswer = export.Text(m.Text), r.Content
			}
			if r.SchemaVersion != agentv.Schema || r.MessageIndex != j || r.TestID != testID || r.Target != tr.Provider || r.Source.SessionID != id {
				t.Errorf("%s: %s row %d: %q %d %q %q", name, c.Stream, j, r.SchemaVersion, r.MessageIndex, r.TestID, r.Target)
			}
			if i != root && (r.Metadata["parent_test_id"] != id || (tr.Subagents[i-1].ToolCallID != "" && r.Metadata["tool_call_id"] != tr.Subagents[i-1].ToolCallID)) {
				t.Errorf("%s: %s row %d: metadata %v", name, c.Stream, j, r.Metadata)
			}
			tu := r.TranscriptTokenUsage
			if total == (sums{}) && (i == root && !hasUsage(tr) || i != root && !convHasUsage(&c)) {
				if tu != nil {
					t.Errorf("%s: %s row %d: transcript_token_usage %+v for a log without usage", name, c.Stream, j, *tu)
				}
			} else if tu == nil || tu.Input != total.prompt || tu.Output != total.output || tu.Cached != total.cacheRead || !sameCost(r.TranscriptCostUSD, cost) {
				t.Errorf("%s: %s row %d: transcript_token_usage %v, want %+v", name, c.Stream, j, tu, total)
			}
			if u := r.TokenUsage; u != nil {
				got.add(sums{prompt: u.Input, output: u.Output, cacheRead: u.Cached})
			}
			for _, tc := range r.ToolCalls {
				calls++
				if tc.Tool == "" || tc.Status == "" {
					t.Errorf("%s: row %d: tool call %+v", name, j, tc)
				}
			}
		}
		if answer != rowAnswer {
			t.Errorf("%s: %s: final answer %q, rows give %q", name, c.Stream, rowAnswer, answer)
		}
	}
	if len(rows) != msgs {
		t.Fatalf("%s: %d rows, %d messages", name, len(rows), msgs)
	}
	want.cacheWrite = 0
	if got != want {
		t.Errorf("%s: rows sum to %+v, totals %+v", name, got, want)
	}
	if calls != tr.Counts.ToolCalls {
		t.Errorf("%s: %d tool calls in rows, %d in the transcript", name, calls, tr.Counts.ToolCalls)
	}
}

// convHasUsage is whether a message of c has usage.
func convHasUsage(c *export.Conv) bool {
	for _, m := range c.Messages {
		if m.Usage != nil {
			return true
		}
	}
	return false
}

// hasUsage is whether the log of tr gave any usage.
func hasUsage(tr *transcript.Transcript) bool {
	if tr.Usage.Input != 0 || tr.Usage.CacheRead != 0 || tr.Usage.CacheWrite != 0 || tr.Usage.Output != 0 || tr.Usage.Reasoning != 0 {
		return true
	}
	for _, c := range export.Convs(tr) {
		for _, m := range c.Messages {
			if m.Usage != nil {
				return true
			}
		}
	}
	return false
}

// BenchmarkExports renders the golden transcripts in each format.
func BenchmarkExports(b *testing.B) {
	ins, _ := filepath.Glob(filepath.Join(providertest.RepoRoot(b), "testdata", "transcript", "*.transcript.jsonl"))
	var trs []*transcript.Transcript
	var size int64
	for _, in := range ins {
		data, err := os.ReadFile(in)
		if err != nil {
			b.Fatal(err)
		}
		size += int64(len(data))
		trs = append(trs, decode(b, data)...)
	}
	for _, f := range formats {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(size)
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				for _, tr := range trs {
					if err := f.write(&buf, tr); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
