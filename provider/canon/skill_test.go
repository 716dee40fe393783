package canon_test

import (
	"sort"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
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

// TestSameSkillEverywhere finds one skill invocation in a Claude, a Copilot
// and a Codex log. The Claude call is real (testdata/canon/skills.jsonl,
// from entirecli__5c). The corpus has no Copilot skill call and no Codex
// read of this skill, so those two are the smallest realistic calls written
// by hand: Copilot's skill tool and its "Using skill: X" title, and a Codex
// exec_command shaped like the real SKILL.md reads of agentv__79.
func TestSameSkillEverywhere(t *testing.T) {
	fx := loadFixtures(t, "skills.jsonl")
	claude := fx["entirecli__5c-5cb639eac4-0.jsonl"]
	logs := map[string][]*agt.Tool{
		"claude": {
			{NativeName: "Bash", NativeInput: agt.Raw(`{"command":"git status"}`)},
			claude.tool(),
		},
		"copilot": {
			{NativeName: "view", NativeInput: agt.Raw(`{"path":"/home/u/proj/README.md"}`)},
			{NativeName: "skill", NativeInput: agt.Raw(`{"skill":"brainstorming"}`)},
			{NativeName: "Using skill: brainstorming"},
		},
		"codex": {
			{NativeName: "exec_command", NativeInput: agt.Raw(`{"cmd":"sed -n '1,220p' /home/u/.codex/plugins/cache/superpowers-marketplace/superpowers/4.0.3/skills/brainstorming/SKILL.md","workdir":"/home/u/proj","yield_time_ms":10000,"max_output_tokens":20000}`)},
			{NativeName: "exec_command", NativeInput: agt.Raw(`{"cmd":"git status --short"}`)},
		},
	}
	for provider, calls := range logs {
		for _, c := range calls {
			canon.Normalize(provider, c)
		}
		got := skillsOf(calls)
		if len(got) == 0 || got[0] != "brainstorming" {
			t.Errorf("%s: skills %v, want brainstorming", provider, got)
		}
	}
	// Claude's plugin-qualified name and Codex's plugin path agree on the plugin
	for _, c := range []*agt.Tool{logs["claude"][1], logs["codex"][0]} {
		if p := members(t, c.Input)["plugin"]; p != "superpowers" {
			t.Errorf("%s: plugin %v", c.NativeName, p)
		}
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

// TestNotSkills: touching a SKILL.md is not loading the skill.
func TestNotSkills(t *testing.T) {
	for _, c := range []struct{ provider, name, in string }{
		{"claude", "Bash", `{"command":"wc -l pi/skills/meta/pi-skill-creator/SKILL.md"}`},
		{"pi", "write", `{"path":"pi/skills/meta/skill-creator/SKILL.md","content":"x"}`},
		{"pi", "edit", `{"path":"pi/skills/meta/skill-creator/SKILL.md","oldText":"a","newText":"b"}`},
		{"claude", "Read", `{"file_path":"/r/docs/SKILL.md"}`},
		{"pi", "bash", `{"command":"cd pi/skills/search/brave-search && ./read.sh \"https://raw.githubusercontent.com/anthropics/skills/main/skills/skill-creator/SKILL.md\""}`},
	} {
		tool := mustNormalize(c.provider, &agt.Tool{NativeName: c.name, NativeInput: agt.Raw(c.in)})
		if tool.Origin == canon.OriginSkill || members(t, tool.Input)["skill"] != nil {
			t.Errorf("%s %s: marked as a skill: %s", c.name, c.in, tool.Input)
		}
	}
}
