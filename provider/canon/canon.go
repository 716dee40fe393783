// Package canon maps provider-native tool calls to agt's canonical tools
// (DESIGN.md §3) and back: the provider facades of agt-normalize --to.
//
// The table. Every provider-native tool name is a Row. The rows live in
// the provider's own folder (provider/<name>/canon.go, with its MCP naming
// styles and tool definitions, as a Tools value; provider/acp's are the ACP
// tool kinds an ACP agent leaves when it names no tool) and come here
// through Register, which the provider registry calls: this package holds
// the machinery and the canonical vocabulary, and imports no provider. A
// row names the canonical tool, its kind, the renames of its
// input members, an optional converter for what renames cannot say
// (convert.go: shell commands, argv arrays, apply_patch text, skills, …)
// and, for the reverse direction, whether it is the provider's row for the
// canonical name. Table() lists the rows.
//
// Canonical names are Claude Code's (Read Write Edit Bash BashOutput
// KillShell Grep Glob LS WebFetch WebSearch Task TodoWrite Skill
// NotebookEdit AskUserQuestion ExitPlanMode); a native tool with no canonical counterpart keeps its own
// name in its row (write_stdin, report_intent, …) with a kind. Canonical
// input members are file_path, content, old_string/new_string, command,
// pattern, path, url, query, skill, plus cwd (a shell's working directory),
// edits [{old_string, new_string}], todos [{content, status}], patch (the
// text of an apply_patch) and files [{path, op, move_to}] (every file of a
// patch or of a multi-file read; op add, update, delete or read), and for
// background shells shell_id and op (poll, write, stop, list). Members
// with no canonical name keep their native name and order; members a
// conversion adds come after them.
//
// Kinds: read write execute search fetch plan ask think other (kinds.go).
// Origins: builtin (a row of the table), mcp (an MCP server's tool; mcp is
// set), skill (the call loads a skill; input.skill is set), custom (a name
// outside the table: extension, plugin or unknown tools, which pass
// through with kind other and the native input).
//
// Shell calls are reclassified (shell.go): a command that only reads
// files is a Read (file_path, files when several), one that only lists is
// an LS or a Glob, one that only searches a Grep (pattern, path); the
// command stays in the input. Anything that may write stays Bash.
//
// MCP tools (mcp.go, and each provider's MCP styles) in every provider's convention become
// mcp__<server>__<tool> with mcp {server, tool}; a tool that a provider
// offers as its own although an MCP server serves it (Copilot's
// web_search) takes the built-in's canonical name and keeps mcp and
// origin mcp. Skills set input.skill whatever the provider: Claude's Skill
// (plugin:skill split into skill and plugin), Copilot's skill and "Using
// skill: X", Gemini's activate_skill, OpenCode's skill, an MCP server of
// skills (Codex mcp:<server>/<skill>, a server named *skill*), and any Read
// (native or reclassified) of …/skills/…/<name>/SKILL.md.
//
// The reverse direction. Render(to, from, t) gives the name and input of
// a canonical call in provider to's layout: the row of to for the
// canonical name (a conditional row first, e.g. Claude MultiEdit when the
// input has edits), renames undone, members Normalize derived dropped,
// converters run backwards (a command becomes [bash, -lc, command] for
// Codex shell; an Edit or Write becomes an apply_patch text for Codex; a
// single-element edits list becomes old_string/new_string for a provider
// without multi-edits). A reclassified shell call renders as to's shell
// tool, and a Read, LS, Glob or Grep for a provider without such a tool
// (Codex) as the shell command that does it (cat, sed -n, ls, rg --files,
// rg -n). A canonical tool with no row in to keeps its canonical name and
// input. Renaming is
// lossless, but some native layouts have no single canonical image (Codex
// has four shell tools, Copilot's 2025 str_replace_editor, Claude's Agent
// alias of Task, ACP kinds standing for tool names, Gemini's ACP
// descriptions, argv arrays that are not [bash, -lc, SCRIPT]): when the
// call came from provider to (from == to) and its canonical name and input
// are still what Normalize gives for its native name and input, Render
// returns the native name and input, so that native → canonical → same
// provider always gives back the native call. Otherwise the rendered input
// is fitted to provider to's tool definition (defs.go: members the tool
// does not take are left out); RenderIn reports a call that still does
// not fit, or that to has no tool for, and keeps it canonical.
package canon

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/agt-project/agt"
)

// NormalizeIn sets t's canonical name, kind, origin, MCP and input from
// its native name and input (and an MCP server the parser found, in
// t.MCP); provider is the call's Source. NativeName and NativeInput are
// not changed; normalizing twice changes nothing. Names not in the table
// pass through with kind other, origin custom and the native input.
//
// cwd is the working folder of the call's session ("" when unknown):
// relative paths that reclassified shell calls
// and patches name are joined to it (to the call's own cwd member first),
// and a listing or search that names no folder is of it.
func NormalizeIn(provider, cwd string, t *agt.Tool) { normalizeTool(provider, cwd, false, t) }

// NormalizeKeep is NormalizeIn that keeps a shell call that only reads,
// lists or searches a Bash call (its kind says what it does, its origin
// is still set) instead of reclassifying it, and a call of the vocabulary's provider's (Tools.Vocabulary)
// under its own name (Claude Code's MultiEdit stays MultiEdit, its input
// canonical). A call kept so stays kept when it is normalized again
// without it.
func NormalizeKeep(provider, cwd string, t *agt.Tool) { normalizeTool(provider, cwd, true, t) }

func normalizeTool(provider, cwd string, keep bool, t *agt.Tool) {
	n := normalizeCall(provider, cwd, keep || kept(provider, t), t)
	t.Name, t.Kind, t.Origin, t.Via, t.MCP, t.Input = n.name, n.kind, n.origin, n.via, n.mcp, n.input
	if t.Name == "" {
		t.Name = agt.UnknownTool // a call whose log names no tool
	}
}

// kept tells whether t was normalized before by NormalizeKeep and left so:
// a shell call kept Bash (via shell), or a call of the vocabulary's provider's (Tools.Vocabulary) under its
// own name (its origin set).
func kept(provider string, t *agt.Tool) bool {
	return t.Via == ViaShell && t.Name == "Bash" ||
		provider == vocabulary && t.Origin != "" && t.NativeName != "" && t.Name == t.NativeName
}

// normalizeCall normalizes t's native call; keep as NormalizeKeep does.
func normalizeCall(provider, cwd string, keep bool, t *agt.Tool) norm {
	n := normalize(provider, cwd, keep, t.NativeName, t.NativeInput, t.MCP)
	if keep && provider == vocabulary && t.NativeName != "" {
		n.name = t.NativeName // the vocabulary's own calls pass through (MultiEdit, KillBash)
	}
	return n
}

// norm is a normalized call.
type norm struct {
	name, kind, origin, via string
	mcp                     *agt.MCP
	input                   agt.Raw
}

// Source names where a call comes from for NormalizeIn and RenderIn: the
// provider, or for a call read in the format of a protocol a provider
// declares (Tools.Protocol: ACP) "<protocol provider>/<provider>", so that
// the protocol's tool kinds (execute, edit, …) stand for tool names there
// only.
func Source(provider, format string) string {
	if p := protocols[format]; p != "" && provider != p {
		return p + "/" + provider
	}
	return provider
}

// splitSource is the provider of source (see Source) and the provider of
// the protocol it was read in ("" for none; the provider itself for the
// protocol's own calls).
func splitSource(source string) (provider, protocol string) {
	if p, rest, ok := strings.Cut(source, "/"); ok {
		return rest, p
	}
	for _, p := range protocols {
		if p == source {
			return source, source
		}
	}
	return source, ""
}

func normalize(source, cwd string, keep bool, name string, native agt.Raw, preset *agt.MCP) norm {
	provider, protocol := splitSource(source)
	in, _ := parseObject(native)
	if r, arg := lookup(provider, protocol, name, in); r != nil {
		return fromRow(&nctx{provider: provider, row: r, arg: arg, cwd: cwd, keep: keep}, native, in, preset)
	}
	var server, tool string
	ok := false
	if preset != nil && preset.Server != "" && preset.Tool != "" {
		server, tool, ok = preset.Server, preset.Tool, true
	} else {
		server, tool, ok = parseMCP(provider, name)
	}
	if ok {
		n := norm{name: mcpName(server, tool), kind: KindOther, origin: OriginMCP, mcp: &agt.MCP{Server: server, Tool: tool}, input: native}
		if skill := loadedSkill(preset); skill != "" && in != nil {
			// the log shows the call loaded a skill (its result is the
			// skill's SKILL.md): a Skill, whatever the server's name
			n.mcp.Skill = skill
			if !in.has("skill") {
				in.setStr("skill", skill)
			}
			n.name, n.input, n.origin = "Skill", in.raw(), OriginSkill
		} else if skillServer(server) && in != nil && (!in.has("skill") || in.str("skill") == tool) {
			// a server of skills, one tool per skill: the call is a Skill
			in.setStr("skill", tool)
			n.name, n.input, n.origin = "Skill", in.raw(), OriginSkill
		}
		return n
	}
	return norm{name: name, kind: KindOther, origin: OriginCustom, input: native}
}

func fromRow(c *nctx, native agt.Raw, in *object, preset *agt.MCP) norm {
	r := c.row
	c.name, c.kind = r.Name, r.Kind
	if c.kind == "" {
		c.kind = kinds[r.Name]
	}
	n := norm{input: native, origin: r.Origin}
	if in == nil && native.IsNull() && r.prefix != "" {
		in = &object{} // "Using skill: X" needs no input
	}
	if in != nil {
		c.in = in
		applyRenames(c.in, r.fields, false)
		acpDescription(c)
		if r.conv != nil {
			r.conv.in(c)
		}
		absolute(c)
		if c.name == "Read" {
			readSkill(c)
		}
		n.input = c.in.raw()
	}
	if c.generic {
		return norm{name: c.name, kind: c.kind, origin: OriginCustom, input: native}
	}
	n.name, n.kind = c.name, c.kind
	if n.origin == "" {
		n.origin = OriginBuiltin
	}
	if s, t, ok := strings.Cut(r.MCP, "/"); ok {
		n.mcp = &agt.MCP{Server: s, Tool: t}
	} else if preset != nil {
		n.mcp = &agt.MCP{Server: preset.Server, Tool: preset.Tool}
	}
	if n.mcp != nil {
		n.origin = OriginMCP
	}
	if c.skill {
		n.origin = OriginSkill
	}
	if c.shell {
		n.via = ViaShell
	}
	return n
}

// RenderIn returns the name and input of the call t, which NormalizeIn
// normalized with working folder cwd, in the layout of provider to. from
// is the provider the call came from ("" when unknown): when it is to and
// t is as NormalizeIn made it, the native name and input are returned. It
// also returns a warning when provider to has no tool that takes
// the call (Definitions): the call then keeps its canonical name and input
// (a multi-edit for a provider whose edit tool takes one edit, an input
// that lacks what to's tool requires, a tool to does not have; MCP tools
// are taken to be served to every provider).
func RenderIn(to, from, cwd string, t *agt.Tool) (name string, input agt.Raw, warn string) {
	if base, _ := splitSource(from); base == to && t.NativeName != "" && unchanged(from, cwd, t) {
		return t.NativeName, t.NativeInput, ""
	}
	name, input = render(to, t)
	msg := check(to, name, input)
	if msg == "" && defsOf[to][name] == nil && t.MCP == nil {
		msg = "no tool of that name"
	}
	if msg != "" {
		return t.Name, t.Input, fmt.Sprintf("%s has no tool for this %s call (%s): it keeps its canonical name and input", to, t.Name, msg)
	}
	return name, input, ""
}

// unchanged reports whether t's canonical name and input are what
// Normalize gives for its native ones.
func unchanged(provider, cwd string, t *agt.Tool) bool {
	n := normalizeCall(provider, cwd, kept(provider, t), t)
	return n.name == t.Name && bytes.Equal(n.input, t.Input)
}

func render(to string, t *agt.Tool) (string, agt.Raw) {
	in, isObj := parseObject(t.Input)
	if t.MCP != nil && (strings.HasPrefix(t.Name, "mcp__") || t.Name == "Skill" && (skillServer(t.MCP.Server) || t.MCP.Skill != "")) {
		out := t.Input
		if isObj && (skillServer(t.MCP.Server) && in.str("skill") == t.MCP.Tool || t.MCP.Skill != "" && in.str("skill") == t.MCP.Skill && !nativeHas(t, "skill")) {
			in.del("skill")
			out = in.raw()
		}
		return mcpOut(to, t.MCP.Server, t.MCP.Tool), out
	}
	if !isObj {
		if r := outRow(to, t.Name, nil); r != nil {
			return r.Native, t.Input
		}
		return t.Name, t.Input
	}
	name := t.Name
	if shellClass[name] {
		if cmd := in.str("command"); cmd != "" && classify(cmd).name == name {
			name = "Bash" // a reclassified shell call
		}
	}
	r := outRow(to, name, in)
	if name == "Edit" && (r == nil || r.Conv != "patch") {
		// a patch for a provider whose edit tools take strings
		if e := patchEdits(in); e != in {
			in, r = e, outRow(to, name, e)
		}
	}
	if name == "Edit" && r != nil && r.Conv == "patch" && !in.has("patch") {
		// one edit goes to the provider's edit tool rather than its patch
		if f := flattenEdits(in); f != in {
			if r2 := outRow(to, name, f); r2 != nil && r2.Conv != "patch" {
				in, r = f, r2
			}
		}
	}
	if r == nil && shellClass[name] {
		// a provider with no such tool (Codex reads with its shell) runs
		// the command that does it
		if cmd := shellFor(name, in); cmd != "" {
			if r = outRow(to, "Bash", nil); r != nil {
				in = &object{}
				in.setStr("command", cmd)
				name = "Bash"
			}
		}
	}
	if r == nil {
		return t.Name, t.Input
	}
	if name == "Edit" && r.Out != "edits" && r.Conv != "patch" {
		in = flattenEdits(in)
	}
	if name == "Edit" && r.Conv == "patch" && in.has("edits") && in.has("patch") {
		in = in.clone() // the patch it came from, not one written from its edits
		in.del("edits")
	}
	c := &rctx{to: to, row: r, name: name, src: in, out: in.clone()}
	if r.conv != nil {
		r.conv.out(c)
	}
	for _, k := range derived {
		if r.conv == nil || !contains(r.conv.keep, k) {
			c.out.del(k)
		}
	}
	applyRenames(c.out, r.fields, true)
	condInto(r, c.out)
	cdInto(to, r, c.out)
	fit(to, r.Native, c.out)
	return r.Native, c.out.raw()
}

// condInto puts the values a row's condition names (key=value) into an
// input that lacks them, first: Kiro CLI's write is a Write when its
// command is create.
func condInto(r *row, out *object) {
	var set []field
	for _, c := range r.ifc {
		if c.eq && !c.neg && !out.has(c.key) {
			set = append(set, field{c.key, agt.String(c.val)})
		}
	}
	if len(set) > 0 {
		out.f = append(set, out.f...)
	}
}

// flattenEdits turns edits [{old_string, new_string}] of one element into
// old_string and new_string, for a provider whose edit tool takes one.
func flattenEdits(in *object) *object {
	elems, ok := parseArray(in.get("edits"))
	if !ok || len(elems) != 1 || in.has("old_string") {
		return in
	}
	e, ok := parseObject(elems[0])
	if !ok {
		return in
	}
	out := in.clone()
	out.del("edits")
	for _, f := range e.f {
		if f.k != "file_path" || !out.has("file_path") {
			out.set(f.k, f.v)
		}
	}
	return out
}

// shellClass are the names shell reclassification gives.
var shellClass = map[string]bool{"Read": true, "LS": true, "Glob": true, "Grep": true}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
