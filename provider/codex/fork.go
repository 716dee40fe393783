package codex

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/zeebo/xxh3"
)

// A fork's rollout (codex fork, Esc-Esc backtrack, app-server thread/fork,
// a sub-agent spawned with the parent's context) starts with the new
// thread's session_meta, then the parent's rollout items as Codex read them
// back: the parent's own session_meta first, every line re-serialized and
// stamped with the time of the copy. Nothing is written where the copy
// ends. The copied lines are records of the parent: their events belong to
// the parent's session, keyed by their content, so that reading the parent
// beside the fork (or two forks of one parent) meets the same record ids
// twice and counts them once.

// copyGap is the longest pause between two lines of one copy: Codex writes
// a copied history in one go, so a longer pause is the fork's own first
// turn.
const copyGap = time.Second

// maxCopies bounds the copies held one in another (a fork of a fork …):
// a deeper one takes the place of the innermost.
const maxCopies = 32

// section is a thread whose lines are being read: the file's own (the
// first) or one whose history the file copied.
type section struct {
	thread  string
	stream  string
	created int64 // unix ms the thread was created (its session_meta), 0 unknown
}

// sections is the stack of threads in effect: the file's own, then the
// copies being read, innermost last. A copy of a fork holds the fork's
// copy of its own parent: both heads are there, outermost first.
type sections struct {
	stack  []section
	lastMS int64 // the time of the previous line, 0 unknown
}

// top is the thread of the current line.
func (s *sections) top() *section { return &s.stack[len(s.stack)-1] }

// copying reports a copied section in effect.
func (s *sections) copying() bool { return len(s.stack) > 1 }

// index is the position of thread in the stack, -1 if not in it.
func (s *sections) index(thread string) int {
	for i := len(s.stack) - 1; i >= 0; i-- {
		if s.stack[i].thread == thread {
			return i
		}
	}
	return -1
}

// line ends the copies a line of time ms (0: unknown) cannot be part of:
// all of them after a pause longer than copyGap (a copy is written in one
// go); those created before the turn the line belongs to was started (turn
// ids are UUIDv7: a turn started after a thread copied a history is not in
// that copy).
func (s *sections) line(ms, turn int64) {
	if s.copying() && ms > 0 && s.lastMS > 0 && ms-s.lastMS > copyGap.Milliseconds() {
		s.stack = s.stack[:1]
	}
	for turn > 0 && s.copying() {
		if c := s.stack[len(s.stack)-2].created; c == 0 || turn < c {
			break
		}
		s.stack = s.stack[:len(s.stack)-1]
	}
	if ms > 0 {
		s.lastMS = ms
	}
}

// spawnedText opens the output Codex gives, in a sub-agent's copy of its
// parent's history, to the parent's call that spawned it: the last line of
// the copy is the sub-agent's own (the parent's call gets its own output).
const spawnedText = "You are the newly spawned agent. The prior conversation history was forked from your parent agent."

// spawned reports that line r (rec) is the output a spawned sub-agent's
// copy ends with: a function_call_output that holds spawnedText (its
// output does, when the line is decoded; the line, when it is skimmed: the
// text has no character JSON escapes).
func spawned(r *rolloutLine, rec []byte) bool {
	if r.Type != "response_item" || r.Payload.Type != "function_call_output" {
		return false
	}
	if r.skim {
		return bytes.Contains(rec, []byte(spawnedText))
	}
	return bytes.Contains(r.Payload.Output, []byte(spawnedText))
}

// v7ms is the creation time of a UUIDv7 (unix ms), 0 for anything else.
func v7ms(id string) int64 {
	if len(id) != 36 || id[14] != '7' {
		return 0
	}
	u, err := uuid.Parse(id)
	if err != nil || u.Version() != 7 {
		return 0
	}
	return int64(u[0])<<40 | int64(u[1])<<32 | int64(u[2])<<24 | int64(u[3])<<16 | int64(u[4])<<8 | int64(u[5])
}

// unixMS is a timestamp in unix ms, 0 when it is not one.
func unixMS(ts string) int64 {
	if ms, ok := layoutMS(ts); ok {
		return ms
	}
	if ts == "" {
		return 0
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

// layoutMS reads ts in the layout Codex writes (tsLayout: every line's
// time, read for every line) without time.Parse; ok is false for any
// other text, and for a date or time out of range, which unixMS leaves to
// time.Parse.
func layoutMS(ts string) (ms int64, ok bool) {
	if len(ts) != len(tsLayout) || ts[4] != '-' || ts[7] != '-' || ts[10] != 'T' || ts[13] != ':' || ts[16] != ':' || ts[19] != '.' || ts[23] != 'Z' {
		return 0, false
	}
	num := func(i, j int) int {
		n := 0
		for ; i < j; i++ {
			c := ts[i]
			if c < '0' || c > '9' {
				ok = false
				return 0
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	ok = true
	y, mo, d := num(0, 4), num(5, 7), num(8, 10)
	h, mi, s, milli := num(11, 13), num(14, 16), num(17, 19), num(20, 23)
	if !ok || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59 {
		return 0, false
	}
	if d > 28 && time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC).Day() != d { // no such day
		return 0, false
	}
	return time.Date(y, time.Month(mo), d, h, mi, s, milli*1e6, time.UTC).UnixMilli(), true
}

// content is what a rollout line holds beside the time it was written: the
// line without its leading "timestamp" member and Codex's "ordinal"
// (Codex writes both first), so that a copied line and its original give
// the same.
func content(line []byte) []byte {
	line = bytes.TrimSpace(line)
	const ts = `{"timestamp":"`
	if !bytes.HasPrefix(line, []byte(ts)) {
		return line
	}
	rest := line[len(ts):]
	i := bytes.IndexByte(rest, '"')
	if i < 0 || i+1 >= len(rest) || rest[i+1] != ',' {
		return line
	}
	rest = rest[i+2:]
	const ord = `"ordinal":`
	if bytes.HasPrefix(rest, []byte(ord)) {
		j := len(ord)
		for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == '-') {
			j++
		}
		if j < len(rest) && rest[j] == ',' {
			rest = rest[j+1:]
		}
	}
	return rest
}

// contentSum is the start of the XXH3-128 of a line's content, computed in
// Decode (in parallel) for contentKeys. The hash tells copies of a line
// from other lines; it is not cryptographic (SHA-256 took a tenth of a
// Codex run's CPU): a line made on purpose to collide with another of its
// session would be taken for a copy of it.
func contentSum(line []byte) (s [12]byte) {
	sum := xxh3.Hash128(content(line)).Bytes()
	copy(s[:], sum[:])
	return s
}

// contentKeys gives the records of a rollout keys made of their content:
// "c" and 24 hex digits of its XXH3-128, then "#n" for the n-th line of the
// same content in one session (a repeated count, a message said twice).
// Past maxKeys contents, a content not seen before is told apart by its
// line number instead ("@n"), so that memory stays bounded. A content is
// counted by the first 8 bytes of its sum (12 bytes an entry, not 32):
// two contents alike in those would only number the second "#2", its
// key still its own.
type contentKeys struct {
	seen map[string]map[uint64]int32 // by session
	n    int                         // contents seen
}

const maxKeys = 1 << 20

func (k *contentKeys) key(session string, sum [12]byte, n int64) string {
	if k.seen == nil {
		k.seen = map[string]map[uint64]int32{}
	}
	m := k.seen[session]
	if m == nil {
		m = map[uint64]int32{}
		k.seen[strings.Clone(session)] = m
	}
	s := binary.LittleEndian.Uint64(sum[:8])
	key := "c" + hex.EncodeToString(sum[:])
	c, ok := m[s]
	if !ok && k.n >= maxKeys {
		return key + "@" + strconv.FormatInt(n, 10)
	}
	if !ok {
		k.n++
	}
	c++
	m[s] = c
	if c > 1 {
		key += "#" + strconv.Itoa(int(c))
	}
	return key
}
