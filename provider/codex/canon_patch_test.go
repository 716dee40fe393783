package codex_test

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
	"github.com/agt-project/agt/provider/providertest"
)

// Codex's patches through canon: apply_patch calls of real sessions, and
// the shapes the corpus lacks in each of Codex's carriers.

// patchCall is an apply_patch call copied from the corpus into
// testdata/canon/patches.jsonl (provenance in testdata/canon/PROVENANCE.tsv).
type patchCall struct {
	File        string  `json:"file"`
	NativeName  string  `json:"native_name"`
	NativeInput agt.Raw `json:"native_input"`
}

func (f patchCall) tool() *agt.Tool {
	return &agt.Tool{ID: f.File, Name: f.NativeName, NativeName: f.NativeName, Input: f.NativeInput, NativeInput: f.NativeInput}
}

// realPatches are the calls of testdata/canon/patches.jsonl, by file.
func realPatches(t *testing.T) map[string]patchCall {
	t.Helper()
	f, err := os.Open(providertest.Testdata(t, "canon", "patches.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]patchCall{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var c patchCall
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out[c.File] = c
	}
	return out
}

type patchFile struct {
	Path   string `json:"path"`
	Op     string `json:"op"`
	MoveTo string `json:"move_to"`
}

func patchFiles(t *testing.T, in agt.Raw) (string, []patchFile) {
	t.Helper()
	var v struct {
		FilePath string      `json:"file_path"`
		Files    []patchFile `json:"files"`
		Patch    string      `json:"patch"`
	}
	if err := json.Unmarshal(in, &v); err != nil {
		t.Fatal(err)
	}
	return v.FilePath, v.Files
}

// TestRealPatches: apply_patch calls of real Codex sessions.
func TestRealPatches(t *testing.T) {
	fx := realPatches(t)
	cases := []struct {
		file, name, first string
		ops               map[string]int
	}{
		// one update and 14 deletes in one patch
		{"agentv__a3-92ff332928-0.jsonl", "Edit", "/home/entity/projects/EntityProcess/agentv/.github/plugin/marketplace.json", map[string]int{"update": 1, "delete": 14}},
		{"agentv__00-34f597b72d-1.jsonl", "Edit", "/home/entity/projects/EntityProcess/agentv/apps/web/src/content/docs/docs/graders/composite.mdx", map[string]int{"update": 1}},
		{"agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl", "Write", "myapp/hoge.py", map[string]int{"add": 1}},
	}
	for _, c := range cases {
		f, ok := fx[c.file]
		if !ok {
			t.Fatalf("no fixture %s", c.file)
		}
		tool := f.tool()
		canon.NormalizeIn("codex", "", tool)
		if tool.Name != c.name || tool.Kind != "write" || tool.Origin != "builtin" {
			t.Errorf("%s: %s %s %s", c.file, tool.Name, tool.Kind, tool.Origin)
		}
		first, files := patchFiles(t, tool.Input)
		if first != c.first {
			t.Errorf("%s: file_path %q, want %q", c.file, first, c.first)
		}
		ops := map[string]int{}
		for _, pf := range files {
			ops[pf.Op]++
		}
		if len(ops) != len(c.ops) {
			t.Errorf("%s: ops %v, want %v", c.file, ops, c.ops)
		}
		for op, n := range c.ops {
			if ops[op] != n {
				t.Errorf("%s: %d %s, want %d", c.file, ops[op], op, n)
			}
		}
		if m := providertest.Members(t, tool.Input); m["patch"] != providertest.Members(t, f.NativeInput)["raw"] {
			t.Errorf("%s: the patch text is not kept", c.file)
		}
		// from the canonical form alone, Codex gets the same call back
		name, in, _ := canon.RenderIn("codex", "", "", tool)
		if name != "apply_patch" || string(in) != string(f.NativeInput) {
			t.Errorf("%s: rendered as %s %.200s", c.file, name, in)
		}
		name, in, _ = canon.RenderIn("opencode", "codex", "", tool)
		if name != "apply_patch" || providertest.Members(t, in)["patchText"] != providertest.Members(t, f.NativeInput)["raw"] {
			t.Errorf("%s: rendered for opencode as %s %.200s", c.file, name, in)
		}
	}
	if m := providertest.Members(t, mustNormalize("codex", fx["agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl"].tool()).Input); m["content"] != "print(1 + 1)\n" {
		t.Errorf("a single added file has content %q", m["content"])
	}
}

func mustNormalize(provider string, t *agt.Tool) *agt.Tool {
	canon.NormalizeIn(provider, "", t)
	return t
}

// TestPatchShapes: the shapes the corpus lacks (several added files, a
// move, a mix), in each of Codex's carriers.
func TestPatchShapes(t *testing.T) {
	cases := []struct {
		native, in, name string
		files            []patchFile
	}{
		{"apply_patch", `{"raw":"*** Begin Patch\n*** Add File: docs/a.md\n+# A\n*** Add File: docs/b.md\n+# B\n*** End Patch"}`, "Write",
			[]patchFile{{"docs/a.md", "add", ""}, {"docs/b.md", "add", ""}}},
		{"apply_patch", `{"raw":"*** Begin Patch\n*** Update File: src/old.go\n*** Move to: src/new.go\n@@\n-package old\n+package new\n*** End Patch"}`, "Edit",
			[]patchFile{{"src/old.go", "update", "src/new.go"}}},
		{"apply_patch", `{"input":"*** Begin Patch\n*** Add File: a.go\n+package a\n*** Update File: b.go\n@@\n-x\n+y\n*** Delete File: c.go\n*** End Patch"}`, "Edit",
			[]patchFile{{"a.go", "add", ""}, {"b.go", "update", ""}, {"c.go", "delete", ""}}},
		{"apply_patch", `{"changes":{"/r/a.txt":{"type":"add","unified_diff":"+a"},"/r/b.txt":{"type":"delete"}}}`, "Edit",
			[]patchFile{{"/r/a.txt", "add", ""}, {"/r/b.txt", "delete", ""}}},
		{"file_change", `{"changes":[{"path":"/r/a.txt","kind":"update"},{"path":"/r/b.txt","kind":"add"}]}`, "Edit",
			[]patchFile{{"/r/a.txt", "update", ""}, {"/r/b.txt", "add", ""}}},
	}
	for _, c := range cases {
		tool := mustNormalize("codex", &agt.Tool{NativeName: c.native, NativeInput: agt.Raw(c.in)})
		first, files := patchFiles(t, tool.Input)
		if tool.Name != c.name || first != c.files[0].Path || len(files) != len(c.files) {
			t.Errorf("%s: %s %s %v", c.in, tool.Name, first, files)
			continue
		}
		for i := range files {
			if files[i] != c.files[i] {
				t.Errorf("%s: file %d = %+v, want %+v", c.in, i, files[i], c.files[i])
			}
		}
	}
}

// TestPatchHunks: an Update File section's hunks are laid out as Edit's
// old_string/new_string (one hunk) or edits (several), per file in files;
// a patch without an apply_patch file header is no Edit: the call keeps
// its native name and input.
func TestPatchHunks(t *testing.T) {
	type edit struct {
		Old string `json:"old_string"`
		New string `json:"new_string"`
	}
	type input struct {
		FilePath string `json:"file_path"`
		Old      string `json:"old_string"`
		New      string `json:"new_string"`
		Edits    []edit `json:"edits"`
		Files    []struct {
			Path  string `json:"path"`
			Edits []edit `json:"edits"`
		} `json:"files"`
	}
	read := func(patch string) (*agt.Tool, input) {
		tool := &agt.Tool{NativeName: "apply_patch", NativeInput: agt.Marshal(map[string]string{"raw": patch})}
		canon.NormalizeIn("codex", "/r", tool)
		var in input
		json.Unmarshal(tool.Input, &in)
		return tool, in
	}

	two := "*** Begin Patch\n*** Update File: src/app.ts\n@@ export function load() {\n   const a = 1;\n-  const b = 2;\n+  const b = 3;\n@@ export function save() {\n-  write(a)\n+  write(a, b)\n+  flush()\n }\n*** End Patch"
	tool, in := read(two)
	if tool.Name != "Edit" || in.FilePath != "/r/src/app.ts" || in.Old != "" || len(in.Edits) != 2 {
		t.Fatalf("two hunks: %s %s", tool.Name, tool.Input)
	}
	want := []edit{{"  const a = 1;\n  const b = 2;", "  const a = 1;\n  const b = 3;"}, {"  write(a)\n}", "  write(a, b)\n  flush()\n}"}}
	for i, e := range in.Edits {
		if e != want[i] {
			t.Errorf("hunk %d: %+v, want %+v", i, e, want[i])
		}
	}

	_, in = read("*** Begin Patch\n*** Update File: a.go\n@@\n-x := 1\n+x := 2\n*** End of File\n*** End Patch\n")
	if in.Old != "x := 1" || in.New != "x := 2" || len(in.Edits) != 0 {
		t.Errorf("one hunk: %+v", in)
	}

	_, in = read("*** Begin Patch\n*** Update File: a.go\n@@\n-a\n+b\n*** Update File: b.go\n@@\n-c\n+d\n*** Add File: c.go\n+package c\n*** End Patch")
	if in.Old != "" || len(in.Files) != 3 || len(in.Files[0].Edits) != 1 || in.Files[1].Edits[0] != (edit{"c", "d"}) || len(in.Files[2].Edits) != 0 {
		t.Errorf("three files: %+v", in)
	}

	for _, bare := range []string{
		"--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n",
		"*** Begin Patch\n*** End Patch",
		"",
	} {
		tool, _ := read(bare)
		if tool.Name != "apply_patch" || tool.Kind != canon.KindOther || tool.Origin != canon.OriginCustom || string(tool.Input) != string(tool.NativeInput) {
			t.Errorf("%q: %s %s %s %s", bare, tool.Name, tool.Kind, tool.Origin, tool.Input)
		}
	}
}
