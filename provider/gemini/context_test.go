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
