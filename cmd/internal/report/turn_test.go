package report

import (
	"strings"
	"testing"

	"github.com/agt-project/agt"
)

// TestTurnView: a row per turn of each session, numbered as the
// transcript's turns (usage before the first prompt is turn 0 and the
// first prompt's turn 1), shown with the prompt on one line and cut; a tool
// result and injected context start no turn; a subagent's usage, read
// before its session's events, counts in the turn under way at its time.
func TestTurnView(t *testing.T) {
	ev := func(kind, stream, ts, text string) agt.Event {
		return agt.Event{Kind: kind, Session: "s", NativeSession: "s", Provider: "claude", Stream: stream, TS: ts, Text: agt.String(text)}
	}
	sub := usage("s", "2026-01-01T00:02:30Z", 1000)
	sub.Stream = "sidechain:a"
	main := func(ts string, in int64) agt.Event {
		u := usage("s", ts, in)
		u.Stream = agt.StreamMain
		return u
	}
	evs := []agt.Event{
		sub,
		ev(agt.KindSystem, agt.StreamMain, "2026-01-01T00:00:00Z", "instructions"),
		main("2026-01-01T00:00:01Z", 1),
		ev(agt.KindUser, agt.StreamMain, "2026-01-01T00:01:00Z", "fix\nthe "+strings.Repeat("x", 60)),
		main("2026-01-01T00:01:01Z", 10),
		{Kind: agt.KindToolResult, Session: "s", NativeSession: "s", Provider: "claude", Stream: agt.StreamMain, TS: "2026-01-01T00:01:02Z", Result: &agt.Result{ID: "t"}},
		ev(agt.KindSystem, agt.StreamMain, "2026-01-01T00:01:03Z", "<system-reminder>"),
		main("2026-01-01T00:01:04Z", 20),
		ev(agt.KindSlashCommand, agt.StreamMain, "2026-01-01T00:02:00Z", "/review"),
		main("2026-01-01T00:02:01Z", 100),
		ev(agt.KindUser, "sidechain:a", "2026-01-01T00:02:10Z", "a subagent's prompt"),
	}
	same(t, "by turn", rowsOf(t, Options{By: []string{Turn}}, evs...),
		"s #0: 1",
		"s #1 fix the "+strings.Repeat("x", turnPromptCut-8)+"…: 30",
		"s #2 /review: 1100",
	)
	// without context before the first prompt, the first prompt's turn is 0
	same(t, "no context", rowsOf(t, Options{By: []string{Turn}}, evs[3], evs[4], evs[8], evs[9]),
		"s #0 fix the "+strings.Repeat("x", turnPromptCut-8)+"…: 10",
		"s #1 /review: 100",
	)
	if _, err := ParseBy("turn,block"); err == nil {
		t.Error("--by turn,block taken")
	}
}
