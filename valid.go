package agt

import (
	"bytes"
	"encoding/json"
)

// Valid reports whether b is one JSON value by the letter of RFC 8259: no
// control character inside a string. API.Valid lets such bytes through, and
// text an agent wrote as JSON (a tool's arguments) is embedded as it is, so
// it is checked with Valid first.
//
// It says what encoding/json's Valid says (FuzzValid), a string at a time
// rather than a byte at a time: a tool's arguments are mostly strings.
// A nesting deeper than validDepth is left to encoding/json.
func Valid(b []byte) bool {
	v := validator{b: b}
	i := v.value(skipWhite(b, 0), 0)
	if v.deep {
		return json.Valid(b)
	}
	return i >= 0 && skipWhite(b, i) == len(b)
}

// validDepth is the nesting Valid follows itself.
const validDepth = 512

type validator struct {
	b    []byte
	deep bool // nested deeper than validDepth
}

func skipWhite(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// value is the end of the JSON value at b[i], or -1.
func (v *validator) value(i, depth int) int {
	b := v.b
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '{' || c == '[':
		if depth >= validDepth {
			v.deep = true
			return -1
		}
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		i = skipWhite(b, i+1)
		if i < len(b) && b[i] == end {
			return i + 1
		}
		for {
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return -1
				}
				if i = validString(b, i); i < 0 {
					return -1
				}
				if i = skipWhite(b, i); i >= len(b) || b[i] != ':' {
					return -1
				}
				i = skipWhite(b, i+1)
			}
			if i = v.value(i, depth+1); i < 0 {
				return -1
			}
			if i = skipWhite(b, i); i >= len(b) {
				return -1
			}
			if b[i] == end {
				return i + 1
			}
			if b[i] != ',' {
				return -1
			}
			i = skipWhite(b, i+1)
		}
	case c == '"':
		return validString(b, i)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return validNumber(b, i)
	}
	return -1
}

func literal(b []byte, i int, lit string) int {
	if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
		return i + len(lit)
	}
	return -1
}

// validNumber is the end of the number at b[i], or -1:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if j := digits(b, i+1); j > i+1 {
			i = j
		} else {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if j := digits(b, i); j > i {
			i = j
		} else {
			return -1
		}
	}
	return i
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// validString is the end of the JSON string opening at b[i], or -1 when
// it is not closed or holds a control character or a bad escape. It looks
// for the closing quote, then checks the text before it.
func validString(b []byte, i int) int {
	i++ // after the opening quote
	for {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return -1
		}
		span := b[i : i+q]
		if hasControl(span) {
			return -1
		}
		escaped := false // the quote found is escaped: the string goes on
		for k := 0; ; {
			e := bytes.IndexByte(span[k:], '\\')
			if e < 0 {
				break
			}
			k += e
			if k+1 == len(span) {
				escaped = true
				break
			}
			switch escape[span[k+1]] {
			case 1:
				k += 2
			case 'u':
				if k+6 > len(span) || !hexDigit[span[k+2]] || !hexDigit[span[k+3]] || !hexDigit[span[k+4]] || !hexDigit[span[k+5]] {
					return -1
				}
				k += 6
			default:
				return -1
			}
		}
		if !escaped {
			return i + q + 1
		}
		i += q + 1
	}
}
