package agt

import "math/bits"

// masks64 reads the 64 bytes at p into masks, bit i for byte i: bs its
// backslashes, ctl its bytes below 0x20 (SSE2, which every amd64
// processor has).
//
//go:noescape
func masks64(p *byte) (bs, ctl uint64)

// scanEscapes reads b's escapes (a backslash and what follows it) and
// returns the first that JSON does not allow; ctl tells whether b holds a
// byte below 0x20. It reads 64 bytes at a time as masks: the escaped
// bytes (those after a backslash that escapes) come from the backslashes'
// mask by arithmetic (escaped), so that a run of backslashes costs no
// step of its own, and each escaped byte is looked up once. In text that
// quotes code one byte in twenty is a backslash, too many for a search
// per escape.
func scanEscapes(b []byte) (ctl bool, err error) {
	n := len(b)
	var ctls, carry uint64
	var pad [64]byte
	for off := 0; off < n; off += 64 {
		p, in := b[off:], ^uint64(0)
		if len(p) < 64 { // the last bytes, padded with zeros
			copy(pad[:], p)
			p, in = pad[:], 1<<uint(len(p))-1
		}
		bs, c := masks64(&p[0])
		ctls |= c & in
		for e := escaped(bs&in, &carry); e != 0; e &= e - 1 {
			// a one-letter escape passes; a \u, a byte that is no
			// escape's letter, or the end (the text ends in a
			// backslash) is read whole
			if i := off + bits.TrailingZeros64(e); i >= n || escape[b[i]] != 1 {
				if _, err := escapeAt(b, i-1); err != nil {
					return false, err
				}
			}
		}
	}
	if carry != 0 { // the last byte escapes what is not there
		_, err := escapeAt(b, n-1)
		return false, err
	}
	return ctls != 0, nil
}

// escaped returns the bits of the bytes that follow a backslash that
// escapes them, given the backslashes of 64 bytes; carry says that the
// first byte is escaped by the bytes before, and is set for the next 64.
// In a run of backslashes the first escapes the second, the third the
// fourth, and so on: the escaped bytes are those after a backslash whose
// place has the parity opposite to the run's start. Adding a run's start
// to the run clears it; done for the runs that start on an odd place, it
// tells the two kinds of run apart.
func escaped(bs uint64, carry *uint64) uint64 {
	const even = 0x5555555555555555
	bs &^= *carry // an escaped backslash escapes nothing
	after := bs<<1 | *carry
	oddStarts := bs &^ even &^ after
	sum, c := bits.Add64(oddStarts, bs, 0)
	*carry = c
	return (even ^ sum<<1) & after
}
