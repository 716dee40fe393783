// Package examples holds the jq recipes of docs/guide-eval.md that check sessions
// whatever the agent (skills.jq: did the agent use skill X; tools.jq: which
// tools, in which order) and the search of docs/report.md (grep.jq: a grep
// over events); its tests run them in-process with gojq.
package examples

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/itchyny/gojq"
)

// transcripts runs agt-transcript on paths.
func transcripts(t *testing.T, paths ...string) []byte {
	t.Helper()
	out, err := exec.Command(providertest.Filter(t, "agt-transcript"), append([]string{"-q"}, paths...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// jq runs the program file on each line of in with $ARGS.named set to named
// (as jq --arg and --argjson set it) and returns its results.
func jq(t *testing.T, file string, named map[string]any, in []byte) []map[string]any {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	q, err := gojq.Parse(string(src))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	code, err := gojq.Compile(q, gojq.WithVariables([]string{"$ARGS"}))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	args := map[string]any{"positional": []any{}, "named": named}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(in))
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		var v any
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		v = normalize(v)
		iter := code.Run(v, args)
		for {
			r, ok := iter.Next()
			if !ok {
				break
			}
			if err, ok := r.(error); ok {
				t.Fatalf("%s: %v", file, err)
			}
			out = append(out, r.(map[string]any))
		}
	}
	return out
}

// normalize turns json.Numbers into the numbers gojq takes.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalize(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalize(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// skillLogs are one small log per agent (testdata/examples, derived from
// generated --json output): each loads the skill brainstorming in its
// agent's own way, then writes a file and reads a missing one.
func skillLogs(t *testing.T) []string {
	logs, _ := filepath.Glob(filepath.Join(providertest.RepoRoot(t), "testdata", "examples", "*-skill.jsonl"))
	if len(logs) != 6 {
		t.Fatalf("%d skill logs, want 6", len(logs))
	}
	return logs
}

// answers drops what names the session from each result and groups the
// providers by answer.
func answers(res []map[string]any) map[string][]string {
	by := map[string][]string{}
	for _, r := range res {
		p := r["provider"].(string)
		delete(r, "provider")
		delete(r, "session")
		b, _ := json.Marshal(r)
		by[string(b)] = append(by[string(b)], p)
	}
	for _, ps := range by {
		sort.Strings(ps)
	}
	return by
}

var six = []string{"claude", "codex", "copilot", "gemini", "opencode", "pi"}

// TestSkillRecipe: the skill check gives the same answer for Claude Code,
// Codex, Copilot CLI, Gemini CLI, OpenCode and Pi loading the same skill.
func TestSkillRecipe(t *testing.T) {
	in := transcripts(t, skillLogs(t)...)
	cases := []struct {
		skill, want string
	}{
		{"brainstorming", `{"skills":["brainstorming"],"used":true}`},
		{"writing-plans", `{"skills":["brainstorming"],"used":false}`},
	}
	for _, c := range cases {
		got := answers(jq(t, "skills.jq", map[string]any{"skill": c.skill}, in))
		if !reflect.DeepEqual(got, map[string][]string{c.want: six}) {
			t.Errorf("skill %s: answers %v, want %s from all six", c.skill, got, c.want)
		}
	}
}

// TestToolsRecipe: the tool-trajectory check gives the same answer for the
// six agents' sessions.
func TestToolsRecipe(t *testing.T) {
	in := transcripts(t, skillLogs(t)...)
	cases := []struct {
		expect []any
		want   string
	}{
		{nil, `{"tools":["Skill","Write","Read"]}`},
		{[]any{"Skill", "Read"}, `{"in_order":true,"tools":["Skill","Write","Read"]}`},
		{[]any{"Write", "Skill"}, `{"in_order":false,"tools":["Skill","Write","Read"]}`},
		{[]any{"Skill", "Write", "Read", "Bash"}, `{"in_order":false,"tools":["Skill","Write","Read"]}`},
	}
	for _, c := range cases {
		named := map[string]any{}
		if c.expect != nil {
			named["expect"] = c.expect
		}
		got := answers(jq(t, "tools.jq", named, in))
		if !reflect.DeepEqual(got, map[string][]string{c.want: six}) {
			t.Errorf("expect %v: answers %v, want %s from all six", c.expect, got, c.want)
		}
	}
}

// TestSkillRecipeCorpus runs the skill check on every corpus session of the
// six agents: the real skill loads of Codex and Pi sessions (ce-work, read
// from a SKILL.md) and of Claude Code and OpenCode (their skill tools) are
// found, and jq, when installed, gives the same lines as gojq.
func TestSkillRecipeCorpus(t *testing.T) {
	corpus := providertest.CorpusDir(t)
	var dirs []string
	for _, p := range six {
		dirs = append(dirs, filepath.Join(corpus, p))
	}
	in := transcripts(t, dirs...)
	res := jq(t, "skills.jq", map[string]any{"skill": "ce-work"}, in)
	used := map[string]bool{}
	skills := map[string]string{}
	for _, r := range res {
		key := r["provider"].(string) + "/" + r["session"].(string)
		if r["used"].(bool) {
			used[key] = true
		}
		var names []string
		for _, s := range r["skills"].([]any) {
			names = append(names, s.(string))
		}
		skills[key] = strings.Join(names, ",")
	}
	want := map[string]bool{"codex/019ed99c-d00d-7613-b2e7-d2f512f78afd": true, "pi/019f4e6f-89f2-7f82-9bf9-a4790d571aa6": true}
	if !reflect.DeepEqual(used, want) {
		t.Errorf("sessions that used ce-work: %v, want %v", used, want)
	}
	for k, v := range map[string]string{
		"claude/2dd48f89-3552-42c7-9b15-f8119890ecb3": "brainstorming,writing-plans",
		"opencode/ses_fd4e13d58ffetoIsfha64XDWNj":     "code-review,herdr,update-agents-md",
		"codex/019ef35b-2300-75e0-98d6-8e4dce14050f":  "using-entire,github,session-crosslink",
		"pi/019f4e6f-89f2-7f82-9bf9-a4790d571aa6":     "python-practices,tdd,frontend-design,ce-work",
	} {
		if skills[k] != v {
			t.Errorf("%s: skills %q, want %q", k, skills[k], v)
		}
	}
	loaded := 0
	for _, v := range skills {
		if v != "" {
			loaded++
		}
	}
	t.Logf("%d sessions, %d with skill loads", len(res), loaded)
	if _, err := exec.LookPath("jq"); err != nil {
		return
	}
	cmd := exec.Command("jq", "-c", "--arg", "skill", "ce-work", "-f", "skills.jq")
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var r map[string]any
		json.Unmarshal(sc.Bytes(), &r)
		if n >= len(res) || r["session"] != res[n]["session"] || r["used"] != res[n]["used"] {
			t.Fatalf("jq line %d: %s", n+1, sc.Bytes())
		}
		n++
	}
	if n != len(res) {
		t.Errorf("jq gave %d lines, gojq %d", n, len(res))
	}
}
