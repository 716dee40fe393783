package acp_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// rowCases are native calls of the provider and their canonical form,
// with inputs shaped like the corpus's; they seed FuzzCanon.
var rowCases = []providertest.RowCase{
	{"acp/copilot", "execute", `{"command":"cat does-not-exist.txt","description":"Show a missing file"}`, "Read", "read", "builtin", `{"command":"cat does-not-exist.txt","description":"Show a missing file","file_path":"does-not-exist.txt"}`, ""},
	{"acp/copilot", "edit", `{"path":"/r/hello.txt","file_text":"hello world\n"}`, "Write", "write", "builtin", `{"file_path":"/r/hello.txt","content":"hello world\n"}`, ""},
}

func TestCanonRows(t *testing.T) { providertest.CheckRows(t, rowCases) }

func FuzzCanon(f *testing.F) { providertest.FuzzCanon(f, rowCases) }
