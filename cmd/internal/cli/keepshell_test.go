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
// --keep-shell leaves every call its own name (every Bash call a Bash
// call), through a later normalization too; without it, each call
// made a Read, LS, Glob or Grep says via shell, and none of them prints
// text of its own (echo, printf) or writes (a redirection, tee).
func TestKeepShellCorpus(t *testing.T) {
	if raceBuild {
		t.Skip("a corpus-wide property, not concurrency: make long runs it")
	}
	dir := filepath.Join(providertest.CorpusDir(t), "claude")
	all := func(out []byte) []agt.Tool {
		var tools []agt.Tool
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(nil, 1<<30)
		for sc.Scan() {
			var ev agt.Event
			if err := agt.API.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Fatal(err)
			}
			if ev.Kind == agt.KindToolCall && ev.Tool != nil {
				tools = append(tools, *ev.Tool)
			}
		}
		return tools
	}
	// --keep-shell leaves every Claude Code call its own name, also when a
	// later stage normalizes the events again without the flag
	keptOut := runApp(t, Normalize, nil, "--keep-shell", "-q", dir)
	again := runApp(t, Normalize, keptOut, "-q")
	for i, pair := range [][]agt.Tool{all(keptOut), all(again)} {
		for _, tool := range pair {
			if tool.Name != tool.NativeName {
				t.Errorf("--keep-shell (pass %d): %s became %s", i+1, tool.NativeName, tool.Name)
			}
		}
	}
	if !bytes.Equal(keptOut, again) {
		t.Errorf("normalizing kept events again changes them")
	}
	calls := func(args ...string) []agt.Tool { // the Bash calls
		var bash []agt.Tool
		for _, tool := range all(runApp(t, Normalize, nil, append(args, "-q", dir)...)) {
			if tool.NativeName == "Bash" {
				bash = append(bash, tool)
			}
		}
		return bash
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
