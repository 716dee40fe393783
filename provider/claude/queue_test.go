package claude_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/provider/providertest/transcripts"
	"github.com/agt-project/agt/transcript"
)

// Records in the shapes Claude Code 2.1.x writes them (see
// entirecli__f4-49058a5889-0.jsonl, agentsessions__claude-small-2.1.80.jsonl).
const qsid = "3c1e9d7a-0000-4000-8000-000000000001"

func qts(n int) string { return fmt.Sprintf("2026-02-15T03:58:%02d.000Z", n) }

func enqueue(n int, text string) string {
	return fmt.Sprintf(`{"type":"queue-operation","operation":"enqueue","timestamp":%q,"sessionId":%q,"content":%q}`, qts(n), qsid, text)
}

func queueOp(n int, op string) string {
	return fmt.Sprintf(`{"type":"queue-operation","operation":%q,"timestamp":%q,"sessionId":%q}`, op, qts(n), qsid)
}

func env(n int) string {
	return fmt.Sprintf(`"isSidechain":false,"userType":"external","cwd":"/w","sessionId":%q,"version":"2.1.42","gitBranch":"main","uuid":"u%d","timestamp":%q`, qsid, n, qts(n))
}

func userText(n int, text string) string {
	return fmt.Sprintf(`{"parentUuid":null,%s,"type":"user","message":{"role":"user","content":%q}}`, env(n), text)
}

func toolUse(n int, msg, id string) string {
	return fmt.Sprintf(`{"parentUuid":null,%s,"type":"assistant","requestId":"req_%s","message":{"model":"claude-opus-4-6","id":%q,"type":"message","role":"assistant","content":[{"type":"tool_use","id":%q,"name":"Bash","input":{"command":"ls"}}],"stop_reason":null,"usage":{"input_tokens":3,"cache_creation_input_tokens":10,"cache_read_input_tokens":100,"output_tokens":5}}}`, env(n), msg, msg, id)
}

func toolResult(n int, id string) string {
	return fmt.Sprintf(`{"parentUuid":null,%s,"type":"user","message":{"role":"user","content":[{"tool_use_id":%q,"type":"tool_result","content":"ok","is_error":false}]},"toolUseResult":{"stdout":"ok","stderr":"","interrupted":false,"isImage":false}}`, env(n), id)
}

func answer(n int, msg, text string) string {
	return fmt.Sprintf(`{"parentUuid":null,%s,"type":"assistant","requestId":"req_%s","message":{"model":"claude-opus-4-6","id":%q,"type":"message","role":"assistant","content":[{"type":"text","text":%q}],"stop_reason":"end_turn","usage":{"input_tokens":3,"cache_creation_input_tokens":10,"cache_read_input_tokens":100,"output_tokens":7}}}`, env(n), msg, msg, text)
}

func queued(n int, prompt string) string {
	return fmt.Sprintf(`{"parentUuid":null,%s,"type":"attachment","attachment":{"type":"queued_command","prompt":%s,"commandMode":"prompt","timestamp":%q}}`, env(n), prompt, qts(n))
}

// TestQueuedPrompts: a prompt typed while a tool runs is a user message
// with its text, where the agent took it, once.
func TestQueuedPrompts(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  string // the messages: role and text or tool calls
	}{
		{"taken into the turn (remove)", []string{
			userText(1, "fix it"), toolUse(2, "m1", "t1"), enqueue(3, "only one way, please"),
			toolResult(4, "t1"), queueOp(5, "remove"), answer(6, "m2", "Good point."),
		}, "user:fix it | assistant:[t1] | user:only one way, please | assistant:Good point."},
		{"a turn of its own (dequeue, then its user record)", []string{
			userText(1, "fix it"), answer(2, "m1", "Done."), enqueue(3, "and the tests"),
			queueOp(4, "dequeue"), userText(5, "and the tests"), answer(6, "m2", "Tests pass."),
		}, "user:fix it | assistant:Done. | user:and the tests | assistant:Tests pass."},
		{"taken, with a queued_command attachment", []string{
			userText(1, "fix it"), toolUse(2, "m1", "t1"), enqueue(3, "only one way"),
			toolResult(4, "t1"), queueOp(5, "remove"), queued(6, `"only one way"`), answer(7, "m2", "OK."),
		}, "user:fix it | assistant:[t1] | user:only one way | assistant:OK."},
		{"attachment before the remove", []string{
			userText(1, "fix it"), toolUse(2, "m1", "t1"), enqueue(3, "only one way"),
			toolResult(4, "t1"), queued(5, `"only one way"`), queueOp(6, "remove"), answer(7, "m2", "OK."),
		}, "user:fix it | assistant:[t1] | user:only one way | assistant:OK."},
		{"attachment alone, text and image blocks", []string{
			userText(1, "fix it"), toolUse(2, "m1", "t1"), toolResult(3, "t1"),
			queued(4, `[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"}},{"type":"text","text":"see this"}]`),
			answer(5, "m2", "I see."),
		}, "user:fix it | assistant:[t1] | user:see this | assistant:I see."},
		{"a turn of its own, written as the attachment and its user record", []string{
			userText(1, "fix it"), answer(2, "m1", "Done."), queued(3, `"and the tests"`),
			userText(4, "and the tests"), answer(5, "m2", "Tests pass."),
		}, "user:fix it | assistant:Done. | user:and the tests | assistant:Tests pass."},
		{"the same words typed again later", []string{
			userText(1, "go on"), toolUse(2, "m1", "t1"), toolResult(3, "t1"), queued(4, `"go on"`),
			answer(5, "m2", "Going."), userText(6, "go on"), answer(7, "m3", "Still going."),
		}, "user:go on | assistant:[t1] | user:go on | assistant:Going. | user:go on | assistant:Still going."},
		{"a background task's notification (agentsview's fixture shape)", []string{
			userText(1, "fix it"), toolUse(2, "m1", "t1"), toolResult(3, "t1"),
			queued(4, `"<task-notification>\n<task-id>a29fa76dc1fa3212f</task-id>\n<status>completed</status>\n</task-notification>"`),
			answer(5, "m2", "The task is done."),
		}, "user:fix it | assistant:[t1] | system:<task-notification>\n<task-id>a29fa76dc1fa3212f</task-id>\n<status>completed</status>\n</task-notification> | assistant:The task is done."},
		{"never taken", []string{
			userText(1, "fix it"), answer(2, "m1", "Done."), enqueue(3, "later"),
		}, "user:fix it | assistant:Done."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), qsid+".jsonl")
			write(t, path, strings.Join(c.lines, "\n")+"\n")
			var got []string
			for _, m := range transcripts.Messages(transcripts.Of(t, path)) {
				got = append(got, m.Role+":"+describe(m))
			}
			if g := strings.Join(got, " | "); g != c.want {
				t.Errorf("messages\n got  %s\n want %s", g, c.want)
			}
		})
	}
}

func describe(m transcript.Message) string {
	if len(m.ToolCalls) > 0 {
		var ids []string
		for _, c := range m.ToolCalls {
			ids = append(ids, c.ID)
		}
		return "[" + strings.Join(ids, ",") + "]"
	}
	return m.Text.Str()
}

// TestCorpusQueuedPrompts: in the real sessions with queue-operation
// records, each prompt enqueued and then removed (taken into the turn under
// way) is a user message of the transcript.
func TestCorpusQueuedPrompts(t *testing.T) {
	dir := filepath.Join(providertest.CorpusDir(t), "claude")
	cases := map[string][]string{
		"entirecli__f4-49058a5889-0.jsonl": {"there should be only _one_ way for us to get the git author in this codebase"},
		"entirecli__5c-5cb639eac4-0.jsonl": {"were we including the tool responses as well?"},
		"agentv__1e-d266d094ed-0.jsonl":    {"why did you not claim the issue (i needed to do it for you manually). isn't this clear enough in CLAUDE.md"},
	}
	for _, f := range []string{"entirecli__f4-49058a5889-0.jsonl", "entirecli__5c-5cb639eac4-0.jsonl", "agentv__1e-d266d094ed-0.jsonl"} {
		users := map[string]int{}
		for _, m := range transcripts.Messages(transcripts.Of(t, filepath.Join(dir, f))) {
			if m.Role == transcript.RoleUser {
				users[m.Text.Str()]++
			}
		}
		for _, want := range cases[f] {
			if users[want] != 1 {
				t.Errorf("%s: the queued prompt %q is %d user messages, want 1", f, want, users[want])
			}
		}
	}
}
