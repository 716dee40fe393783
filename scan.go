package agt

import "bytes"

// scanEscapesGo is scanEscapes without machine code: it reads b's escapes
// in order (a backslash and what follows it) and returns the first that
// JSON does not allow; ctl tells whether b holds a byte below 0x20.
func scanEscapesGo(b []byte) (ctl bool, err error) {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\\')
		if j < 0 {
			break
		}
		// escapes come in runs (a blank line: \n\n; a quote in a quoted
		// text: \\\"): the run is read here, the next search starts after it
		for i += j; i < len(b) && b[i] == '\\'; {
			k, err := escapeAt(b, i)
			if err != nil {
				return false, err
			}
			i += k
		}
	}
	return hasControl(b), nil
}
