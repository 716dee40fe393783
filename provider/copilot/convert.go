package copilot

import (
	"bytes"
	"path/filepath"
	"strconv"
	"time"

	"github.com/agt-project/agt"
)

// stamp returns an ISO timestamp as RFC 3339 UTC with milliseconds, or ""
// when s is not one.
func stamp(s string) string {
	if len(s) == 24 && s[4] == '-' && s[10] == 'T' && s[19] == '.' && s[23] == 'Z' {
		return s
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// text returns r when it is a non-empty JSON string, for Event.Text.
func text(r agt.Raw) agt.Raw {
	if len(r) > 2 && r[0] == '"' {
		return r
	}
	return nil
}

// str decodes r when it is a JSON string.
func str(r agt.Raw) string {
	if len(r) > 0 && r[0] == '"' {
		return r.Str()
	}
	return ""
}

// shellExit reads the exit code a shell tool appends to its output as a
// last line, "<exited with exit code N>" or "<shellId: S completed with
// exit code N>", from the JSON string out without decoding it.
func shellExit(out agt.Raw) *int {
	const marker = "exit code "
	if len(out) < 2 || out[0] != '"' || !bytes.HasSuffix(out, []byte(">\"")) {
		return nil
	}
	tail := out[:len(out)-2]
	i := bytes.LastIndex(tail, []byte(marker))
	if i < 0 || len(tail)-i > len(marker)+12 {
		return nil
	}
	line := bytes.LastIndex(tail[:i], []byte(`\n<`)) // the escaped line break
	start := 1
	if line >= 0 {
		start = line + 2
	}
	head := tail[start:i]
	if !bytes.HasPrefix(head, []byte("<exited with ")) && !bytes.HasPrefix(head, []byte("<shellId: ")) {
		return nil
	}
	n, err := strconv.Atoi(string(tail[i+len(marker):]))
	if err != nil {
		return nil
	}
	return &n
}

// fallbackSession names the session of an input whose records never state
// one: the folder of a session-state/<id>/events.jsonl file (the folder is
// the session id), otherwise the file name as the core names it.
func fallbackSession(path string) string {
	if path == "" || path == "-" {
		return "stdin"
	}
	if filepath.Base(path) == "events.jsonl" {
		if dir := filepath.Base(filepath.Dir(path)); dir != "." && dir != string(filepath.Separator) {
			return dir
		}
	}
	return agt.FallbackSession(path)
}
