package provider_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/stage"
)

// vendors are the values of gen_ai.provider.name a provider may declare
// as its agent's default vendor: OpenTelemetry's well-known ones, and
// alibaba, which the OTLP export already names Qwen models by.
var vendors = []string{"", "anthropic", "aws.bedrock", "azure.ai.openai", "gcp.gemini", "gcp.vertex_ai", "openai", "alibaba"}

// TestAgents: every registered provider declares its agent: a display
// name, a known default vendor or none, and file endings (each a dot and
// a word) that the folder walk takes from the registry.
func TestAgents(t *testing.T) {
	for _, p := range provider.All() {
		a := p.Agent()
		if a.Display == "" {
			t.Errorf("%s: no display name", p.Name())
		}
		if !slices.Contains(vendors, a.Vendor) {
			t.Errorf("%s: vendor %q is not a gen_ai.provider.name agt knows", p.Name(), a.Vendor)
		}
		for _, e := range append(slices.Clone(a.Docs), a.Stores...) {
			if !strings.HasPrefix(e, ".") || len(e) < 2 {
				t.Errorf("%s: ending %q", p.Name(), e)
			}
		}
		for _, e := range a.Docs {
			if !slices.Contains(stage.DocExts, e) || !slices.Contains(stage.WalkExts, e) {
				t.Errorf("%s: document ending %s not walked (%v)", p.Name(), e, stage.WalkExts)
			}
		}
		for _, e := range a.Stores {
			if !stage.Store("x"+e) || stage.Followable("x"+e) {
				t.Errorf("%s: database ending %s not a store, or followed", p.Name(), e)
			}
		}
	}
}
