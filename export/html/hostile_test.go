package html_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostile is what a hostile session writes in every text field: markup,
// script, a javascript: link (as HTML and as Markdown), a comment end, the
// ends of the elements a page folds and quotes text in, and control
// characters (NUL, BEL, ESC, DEL, a C1 NEL).
const hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>" +
	"</details></summary></pre></code></style></title>--> [x](javascript:alert(3)) " +
	"<a href=\"javascript:alert(4)\">a</a> <iframe src=\"https://example.com/\"></iframe> " +
	"![i](https://example.com/x.png) `</code><script>alert(5)</script>` ' \" & " +
	"\x00\x07\x1b[31m\x7f\u0085 end"

// hostilePage is the name of the hostile session's page (in its
// provider's folder).
const hostilePage = "hostile-0001.html"

// hostileLog writes a Claude Code session whose every text field (prompt,
// reply, reasoning, tool name, command, edit, result, title, folder,
// branch, model, version) holds hostile, in the records' real shapes, and
// returns its path.
func hostileLog(t testing.TB, dir string) string {
	t.Helper()
	h := hostile
	base := map[string]any{"isSidechain": false, "userType": "external", "cwd": "/home/user/" + h, "sessionId": "hostile-0001",
		"version": "2.1.80" + h, "gitBranch": "main" + h, "entrypoint": "cli"}
	rec := func(fields map[string]any) map[string]any {
		r := map[string]any{}
		for k, v := range base {
			r[k] = v
		}
		for k, v := range fields {
			r[k] = v
		}
		return r
	}
	usage := map[string]any{"input_tokens": 100, "output_tokens": 20, "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0}
	recs := []map[string]any{
		rec(map[string]any{"type": "user", "uuid": "u1", "parentUuid": nil, "timestamp": "2025-12-16T00:00:01.000Z",
			"message": map[string]any{"role": "user", "content": "# " + h + "\n\n- " + h + "\n\n```" + h + "\n" + h + "\n```\n" + h}}),
		rec(map[string]any{"type": "assistant", "uuid": "a1", "parentUuid": "u1", "timestamp": "2025-12-16T00:00:02.000Z", "requestId": "r1",
			"message": map[string]any{"id": "m1", "role": "assistant", "model": "claude-sonnet-4-5" + h, "usage": usage, "content": []any{
				map[string]any{"type": "thinking", "thinking": h},
				map[string]any{"type": "text", "text": h + "\n\n**" + h + "** _" + h + "_"},
				map[string]any{"type": "tool_use", "id": "t1", "name": "Bash", "input": map[string]any{"command": "echo " + h, "description": h}},
				map[string]any{"type": "tool_use", "id": "t2", "name": "Edit", "input": map[string]any{"file_path": "/home/user/" + h, "old_string": h + "\nsame", "new_string": "new " + h + "\nsame"}},
				map[string]any{"type": "tool_use", "id": "t3", "name": "Write", "input": map[string]any{"file_path": "/home/user/" + h, "content": h}},
				map[string]any{"type": "tool_use", "id": "t4", "name": "mcp__" + h, "input": map[string]any{h: h}},
			}}}),
		rec(map[string]any{"type": "user", "uuid": "u2", "parentUuid": "a1", "timestamp": "2025-12-16T00:00:03.000Z",
			"message": map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": "t1", "content": h, "is_error": true},
				map[string]any{"type": "tool_result", "tool_use_id": "t2", "content": []any{map[string]any{"type": "text", "text": h}}},
				map[string]any{"type": "tool_result", "tool_use_id": "t3", "content": strings.Repeat(h+"\n", 40)},
				map[string]any{"type": "tool_result", "tool_use_id": "t4", "content": h},
			}}}),
		{"type": "summary", "summary": h, "leafUuid": "u2"},
	}
	path := filepath.Join(dir, "hostile.jsonl")
	var b []byte
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b = append(append(b, line...), '\n')
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
