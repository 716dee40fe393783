package provider

import (
	"fmt"
	"strings"

	"github.com/agt-project/agt"
)

// FormatEvents is the format of input that is already agt.event/1 lines
// (the output of agt-parse or agt-normalize): it passes through, so that
// every filter accepts every upstream level.
const FormatEvents = agt.Schema

func isEvents(h agt.Head) bool {
	if len(h.Lines) == 0 {
		return false
	}
	var p struct {
		Schema string `json:"schema"`
	}
	return agt.Unmarshal(h.Lines[0], &p) == nil && p.Schema == agt.Schema
}

// events reads agt.event/1 lines.
type events struct{}

// Decode reads one event and checks it (agt.CheckEvent): a line that is
// not a usable event is an error event naming the line, never passed on.
func (events) Decode(rec []byte) (any, error) {
	ev := &agt.Event{}
	if err := agt.Decode(rec, ev); err != nil {
		if agt.IsFieldError(err) {
			return nil, fmt.Errorf("not an agt.event/1 line: %v", err)
		}
		return nil, err
	}
	if ev.Schema != agt.Schema {
		schema := ev.Schema
		if len(schema) > 64 {
			schema = strings.ToValidUTF8(schema[:64], "") + "…"
		}
		return nil, fmt.Errorf("not an agt.event/1 line (schema %q)", schema)
	}
	if err := agt.CheckEvent(ev); err != nil {
		return nil, fmt.Errorf("not a valid agt.event/1 line: %v", err)
	}
	if ev.TS != "" { // a time in RFC 3339, made UTC so that times sort as text
		ts := agt.Timestamp(ev.TS)
		if ts == "" {
			return nil, fmt.Errorf("not a valid agt.event/1 line: ts %q is not an RFC 3339 time", agt.Printable(ev.TS[:min(len(ev.TS), 64)]))
		}
		if ts != ev.TS {
			ev.TS, rec = ts, nil // written anew
		}
	}
	ev.Orig = rec
	return ev, nil
}

func (events) Apply(em *agt.Emitter, v any) { em.Pass(*v.(*agt.Event)) }
func (events) Finish(*agt.Emitter)          {}
