package canon_test

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/providertest"
)

// fixture is a tool call copied from the corpus into testdata/canon
// (provenance in testdata/canon/PROVENANCE.tsv).
type fixture struct {
	File        string  `json:"file"`
	Line        int     `json:"line"`
	Provider    string  `json:"provider"`
	NativeName  string  `json:"native_name"`
	NativeInput agt.Raw `json:"native_input"`
}

func (f fixture) tool() *agt.Tool {
	return &agt.Tool{ID: f.File, Name: f.NativeName, NativeName: f.NativeName, Input: f.NativeInput, NativeInput: f.NativeInput}
}

func loadFixtures(t *testing.T, name string) map[string]fixture {
	t.Helper()
	f, err := os.Open(providertest.Testdata(t, "canon", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]fixture{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var fx fixture
		if err := json.Unmarshal(sc.Bytes(), &fx); err != nil {
			t.Fatal(err)
		}
		out[fx.File] = fx
	}
	return out
}
