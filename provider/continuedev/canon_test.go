package continuedev_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// rowCases are native calls of the provider and their canonical form,
// with inputs shaped like the corpus's; they seed FuzzCanon.
var rowCases = []providertest.RowCase{
	// 1.x names, and the builtin_* names before them
	{"continue", "read_file", `{"filepath":"src/a.ts"}`, "Read", "read", "builtin", `{"file_path":"src/a.ts"}`, ""},
	{"continue", "read_file_range", `{"filepath":"src/a.ts","startLine":1,"endLine":9}`, "Read", "read", "builtin", `{"file_path":"src/a.ts","startLine":1,"endLine":9}`, ""},
	{"continue", "create_new_file", `{"filepath":"a.md","contents":"# A"}`, "Write", "write", "builtin", `{"file_path":"a.md","content":"# A"}`, ""},
	{"continue", "single_find_and_replace", `{"filepath":"a.go","old_string":"a","new_string":"b"}`, "Edit", "write", "builtin", `{"file_path":"a.go","old_string":"a","new_string":"b"}`, ""},
	{"continue", "multi_edit", `{"filepath":"a.go","edits":[{"old_string":"a","new_string":"b"}]}`, "Edit", "write", "builtin", `{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b"}]}`, ""},
	{"continue", "edit_existing_file", `{"filepath":"a.go","changes":"x"}`, "Edit", "write", "builtin", `{"file_path":"a.go","changes":"x"}`, ""},
	{"continue", "run_terminal_command", `{"command":"go test ./...","waitForCompletion":true}`, "Bash", "execute", "builtin", `{"command":"go test ./...","waitForCompletion":true}`, ""},
	{"continue", "grep_search", `{"query":"func main"}`, "Grep", "search", "builtin", `{"pattern":"func main"}`, ""},
	{"continue", "file_glob_search", `{"pattern":"**/*.go"}`, "Glob", "search", "builtin", `{"pattern":"**/*.go"}`, ""},
	{"continue", "ls", `{"dirPath":"src","recursive":false}`, "LS", "search", "builtin", `{"path":"src","recursive":false}`, ""},
	{"continue", "search_web", `{"query":"q"}`, "WebSearch", "fetch", "builtin", `{"query":"q"}`, ""},
	{"continue", "fetch_url_content", `{"url":"https://go.dev"}`, "WebFetch", "fetch", "builtin", `{"url":"https://go.dev"}`, ""},
	{"continue", "read_skill", `{"skillName":"review"}`, "Skill", "other", "skill", `{"skill":"review"}`, ""},
	{"continue", "builtin_read_file", `{"filepath":"src/a.ts"}`, "Read", "read", "builtin", `{"file_path":"src/a.ts"}`, ""},
	{"continue", "builtin_ls", `{"dirPath":"src","recursive":true}`, "LS", "search", "builtin", `{"path":"src","recursive":true}`, ""},
}

func TestCanonRows(t *testing.T) { providertest.CheckRows(t, rowCases) }

func FuzzCanon(f *testing.F) { providertest.FuzzCanon(f, rowCases) }

// shellCases: a shell command renders as the provider's shell tool.
var shellCases = []providertest.RenderCase{
	{"claude", "Bash", `{"command":"go test ./...","description":"Run tests"}`, "continue", "run_terminal_command", `{"command":"go test ./..."}`},
}

func TestCanonShell(t *testing.T) { providertest.CheckRender(t, shellCases) }

// TestCanonMCP: the canonical MCP call renders for the provider as
// github_list_issues.
func TestCanonMCP(t *testing.T) { providertest.CheckMCP(t, "continue", "github_list_issues", nil) }
