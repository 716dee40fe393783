package canon_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/canon"
)

// apiShape is a provider's documented layout of a tool definition: the
// members of the definition, where its name and schema are, and the
// pattern its API accepts for a tool name.
type apiShape struct {
	members []string // exactly these (sorted)
	name    string   // path of the name: "name" or "function.name"
	schema  string   // path of the input schema ("" = none: a custom or hosted tool)
	names   *regexp.Regexp
}

var (
	// Anthropic Messages API and OpenAI function names
	plainName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	// Gemini FunctionDeclaration.name: a letter or underscore first, then
	// letters, digits, underscores, dots, colons or dashes, at most 64
	geminiName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
)

// shapes are the documented definition layouts, by API form (a
// provider's Tools.API) and kind of tool (function, custom, hosted).
var shapes = map[string]map[string]apiShape{
	canon.APIMessages: {"function": {[]string{"description", "input_schema", "name"}, "name", "input_schema", plainName}},
	canon.APIResponses: {
		"function": {[]string{"description", "name", "parameters", "strict", "type"}, "name", "parameters", plainName},
		"custom":   {[]string{"description", "format", "name", "type"}, "name", "", plainName},
		"hosted":   {[]string{"type"}, "type", "", regexp.MustCompile(`^(web_search|image_generation)$`)},
	},
	canon.APIFunctionDeclarations: {"function": {[]string{"description", "name", "parametersJsonSchema"}, "name", "parametersJsonSchema", geminiName}},
	canon.APIChatCompletions: {
		"function": {[]string{"function", "type"}, "function.name", "function.parameters", plainName},
		"custom":   {[]string{"custom", "type"}, "custom.name", "", plainName},
	},
	canon.APIParameters: {"function": {[]string{"description", "name", "parameters"}, "name", "parameters", plainName}},
}

// apiOf is the API form of the registered provider p's tools.
func apiOf(t *testing.T, p string) string {
	ts, ok := provider.Lookup(p).(provider.Toolset)
	if !ok {
		t.Fatalf("%s: no tools in the registry", p)
	}
	return ts.Tools().API
}

// protocol tells whether the registered provider p's rows are a
// protocol's (Tools.Protocol: they stand for other providers' tools and
// render for none).
func protocol(t *testing.T, p string) bool {
	ts, ok := provider.Lookup(p).(provider.Toolset)
	return ok && ts.Tools().Protocol != ""
}

// kindOf is the kind of tool a definition is: custom, hosted (a type
// other than function: a tool the API runs) or function.
func kindOf(d map[string]any) string {
	switch ty, ok := d["type"]; {
	case ty == "custom":
		return "custom"
	case ok && ty != "function":
		return "hosted"
	}
	return "function"
}

func at(m map[string]any, path string) any {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

// defsOf parses --tool-defs' definitions of provider p: name → input
// schema (nil for a tool with none); hosted are the names of its hosted
// tools.
func defsOf(t *testing.T, p string) (out map[string]map[string]any, hosted map[string]bool) {
	t.Helper()
	out, hosted = map[string]map[string]any{}, map[string]bool{}
	api := apiOf(t, p)
	for _, raw := range canon.Definitions(p) {
		var d map[string]any
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatalf("%s: %v: %s", p, err, raw)
		}
		kind := kindOf(d)
		sh, ok := shapes[api][kind]
		if !ok {
			t.Errorf("%s: a %s tool, which its API has no layout for: %s", p, kind, raw)
			continue
		}
		var keys []string
		for k := range d {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if strings.Join(keys, " ") != strings.Join(sh.members, " ") {
			t.Errorf("%s: members %v, want %v: %s", p, keys, sh.members, raw)
		}
		name, _ := at(d, sh.name).(string)
		if !sh.names.MatchString(name) {
			t.Errorf("%s: tool name %q not accepted by its API", p, name)
		}
		if _, dup := out[name]; dup {
			t.Errorf("%s: %s defined twice", p, name)
		}
		out[name] = nil
		hosted[name] = kind == "hosted"
		if sh.schema == "" {
			continue
		}
		s, _ := at(d, sh.schema).(map[string]any)
		checkSchema(t, p+"/"+name, s)
		out[name] = s
	}
	return out, hosted
}

var jsonTypes = map[string]bool{"string": true, "integer": true, "number": true, "boolean": true, "object": true, "array": true}

// checkSchema checks an input schema is a JSON Schema object schema the
// providers take: type object, typed properties, required among them.
func checkSchema(t *testing.T, where string, s map[string]any) {
	t.Helper()
	if s == nil || s["type"] != "object" {
		t.Errorf("%s: input schema not of type object: %v", where, s)
		return
	}
	props, ok := s["properties"].(map[string]any)
	if !ok {
		t.Errorf("%s: no properties", where)
		return
	}
	for k, v := range props {
		ps, _ := v.(map[string]any)
		if ty, ok := ps["type"].(string); ok && !jsonTypes[ty] || ps == nil {
			t.Errorf("%s: property %s: %v", where, k, v)
		}
		if ps["type"] == "array" {
			if it, ok := ps["items"].(map[string]any); ok && !jsonTypes[fmt.Sprint(it["type"])] {
				t.Errorf("%s: property %s items: %v", where, k, it)
			}
		}
	}
	req, _ := s["required"].([]any)
	for _, r := range req {
		if _, ok := props[r.(string)]; !ok {
			t.Errorf("%s: required %v not a property", where, r)
		}
	}
	if ap, ok := s["additionalProperties"]; ok && ap != false {
		t.Errorf("%s: additionalProperties %v", where, ap)
	}
}

// validate checks an input against a schema as the provider would: an
// object, every required member, no member the schema does not name
// (when closed), each of its type.
func validate(s map[string]any, input []byte) string {
	var in map[string]any
	if len(input) == 0 || string(input) == "null" {
		in = map[string]any{}
	} else if err := json.Unmarshal(input, &in); err != nil {
		return "not an object"
	}
	props, _ := s["properties"].(map[string]any)
	req, _ := s["required"].([]any)
	for _, r := range req {
		if _, ok := in[r.(string)]; !ok {
			return "no " + r.(string)
		}
	}
	for k, v := range in {
		ps, ok := props[k].(map[string]any)
		if !ok {
			if s["additionalProperties"] == false {
				return "unknown member " + k
			}
			continue
		}
		if ty, ok := ps["type"].(string); ok && !ofType(ty, v) {
			return k + " not " + ty
		}
	}
	return ""
}

func ofType(ty string, v any) bool {
	switch ty {
	case "string":
		_, ok := v.(string)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == float64(int64(f))
	case "number":
		_, ok := v.(float64)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	}
	return true
}

// TestDefinitions: --tool-defs gives each provider's tools in the layout
// its API documents (definition members, tool-name pattern, an object
// JSON Schema), and the definitions are the table's: every rendering row
// has one, every one is a rendering row's, and a member a row renames is
// a member of its tool.
func TestDefinitions(t *testing.T) {
	rendering := map[string]map[string][]canon.Row{}
	for _, r := range canon.Table() {
		if r.Out == "-" || strings.HasSuffix(r.Native, "*") {
			continue
		}
		if protocol(t, r.Provider) {
			continue
		}
		if rendering[r.Provider] == nil {
			rendering[r.Provider] = map[string][]canon.Row{}
		}
		rendering[r.Provider][r.Native] = append(rendering[r.Provider][r.Native], r)
	}
	for _, p := range canon.Targets() {
		defs, hosted := defsOf(t, p)
		if len(defs) == 0 {
			t.Errorf("%s: no definitions", p)
		}
		for native, rs := range rendering[p] {
			s, ok := defs[native]
			if !ok {
				t.Errorf("%s: rendering row %s has no definition", p, native)
				continue
			}
			props, _ := s["properties"].(map[string]any)
			for _, r := range rs {
				for _, f := range strings.Fields(r.Fields) {
					from, _, _ := strings.Cut(f, "=")
					if _, ok := props[from]; !ok && s != nil && s["additionalProperties"] == false {
						t.Errorf("%s/%s: renamed member %s is not in its definition", p, native, from)
					}
				}
			}
		}
		for name := range defs {
			if rendering[p][name] == nil && !hosted[name] {
				t.Errorf("%s: definition %s is no rendering row", p, name)
			}
		}
	}
	if canon.Definitions("nope") != nil {
		t.Error("definitions of an unknown provider")
	}
}

// TestRenderFitsDefinitions renders every tool call of the corpus for
// every provider: the result is a tool of that provider whose definition
// takes the input (checked by a JSON Schema validator of its own, from
// the --tool-defs output), or an MCP server's tool, or the canonical call
// with a warning. (A call rendered for its own provider is given back as
// it was made, older tool versions included: it is left out.)
func TestRenderFitsDefinitions(t *testing.T) {
	calls := loadCorpus(t)
	schemas := map[string]map[string]map[string]any{}
	for _, p := range canon.Targets() {
		schemas[p], _ = defsOf(t, p)
	}
	warned := map[string]map[string]int{}
	for _, ev := range calls {
		src := canon.Source(ev.Provider, ev.Format)
		for _, to := range canon.Targets() {
			if ev.Provider == to {
				continue // its own provider's call is given back as it was made
			}
			tool := *ev.Tool
			canon.Normalize(src, &tool)
			name, in, warn := canon.RenderIn(to, src, "", &tool)
			where := fmt.Sprintf("%s:%d %s %s → %s", filepath.Base(ev.Src.Path), ev.Src.Line, ev.Provider, ev.Tool.NativeName, to)
			if warn != "" {
				if name != tool.Name || string(in) != string(tool.Input) {
					t.Errorf("%s: warned (%s) but rendered %s", where, warn, name)
				}
				if warned[to] == nil {
					warned[to] = map[string]int{}
				}
				warned[to][tool.Name]++
				continue
			}
			s, ok := schemas[to][name]
			switch {
			case !ok && tool.MCP != nil:
			case !ok:
				t.Errorf("%s: rendered as %s, no tool of %s, and no warning", where, name, to)
			case s != nil:
				if msg := validate(s, in); msg != "" {
					t.Errorf("%s: %s %s does not fit its definition: %s", where, name, short(in), msg)
				}
			}
		}
	}
	for _, to := range canon.Targets() {
		var b []string
		n := 0
		for name, c := range warned[to] {
			b = append(b, fmt.Sprintf("%s %d", name, c))
			n += c
		}
		sort.Strings(b)
		t.Logf("→ %s: %d of %d calls kept canonical with a warning: %s", to, n, len(calls), strings.Join(b, ", "))
	}
}

var _ = agt.Raw(nil)
