package codex_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
)

// userItem is a response_item user message with the given text parts.
func userItem(texts ...string) string {
	var parts []string
	for _, t := range texts {
		parts = append(parts, `{"type":"input_text","text":"`+t+`"}`)
	}
	return `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[` + strings.Join(parts, ",") + `]}}`
}

// typed is the event_msg user_message Codex writes for what the person typed.
func typed(text string) string {
	return `{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"` + text + `","images":[]}}`
}

const (
	taskStarted  = `{"timestamp":"t","type":"event_msg","payload":{"type":"task_started","turn_id":"x"}}`
	taskComplete = `{"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","turn_id":"x"}}`
	reasoning    = `{"timestamp":"t","type":"response_item","payload":{"type":"reasoning","summary":[],"encrypted_content":"x"}}`
	agentSays    = `{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"ok"}}`
	assistant    = `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}}`
)

// kindsAndTexts lists each event as kind, or kind:text (line N) for text events.
func kindsAndTexts(evs []agt.Event) string {
	var got []string
	for _, ev := range evs {
		s := ev.Kind
		if ev.Text != nil {
			s += ":" + ev.Text.Str()
		}
		got = append(got, s)
	}
	return strings.Join(got, " ")
}

// TestInjectedByStructure checks that a user response_item with no
// user_message twin is context whatever its opening: a system event that
// keeps its text, never a user event; the twin of a user_message is a meta
// event, in either order.
func TestInjectedByStructure(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		want  string
	}{
		{"a new block before the first prompt", []string{
			meta("a", ""), taskStarted,
			userItem(`<some-new-context>\nrules</some-new-context>`), turnContext,
			userItem("do it"), typed("do it"), reasoning, agentSays, assistant, taskComplete,
		}, `meta meta meta system:<some-new-context>
rules</some-new-context> meta user:do it meta assistant:ok meta meta`},
		{"a block in a later turn, after the prompt", []string{
			meta("a", ""), userItem("one"), typed("one"), agentSays, assistant, taskComplete,
			taskStarted, turnContext, userItem("two"), typed("two"), userItem(`<plugin>\nuse it\n</plugin>`), reasoning, agentSays, assistant,
		}, `meta meta user:one assistant:ok meta meta meta meta meta user:two system:<plugin>
use it
</plugin> meta assistant:ok meta`},
		{"a block with no opening tag at all", []string{
			meta("a", ""), userItem(`Here is what the IDE shows.`), userItem("fix it"), typed("fix it"), agentSays,
		}, `meta system:Here is what the IDE shows. meta user:fix it assistant:ok`},
		{"the twin after its user_message, with an image", []string{
			meta("a", ""), typed("look"), taskStarted,
			`{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"look"},{"type":"input_image","image_url":"data:x"}]}}`,
			agentSays,
		}, `meta user:look meta meta assistant:ok`},
		{"an interrupted turn's note", []string{
			meta("a", ""), userItem("go"), typed("go"), agentSays,
			userItem(`<turn_aborted>\nstopped\n</turn_aborted>`), `{"timestamp":"t","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}`,
		}, `meta meta user:go assistant:ok system:<turn_aborted>
stopped
</turn_aborted> meta`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			evs, _ := parse(t, "rollout.jsonl", lines(c.lines...))
			if got := kindsAndTexts(evs); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			seen := map[int64]bool{}
			for _, ev := range evs {
				seen[ev.Src.Line] = true
			}
			for i := range c.lines {
				if !seen[int64(i+1)] {
					t.Errorf("line %d has no event", i+1)
				}
			}
		})
	}
}

// TestInjectedFallback checks rollouts that write no user_message at all
// (no structure to go by): their user response_items are the messages, and
// only the known openings of Codex's context blocks make system events.
func TestInjectedFallback(t *testing.T) {
	evs, _ := parse(t, "rollout.jsonl", lines(
		meta("a", ""),
		userItem(`<environment_context>\n  <cwd>/w</cwd>\n</environment_context>`),
		userItem("hello"),
		assistant,
		userItem("again"),
		`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c1"}}`,
	))
	want := `meta system:<environment_context>
  <cwd>/w</cwd>
</environment_context> user:hello assistant:ok user:again tool_call`
	if got := kindsAndTexts(evs); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestTypedClearedAtTurnEnd checks that a user_message left without its
// twin matches nothing after the turn ends, even when the line that ends
// it also decides a held item: the same text sent later by Codex itself
// is context.
func TestTypedClearedAtTurnEnd(t *testing.T) {
	evs, _ := parse(t, "rollout.jsonl", lines(
		meta("a", ""), typed("again"), agentSays,
		userItem(`<note>x</note>`), taskComplete,
		taskStarted, userItem("again"), reasoning,
	))
	want := "meta user:again assistant:ok system:<note>x</note> meta meta system:again meta"
	if got := kindsAndTexts(evs); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestInjectedTranscript checks the acceptance case through the transcript:
// a rollout with a made-up <some-new-context> block (no user_message twin)
// has one user message, the typed prompt, and the block as a system
// message with its text.
func TestInjectedTranscript(t *testing.T) {
	f := filepath.Join(t.TempDir(), "rollout-2026-01-01T00-00-00-a.jsonl")
	content := lines(
		meta("a", ""), taskStarted,
		userItem(`<some-new-context>\nrules</some-new-context>`), turnContext,
		userItem("do it"), typed("do it"), reasoning, agentSays, assistant, taskComplete,
	)
	if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := consolidate(t, f)
	if len(ts) != 1 {
		t.Fatalf("%d transcripts", len(ts))
	}
	var got []string
	for _, m := range ts[0].Messages {
		got = append(got, m.Role+":"+m.Text.Str())
	}
	want := "system:<some-new-context>\nrules</some-new-context>|user:do it|assistant:ok"
	if strings.Join(got, "|") != want {
		t.Errorf("messages %q\nwant %q", strings.Join(got, "|"), want)
	}
}
