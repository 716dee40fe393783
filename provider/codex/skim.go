package codex

import (
	"bytes"
	"unsafe"

	"github.com/agt-project/agt"
)

// A usage report (agt.Options.Usage) needs of a rollout its token counts
// (event_msg token_count), its models and folders (turn_context), its
// threads (session_meta) and, to place the copied histories of forks, the
// time and turn of every line (fork.go). The other lines, most of a
// rollout's bytes (messages, tool calls and outputs), are skimmed: their
// envelope and payload types and time are read (their turn only while a
// copied history is in effect, see turnOf), the line is checked for being
// a JSON object (agt.Check: a bad line is still an error event with its
// diagnostic, as in a full parse), and a payload type no table knows is
// still an unknown event. A skimmed line of a known type gives no event:
// a report writes none and reads none of its meta events, and making
// one a line was most of a report's work. The line is still counted
// (stats.Lines), and it still places the lines after it. Their texts,
// arguments and outputs are not decoded and their content is not hashed:
// the usage events, their ids and the folders are those of a full parse
// (TestUsageOnly).

// fullTypes are the envelope types (and "event_msg/" payload types) a
// usage report decodes whole.
var fullTypes = map[string]bool{
	"session_meta":          true,
	"turn_context":          true,
	"event_msg/token_count": true,
}

// skim reads a rollout line for a usage report. ok is false when the line
// must be decoded whole: a type a report reads (fullTypes), or a line
// whose head is not the envelope Codex writes ({"timestamp":…,
// ["ordinal":…,] "type":…, "payload":{"type":…), which skim does not
// guess at.
func skim(rec []byte) (r *skimLine, ok bool, err error) {
	h, ok, env := readHead(rec)
	if !ok && env && !fullTypes[h.typ] {
		return skimLater(rec, h)
	}
	if !ok || fullTypes[h.typ] || fullTypes[h.typ+"/"+h.payload] {
		return nil, false, nil
	}
	if err := agt.Check(rec); err != nil {
		return nil, true, err
	}
	// its turn and whether it ends a sub-agent's copy place the line
	// only while a copied history is read (fork.go): they are read then,
	// from the line (turnOf, spawned), not here for every line
	return (*skimLine)(&h), true, nil
}

// skimLater skims a line in the envelope whose payload does not open
// with its type (reasoning items, items that open with their id): the
// type is decoded, which checks the line as agt.Check does. A payload
// without a type of its own (a message item written without its tag, a
// compaction), a type a report reads, or a member of the wrong type leave
// the line to be decoded whole, as a full parse decodes it.
func skimLater(rec []byte, h head) (r *skimLine, ok bool, err error) {
	var v struct {
		Payload struct {
			Type string `json:"type"`
		} `json:"payload"`
	}
	switch err := agt.DecodeExact(rec, &v); {
	case err != nil && !agt.IsFieldError(err):
		return nil, true, err // not JSON: agt.Check's error
	case err != nil || v.Payload.Type == "" || fullTypes[h.typ+"/"+v.Payload.Type]:
		return nil, false, nil
	}
	h.payload = v.Payload.Type // shares rec's memory, as the head's strings do
	return (*skimLine)(&h), true, nil
}

// skimLine is what a usage report reads of a skimmed line: its head (the
// strings share the line's memory, as a decoded line's do). It is small,
// so that the lines most of a rollout's bytes are in cost an allocation
// of a few words each, not a rolloutLine's.
type skimLine head

// line is r as the rolloutLine Apply reads, in the parser's one scratch
// line (Apply runs on one goroutine and keeps nothing of it). Only the
// fields set here are ever set in the scratch line (nothing writes to a
// line in Apply): the others stay zero, as a skimmed line's are, without
// clearing its 1.2 KB for each line.
func (p *rolloutParser) line(r *skimLine) *rolloutLine {
	s := &p.scratch
	s.Timestamp, s.Type, s.Payload.Type, s.skim = r.ts, r.typ, r.payload, true
	return s
}

// turnOf is the turn a skimmed line names (payload.turn_id), read when
// the line may end a copied history.
func turnOf(rec []byte) string {
	if !bytes.Contains(rec, []byte(`"turn_id"`)) {
		return ""
	}
	var t struct {
		Payload struct {
			TurnID string `json:"turn_id"`
		} `json:"payload"`
	}
	agt.DecodeExact(rec, &t) // a turn of the wrong type is none (a report leaves field types unchecked: see agt.Check)
	return t.Payload.TurnID
}

// head is what readHead reads of a line.
type head struct{ ts, typ, payload string }

// readHead reads the head Codex writes on every rollout line:
// {"timestamp":"…",["ordinal":N,]"type":"…","payload":{"type":"…" (the
// strings without escapes). ok is false for any other shape; env tells
// that the head was read up to the payload's opening brace, and the
// payload opens with another member than its type (h.payload is then "").
func readHead(rec []byte) (h head, ok, env bool) {
	b := rec
	lit := func(s string) bool {
		if !bytes.HasPrefix(b, []byte(s)) {
			return false
		}
		b = b[len(s):]
		return true
	}
	str := func() (string, bool) {
		i := bytes.IndexByte(b, '"')
		if i < 0 || bytes.IndexByte(b[:i], '\\') >= 0 {
			return "", false
		}
		var s string
		if i > 0 {
			s = unsafe.String(&b[0], i) // shares rec's memory (see skimLine)
		}
		b = b[i+1:]
		return s, true
	}
	if !lit(`{"timestamp":"`) {
		return h, false, false
	}
	if h.ts, ok = str(); !ok || !lit(`,`) {
		return h, false, false
	}
	if lit(`"ordinal":`) {
		i := 0
		for i < len(b) && (b[i] >= '0' && b[i] <= '9' || b[i] == '-') {
			i++
		}
		b = b[i:]
		if !lit(`,`) {
			return h, false, false
		}
	}
	if !lit(`"type":"`) {
		return h, false, false
	}
	if h.typ, ok = str(); !ok || !lit(`,"payload":{`) {
		return h, false, false
	}
	if !lit(`"type":"`) {
		return h, false, true
	}
	if h.payload, ok = str(); !ok {
		return h, false, false
	}
	return h, true, true
}

// skimmed emits the event of a skimmed line: none, or an unknown one for
// a payload type the tables do not know.
func (p *rolloutParser) skimmed(em *agt.Emitter, r *rolloutLine) {
	if t := skimTables[r.Type]; t != nil && !t[r.Payload.Type] {
		em.Unknown(p.sess, p.stream, r.Type+"/"+r.Payload.Type)
	}
}

// skimTables are the payload types known under each envelope type whose
// handler dispatches on them.
var skimTables = map[string]map[string]bool{
	"response_item": keysOf(responseItems),
	"event_msg":     keysOf(eventMsgs),
}

func keysOf[V any](m map[string]V) map[string]bool {
	k := make(map[string]bool, len(m))
	for n := range m {
		k[n] = true
	}
	return k
}
