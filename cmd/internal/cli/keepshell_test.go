package cli

import (
	"bufio"
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest"
)

// TestKeepShellCorpus: over every Claude Code session of the corpus,
// --keep-shell leaves every Bash call a Bash call; without it, each call
// made a Read, LS, Glob or Grep says via shell, and none of them prints
// text of its own (echo, printf) or writes (a redirection, tee).
func TestKeepShellCorpus(t *testing.T) {
	if raceBuild {
		t.Skip("a corpus-wide property, not concurrency: make long runs it")
	}
	dir := filepath.Join(providertest.CorpusDir(t), "claude")
	calls := func(args ...string) []agt.Tool {
		out := runApp(t, Normalize, nil, append(args, "-q", dir)...)
		var tools []agt.Tool
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(nil, 1<<30)
		for sc.Scan() {
			var ev agt.Event
			if err := agt.API.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Fatal(err)
			}
			if ev.Kind == agt.KindToolCall && ev.Tool != nil && ev.Tool.NativeName == "Bash" {
				tools = append(tools, *ev.Tool)
			}
		}
		return tools
	}
	kept, shellKinds := 0, 0
	for _, tool := range calls("--keep-shell") {
		kept++
		if tool.Name != "Bash" {
			t.Errorf("--keep-shell: Bash became %s: %s", tool.Name, tool.NativeInput)
		}
		if tool.Via == "shell" {
			shellKinds++
		}
	}
	reclassified := 0
	for _, tool := range calls() {
		if tool.Name == "Bash" {
			continue
		}
		reclassified++
		var in struct {
			Command string `json:"command"`
		}
		agt.API.Unmarshal(tool.NativeInput, &in)
		if tool.Via != "shell" {
			t.Errorf("%s without via shell: %s", tool.Name, in.Command)
		}
		for _, w := range []string{"echo ", "printf ", "tee ", "> "} {
			if strings.Contains(in.Command, w) && !strings.Contains(in.Command, "2> ") {
				t.Errorf("%s, though it runs %q: %s", tool.Name, w, in.Command)
			}
		}
	}
	if kept < 100 || reclassified == 0 || shellKinds != reclassified {
		t.Errorf("%d Bash calls, %d reclassified, %d kept with a reading kind", kept, reclassified, shellKinds)
	}
	t.Logf("%d Bash calls, %d reclassified by default, 0 with --keep-shell", kept, reclassified)
}
