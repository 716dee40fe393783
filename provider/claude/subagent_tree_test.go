package claude_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/provider/providertest/transcripts"
	"github.com/agt-project/agt/transcript"
)

// TestCorpusSubagentTrees reads the corpus's Claude Code trees with their
// subagent files and checks, per session and per subagent, that each model
// call (message id) is one assistant message, and that each
// subagent's messages come in time order (a session file's own order is
// its agent's: real ones put a few records a millisecond or a minute
// before the record written ahead of them).
//
// The trees are the corpus files put back at their original paths (2.1
// <session>/subagents/ and 2.0 agent-*.jsonl layouts), and, for each
// session file whose progress mirrors copy a subagent's records, that
// session file with the subagent files Claude Code writes beside it: the
// mirrored records, plus the text line of each model call that the mirrors
// leave out (the same message id, request id and usage; a uuid of its own;
// a millisecond before the call's first mirrored line). Subagents are
// listed in the order they started, each with the id of the tool call whose
// result names its agent.
func TestCorpusSubagentTrees(t *testing.T) {
	dir := providertest.CorpusDir(t)
	root := t.TempDir()
	var trees []string
	for _, row := range provenance(t, dir, "claude/") {
		tree := filepath.Join(root, "tree", row.repo)
		if !contains(trees, tree) {
			trees = append(trees, tree)
		}
		writeFile(t, filepath.Join(tree, filepath.FromSlash(row.orig)), readBytes(t, filepath.Join(dir, row.file)))
		if d := filepath.Join(root, "mirrors", strings.TrimSuffix(filepath.Base(row.file), ".jsonl")); subagentFiles(t, filepath.Join(dir, row.file), d) {
			trees = append(trees, d)
		}
	}
	var subs, calls, linked int
	for _, tree := range trees {
		ts, evs := transcripts.With(t, provider.Config{}, tree)
		ids := modelCalls(evs)
		accounted(t, tree, evs)
		startedBy := map[string]string{} // session NUL agent → the call whose result names it
		for _, ev := range evs {
			if ev.Kind == agt.KindToolResult && ev.Meta != nil && ev.Meta.Agent != "" {
				startedBy[ev.Session+"\x00"+ev.Meta.Agent] = ev.Result.ID
			}
		}
		for _, tr := range ts {
			convs := map[string][]transcript.Message{agt.StreamMain: tr.Messages}
			started := ""
			for _, s := range tr.Subagents {
				convs[s.Stream] = s.Messages
				if s.StartedAt < started {
					t.Errorf("%s: session %s: subagent %s started at %s, listed after one started at %s", rel(root, tree), tr.NativeSession, s.Stream, s.StartedAt, started)
				}
				started = s.StartedAt
				_, agent, _ := strings.Cut(s.Stream, ":")
				if want := startedBy[tr.Session+"\x00"+agent]; s.ToolCallID != want {
					t.Errorf("%s: session %s: subagent %s has tool_call_id %q, want %q", rel(root, tree), tr.NativeSession, s.Stream, s.ToolCallID, want)
				} else if want != "" {
					linked++
				}
			}
			if len(tr.Subagents) == 0 {
				continue
			}
			for stream, ms := range convs {
				want := ids[tr.Session+"\x00"+stream]
				got := 0
				last := ""
				for _, m := range ms {
					if m.Role == transcript.RoleAssistant {
						got++
					}
					if stream != agt.StreamMain && m.TS != "" && m.TS < last {
						t.Errorf("%s: session %s stream %s: message %d at %s comes after one at %s", rel(root, tree), tr.NativeSession, stream, m.Index, m.TS, last)
					}
					last = max(last, m.TS)
				}
				if want < 0 {
					continue
				}
				if got != want {
					t.Errorf("%s: session %s stream %s: %d assistant messages for %d model calls", rel(root, tree), tr.NativeSession, stream, got, want)
				}
				if stream != agt.StreamMain {
					subs++
				}
				calls += want
			}
		}
	}
	if subs == 0 || linked == 0 {
		t.Fatalf("%d subagents in the corpus trees, %d linked to their tool call", subs, linked)
	}
	t.Logf("%d trees, %d subagents (%d with the tool call that started them), %d model calls each one assistant message", len(trees), subs, linked, calls)
}

// accounted checks that every non-blank line of every file read under
// tree names an event (its src).
func accounted(t *testing.T, tree string, evs []agt.Event) {
	seen := map[agt.Src]bool{}
	read := map[string]bool{}
	for _, ev := range evs {
		seen[agt.Src{Path: ev.Src.Path, Line: ev.Src.Line}] = true
		read[ev.Src.Path] = true
	}
	filepath.WalkDir(tree, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !read[path] { // a walked file no provider claims is left out
			return err
		}
		for i, line := range strings.Split(string(readBytes(t, path)), "\n") {
			if strings.TrimSpace(line) != "" && !seen[agt.Src{Path: path, Line: int64(i + 1)}] {
				t.Errorf("%s:%d names no event", path, i+1)
			}
		}
		return nil
	})
}

// modelCalls counts the distinct model calls (message ids of assistant,
// reasoning and tool call events) per session NUL stream; negative for a
// stream with events that name no call.
func modelCalls(evs []agt.Event) map[string]int {
	seen := map[string]bool{}
	n := map[string]int{}
	for _, ev := range evs {
		switch ev.Kind {
		case agt.KindAssistant, agt.KindReasoning, agt.KindToolCall:
		default:
			continue
		}
		k := ev.Session + "\x00" + ev.Stream
		if ev.MessageID == "" { // records without message ids (a sanitized fixture): calls not told apart
			n[k] = -1 << 30
			continue
		}
		if id := k + "\x00" + ev.MessageID; !seen[id] {
			seen[id] = true
			n[k]++
		}
	}
	return n
}

type provRow struct{ file, repo, orig string }

// provenance lists the corpus files under prefix with their repository
// (and commit) and original path.
func provenance(t *testing.T, dir, prefix string) []provRow {
	f, err := os.Open(filepath.Join(dir, "PROVENANCE.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []provRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		c := strings.Split(sc.Text(), "\t")
		if len(c) < 4 || !strings.HasPrefix(c[0], prefix) || strings.Contains(c[3], "..") {
			continue
		}
		rows = append(rows, provRow{c[0], strings.ReplaceAll(c[1], "/", "_") + "@" + c[2], c[3]})
	}
	return rows
}

// subagentFiles writes, when the session file at path has progress mirrors
// of subagent records, that file as dir/<sessionId>.jsonl and each mirrored
// subagent's file as dir/<sessionId>/subagents/agent-<agentId>.jsonl (see
// TestCorpusSubagentTrees), and tells whether it did.
func subagentFiles(t *testing.T, path, dir string) bool {
	data := readBytes(t, path)
	type mirror struct {
		Type      string          `json:"type"`
		UUID      string          `json:"uuid"`
		Timestamp string          `json:"timestamp"`
		RequestID string          `json:"requestId"`
		Message   json.RawMessage `json:"message"`
	}
	var sid string
	files := map[string]*strings.Builder{}
	var agents []string
	calls := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		var r struct {
			SessionID string `json:"sessionId"`
			Type      string `json:"type"`
			Cwd       string `json:"cwd"`
			Version   string `json:"version"`
			Data      *struct {
				Type    string  `json:"type"`
				AgentID string  `json:"agentId"`
				Message *mirror `json:"message"`
			} `json:"data"`
		}
		if json.Unmarshal([]byte(line), &r) != nil {
			continue
		}
		if sid == "" {
			sid = r.SessionID
		}
		if r.Type != "progress" || r.Data == nil || r.Data.Type != "agent_progress" || r.Data.Message == nil || r.Data.Message.UUID == "" {
			continue
		}
		m := r.Data.Message
		b := files[r.Data.AgentID]
		if b == nil {
			b = &strings.Builder{}
			files[r.Data.AgentID] = b
			agents = append(agents, r.Data.AgentID)
		}
		rec := func(uuid, ts string, msg json.RawMessage) {
			out, err := json.Marshal(map[string]any{
				"isSidechain": true, "userType": "external", "cwd": r.Cwd, "sessionId": r.SessionID, "version": r.Version,
				"agentId": r.Data.AgentID, "type": m.Type, "message": msg, "requestId": m.RequestID, "uuid": uuid, "timestamp": ts,
			})
			if err != nil {
				t.Fatal(err)
			}
			b.Write(out)
			b.WriteByte('\n')
		}
		var msg map[string]json.RawMessage
		if m.Type == "assistant" && json.Unmarshal(m.Message, &msg) == nil {
			var id string
			json.Unmarshal(msg["id"], &id)
			if id != "" && !calls[id] { // the call's text line, before its first mirrored one
				calls[id] = true
				at, err := time.Parse(time.RFC3339Nano, m.Timestamp)
				if err != nil {
					t.Fatalf("%s: mirror timestamp %q", path, m.Timestamp)
				}
				msg["content"] = json.RawMessage(`[{"type":"text","text":"Text of ` + id + `."}]`)
				text, _ := json.Marshal(msg)
				rec("text-"+m.UUID, at.Add(-time.Millisecond).UTC().Format("2006-01-02T15:04:05.000Z"), text)
			}
		}
		rec(m.UUID, m.Timestamp, m.Message)
	}
	if len(agents) == 0 || sid == "" {
		return false
	}
	writeFile(t, filepath.Join(dir, sid+".jsonl"), data)
	for _, a := range agents {
		writeFile(t, filepath.Join(dir, sid, "subagents", "agent-"+a+".jsonl"), []byte(files[a].String()))
	}
	return true
}

func readBytes(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeFile(t *testing.T, path string, data []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func rel(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}
