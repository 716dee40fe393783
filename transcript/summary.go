package transcript

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/agt-project/agt"
)

// Summary writes one readable line per message, tool call and result:
//
//	2026-01-28T22:26:46.793Z tool       Bash  git status
//	2026-01-28T22:26:46.842Z result     Bash  ok  On branch main
//
// Usage and meta events are left out. Colors are for terminals only.
type Summary struct {
	w     *bufio.Writer
	color bool
	names map[string]string // call event id → tool name
}

// NewSummary writes summary lines to w.
func NewSummary(w io.Writer, color bool) *Summary {
	return &Summary{w: bufio.NewWriter(w), color: color, names: map[string]string{}}
}

// labels of the event kinds shown, with their ANSI color.
var labels = map[string]struct{ text, color string }{
	agt.KindUser:         {"user", "32"},
	agt.KindAssistant:    {"assistant", "36"},
	agt.KindReasoning:    {"thinking", "90"},
	agt.KindToolCall:     {"tool", "33"},
	agt.KindToolResult:   {"result", "33"},
	agt.KindSystem:       {"system", "35"},
	agt.KindSummary:      {"summary", "35"},
	agt.KindSlashCommand: {"command", "32"},
	agt.KindError:        {"error", "31"},
	agt.KindUnknown:      {"unknown", "31"},
}

const width = 160

// Event writes the line of one event, if it has one.
func (s *Summary) Event(ev *agt.Event) error {
	l, ok := labels[ev.Kind]
	if !ok {
		return nil
	}
	ts := strings.Repeat(" ", 23) + "-"
	if ev.TS != "" {
		ts = agt.Printable(cut(oneLine(ev.TS), 40))
	}
	var body string
	switch {
	case ev.Kind == agt.KindToolCall && ev.Tool != nil:
		s.names[ev.ID] = ev.Tool.Name
		body = ev.Tool.Name + "  " + inputSummary(ev.Tool.Input)
	case ev.Kind == agt.KindToolResult && ev.Result != nil:
		r := ev.Result
		status := StatusOK
		if r.IsError {
			status = StatusError
			if r.ExitCode != nil {
				status += fmt.Sprintf(" (exit %d)", *r.ExitCode)
			}
		}
		name := s.names[r.Call]
		if name == "" {
			name = r.ID
		}
		body = name + "  " + status + "  " + oneLine(r.Output.Str())
	case ev.Kind == agt.KindError && ev.Error != nil:
		body = oneLine(ev.Error.Message)
	case ev.Kind == agt.KindUnknown:
		if ev.Meta != nil {
			body = oneLine(ev.Meta.Type)
		}
	case ev.Kind == agt.KindToolCall, ev.Kind == agt.KindToolResult, ev.Kind == agt.KindError:
		// no payload (an event made in-process): the label says enough
	default:
		body = oneLine(ev.Text.Str())
	}
	label := fmt.Sprintf("%-10s", l.text)
	if s.color {
		label = "\x1b[" + l.color + "m" + label + "\x1b[0m"
	}
	stream := ""
	if ev.Stream != agt.StreamMain && ev.Stream != "" {
		stream = "[" + oneLine(ev.Stream) + "] "
	}
	// everything but the label comes from the log: escaped, so that no
	// control character or escape sequence reaches a terminal
	_, err := fmt.Fprintf(s.w, "%s %s %s\n", ts, label, agt.Printable(stream+cut(body, width)))
	return err
}

// Flush writes out buffered lines.
func (s *Summary) Flush() error { return s.w.Flush() }

// inputFields are the canonical input fields that best say what a call does.
var inputFields = []string{"file_path", "command", "pattern", "path", "url", "query", "skill", "description", "prompt"}

func inputSummary(in agt.Raw) string {
	if len(in) == 0 {
		return ""
	}
	var m map[string]any
	if agt.API.Unmarshal(in, &m) == nil {
		for _, f := range inputFields {
			if v, ok := m[f].(string); ok && v != "" {
				return oneLine(v)
			}
		}
	}
	return oneLine(string(in))
}

// oneLine folds white space runs, line ends included, into one space
// (other control characters are left to agt.Printable).
func oneLine(s string) string {
	if len(s) > 4*width {
		s = strings.ToValidUTF8(s[:4*width], "")
	}
	return strings.Join(strings.Fields(s), " ")
}

func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
