package report

import (
	"fmt"
	"strings"

	"github.com/agt-project/agt"
)

// Turn is the view of user turns: a row per turn of each session (what one
// prompt cost), numbered as the transcript's turns are (agt.transcript/1
// turns[].index) and shown with its prompt cut short.
const Turn = "turn"

// turnPromptCut is how many characters of its prompt a turn row shows.
const turnPromptCut = 40

// turns follows the user turns of a session: a turn starts at a prompt (a
// user or slash_command event of the main stream).
type turns struct {
	prompts []string // the prompts seen, cut short
	starts  []string // their times ("" when none)
	pre     bool     // the main stream had events before the first prompt
}

// turnOpens are the event kinds that start a turn.
var turnOpens = map[string]bool{agt.KindUser: true, agt.KindSlashCommand: true}

// turnBefore are the main-stream event kinds that, before the first
// prompt, make a turn of their own (the transcript's messages and usage).
var turnBefore = map[string]bool{agt.KindAssistant: true, agt.KindReasoning: true, agt.KindToolCall: true,
	agt.KindUsage: true, agt.KindSystem: true, agt.KindSummary: true, agt.KindError: true}

// followTurn notes ev in its session's turns.
func (r *Report) followTurn(ev *agt.Event) {
	if !r.byTurn || (ev.Stream != agt.StreamMain && ev.Stream != "") {
		return
	}
	s := r.session(ev)
	switch {
	case turnOpens[ev.Kind]:
		s.turns.prompts = append(s.turns.prompts, agt.Abbrev(strings.Join(strings.Fields(ev.Text.Str()), " "), turnPromptCut))
		s.turns.starts = append(s.turns.starts, strings.Clone(ev.TS))
	case len(s.turns.prompts) == 0 && turnBefore[ev.Kind]:
		s.turns.pre = true
	}
}

// at is the number of prompts before a main-stream usage event at stamp:
// those read so far, less those that came after its time (a log that
// writes a call's usage after the next prompt, as Gemini CLI's does: the
// call was the earlier turn's).
func (t *turns) at(stamp string) int {
	n := len(t.prompts)
	for n > 0 && stamp != "" && t.starts[n-1] != "" && stamp < t.starts[n-1] {
		n--
	}
	return n
}

// turnKey is the key of the turn after the n-th prompt of session s (0:
// before the first): its index, as the transcript numbers turns, NUL its
// prompt. Usage before the first prompt is a turn of its own when the main
// stream had events then; else (a warm-up subagent's) it counts in the
// first prompt's turn, as in the transcript.
func (s *session) turnKey(n int) string {
	if n == 0 && !s.turns.pre && len(s.turns.prompts) > 0 {
		n = 1
	}
	idx := n - 1
	if s.turns.pre {
		idx = n
	}
	idx = max(idx, 0)
	prompt := ""
	if n > 0 {
		prompt = s.turns.prompts[n-1]
	}
	return fmt.Sprintf("%08d\x00%s", idx, prompt)
}

// turnText is how a turn row's key (provider NUL native id NUL turnKey)
// shows: the native session id, the turn's index and its prompt.
func turnText(k string) string {
	parts := strings.SplitN(k, "\x00", 4)
	if len(parts) < 4 {
		return k
	}
	n := strings.TrimLeft(parts[2], "0")
	if n == "" {
		n = "0"
	}
	s := parts[1] + " #" + n
	if parts[3] != "" {
		s += " " + parts[3]
	}
	return s
}

// turnSep parts a cell's time bucket from its turn key.
const turnSep = "\x02"

// placeLate adds the subagents' usage kept aside to the cells of their
// turns: the turn under way at its time, the prompts' times known now
// that every event was read (a subagent's file may be read before its
// session's). Prompts without a time are passed over.
func (r *Report) placeLate() {
	for i := range r.late {
		c := &r.late[i]
		s := r.sessions[c.sess]
		n := 0
		for k, start := range s.turns.starts {
			if start != "" && start <= c.stamp {
				n = k + 1
			}
		}
		r.addCell(c.sess, r.bucket(c.ts, c.stamp)+turnSep+s.turnKey(n), c.model, c.stamp, &c.u)
	}
	r.late = nil
}

// showTurns turns the turn keys of sorted rows into their text.
func showTurns(by []string, rows []Row) {
	for i, v := range by {
		if v != Turn {
			continue
		}
		for j := range rows {
			rows[j].Keys[i] = turnText(rows[j].Keys[i])
		}
	}
}
