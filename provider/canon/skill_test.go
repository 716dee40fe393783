package canon_test

import (
	"sort"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
	"github.com/agt-project/agt/provider/providertest"
)

// skillsOf is a provider-free skill-trigger check: the skills a stream of
// normalized tool calls loads, read from canonical fields only.
func skillsOf(calls []*agt.Tool) []string {
	var out []string
	for _, t := range calls {
		if t.Origin != canon.OriginSkill {
			continue
		}
		var in struct {
			Skill string `json:"skill"`
		}
		if agt.API.Unmarshal(t.Input, &in) == nil && in.Skill != "" {
			out = append(out, in.Skill)
		}
	}
	sort.Strings(out)
	return out
}

// TestSameSkillEverywhere finds one skill invocation in a log: a real
// call (testdata/canon/skills.jsonl, from entirecli__5c; the fixture names
// its provider) after a shell call of the same provider. The corpus has
// no Copilot skill call and no Codex read of this skill: the smallest
// realistic calls written by hand (Copilot's skill tool and its "Using
// skill: X" title, a Codex exec_command shaped like the real SKILL.md
// reads of agentv__79) are in those providers' row cases, which give the
// same skill and plugin.
func TestSameSkillEverywhere(t *testing.T) {
	fx := loadFixtures(t, "skills.jsonl")
	real := fx["entirecli__5c-5cb639eac4-0.jsonl"]
	calls := []*agt.Tool{
		{NativeName: "Bash", NativeInput: agt.Raw(`{"command":"git status"}`)},
		real.tool(),
	}
	for _, c := range calls {
		canon.Normalize(real.Provider, c)
	}
	if got := skillsOf(calls); len(got) != 1 || got[0] != "brainstorming" {
		t.Errorf("%s: skills %v, want brainstorming", real.Provider, got)
	}
	// the plugin-qualified name gives the plugin
	if p := providertest.Members(t, calls[1].Input)["plugin"]; p != "superpowers" {
		t.Errorf("%s: plugin %v", calls[1].NativeName, p)
	}
}

// TestRealSkillReads: the real skill loads of the fixtures, in three
// providers' layouts.
func TestRealSkillReads(t *testing.T) {
	want := map[string]string{
		"entirecli__5c-5cb639eac4-0.jsonl": "brainstorming",
		"agentv__0b-9f2ac6f3aa-1.jsonl":    "workmux",
		"agentv__79-6eaddfe2f9-0.jsonl":    "ce-work",
		"pidev__96-2b1009dcd7-0.jsonl":     "brave-search",
	}
	for file, f := range loadFixtures(t, "skills.jsonl") {
		tool := mustNormalize(f.Provider, f.tool())
		if got := skillsOf([]*agt.Tool{tool}); len(got) != 1 || got[0] != want[file] {
			t.Errorf("%s: skills %v, want %s", file, got, want[file])
		}
	}
}

// TestNotSkills: touching a SKILL.md is not loading the skill (canonical
// calls, the vocabulary's provider's; Pi's writes, edits and shell calls
// of a SKILL.md are in its row cases).
func TestNotSkills(t *testing.T) {
	vocabulary := providertest.Vocabulary(t)
	for _, c := range []struct{ name, in string }{
		{"Bash", `{"command":"wc -l pi/skills/meta/pi-skill-creator/SKILL.md"}`},
		{"Write", `{"file_path":"pi/skills/meta/skill-creator/SKILL.md","content":"x"}`},
		{"Edit", `{"file_path":"pi/skills/meta/skill-creator/SKILL.md","old_string":"a","new_string":"b"}`},
		{"Read", `{"file_path":"/r/docs/SKILL.md"}`},
		{"Bash", `{"command":"cd pi/skills/search/brave-search && ./read.sh \"https://raw.githubusercontent.com/anthropics/skills/main/skills/skill-creator/SKILL.md\""}`},
	} {
		tool := mustNormalize(vocabulary, &agt.Tool{NativeName: c.name, NativeInput: agt.Raw(c.in)})
		if tool.Origin == canon.OriginSkill || providertest.Members(t, tool.Input)["skill"] != nil {
			t.Errorf("%s %s: marked as a skill: %s", c.name, c.in, tool.Input)
		}
	}
}
