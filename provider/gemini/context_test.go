package gemini_test

import (
	"strings"
	"testing"

	"github.com/agt-project/agt"
)

// TestSessionContext checks that the turns Gemini CLI puts into the model's
// history itself, which a session log holds only in a $set checkpoint (the
// <session_context> block, a compression summary), are system events that
// keep their text, never user messages; a prompt recorded on its own line
// stays a user message when a checkpoint repeats it.
func TestSessionContext(t *testing.T) {
	log := `{"sessionId":"s-1","projectHash":"h","startTime":"2026-05-01T00:00:00.000Z","lastUpdated":"2026-05-01T00:00:00.000Z","kind":"main"}
{"$set":{"messages":[{"id":"c0","timestamp":"2026-05-01T00:00:00.100Z","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI.\n</session_context>"}]}],"lastUpdated":"2026-05-01T00:00:00.100Z"}}
{"id":"u1","timestamp":"2026-05-01T00:00:01.000Z","type":"user","content":[{"text":"list the files"}]}
{"id":"g1","timestamp":"2026-05-01T00:00:02.000Z","type":"gemini","content":"a b","model":"m","tokens":{"input":10,"output":2,"cached":0,"thoughts":0,"tool":0,"total":12}}
{"$set":{"messages":[{"id":"c0","timestamp":"2026-05-01T00:00:00.100Z","type":"user","content":[{"text":"<session_context>\nThis is the Gemini CLI.\n</session_context>"}]},{"id":"s1","timestamp":"2026-05-01T00:00:03.000Z","type":"user","content":[{"text":"<state_snapshot>what was done</state_snapshot>"}]},{"id":"u1","timestamp":"2026-05-01T00:00:01.000Z","type":"user","content":[{"text":"list the files"}]}],"lastUpdated":"2026-05-01T00:00:03.000Z"}}
`
	evs, _, st := parse(t, write(t, "session-2026-05-01T00-00-s-1.jsonl", log))
	if st.Errors != 0 || st.Unknown != 0 {
		t.Errorf("errors %d unknown %d", st.Errors, st.Unknown)
	}
	var users, context []string
	for _, ev := range evs {
		switch ev.Kind {
		case agt.KindUser:
			users = append(users, ev.Text.Str())
		case agt.KindSystem:
			context = append(context, ev.Text.Str()+"@"+ev.Src.Ptr)
			if ev.Meta == nil || ev.Meta.Type != "user" || ev.Meta.Subtype != "context" {
				t.Errorf("context event meta %+v", ev.Meta)
			}
		}
	}
	if strings.Join(users, "|") != "list the files" {
		t.Errorf("user messages %q, want only the typed prompt", users)
	}
	want := "<session_context>\nThis is the Gemini CLI.\n</session_context>@/$set/messages/0|<state_snapshot>what was done</state_snapshot>@/$set/messages/1"
	if strings.Join(context, "|") != want {
		t.Errorf("context events %q\nwant %q", context, want)
	}
}

// TestDisplayedInput checks the user messages whose displayContent shows
// that the CLI, not the person, wrote their content: a slash command's
// prompt (the command stays a slash_command event) and a request with no
// text displayed. A display with text (an @file prompt) stays the person's.
func TestDisplayedInput(t *testing.T) {
	log := `{"sessionId":"s-2","projectHash":"h","startTime":"2026-05-01T00:00:00.000Z","lastUpdated":"2026-05-01T00:00:00.000Z"}
{"id":"u1","timestamp":"2026-05-01T00:00:01.000Z","type":"user","content":[{"text":"You are an agent; write GEMINI.md"}],"displayContent":[{"text":"/init"}]}
{"id":"u2","timestamp":"2026-05-01T00:00:02.000Z","type":"user","content":[{"text":"System: Please continue."}],"displayContent":[{"functionResponse":{"id":"f1","name":"update_topic","response":{"output":"ok"}}}]}
{"id":"u3","timestamp":"2026-05-01T00:00:03.000Z","type":"user","content":[{"text":"explain @a.go"},{"text":"--- a.go ---\npackage a"}],"displayContent":[{"text":"explain @a.go"}]}
{"id":"u4","timestamp":"2026-05-01T00:00:04.000Z","type":"user","content":"thanks","displayContent":null}
`
	evs, _, _ := parse(t, write(t, "session-2026-05-01T00-00-s-2.jsonl", log))
	var got []string
	for _, ev := range evs {
		if ev.Text != nil {
			got = append(got, ev.Kind+":"+ev.Text.Str())
		}
	}
	want := "slash_command:/init|system:You are an agent; write GEMINI.md|system:System: Please continue.|user:explain @a.go--- a.go ---\npackage a|user:thanks"
	if strings.Join(got, "|") != want {
		t.Errorf("got  %q\nwant %q", strings.Join(got, "|"), want)
	}
}
