package canon_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
	"github.com/agt-project/agt/provider/providertest"
)

// FuzzNormalize: any name and input normalize without panicking, to a
// compact JSON input when the native one is JSON, and render back (and
// for every target, to JSON). Its seeds are every row of the table, and
// the real shell commands as canonical Bash calls; each provider's own
// cases seed its FuzzCanon (providertest.FuzzCanon).
func FuzzNormalize(f *testing.F) {
	for _, r := range canon.Table() {
		f.Add(r.Provider, strings.TrimSuffix(r.Native, "*"), "{}")
	}
	vocabulary := providertest.Vocabulary(f)
	for _, c := range realCommands {
		b, _ := json.Marshal(map[string]string{"command": c.cmd})
		f.Add(vocabulary, "Bash", string(b))
	}
	f.Fuzz(func(t *testing.T, provider, name, in string) {
		tool := &agt.Tool{NativeName: name, NativeInput: agt.Raw(in)}
		canon.Normalize(provider, tool)
		if json.Valid([]byte(in)) && len(tool.Input) > 0 && !json.Valid(tool.Input) {
			t.Fatalf("%s %s: input %s", provider, name, tool.Input)
		}
		for _, to := range canon.Targets() {
			canon.Render(to, provider, tool)
			// from the canonical form alone, in a session folder: a
			// rendered input is JSON when the native one was
			at := *tool
			canon.NormalizeIn(provider, "/w", &at)
			_, out, _ := canon.RenderIn(to, "", "/w", &at)
			if json.Valid([]byte(in)) && len(out) > 0 && !json.Valid(out) {
				t.Fatalf("%s %s → %s: input %s", provider, name, to, out)
			}
		}
	})
}
