package transcript

import (
	"bytes"
	"regexp"
	"strings"
)

// ansi is an SGR color sequence of a summary line written with --color.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// IsSummaryText tells whether lines (the first non-blank lines of an
// input) are all stream log summary lines (agt-streamlog's output, meant
// for people): a time (or "-"), the session's number (#2) when more than
// one, and a label. Such text is no agent log: a filter given it says so
// in one line rather than a "not JSON" line for each.
func IsSummaryText(lines [][]byte) bool {
	if len(lines) == 0 {
		return false
	}
	for _, l := range lines {
		if !isSummaryLine(l) {
			return false
		}
	}
	return true
}

func isSummaryLine(l []byte) bool {
	l = bytes.TrimSpace(l)
	if len(l) == 0 || l[0] == '{' || l[0] == '[' {
		return false
	}
	f := strings.Fields(ansi.ReplaceAllString(string(l), ""))
	if len(f) < 2 || !(f[0] == "-" || f[0][0] >= '0' && f[0][0] <= '9') {
		return false
	}
	label := f[1]
	if strings.HasPrefix(label, "#") && len(f) > 2 {
		label = f[2]
	}
	for _, x := range labels {
		if x.text == label {
			return true
		}
	}
	return false
}
