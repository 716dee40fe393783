package codex_test

import (
	"bytes"
	"testing"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/codex"
	"github.com/agt-project/agt/provider/providertest"
)

// TestApplyKeepsNoLine: Apply keeps nothing of a decoded rollout line,
// which goes back to be filled again: with every line scribbled over once
// applied, the events of testdata and the corpus are those of a plain
// read.
func TestApplyKeepsNoLine(t *testing.T) {
	paths := providertest.TestdataAndCorpus(t, "codex")
	cfg := provider.Config{Provider: "codex"}
	want, wantDiag, _ := providertest.Parse(t, cfg, paths...)
	t.Cleanup(codex.ScribbleApplied())
	got, diag, _ := providertest.Parse(t, cfg, paths...)
	if !bytes.Equal(got, want) || diag != wantDiag {
		t.Errorf("events with applied lines scribbled over differ from a plain read (%d bytes against %d)", len(got), len(want))
	}
}
