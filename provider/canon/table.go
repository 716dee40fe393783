package canon

import (
	"fmt"
	"strings"
	"sync"

	"github.com/agt-project/agt"
)

// Row is one provider-native tool of the canonical table: what agt calls
// it and how its input members are named. The rows of a provider live in
// its own folder (provider/<name>/canon.go) and come here through Register;
// rows of a provider that declares a Tools.Protocol (ACP's tool kinds, the
// names an ACP agent that names no tool leaves) serve every provider read
// in that protocol after its own rows.
type Row struct {
	Provider string // claude codex gemini copilot pi opencode, or acp
	Native   string // native name; a name ending in "*" is a prefix, the rest of the name is the row's argument
	If       string // condition on the native input: space-separated "key", "!key", "key=value"
	Name     string // canonical name
	Kind     string // "" = the kind of Name (see kinds)
	Origin   string // "" = builtin; "custom" for a well-known extension tool
	Fields   string // renames "native=canonical", space-separated; "a=b[c=d,e=f]" also renames members of b's elements
	Conv     string // converter for what renames cannot say (see convs)
	MCP      string // "server/tool" when the tool is an MCP server's tool under a built-in name
	Out      string // reverse direction: "" the provider's default row for Name, a condition on the canonical input for a preferred row ("a|b": a or b), "-" never
}

// cond is one term of a condition.
type cond struct {
	key, val string
	neg, eq  bool
}

// rename is one member rename; elems renames members of the elements of
// an array value.
type rename struct {
	from, to string
	elems    []rename
}

// row is a Row made ready for use.
type row struct {
	*Row
	ifc    []cond
	outc   []cond
	fields []rename
	prefix string // Native without its "*", for prefix rows
	conv   *conv
}

// rows are all rows of every registered provider, in registration order.
var rows []Row

// Tools is one provider's part of the table, which its folder declares
// and the provider registry registers: the rows of its native tools, the
// ways it names an MCP server's tool, and the definitions of the tools it
// offers with the API form they take (a provider with no API gets no
// definitions and is no --to target).
type Tools struct {
	Rows []Row
	MCP  []MCPStyle
	Defs map[string]Def // by native name
	API  string         // one of the API* forms (defs.go)
	// Vocabulary tells that the provider's tool names are the canonical
	// ones (Claude Code's): with NormalizeKeep its calls keep their names.
	// One provider declares it.
	Vocabulary bool
	// Protocol names the format of a protocol the provider reads other
	// agents' calls in (ACP): for a call of another provider read in that
	// format, this provider's rows (the protocol's tool kinds) stand for
	// the tool names the call's own provider has no row for. See Source.
	Protocol string
	// Needs are members the provider's background-shell tools need that
	// a call's canonical input may lack, by canonical name, set when such
	// a call is rendered for the provider (Codex's write_stdin needs
	// chars, which a polling BashOutput has not).
	Needs map[string]map[string]agt.Raw
}

// vocabulary is the provider that declares Tools.Vocabulary.
var vocabulary string

// protocols are the providers that declare a Tools.Protocol, by format.
var protocols = map[string]string{}

// needs are the providers' Tools.Needs, by provider.
var needs = map[string]map[string]map[string]agt.Raw{}

// Register adds provider name's tools to the table. Registration happens
// while the program starts (the provider registry's initialisation), before
// any call is normalized or rendered: the table is not guarded.
func Register(name string, t Tools) {
	for _, r := range t.Rows {
		if r.Provider != name {
			panic(fmt.Sprintf("canon: row %s/%s registered for %s", r.Provider, r.Native, name))
		}
	}
	rows = append(rows, t.Rows...)
	if t.Vocabulary {
		if vocabulary != "" {
			panic(fmt.Sprintf("canon: %s and %s: two vocabularies", vocabulary, name))
		}
		vocabulary = name
	}
	if t.Protocol != "" {
		protocols[t.Protocol] = name
	}
	if t.Needs != nil {
		needs[name] = t.Needs
	}
	for _, st := range t.MCP {
		st.provider = name
		mcpStyles = append(mcpStyles, st)
	}
	if t.API != "" {
		if apiForms[t.API] == nil {
			panic(fmt.Sprintf("canon: %s: unknown API form %q", name, t.API))
		}
		apis[name] = t.API
		defsOf[name] = compileDefs(name, t.Defs)
	}
}

// Targets lists the registered providers that calls can be rendered for
// (agt-normalize --to), in registration order.
func Targets() []string {
	var out []string
	for _, r := range rows {
		if apis[r.Provider] != "" && (len(out) == 0 || out[len(out)-1] != r.Provider) {
			out = append(out, r.Provider)
		}
	}
	return out
}

// index is the compiled table.
type index struct {
	exact    map[string]map[string][]*row // provider → native name → rows
	prefixes map[string][]*row            // provider → prefix rows
	out      map[string]map[string][]*row // provider → canonical name → rows that may render it
}

// idx is the compiled table, built when it is first read: each
// provider's registration would build it again (a sixth of a filter's
// start), and a filter that makes no call canonical (agt-report) needs
// none.
var idx = sync.OnceValue(func() *index { return build(rows) })

func build(all []Row) *index {
	x := &index{exact: map[string]map[string][]*row{}, prefixes: map[string][]*row{}, out: map[string]map[string][]*row{}}
	for i := range all {
		r := compile(&all[i])
		p := r.Provider
		if r.prefix != "" {
			x.prefixes[p] = append(x.prefixes[p], r)
		} else {
			if x.exact[p] == nil {
				x.exact[p] = map[string][]*row{}
			}
			x.exact[p][r.Native] = append(x.exact[p][r.Native], r)
		}
		if r.Out != "-" && r.prefix == "" {
			if x.out[p] == nil {
				x.out[p] = map[string][]*row{}
			}
			x.out[p][r.Name] = append(x.out[p][r.Name], r)
		}
	}
	return x
}

func compile(r *Row) *row {
	c := &row{Row: r, ifc: parseCond(r.If, r), fields: parseFields(r.Fields, r)}
	if r.Out != "-" {
		c.outc = parseCond(r.Out, r)
	}
	if strings.HasSuffix(r.Native, "*") {
		c.prefix = strings.TrimSuffix(r.Native, "*")
	}
	if r.Conv != "" {
		cv, ok := convs[r.Conv]
		if !ok {
			panic(fmt.Sprintf("canon: row %s/%s: unknown converter %q", r.Provider, r.Native, r.Conv))
		}
		c.conv = cv
	}
	if r.Kind == "" && kinds[r.Name] == "" && !strings.HasPrefix(r.Name, "mcp__") {
		panic(fmt.Sprintf("canon: row %s/%s: no kind for %s", r.Provider, r.Native, r.Name))
	}
	return c
}

func parseCond(s string, r *Row) []cond {
	var cs []cond
	for _, t := range strings.Fields(s) {
		c := cond{}
		if strings.HasPrefix(t, "!") {
			c.neg, t = true, t[1:]
		}
		if k, v, ok := strings.Cut(t, "="); ok {
			c.key, c.val, c.eq = k, v, true
		} else {
			c.key = t
		}
		if c.key == "" {
			panic(fmt.Sprintf("canon: row %s/%s: bad condition %q", r.Provider, r.Native, s))
		}
		cs = append(cs, c)
	}
	return cs
}

func parseFields(s string, r *Row) []rename {
	var out []rename
	for _, t := range splitTop(s, ' ') {
		rn, ok := parseRename(t)
		if !ok {
			panic(fmt.Sprintf("canon: row %s/%s: bad field rename %q", r.Provider, r.Native, t))
		}
		out = append(out, rn)
	}
	return out
}

func parseRename(t string) (rename, bool) {
	var elems []rename
	if i := strings.IndexByte(t, '['); i >= 0 {
		if !strings.HasSuffix(t, "]") {
			return rename{}, false
		}
		for _, e := range splitTop(t[i+1:len(t)-1], ',') {
			rn, ok := parseRename(e)
			if !ok {
				return rename{}, false
			}
			elems = append(elems, rn)
		}
		t = t[:i]
	}
	from, to, ok := strings.Cut(t, "=")
	if !ok || from == "" || to == "" {
		return rename{}, false
	}
	return rename{from: from, to: to, elems: elems}, true
}

// splitTop splits s at sep outside brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || (s[i] == sep && depth == 0) {
			if t := strings.TrimSpace(s[start:i]); t != "" {
				out = append(out, t)
			}
			start = i + 1
			continue
		}
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		}
	}
	return out
}

// holds reports whether the condition holds for o (nil: no object, where
// only an empty condition holds).
func holds(cs []cond, o *object) bool {
	for _, c := range cs {
		ok := false
		if o != nil {
			switch {
			case c.eq:
				ok = o.str(c.key) == c.val
			default:
				for _, k := range strings.Split(c.key, "|") {
					ok = ok || o.has(k)
				}
			}
		}
		if ok == c.neg {
			return false
		}
	}
	return true
}

// lookup finds the row of a native tool: the provider's rows, then those
// of the protocol it was read in (ACP's tool kinds; "" for none); exact
// names before prefixes. arg is the rest of the name for
// a prefix row.
func lookup(provider, protocol string, name string, in *object) (r *row, arg string) {
	sources := []string{provider}
	if protocol != "" && protocol != provider {
		sources = append(sources, protocol)
	}
	for _, p := range sources {
		for _, r := range idx().exact[p][name] {
			if holds(r.ifc, in) {
				return r, ""
			}
		}
	}
	for _, p := range sources {
		for _, r := range idx().prefixes[p] {
			if strings.HasPrefix(name, r.prefix) && len(name) > len(r.prefix) && holds(r.ifc, in) {
				return r, name[len(r.prefix):]
			}
		}
	}
	return nil, ""
}

// outRow is the row that renders canonical tool name for provider: the
// first whose Out condition holds for the canonical input, else the
// provider's default row.
func outRow(provider, name string, in *object) *row {
	var def *row
	for _, r := range idx().out[provider][name] {
		if len(r.outc) > 0 {
			if holds(r.outc, in) {
				return r
			}
			continue
		}
		if def == nil {
			def = r
		}
	}
	return def
}

// applyRenames renames members of o native → canonical (back = false) or
// canonical → native (back = true).
func applyRenames(o *object, rs []rename, back bool) {
	for _, rn := range rs {
		from, to := rn.from, rn.to
		if back {
			from, to = to, from
		}
		if len(rn.elems) > 0 {
			if v := o.get(from); v != nil {
				o.set(from, renameElems(v, rn.elems, back))
			}
		}
		o.rename(from, to)
	}
}

// renameElems renames members of the object elements of array v.
func renameElems(v []byte, rs []rename, back bool) []byte {
	elems, ok := parseArray(v)
	if !ok {
		return v
	}
	for i, e := range elems {
		if o, ok := parseObject(e); ok {
			applyRenames(o, rs, back)
			elems[i] = o.raw()
		}
	}
	return jsonArray(elems)
}
