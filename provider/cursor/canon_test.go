package cursor_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// rowCases are native calls of the provider and their canonical form,
// with inputs shaped like the corpus's; they seed FuzzCanon.
var rowCases = []providertest.RowCase{
	{"cursor", "Shell", `{"command":"go test ./...","working_directory":"/repo","description":"Run tests"}`, "Bash", "execute", "builtin", `{"command":"go test ./...","cwd":"/repo","description":"Run tests"}`, ""},
	{"cursor", "StrReplace", `{"path":"/r/a.rs","old_string":"a","new_string":"b"}`, "Edit", "write", "builtin", `{"file_path":"/r/a.rs","old_string":"a","new_string":"b"}`, ""},
	{"cursor", "Write", `{"path":"/r/n.txt","contents":"x"}`, "Write", "write", "builtin", `{"file_path":"/r/n.txt","content":"x"}`, ""},
	{"cursor", "Glob", `{"glob_pattern":"**/*","target_directory":"/tmp"}`, "Glob", "search", "builtin", `{"pattern":"**/*","path":"/tmp"}`, ""},
}

func TestCanonRows(t *testing.T) { providertest.CheckRows(t, rowCases) }

func FuzzCanon(f *testing.F) { providertest.FuzzCanon(f, rowCases) }
