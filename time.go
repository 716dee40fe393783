package agt

import "time"

// Timestamp returns s, a time in one of the layouts agents write, as RFC 3339
// UTC with milliseconds; "" when s is empty or not a time.
func Timestamp(s string) string {
	if s == "" {
		return ""
	}
	// the common case: already "2006-01-02T15:04:05.000Z"
	if len(s) == 24 && s[10] == 'T' && s[19] == '.' && s[23] == 'Z' {
		return s
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return ""
	}
	return FormatTime(t)
}

// FormatTime formats t as RFC 3339 UTC with milliseconds.
func FormatTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }
