package canon

import (
	"regexp"
	"strings"

	"github.com/agt-project/agt"
)

// patchFile is one file of a patch: {path, op, move_to}.
type patchFile struct {
	path, op, moveTo string
	added            []string // lines of an added file
	hunks            []hunk   // the changes of an updated file
}

// hunk is one change of an updated file: the lines it replaces (context
// and removed lines) and the lines that replace them (context and added
// lines), each without its prefix.
type hunk struct {
	old, new []string
}

// Patch operations.
const (
	opAdd    = "add"
	opUpdate = "update"
	opDelete = "delete"
)

// patchHeaders are the apply_patch file headers and their operations.
var patchHeaders = []struct{ prefix, op string }{
	{"*** Add File: ", opAdd},
	{"*** Update File: ", opUpdate},
	{"*** Delete File: ", opDelete},
}

// parsePatch lists the files of an apply_patch patch ("*** Begin Patch",
// then Add File / Update File (with an optional "*** Move to:") / Delete
// File sections).
func parsePatch(p string) []patchFile {
	var files []patchFile
	for _, line := range strings.Split(strings.TrimSuffix(p, "\n"), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == patchEnd {
			break
		}
		hdr := false
		for _, h := range patchHeaders {
			if strings.HasPrefix(line, h.prefix) {
				files = append(files, patchFile{path: strings.TrimSpace(line[len(h.prefix):]), op: h.op})
				hdr = true
				break
			}
		}
		if hdr || len(files) == 0 {
			continue
		}
		f := &files[len(files)-1]
		switch {
		case strings.HasPrefix(line, "*** Move to: "):
			f.moveTo = strings.TrimSpace(line[len("*** Move to: "):])
		case f.op == opAdd && strings.HasPrefix(line, "+"):
			f.added = append(f.added, line[1:])
		case f.op == opUpdate:
			f.hunkLine(line)
		}
	}
	return files
}

// hunkLine reads one line of an Update File section: "@@" opens a hunk,
// " ", "-" and "+" lines add to the open one (or to a first hunk with no
// "@@" before it); "*** End of File" and other markers add nothing.
func (f *patchFile) hunkLine(line string) {
	if strings.HasPrefix(line, "@@") {
		f.hunks = append(f.hunks, hunk{})
		return
	}
	if strings.HasPrefix(line, "***") || line == "" && len(f.hunks) == 0 {
		return
	}
	if len(f.hunks) == 0 {
		f.hunks = append(f.hunks, hunk{})
	}
	h := &f.hunks[len(f.hunks)-1]
	switch {
	case line == "": // a blank context line written without its space
		h.old, h.new = append(h.old, ""), append(h.new, "")
	case line[0] == ' ':
		h.old, h.new = append(h.old, line[1:]), append(h.new, line[1:])
	case line[0] == '-':
		h.old = append(h.old, line[1:])
	case line[0] == '+':
		h.new = append(h.new, line[1:])
	}
}

// edits are the hunks of f as Edit's edits: [{old_string, new_string}],
// empty hunks left out.
func (f *patchFile) edits() []agt.Raw {
	var out []agt.Raw
	for _, h := range f.hunks {
		if len(h.old) == 0 && len(h.new) == 0 {
			continue
		}
		o := &object{}
		o.setStr("old_string", strings.Join(h.old, "\n"))
		o.setStr("new_string", strings.Join(h.new, "\n"))
		out = append(out, o.raw())
	}
	return out
}

// filesRaw encodes files as [{path, op, move_to, edits}].
func filesRaw(files []patchFile) agt.Raw {
	elems := make([]agt.Raw, len(files))
	for i, f := range files {
		o := &object{}
		o.setStr("path", f.path)
		o.setStr("op", f.op)
		o.setStr("move_to", f.moveTo)
		if e := f.edits(); len(e) > 0 {
			o.set("edits", jsonArray(e))
		}
		elems[i] = o.raw()
	}
	return jsonArray(elems)
}

// onlyAdds reports whether every file is added (a patch that only creates
// files is a Write).
func onlyAdds(files []patchFile) bool {
	for _, f := range files {
		if f.op != opAdd {
			return false
		}
	}
	return len(files) > 0
}

// setFiles sets file_path (the first file) and files, and names the call
// Write when it only adds files.
// A patch of one updated file also lays its hunks out as Edit does:
// old_string and new_string for one hunk, edits for several.
func setFiles(c *nctx, files []patchFile) {
	if len(files) == 0 {
		return
	}
	c.in.setStr("file_path", files[0].path)
	c.in.set("files", filesRaw(files))
	if onlyAdds(files) {
		c.name, c.kind = "Write", kinds["Write"]
	}
	if len(files) != 1 || files[0].op != opUpdate {
		return
	}
	switch e := files[0].edits(); len(e) {
	case 0:
	case 1:
		h, _ := parseObject(e[0])
		c.in.setStr("old_string", h.str("old_string"))
		c.in.setStr("new_string", h.str("new_string"))
	default:
		c.in.set("edits", jsonArray(e))
	}
}

// patchIn reads the patch text of an apply_patch call.
func patchIn(c *nctx) {
	if !readPatch(c, c.in.str("patch"), c.cwd) {
		// no apply_patch file header (a bare diff, a cut or empty patch):
		// no file to name, so the call is no Edit; it keeps its native
		// name and input, as a call outside the table does
		c.name, c.kind, c.generic = c.row.Native, KindOther, true
	}
}

// readPatch sets the files of patch p, relative ones joined to dir when it
// is absolute, and the content of a single added file.
// It reports whether p names a file.
func readPatch(c *nctx, p, dir string) bool {
	files := parsePatch(p)
	if len(files) == 0 {
		return false
	}
	if strings.HasPrefix(dir, "/") {
		for i := range files {
			files[i].path = under(dir, files[i].path)
			if files[i].moveTo != "" {
				files[i].moveTo = under(dir, files[i].moveTo)
			}
		}
	}
	setFiles(c, files)
	if len(files) == 1 && files[0].op == opAdd {
		c.in.setStr("content", strings.Join(files[0].added, "\n")+"\n")
	}
	return true
}

// patchBegin starts an apply_patch patch; patchCommands are the programs
// that apply one given as their argument or on their standard input.
const patchBegin = "*** Begin Patch"

var patchCommands = map[string]bool{"apply_patch": true, "applypatch": true}

// shellPatchRE is a shell command that applies a patch: apply_patch (after
// an optional cd DIR &&) given the patch as a here-document or argument.
var shellPatchRE = regexp.MustCompile(`^\s*(?:cd\s+('[^']*'|"[^"]*"|[^\s;&|]+)\s*&&\s*)?(?:apply_patch|applypatch)\b`)

// shellPatch makes a shell call that runs apply_patch (older Codex models
// sent their patches through the shell) an Edit or Write of its files;
// the command stays in the input. It reports whether cmd was one.
func shellPatch(c *nctx, cmd string) bool {
	if !strings.Contains(cmd, "apply_patch") && !strings.Contains(cmd, "applypatch") {
		return false // what shellPatchRE asks for, without running it on every command
	}
	m := shellPatchRE.FindStringSubmatch(cmd)
	if m == nil {
		return false
	}
	i := strings.Index(cmd, patchBegin)
	if i < 0 {
		return false
	}
	p := cmd[i:]
	if j := strings.Index(p, patchEnd); j >= 0 {
		p = p[:j+len(patchEnd)]
	}
	return setShellPatch(c, p, strings.Trim(m[1], `'"`))
}

const patchEnd = "*** End Patch"

// setShellPatch sets the patch of a shell call run in folder dir (relative
// to the call's working folder). A patch that names no file leaves the
// call a shell call (false).
func setShellPatch(c *nctx, p, dir string) bool {
	if len(parsePatch(p)) == 0 {
		return false
	}
	c.name, c.kind = "Edit", kinds["Edit"]
	c.in.setStr("patch", p)
	wd := workdir(c)
	if dir != "" {
		wd = under(wd, dir)
	}
	return readPatch(c, p, wd)
}

// patchOut renders a canonical edit as a patch: the patch text when the
// call came from one, else one written from Write {file_path, content} or
// Edit {file_path, old_string, new_string | edits}.
func patchOut(c *rctx) {
	if c.out.str("patch") == "" {
		if p := writePatch(c.name, c.src); p != "" {
			c.out.setStr("patch", p)
		}
	}
	for _, k := range []string{"file_path", "content", "old_string", "new_string", "edits", "replace_all"} {
		c.out.del(k)
	}
}

func writePatch(name string, in *object) string {
	fp := in.str("file_path")
	if fp == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	switch name {
	case "Write":
		b.WriteString("*** Add File: " + fp + "\n")
		for _, l := range strings.SplitAfter(in.str("content"), "\n") {
			if l != "" {
				b.WriteString("+" + strings.TrimSuffix(l, "\n") + "\n")
			}
		}
	default:
		b.WriteString("*** Update File: " + fp + "\n")
		hunks := [][2]string{{in.str("old_string"), in.str("new_string")}}
		if elems, ok := parseArray(in.get("edits")); ok {
			hunks = hunks[:0]
			for _, e := range elems {
				if o, ok := parseObject(e); ok {
					hunks = append(hunks, [2]string{o.str("old_string"), o.str("new_string")})
				}
			}
		}
		empty := true
		for _, h := range hunks {
			empty = empty && h[0] == "" && h[1] == ""
		}
		if empty {
			return ""
		}
		for _, h := range hunks {
			b.WriteString("@@\n")
			for _, l := range lines(h[0]) {
				b.WriteString("-" + l + "\n")
			}
			for _, l := range lines(h[1]) {
				b.WriteString("+" + l + "\n")
			}
		}
	}
	b.WriteString("*** End Patch")
	return b.String()
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// patchEdits gives an edit that only has a patch of one updated file the
// edits its hunks make, [{old_string, new_string}] (context and removed
// lines; context and added lines), or old_string and new_string for one
// hunk, for a provider whose edit tools take strings; anything else is
// returned as it is.
func patchEdits(in *object) *object {
	p := in.str("patch")
	if p == "" || in.has("old_string") || in.has("edits") {
		return in
	}
	files := parsePatch(p)
	if len(files) != 1 || files[0].op != opUpdate || files[0].moveTo != "" {
		return in
	}
	var elems []agt.Raw
	var old, neu []string
	hunk := false
	end := func() {
		if hunk && (len(old) > 0 || len(neu) > 0) {
			o := &object{}
			o.set("old_string", jsonString(strings.Join(old, "\n")))
			o.set("new_string", jsonString(strings.Join(neu, "\n")))
			elems = append(elems, o.raw())
		}
		old, neu = nil, nil
	}
	for _, line := range strings.Split(p, "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.HasPrefix(line, "@@"):
			end()
			hunk = true
		case strings.HasPrefix(line, "*** "):
			end()
			hunk = false
		case !hunk:
		case strings.HasPrefix(line, "-"):
			old = append(old, line[1:])
		case strings.HasPrefix(line, "+"):
			neu = append(neu, line[1:])
		case strings.HasPrefix(line, " ") || line == "":
			old = append(old, strings.TrimPrefix(line, " "))
			neu = append(neu, strings.TrimPrefix(line, " "))
		default:
			return in // not a hunk line: no edits of it
		}
	}
	end()
	if len(elems) == 0 {
		return in
	}
	out := in.clone()
	out.set("edits", jsonArray(elems))
	return flattenEdits(out)
}

// changesIn reads Codex's list of changed files: exec's file_change
// changes [{path, kind}] or the end events' map {path: {type, move_path}}.
func changesIn(c *nctx) {
	v := c.in.get("changes")
	var files []patchFile
	if elems, ok := parseArray(v); ok {
		for _, e := range elems {
			if o, ok := parseObject(e); ok {
				files = append(files, patchFile{path: o.str("path"), op: changeOp(o.str("kind")), moveTo: o.str("move_path")})
			}
		}
	} else if o, ok := parseObject(v); ok {
		for _, f := range o.f {
			ch, _ := parseObject(f.v)
			pf := patchFile{path: f.k}
			if ch != nil {
				pf.op, pf.moveTo = changeOp(firstNonEmpty(ch.str("type"), ch.str("kind"))), ch.str("move_path")
			}
			files = append(files, pf)
		}
	}
	setFiles(c, files)
}

func changeOp(kind string) string {
	switch kind {
	case "add", "create":
		return opAdd
	case "delete", "remove":
		return opDelete
	case "":
		return opUpdate
	}
	return kind
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
