package kiro_test

import (
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// shellCases: a shell command renders as the provider's shell tool.
var shellCases = []providertest.RenderCase{
	{"claude", "Bash", `{"command":"go test ./...","description":"Run tests"}`, "kiro", "shell", `{"command":"go test ./..."}`},
}

func TestCanonShell(t *testing.T) { providertest.CheckRender(t, shellCases) }
