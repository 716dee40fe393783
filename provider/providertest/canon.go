package providertest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/canon"
)

// The canonical tool table's cases. A provider's rows are tested in its
// own folder (canon_test.go): its native calls and their canonical form
// (RowCase), calls of other providers rendered in its layout
// (RenderCase), the ways it names an MCP server's tool (MCPCase); the
// checks below run them through provider/canon, whose own tests take the
// providers they need from the registry.

// RowCase is a native call and its canonical form; the input is compared
// byte for byte (member order included).
type RowCase = struct {
	Provider string // the call's source (canon.Source): a provider's name, or "<protocol provider>/<provider>"
	Native   string // native name
	In       string // native input ("" for none)
	Name     string // canonical name
	Kind     string
	Origin   string
	Want     string // canonical input
	MCP      string // "server/tool", "" for none
}

// CheckRows normalizes each case's native call and checks its canonical
// name, kind, origin, input and MCP server; that the native name and input
// are kept; that the call renders back to its provider as it was made;
// that normalizing it again changes nothing; and the properties FuzzCanon
// checks on any input.
func CheckRows(t *testing.T, cases []RowCase) {
	t.Helper()
	for _, c := range cases {
		tool := nativeTool(c.Native, c.In)
		tool.ID = "x"
		canon.NormalizeIn(c.Provider, "", tool)
		where := c.Provider + "/" + c.Native + " " + c.In
		if tool.Name != c.Name || tool.Kind != c.Kind || tool.Origin != c.Origin {
			t.Errorf("%s: got %s %s %s, want %s %s %s", where, tool.Name, tool.Kind, tool.Origin, c.Name, c.Kind, c.Origin)
		}
		if string(tool.Input) != c.Want {
			t.Errorf("%s: input\n got  %s\n want %s", where, tool.Input, c.Want)
		}
		if mcp := mcpOf(tool); mcp != c.MCP {
			t.Errorf("%s: mcp %q, want %q", where, mcp, c.MCP)
		}
		if tool.NativeName != c.Native || string(tool.NativeInput) != c.In {
			t.Errorf("%s: native name or input changed", where)
		}
		// the call renders back to its provider
		name, back, _ := canon.RenderIn(sourceProvider(c.Provider), c.Provider, "", tool)
		if name != c.Native || string(back) != c.In {
			t.Errorf("%s: rendered back as %s %s", where, name, back)
		}
		// normalizing twice, and normalizing a call whose Name and Input
		// were already rewritten, give the same call
		a := nativeTool(c.Native, c.In)
		canon.NormalizeIn(c.Provider, "", a)
		b := *a
		canon.NormalizeIn(c.Provider, "", &b)
		if b.Name != a.Name || b.Kind != a.Kind || b.Origin != a.Origin || string(b.Input) != string(a.Input) || (a.MCP == nil) != (b.MCP == nil) || a.MCP != nil && *a.MCP != *b.MCP {
			t.Errorf("%s: %+v then %+v", where, a, b)
		}
		checkAnyCall(t, c.Provider, c.Native, c.In)
	}
}

// FuzzCanon is the fuzz target of a provider's rows: any name and input,
// read as the source of the first case, normalize without panicking and
// render for every target (checkAnyCall); the cases are its seeds.
func FuzzCanon(f *testing.F, cases []RowCase) {
	if len(cases) == 0 {
		f.Fatal("no cases")
	}
	for _, c := range cases {
		f.Add(c.Native, c.In)
	}
	source := cases[0].Provider
	f.Fuzz(func(t *testing.T, name, in string) { checkAnyCall(t, source, name, in) })
}

// checkAnyCall checks what holds for any call of source: normalized, it
// has a compact JSON input when the native one is JSON, and renders for
// every target; from the canonical form alone, in a session folder, the
// rendered input is JSON when the native one was.
func checkAnyCall(t *testing.T, source, name, in string) {
	t.Helper()
	tool := &agt.Tool{NativeName: name, NativeInput: agt.Raw(in)}
	canon.NormalizeIn(source, "", tool)
	valid := json.Valid([]byte(in))
	if valid && len(tool.Input) > 0 && !json.Valid(tool.Input) {
		t.Fatalf("%s %s: input %s", source, name, tool.Input)
	}
	for _, to := range canon.Targets() {
		canon.RenderIn(to, source, "", tool)
		at := *tool
		canon.NormalizeIn(source, "/w", &at)
		_, out, _ := canon.RenderIn(to, "", "/w", &at)
		if valid && len(out) > 0 && !json.Valid(out) {
			t.Fatalf("%s %s → %s: input %s", source, name, to, out)
		}
	}
}

// RenderCase is a native call of one provider rendered for another: the
// name and input it gets there.
type RenderCase = struct {
	From   string // the call's source
	Native string
	In     string // native input ("" for none)
	To     string // the target
	Name   string // rendered name
	Want   string // rendered input
}

// CheckRender normalizes each case's call and renders it for its target,
// from its source and from the canonical form alone ("" source).
func CheckRender(t *testing.T, cases []RenderCase) {
	t.Helper()
	for _, c := range cases {
		tool := nativeTool(c.Native, c.In)
		canon.NormalizeIn(c.From, "", tool)
		for _, from := range []string{c.From, ""} {
			name, got, _ := canon.RenderIn(c.To, from, "", tool)
			if name != c.Name || string(got) != c.Want {
				t.Errorf("%s/%s %s → %s (from %q):\n got  %s %s\n want %s %s", c.From, c.Native, c.In, c.To, from, name, got, c.Name, c.Want)
			}
		}
	}
}

// WarnCase is a call its target has no tool for.
type WarnCase = struct {
	From, Native, In, To string
}

// CheckWarns renders each case's call for its target: it keeps its
// canonical name and input, with a warning.
func CheckWarns(t *testing.T, cases []WarnCase) {
	t.Helper()
	for _, c := range cases {
		tool := &agt.Tool{NativeName: c.Native, Name: c.Native, Input: agt.Raw(c.In), NativeInput: agt.Raw(c.In)}
		canon.NormalizeIn(c.From, "", tool)
		name, in, warn := canon.RenderIn(c.To, c.From, "", tool)
		if warn == "" || name != tool.Name || string(in) != string(tool.Input) {
			t.Errorf("%s/%s → %s: %s %s, warning %q", c.From, c.Native, c.To, name, in, warn)
		}
	}
}

// PathCase is a file tool's call in a session folder and the path member
// its canonical input gets.
type PathCase = struct {
	Provider, Native, In, Cwd string
	Key, Want                 string // member of the canonical input, and its value
}

// CheckPaths normalizes each case's call in its folder: a relative path is
// joined to the call's working folder (its cwd member, else the
// session's); home, absolute and drive-letter paths stay.
func CheckPaths(t *testing.T, cases []PathCase) {
	t.Helper()
	for _, c := range cases {
		tool := &agt.Tool{NativeName: c.Native, NativeInput: agt.Raw(c.In)}
		canon.NormalizeIn(c.Provider, c.Cwd, tool)
		var in map[string]any
		if err := json.Unmarshal(tool.Input, &in); err != nil {
			t.Fatal(err)
		}
		if got, _ := in[c.Key].(string); got != c.Want {
			t.Errorf("%s %s in %q: %s = %q, want %q", c.Provider, c.In, c.Cwd, c.Key, got, c.Want)
		}
	}
}

// MCPTool is the MCP call every MCPCase names: tool list_issues of server
// github, input {"state":"open"}.
var MCPTool = agt.MCP{Server: "github", Tool: "list_issues"}

// MCPCase is a provider's name for MCPTool (preset: the server and tool
// its log gives apart from the name).
type MCPCase = struct {
	Native string
	Preset *agt.MCP
}

// CheckMCP checks provider name's MCP convention: each case's native name
// normalizes to the canonical mcp__github__list_issues call, which renders
// for every target as the canonical call does and back to the provider
// under its native name; the canonical call renders for the provider as
// out ("" when the provider is no target).
func CheckMCP(t *testing.T, name, out string, cases []MCPCase) {
	t.Helper()
	canonical := &agt.Tool{Name: "mcp__github__list_issues", Kind: canon.KindOther, Origin: canon.OriginMCP, MCP: &MCPTool, Input: agt.Raw(`{"state":"open"}`)}
	if out != "" {
		if got, _, _ := canon.RenderIn(name, "", "", canonical); got != out {
			t.Errorf("→ %s: %s, want %s", name, got, out)
		}
	}
	for _, c := range cases {
		tool := &agt.Tool{NativeName: c.Native, NativeInput: agt.Raw(`{"state":"open"}`), MCP: c.Preset}
		canon.NormalizeIn(name, "", tool)
		if tool.Name != canonical.Name || tool.Origin != canonical.Origin || tool.Kind != canonical.Kind || tool.MCP == nil || *tool.MCP != MCPTool {
			t.Errorf("%s %s: %+v", name, c.Native, tool)
			continue
		}
		for _, to := range canon.Targets() {
			got, _, _ := canon.RenderIn(to, "", "", tool)
			want, _, _ := canon.RenderIn(to, "", "", canonical)
			if got != want {
				t.Errorf("%s %s → %s: %s, want %s", name, c.Native, to, got, want)
			}
		}
		if got, _, _ := canon.RenderIn(name, name, "", tool); got != c.Native {
			t.Errorf("%s %s: round trip gave %s", name, c.Native, got)
		}
	}
}

// CheckDefaults checks that provider name has one default row (the row
// that renders the canonical tool) for each of the canonical tools.
func CheckDefaults(t *testing.T, name string, tools ...string) {
	t.Helper()
	ts, ok := provider.Lookup(name).(provider.Toolset)
	if !ok {
		t.Fatalf("%s: no tools in the registry", name)
	}
	def := map[string]int{}
	for _, r := range ts.Tools().Rows {
		if r.Out == "" {
			def[r.Name]++
		}
	}
	for _, n := range tools {
		if def[n] != 1 {
			t.Errorf("%s: no default row for %s", name, n)
		}
	}
}

// Vocabulary is the name of the registered provider whose tool names are
// the canonical ones (canon.Tools.Vocabulary): its calls are canonical
// calls as they are.
func Vocabulary(t testing.TB) string {
	for _, p := range provider.All() {
		if ts, ok := p.(provider.Toolset); ok && ts.Tools().Vocabulary {
			return p.Name()
		}
	}
	t.Fatal("no provider declares the canonical vocabulary")
	return ""
}

// mcpOf is t's MCP server and tool as "server/tool", "" for none.
func mcpOf(t *agt.Tool) string {
	if t.MCP == nil {
		return ""
	}
	return t.MCP.Server + "/" + t.MCP.Tool
}

// sourceProvider is the provider of a call's source (canon.Source).
func sourceProvider(source string) string {
	if _, p, ok := strings.Cut(source, "/"); ok {
		return p
	}
	return source
}

// Members decodes a JSON object (none: empty), failing t on anything else.
func Members(t testing.TB, r agt.Raw) map[string]any {
	t.Helper()
	m := map[string]any{}
	if len(r) == 0 {
		return m
	}
	if err := json.Unmarshal(r, &m); err != nil {
		t.Fatalf("not a JSON object: %s", r)
	}
	return m
}

// nativeTool is a call of native tool name with input in ("": none), as
// a parser gives it.
func nativeTool(name, in string) *agt.Tool {
	var r agt.Raw
	if in != "" {
		r = agt.Raw(in)
	}
	return &agt.Tool{Name: name, NativeName: name, Input: r, NativeInput: r}
}
