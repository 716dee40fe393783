package codex

import (
	"bytes"
	"strconv"

	"github.com/agt-project/agt"
)

var emptyObject = agt.Raw(`{}`)

// object builds a JSON object from key and raw value pairs (values taken
// from lines, hence compact), leaving out empty values.
func object(kv ...any) agt.Raw {
	b := []byte{'{'}
	for i := 0; i+1 < len(kv); i += 2 {
		var v agt.Raw
		switch x := kv[i+1].(type) {
		case agt.Raw:
			v = x
		case raw:
			v = agt.Raw(x)
		case string:
			v = agt.String(x)
		}
		if v.IsNull() {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, kv[i].(string))
		b = append(b, ':')
		b = append(b, v...)
	}
	return append(b, '}')
}

// Exit code markers in shell outputs, as they appear inside the JSON string
// literal of the output.
var (
	exitPrefix   = []byte(`"Exit code: `)                 // shell_command, apply_patch (0.6x+)
	exitProcess  = []byte(`Process exited with code `)    // unified exec (0.1xx)
	exitShellObj = []byte(`"{\"output\":`)                // shell (0.39): JSON-encoded object
	exitMetadata = []byte(`\"metadata\":{\"exit_code\":`) // its metadata
	outputMarker = []byte(`Output:\n`)                    // end of the unified exec header
)

// outputExit reads the exit code a shell tool's output reports, if any.
func outputExit(out agt.Raw) *int {
	if len(out) == 0 || out[0] != '"' {
		return nil
	}
	if bytes.HasPrefix(out, exitPrefix) {
		return leadingInt(out[len(exitPrefix):])
	}
	if bytes.HasPrefix(out, exitShellObj) {
		if i := bytes.LastIndex(out, exitMetadata); i >= 0 {
			return leadingInt(out[i+len(exitMetadata):])
		}
		return nil
	}
	head := out[:min(len(out), 1024)]
	if i := bytes.Index(head, outputMarker); i >= 0 {
		head = head[:i]
	}
	if i := bytes.Index(head, exitProcess); i >= 0 {
		return leadingInt(head[i+len(exitProcess):])
	}
	return nil
}

// leadingInt parses the integer at the start of b.
func leadingInt(b []byte) *int {
	n := 0
	if n < len(b) && b[n] == '-' {
		n++
	}
	for n < len(b) && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	v, err := strconv.Atoi(string(b[:n]))
	if err != nil {
		return nil
	}
	return &v
}

// isString reports whether r is the JSON string s.
func isString(r agt.Raw, s string) bool {
	return len(r) == len(s)+2 && r[0] == '"' && string(r[1:len(r)-1]) == s
}
