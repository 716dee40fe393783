package canon

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agt-project/agt"
)

// Tool definitions: the tools each provider's model is offered, under
// their native names, with the JSON Schema of their input (the facade's
// definition()). The tools are the provider's rendering rows (Out not
// "-"); their parameters are the specs below, in native member names, in
// the layout of the provider's API (apiForms). Render checks every input
// it builds against them: members the tool does not take are left out,
// and an input that still lacks what the tool requires is not rendered.
//
// A spec is space-separated members "name[!]:type": ! marks a required
// member; types s string, i integer, n number, b boolean, o object, a
// array, a:s array of strings, a:o array of objects, a:i array of
// integers, * any. A spec "*" leaves the input open (a hosted tool or one
// whose schema is not known). Where the members are inferred from the
// corpus rather than a published schema, docs/rules/normalize.md says so.

// Def is one native tool's definition (a provider's Tools.Defs).
type Def struct {
	Desc   string // "" = the canonical tool's description
	Params string
	Kind   string // API form: "" function, "custom" a freeform text tool, "hosted" a tool the API runs
}

// PatchDescription describes the apply_patch tools.
const PatchDescription = "Applies a patch in the apply_patch format (*** Begin Patch … *** End Patch): adds, updates, moves and deletes files."

// descriptions of the canonical tools, which their rows' definitions share.
var descriptions = map[string]string{
	"Read":            "Reads a file from the local filesystem.",
	"Write":           "Writes a file, replacing any content it had.",
	"Edit":            "Replaces exact text in a file.",
	"NotebookEdit":    "Replaces, inserts or deletes a cell of a Jupyter notebook.",
	"Bash":            "Runs a shell command and returns its output.",
	"BashOutput":      "Returns the new output of a background shell.",
	"KillShell":       "Stops a background shell.",
	"write_stdin":     "Writes to the standard input of a background shell.",
	"list_bash":       "Lists the background shells.",
	"Grep":            "Searches file contents for a regular expression.",
	"Glob":            "Finds files whose paths match a glob pattern.",
	"LS":              "Lists the entries of a folder.",
	"WebFetch":        "Fetches a URL and answers a prompt about its content.",
	"WebSearch":       "Searches the web.",
	"Task":            "Runs a sub-agent on a task and returns its report.",
	"TodoWrite":       "Writes the session's todo list.",
	"TodoRead":        "Reads the session's todo list.",
	"Skill":           "Loads a skill's instructions.",
	"AskUserQuestion": "Asks the user questions and waits for the answers.",
	"ExitPlanMode":    "Presents the plan and leaves plan mode.",
	"EnterPlanMode":   "Enters plan mode: research and planning, no changes.",
}

// param is one member of a definition.
type param struct {
	name, typ string
	req       bool
}

// def is a compiled definition.
type def struct {
	provider, name, desc, kind string
	params                     []param
	open                       bool // any member is taken
}

// defsOf are the registered providers' compiled definitions, by provider
// and native name; apis are their API forms.
var (
	defsOf = map[string]map[string]*def{}
	apis   = map[string]string{}
)

func compileDefs(p string, specs map[string]Def) map[string]*def {
	out := map[string]*def{}
	for name, s := range specs {
		d := &def{provider: p, name: name, desc: s.Desc, kind: s.Kind}
		if s.Params == "*" {
			d.open = true
		}
		for _, f := range strings.Fields(s.Params) {
			if f == "*" {
				continue
			}
			n, t, ok := strings.Cut(f, ":")
			if !ok {
				panic(fmt.Sprintf("canon: definition %s/%s: bad member %q", p, name, f))
			}
			pm := param{name: strings.TrimSuffix(n, "!"), typ: t, req: strings.HasSuffix(n, "!")}
			if _, ok := schemaTypes[t]; !ok {
				panic(fmt.Sprintf("canon: definition %s/%s: bad type %q", p, name, t))
			}
			d.params = append(d.params, pm)
		}
		out[name] = d
	}
	return out
}

// schemaTypes are the JSON Schemas of the spec types.
var schemaTypes = map[string]string{
	"s":   `{"type":"string"}`,
	"i":   `{"type":"integer"}`,
	"n":   `{"type":"number"}`,
	"b":   `{"type":"boolean"}`,
	"o":   `{"type":"object"}`,
	"a":   `{"type":"array"}`,
	"a:s": `{"type":"array","items":{"type":"string"}}`,
	"a:o": `{"type":"array","items":{"type":"object"}}`,
	"a:i": `{"type":"array","items":{"type":"integer"}}`,
	"*":   `{}`,
}

// describe is a definition's description: its own, else its canonical
// tool's (the tool's rendering row names it).
func (d *def) describe() string {
	if d.desc != "" {
		return d.desc
	}
	for _, r := range idx().out[d.provider] {
		for _, x := range r {
			if x.Native == d.name {
				if s := descriptions[x.Name]; s != "" {
					return s
				}
			}
		}
	}
	return d.name
}

// schema is the JSON Schema of a definition's input.
func (d *def) schema() agt.Raw {
	props := &object{}
	var req []string
	for _, p := range d.params {
		props.set(p.name, agt.Raw(schemaTypes[p.typ]))
		if p.req {
			req = append(req, p.name)
		}
	}
	o := &object{}
	o.setStr("type", "object")
	o.set("properties", props.raw())
	if len(req) > 0 {
		o.set("required", strs(req))
	}
	if !d.open {
		o.set("additionalProperties", agt.Raw("false"))
	}
	return o.raw()
}

// The API forms a provider's definitions take (Tools.API).
const (
	APIMessages             = "messages"              // Anthropic's Messages API
	APIResponses            = "responses"             // OpenAI's Responses API
	APIFunctionDeclarations = "function-declarations" // Gemini's functionDeclarations
	APIChatCompletions      = "chat-completions"      // OpenAI's Chat Completions
	APIParameters           = "parameters"            // {name, description, parameters}: pi-ai, the AI SDK
)

// apiForms write a definition as each API takes it.
var apiForms = map[string]func(d *def) agt.Raw{
	// Messages API: {name, description, input_schema}
	APIMessages: func(d *def) agt.Raw {
		return fields("name", d.name, "description", d.describe(), "input_schema", d.schema())
	},
	// Responses API: function tools, custom (freeform) tools, hosted tools
	APIResponses: func(d *def) agt.Raw {
		switch d.kind {
		case "custom":
			return fields("type", "custom", "name", d.name, "description", d.describe(), "format", agt.Raw(`{"type":"text"}`))
		case "hosted":
			return fields("type", d.name)
		}
		return fields("type", "function", "name", d.name, "description", d.describe(), "strict", agt.Raw("false"), "parameters", d.schema())
	},
	// functionDeclarations: {name, description, parametersJsonSchema}
	APIFunctionDeclarations: func(d *def) agt.Raw {
		return fields("name", d.name, "description", d.describe(), "parametersJsonSchema", d.schema())
	},
	// Chat Completions: {type: function, function: {name, description, parameters}}
	APIChatCompletions: func(d *def) agt.Raw {
		if d.kind == "custom" {
			return fields("type", "custom", "custom", fields("name", d.name, "description", d.describe(), "format", agt.Raw(`{"type":"text"}`)))
		}
		return fields("type", "function", "function", fields("name", d.name, "description", d.describe(), "parameters", d.schema()))
	},
	// pi-ai's Tool, the AI SDK's tools as OpenCode registers them: {name, description, parameters}
	APIParameters: func(d *def) agt.Raw {
		return fields("name", d.name, "description", d.describe(), "parameters", d.schema())
	},
}

// fields builds an object of key, value pairs: a string value is a JSON
// string, an agt.Raw one is kept.
func fields(kv ...any) agt.Raw {
	o := &object{}
	for i := 0; i+1 < len(kv); i += 2 {
		k := kv[i].(string)
		switch v := kv[i+1].(type) {
		case string:
			o.set(k, jsonString(v))
		case agt.Raw:
			o.set(k, v)
		}
	}
	return o.raw()
}

// Definitions returns the tool definitions of provider p, as p's API takes
// them, sorted by name; nil for an unknown provider.
func Definitions(p string) []agt.Raw {
	form := apiForms[apis[p]]
	if form == nil {
		return nil
	}
	names := make([]string, 0, len(defsOf[p]))
	for n := range defsOf[p] {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]agt.Raw, len(names))
	for i, n := range names {
		out[i] = form(defsOf[p][n])
	}
	return out
}

// fit leaves out of a rendered input the members provider to's tool name
// does not take.
func fit(to, name string, in *object) {
	d := defsOf[to][name]
	if d == nil || d.open {
		return
	}
	kept := in.f[:0]
	for _, f := range in.f {
		p := d.param(f.k)
		if p == nil {
			continue
		}
		if p.typ == "s" && len(f.v) > 0 && !typeOK("s", f.v) && typeOK("n", f.v) {
			f.v = jsonString(string(f.v)) // a numeric id where a string one is taken
		}
		if s := agt.Raw(f.v).Str(); p.typ == "n" && typeOK("s", f.v) && isDigits(s) && len(s) < 16 {
			f.v = agt.Raw(s) // and the other way
		}
		kept = append(kept, f)
	}
	in.f = kept
}

// cdInto moves a shell call's working folder into its command (cd DIR &&
// …) for a shell tool that takes no folder (Claude's Bash, Copilot's bash).
func cdInto(to string, r *row, out *object) {
	d := defsOf[to][r.Native]
	cwd := out.str("cwd")
	if d == nil || d.open || cwd == "" || d.param("cwd") != nil || r.conv == nil || r.conv.in == nil || r.Conv != "shell" {
		return
	}
	if cmd := out.str("command"); cmd != "" {
		out.setStr("command", "cd "+shQuote(cwd)+" && "+cmd)
		out.del("cwd")
	}
}

func (d *def) param(name string) *param {
	for i := range d.params {
		if d.params[i].name == name {
			return &d.params[i]
		}
	}
	return nil
}

// check reports what makes input unfit for provider to's tool name ("" when
// it fits, or when to defines no such tool: MCP and custom tools).
func check(to, name string, input agt.Raw) string {
	d := defsOf[to][name]
	if d == nil || d.open {
		return ""
	}
	in, ok := parseObject(input)
	if !ok {
		if input.IsNull() {
			in = &object{}
		} else {
			return "the input is not an object"
		}
	}
	for _, p := range d.params {
		v := in.get(p.name)
		if v == nil {
			if p.req {
				return "no " + p.name
			}
			continue
		}
		if !typeOK(p.typ, v) {
			return p.name + " is not of type " + p.typ
		}
	}
	for _, f := range in.f {
		if d.param(f.k) == nil {
			return to + "'s " + name + " takes no " + f.k
		}
	}
	return ""
}

// typeOK reports whether JSON value v is of spec type t.
func typeOK(t string, v agt.Raw) bool {
	if len(v) == 0 {
		return false
	}
	switch t {
	case "*":
		return true
	case "s":
		return v[0] == '"'
	case "b":
		return string(v) == "true" || string(v) == "false"
	case "i":
		_, ok := number(v)
		return ok
	case "n":
		return v[0] == '-' || v[0] >= '0' && v[0] <= '9'
	case "o":
		return v[0] == '{'
	}
	elems, ok := parseArray(v)
	if !ok {
		return false
	}
	if _, et, ok := strings.Cut(t, ":"); ok {
		for _, e := range elems {
			if !typeOK(et, e) {
				return false
			}
		}
	}
	return true
}
