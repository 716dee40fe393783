package export_test

import (
	"testing"

	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/provider"
)

// TestAgentNames: every registered provider's agent has a display name in
// the exports of its own, not the provider's name in events.
func TestAgentNames(t *testing.T) {
	seen := map[string]string{}
	for _, p := range provider.Names() {
		a := export.Agent(p)
		if a == "" || a == p {
			t.Errorf("provider %s: agent named %q in exports", p, a)
		}
		if q, ok := seen[a]; ok {
			t.Errorf("providers %s and %s: one agent name %q", q, p, a)
		}
		seen[a] = p
	}
	if a := export.Agent(""); a != "unknown" {
		t.Errorf("no provider: agent %q, want unknown", a)
	}
	if a := export.Agent("not-registered"); a != "not-registered" {
		t.Errorf("a provider not registered: agent %q, want its name", a)
	}
}
