package agt

import (
	"bytes"
	"math"
	"strconv"
)

// Count is a token count as an agent's log writes it. A JSON integer is
// read as it is; an integral number written otherwise (100.0, 1e3) or a
// string holding one ("12"), as some proxies and older releases write
// them, is read as its value. Anything else — true, 1.5, 2^64, a negative
// count, a word — is BadCount: the usage it is part of is then not
// emitted as figures but as an error event (Usage.Check), never as a 0
// that the log did not say.
type Count int64

// BadCount is a Count the log's value could not give. It is far enough
// below zero that the sums and differences a provider makes of a few
// counts stay far outside 0…2^53, where Usage.Check finds them (BadFigure),
// and close enough that they do not wrap around.
const BadCount Count = -(1 << 60)

// BadFigure tells whether a usage figure was made from a BadCount.
func BadFigure(n int64) bool { return n <= -(1<<59) || n >= 1<<59 && n < 1<<62 }

// UnmarshalJSON reads a count; it never fails, so that the record's other
// fields are read.
func (c *Count) UnmarshalJSON(b []byte) error {
	*c = parseCount(b)
	return nil
}

func parseCount(b []byte) Count {
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		if n < 0 || n > MaxCount {
			return BadCount
		}
		return Count(n)
	}
	if bytes.Equal(b, []byte("null")) {
		return 0
	}
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		b = b[1 : len(b)-1]
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || f != math.Trunc(f) || f < 0 || f > MaxCount {
		return BadCount
	}
	return Count(f)
}

// Uncached is the input of a call whose log counts its cached tokens
// within its input: input less the cache counts, never below 0 (a log
// that counts them apart gives more cache than input), and bad when a
// count is.
func Uncached(input Count, cache ...Count) int64 {
	in := input
	for _, c := range cache {
		if c == BadCount {
			return int64(BadCount)
		}
		in -= c
	}
	if input == BadCount {
		return int64(BadCount)
	}
	return int64(max(in, 0))
}

// Taint makes u a usage Check refuses when one of the counts it was made
// from is bad, for a count that reaches no figure of its own (a total that
// only decides how the others are read).
func Taint(u *Usage, cs ...Count) {
	for _, c := range cs {
		if c == BadCount {
			u.Input = int64(BadCount)
			return
		}
	}
}
