package canon

import (
	"path"
	"regexp"
	"strings"

	"github.com/agt-project/agt"
)

// nctx is a call being normalized: conversions read and change the
// canonical input (already renamed) and may change the name and kind.
type nctx struct {
	provider string
	row      *row
	arg      string // the rest of the name, for a prefix row
	cwd      string // the session's working folder, "" when unknown
	in       *object
	name     string
	kind     string
	skill    bool // the call loads a skill
	shell    bool // a shell call that only reads, lists or searches
	keep     bool // such a call stays Bash (KeepShell)
	generic  bool // the row does not apply after all: native name and input, origin custom
}

// rctx is a call being rendered: src is the canonical input, out the
// input being built (still with canonical member names: the row's renames
// run after the conversion).
type rctx struct {
	to   string
	row  *row
	name string
	src  *object
	out  *object
}

// conv converts what field renames cannot.
type conv struct {
	in   func(*nctx)
	out  func(*rctx)
	keep []string // canonical members the conversion renders itself (not dropped as derived)
}

// derived are the members Normalize adds that are not part of any native
// layout; rendering drops them unless the row's conversion keeps them.
var derived = []string{"files", "skill", "plugin"}

// shellDerived are the members shell reclassification and a shell's
// apply_patch add.
var shellDerived = []string{"file_path", "files", "path", "pattern", "skill", "plugin", "patch", "content"}

// convs are the conversions rows name.
var convs = map[string]*conv{
	// shell: a command string, reclassified (shell.go).
	"shell": {in: shellIn, out: shellOut},
	// argv: a command as an argv array (Codex shell, local_shell); the
	// canonical command is the script of [bash, -lc, SCRIPT] or the words
	// quoted and joined; it renders as [bash, -lc, command].
	"argv": {in: argvIn, out: argvOut},
	// wrapped: Codex exec's command string "/bin/bash -lc '…'"; the
	// canonical command is the script.
	"wrapped": {in: wrappedIn, out: wrappedOut},
	// patch: apply_patch text → file_path, files [{path, op, move_to}],
	// Write when it only adds files (with content for a single file).
	"patch": {in: patchIn, out: patchOut},
	// changes: Codex's lists of changed files → file_path, files.
	"changes": {in: changesIn, out: func(c *rctx) { c.out.del("file_path") }},
	// skill: the skill's name; qskill: Claude's plugin:skill, split into
	// skill and plugin.
	"skill":  {in: skillIn, out: func(*rctx) {}, keep: []string{"skill"}},
	"qskill": {in: qskillIn, out: qskillOut, keep: []string{"skill"}},
	// search: Codex's web_search action {type: search, query, queries}:
	// the canonical input is the search (type left out); it renders as
	// the action again, type search.
	"search": {in: func(c *nctx) {
		if c.in.str("type") == "search" {
			c.in.del("type")
		}
	}, out: func(c *rctx) {
		if !c.out.has("type") {
			c.out.setStr("type", "search")
		}
	}},
	// urlprompt: Gemini's web_fetch takes a prompt holding the URLs; url is
	// the first of them.
	"urlprompt": {in: urlpromptIn, out: urlpromptOut},
	// readmany: Gemini's read_many_files {paths} → files, file_path.
	"readmany": {in: readmanyIn, out: readmanyOut},
	// operations: Kiro CLI's read {operations: [{mode, path}]} → files,
	// file_path (the first).
	"operations": {in: operationsIn, out: operationsOut},
	// bg: a background shell operation; op (poll, write, stop, list) says
	// which (bgOps).
	"bg": {in: bgIn, out: bgOut},
	// argpath: the rest of a prefix row's name is the file ("Viewing X").
	"argpath": {in: func(c *nctx) {
		if !c.in.has("file_path") {
			c.in.setStr("file_path", strings.TrimSpace(c.arg))
		}
	}, out: func(*rctx) {}},
}

// bgOps are the operations of the background-shell tools, by canonical
// name: Claude's BashOutput and KillShell where Claude has the operation.
var bgOps = map[string]string{"BashOutput": "poll", "write_stdin": "write", "KillShell": "stop", "list_bash": "list"}

func bgIn(c *nctx) { c.in.setStr("op", bgOps[c.name]) }

func bgOut(c *rctx) {
	c.out.del("op")
	for k, v := range needs[c.to][c.name] { // the provider's Tools.Needs
		if !c.out.has(k) {
			c.out.set(k, v)
		}
	}
}

func shellIn(c *nctx) {
	if cmd := c.in.str("command"); cmd != "" && !shellPatch(c, cmd) {
		reclassify(c, cmd)
	}
}

// workdir is the folder a shell call runs in: its cwd member (joined to
// the session's folder when relative), else the session's folder.
func workdir(c *nctx) string {
	cwd := c.in.str("cwd")
	if cwd == "" {
		return c.cwd
	}
	if !strings.HasPrefix(cwd, "/") && c.cwd != "" {
		return under(c.cwd, cwd)
	}
	return cwd
}

// reclassify makes a shell call that only reads, lists or searches a Read,
// LS, Glob or Grep; the command stays in the input.
func reclassify(c *nctx, cmd string) {
	r := classify(cmd)
	if r.name == "" || !complete(&r) {
		return
	}
	c.shell = true
	if c.keep {
		c.kind = kinds[r.name]
		return
	}
	c.name, c.kind = r.name, kinds[r.name]
	// relative paths are relative to the call's working folder; a listing
	// or search that names no folder is of that folder
	if cwd := workdir(c); strings.HasPrefix(cwd, "/") {
		for i, f := range r.files {
			r.files[i] = under(cwd, f)
		}
		if r.path != "" {
			r.path = under(cwd, r.path)
		} else if r.name != "Read" {
			r.path = cwd
		}
	}
	switch r.name {
	case "Read":
		defer shellSkill(c, r.shown)
		// a glob is no file: it is the read's pattern
		var plain []string
		for _, f := range r.files {
			if isGlob(f) {
				if !c.in.has("pattern") {
					c.in.setStr("pattern", f)
				}
			} else {
				plain = append(plain, f)
			}
		}
		if len(plain) > 0 {
			c.in.setStr("file_path", plain[0])
		}
		if len(r.files) == 1 {
			return
		}
		elems := make([]agt.Raw, len(r.files))
		for i, f := range r.files {
			o := &object{}
			o.setStr("path", f)
			o.setStr("op", "read")
			elems[i] = o.raw()
		}
		c.in.set("files", jsonArray(elems))
	default:
		c.in.setStr("pattern", r.pattern)
		c.in.setStr("path", r.path)
	}
}

// complete tells whether a classified command gives what its canonical
// tool requires: a Read a file or a pattern, a Grep a pattern. A listing
// of files with no name pattern (find DIR -type f, rg --files) is a Glob of
// every file below its folder ("**/*"). A command that gives less stays
// Bash.
func complete(r *shellResult) bool {
	switch r.name {
	case "Read":
		return len(r.files) > 0
	case "Grep":
		return r.pattern != ""
	case "Glob":
		if r.pattern == "" {
			r.pattern = "**/*"
		}
	}
	return true
}

// isGlob reports whether a path holds a glob pattern.
func isGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// pathMembers are the canonical members that name a file or folder.
var pathMembers = []string{"file_path", "path"}

// absolute joins the relative file and folder paths of a canonical input
// to the call's working folder (its cwd member, else the session's), so
// that a path means one file whatever the agent (Pi writes paths relative
// to the session's folder, which it names).
func absolute(c *nctx) {
	dir := workdir(c)
	if dir == "" || !strings.HasPrefix(dir, "/") {
		return
	}
	for _, k := range pathMembers {
		if p := c.in.str(k); p != "" && !strings.HasPrefix(p, "/") && !isWindowsPath(p) {
			c.in.setStr(k, under(dir, p))
		}
	}
}

// isWindowsPath tells a path with a drive letter or a UNC prefix, which
// a folder of this system does not take.
func isWindowsPath(p string) bool {
	return len(p) >= 2 && p[1] == ':' || strings.HasPrefix(p, `\\`)
}

// under joins a relative path to dir; absolute and home paths stay.
func under(dir, p string) string {
	if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") {
		return p
	}
	return path.Join(dir, p)
}

func shellOut(c *rctx) {
	for _, k := range shellDerived {
		c.out.del(k)
	}
}

func argvIn(c *nctx) {
	argv, ok := strArray(c.in.get("command"))
	if !ok {
		return
	}
	cmd := argvCommand(argv)
	c.in.setStr("command", cmd)
	if len(argv) == 2 && patchCommands[argv[0]] && strings.Contains(argv[1], patchBegin) && setShellPatch(c, argv[1], "") {
		return // ["apply_patch", PATCH]
	}
	if !shellPatch(c, cmd) {
		reclassify(c, cmd)
	}
}

func argvOut(c *rctx) {
	shellOut(c)
	if cmd := c.out.str("command"); cmd != "" {
		c.out.set("command", strs([]string{"bash", "-lc", cmd}))
	}
}

func wrappedIn(c *nctx) {
	cmd := c.in.str("command")
	if s, ok := unwrapShell(cmd); ok {
		cmd = s
		c.in.setStr("command", cmd)
	}
	if cmd != "" && !shellPatch(c, cmd) {
		reclassify(c, cmd)
	}
}

func wrappedOut(c *rctx) {
	shellOut(c)
	if cmd := c.out.str("command"); cmd != "" {
		c.out.setStr("command", "/bin/bash -lc "+shQuote(cmd))
	}
}

func skillIn(c *nctx) {
	if c.arg != "" && !c.in.has("skill") {
		c.in.setStr("skill", strings.TrimSpace(c.arg))
	}
	c.skill = c.in.str("skill") != ""
}

// qskillIn splits Claude's "plugin:skill".
func qskillIn(c *nctx) {
	s := c.in.str("skill")
	if i := strings.LastIndexByte(s, ':'); i > 0 && i < len(s)-1 {
		c.in.setStr("skill", s[i+1:])
		c.in.setStr("plugin", s[:i])
	}
	c.skill = c.in.str("skill") != ""
}

func qskillOut(c *rctx) {
	if p := c.src.str("plugin"); p != "" && c.src.str("skill") != "" {
		c.out.setStr("skill", p+":"+c.src.str("skill"))
	}
}

var urlRE = regexp.MustCompile(`https?://[^\s"'<>()\[\]]+`)

func urlpromptIn(c *nctx) {
	if c.in.has("url") {
		return
	}
	if u := urlRE.FindString(c.in.str("prompt")); u != "" {
		c.in.setStr("url", u)
	}
}

func urlpromptOut(c *rctx) {
	u, p := c.out.str("url"), c.out.str("prompt")
	switch {
	case p == "" && u != "":
		c.out.setStr("prompt", u)
		c.out.del("url")
	case u != "" && strings.Contains(p, u):
		c.out.del("url")
	case u != "":
		// web_fetch reads the URLs in its prompt
		c.out.setStr("prompt", p+"\n\n"+u)
		c.out.del("url")
	}
}

func readmanyIn(c *nctx) {
	paths, ok := strArray(c.in.get("paths"))
	if !ok || len(paths) == 0 {
		return
	}
	files := make([]patchFile, len(paths))
	for i, p := range paths {
		files[i] = patchFile{path: p, op: "read"}
	}
	c.in.setStr("file_path", paths[0])
	c.in.set("files", filesRaw(files))
}

func readmanyOut(c *rctx) {
	if paths := srcPaths(c); !c.out.has("paths") && len(paths) > 0 {
		c.out.set("paths", strs(paths))
	}
	c.out.del("file_path")
}

// srcPaths are the paths of the canonical call's files, else its file_path.
func srcPaths(c *rctx) []string {
	var paths []string
	if elems, ok := parseArray(c.src.get("files")); ok {
		for _, e := range elems {
			if o, ok := parseObject(e); ok && o.str("path") != "" {
				paths = append(paths, o.str("path"))
			}
		}
	} else if fp := c.src.str("file_path"); fp != "" {
		paths = []string{fp}
	}
	return paths
}

func operationsIn(c *nctx) {
	ops, ok := parseArray(c.in.get("operations"))
	if !ok {
		return
	}
	var files []patchFile
	for _, e := range ops {
		if o, ok := parseObject(e); ok && o.str("path") != "" {
			files = append(files, patchFile{path: o.str("path"), op: "read"})
		}
	}
	if len(files) == 0 {
		return
	}
	c.in.setStr("file_path", files[0].path)
	c.in.set("files", filesRaw(files))
}

// operationsOut builds the operations of the files (or of file_path), each
// a read of lines.
func operationsOut(c *rctx) {
	if paths := srcPaths(c); !c.out.has("operations") && len(paths) > 0 {
		ops := make([]any, len(paths))
		for i, p := range paths {
			ops[i] = map[string]string{"mode": "Line", "path": p}
		}
		c.out.set("operations", agt.Marshal(ops))
	}
	c.out.del("file_path")
}

// acpDescription reads an ACP tool description, the only input Gemini
// gives over ACP: {title, kind, locations:[{path}], content:[…, {type:
// "diff", path, oldText, newText}]}. The path becomes file_path, the title
// of a shell call its command, a diff the content (Write) or the old and
// new strings (Edit).
func acpDescription(c *nctx) {
	o := c.in
	if !o.has("title") || !o.has("kind") {
		return
	}
	for _, f := range o.f {
		switch f.k {
		case "title", "kind", "locations", "content":
		default:
			return
		}
	}
	if c.name == "Bash" {
		o.setStr("command", o.str("title"))
		return
	}
	if elems, ok := parseArray(o.get("locations")); ok && len(elems) > 0 {
		if l, ok := parseObject(elems[0]); ok && l.str("path") != "" {
			o.setStr("file_path", l.str("path"))
		}
	}
	elems, _ := parseArray(o.get("content"))
	for _, e := range elems {
		d, ok := parseObject(e)
		if !ok || d.str("type") != "diff" {
			continue
		}
		if !o.has("file_path") {
			o.setStr("file_path", d.str("path"))
		}
		switch c.name {
		case "Write":
			o.set("content", jsonString(d.str("newText")))
		case "Edit":
			o.set("old_string", jsonString(d.str("oldText")))
			o.set("new_string", jsonString(d.str("newText")))
		}
		break
	}
}

// shellSkill marks a shell read that prints a skill's SKILL.md.
func shellSkill(c *nctx, shown []string) {
	for _, p := range shown {
		if s, plugin := skillOfPath(p); s != "" {
			c.in.setStr("skill", s)
			c.in.setStr("plugin", plugin)
			c.skill = true
			return
		}
	}
}

// readSkill marks a Read of a skill's SKILL.md with the skill (a
// reclassified shell read was marked by shellSkill).
func readSkill(c *nctx) {
	if c.in.has("command") {
		return
	}
	var paths []string
	if elems, ok := parseArray(c.in.get("files")); ok {
		for _, e := range elems {
			if o, ok := parseObject(e); ok {
				paths = append(paths, o.str("path"))
			}
		}
	} else {
		paths = []string{c.in.str("file_path")}
	}
	for _, p := range paths {
		if s, plugin := skillOfPath(p); s != "" {
			c.in.setStr("skill", s)
			c.in.setStr("plugin", plugin)
			c.skill = true
			return
		}
	}
}
