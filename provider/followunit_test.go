package provider

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt/stage"
)

// TestJoinAfterMainRead: a member file by its path (a Claude Code 2.1
// subagent file) found once its main file's reader has ended, the unit not
// yet ended (the folder's last look can find it then), joins that unit as
// its second file, not a unit of its own.
func TestJoinAfterMainRead(t *testing.T) {
	const session = "0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f"
	dir := t.TempDir()
	main := filepath.Join(dir, session+".jsonl")
	member := filepath.Join(dir, session, "subagents", "agent-a0ad4f44468bdf20d.jsonl")
	copyTestdata := func(name, to string) {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "claude", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyTestdata("agentsessions__subagent-parent-0a1b2c3d.jsonl", main)
	s, err := newSource(Config{})
	if err != nil {
		t.Fatal(err)
	}
	ls := newLiveUnits(s, make(chan *stage.Batch, 1024))
	lu := ls.add(&stage.Unit{Files: []stage.Input{stage.FileInput(main)}})
	if err := ls.read(context.Background(), lu, 0, stage.FileInput(main)); err != nil { // to its end
		t.Fatal(err)
	}
	copyTestdata("agentsessions__subagent-child-agent-a0ad4f44468bdf20d.jsonl", member)
	in := stage.FileInput(member)
	got, i := ls.join(context.Background(), in, ls.find(in, false), false)
	if got != lu || i != 1 {
		t.Errorf("the member joined unit %p as its file %d, want the main file's unit %p as its file 1", got, i, lu)
	}
}
