package canon

import (
	"path"
	"strconv"
	"strings"
)

// Shell reclassification. A shell call whose whole command only reads
// files becomes Read, one that only lists becomes LS (ls, tree) or Glob
// (find, fd, rg --files, git ls-files), one that only searches becomes
// Grep (grep, rg, ag, git grep). The command is lexed like a POSIX shell
// does (quotes, escapes, comments, here-documents), split at && || ; and
// newlines into pipelines and at | into commands; bash/sh/zsh -c SCRIPT is
// classified by its script, cd DIR sets the directory relative paths are
// joined to, and true, set, export are neutral. The first command of a
// pipeline decides its class; the others must be filters (head, tail, wc,
// sort, grep, sed -n, …; xargs with a search upgrades a listing to a
// search). A call is reclassified only when every part of its command is
// the read, listing or search it is named for: pipelines of different
// classes joined (cat a; grep x b), a command that prints text of its own
// (echo, printf, pwd), and anything that may write or run other programs
// keep the call Bash: an output redirection other than to /dev/null or a
// descriptor, tee, sed -i, sort -o, find -exec/-delete, command or process
// substitution, subshells, background jobs, and every command not in the
// tables (shellcmds.go).

// shellResult is the class of a command and what it read or searched.
type shellResult struct {
	name    string   // Read, LS, Glob, Grep; "" = stays Bash
	files   []string // Read: the files read, in order, without repeats
	shown   []string // the files of files whose content a command prints (not wc, stat, …)
	pattern string   // Grep, Glob
	path    string   // Grep, Glob, LS
}

// Classes of a simple command.
const (
	clsNone    = ""
	clsNeutral = "neutral"
	clsPrint   = "print"
	clsCd      = "cd"
	clsRead    = "read"
	clsList    = "list"
	clsGlob    = "glob"
	clsSearch  = "search"
)

// classify classifies a shell command line.
func classify(cmd string) shellResult {
	sc, ok := parseScript(cmd)
	if !ok {
		return shellResult{}
	}
	var (
		cwd   dir
		res   shellResult
		seen  = map[string]bool{}
		found = map[string]*segResult{}
	)
	for _, p := range sc {
		seg, ok := classifyPipeline(p, &cwd)
		if !ok {
			return shellResult{}
		}
		if seg == nil {
			continue
		}
		if found[seg.cls] == nil {
			found[seg.cls] = seg
		}
		if seg.cls == clsRead {
			for _, f := range seg.files {
				if !seen[f] {
					seen[f] = true
					res.files = append(res.files, f)
				}
			}
			res.shown = append(res.shown, seg.shown...)
		}
	}
	if n := len(found); n > 1 {
		return shellResult{} // a read and a search, …: no one tool it is
	}
	switch {
	case found[clsRead] != nil:
		if len(res.files) == 0 {
			return shellResult{}
		}
		res.name = "Read"
	case found[clsSearch] != nil:
		s := found[clsSearch]
		res.name, res.pattern, res.path = "Grep", s.pattern, s.path
	case found[clsGlob] != nil:
		s := found[clsGlob]
		res.name, res.pattern, res.path = "Glob", s.pattern, s.path
	case found[clsList] != nil:
		res.name, res.path = "LS", found[clsList].path
	default:
		return shellResult{}
	}
	return res
}

// segResult is the class of one pipeline.
type segResult struct {
	cls     string
	files   []string
	shown   []string
	pattern string
	path    string
}

// classifyPipeline classifies one pipeline; nil for a neutral one. cd
// updates *cwd.
func classifyPipeline(p pipeline, cwd *dir) (*segResult, bool) {
	first, ok := classifySimple(p[0], cwd)
	if !ok {
		return nil, false
	}
	if first.cls == clsCd {
		if len(p) > 1 {
			return nil, false
		}
		cwd.cd(first.path)
		return nil, true
	}
	for _, f := range p[1:] {
		up, ok := classifyFilter(f)
		if !ok {
			return nil, false
		}
		if up != nil && (first.cls == clsGlob || first.cls == clsList) {
			// find … | xargs grep PATTERN searches the files listed
			first = &segResult{cls: clsSearch, pattern: up.pattern, path: first.path}
		}
	}
	if first.cls == clsNeutral {
		return nil, true
	}
	return first, true
}

// classifySimple classifies one command as the producer of a pipeline.
// cwd is made a string only when a command needs it: a long chain of cd
// would otherwise build the growing path again at every step.
func classifySimple(s simple, wd *dir) (*segResult, bool) {
	args := skipAssignments(s.args)
	var inputs []string
	for _, r := range s.redirs {
		switch {
		case r.op == "<":
			inputs = append(inputs, r.target)
		case isOutput(r.op) && !harmlessTarget(r.target):
			return nil, false
		}
	}
	if len(args) == 0 {
		if len(inputs) > 0 {
			return nil, false
		}
		return &segResult{cls: clsNeutral}, true
	}
	name := path.Base(args[0])
	if inner, ok := shellScript(name, args[1:]); ok {
		return classifyInner(inner, wd.String())
	}
	if name == "git" {
		return classifyGit(args[1:], wd.String())
	}
	spec, ok := commands[name]
	if !ok {
		return nil, false
	}
	if spec.cls == clsCd { // the operand, joined by classifyPipeline
		dir := ""
		if len(args) > 1 && args[1] != "-" {
			dir = args[1]
		}
		return &segResult{cls: clsCd, path: dir}, true
	}
	switch spec.cls {
	case clsNeutral:
		return &segResult{cls: clsNeutral}, true
	case clsPrint:
		return nil, false
	}
	cwd := wd.String()
	for i, in := range inputs {
		inputs[i] = joinPath(cwd, in)
	}
	sa, ok := scanArgs(args[1:], spec)
	if !ok {
		return nil, false
	}
	switch spec.cls {
	case clsRead:
		files := inputs
		for _, f := range sa.operands {
			if f != "-" {
				files = append(files, joinPath(cwd, f))
			}
		}
		if len(files) == 0 {
			return &segResult{cls: clsNeutral}, true
		}
		seg := &segResult{cls: clsRead, files: files}
		if spec.shows {
			seg.shown = files
		}
		return seg, true
	case clsList:
		return &segResult{cls: clsList, path: firstPath(cwd, sa.operands)}, true
	case clsGlob:
		return globOf(name, sa, cwd), true
	case clsSearch:
		paths := sa.operands
		if sa.fromOps {
			paths = append([]string{sa.script}, paths...)
		}
		if sa.has("files") { // rg --files lists: no pattern
			return &segResult{cls: clsGlob, pattern: sa.value("g", "glob", "iglob"), path: firstPath(cwd, paths)}, true
		}
		if g := sa.value("g"); name == "ag" && g != "" { // ag -g PATTERN lists
			return &segResult{cls: clsGlob, pattern: g, path: firstPath(cwd, paths)}, true
		}
		if sa.script == "" {
			return nil, false
		}
		return &segResult{cls: clsSearch, pattern: sa.script, path: firstPath(cwd, append(sa.operands, inputs...))}, true
	}
	return nil, false
}

// classifyInner classifies the script of bash -c SCRIPT.
func classifyInner(script, cwd string) (*segResult, bool) {
	r := classify(script)
	if r.name == "" {
		return nil, false
	}
	seg := &segResult{pattern: r.pattern, path: joinPath(cwd, r.path)}
	switch r.name {
	case "Read":
		seg.cls = clsRead
		for _, f := range r.files {
			seg.files = append(seg.files, joinPath(cwd, f))
		}
		for _, f := range r.shown {
			seg.shown = append(seg.shown, joinPath(cwd, f))
		}
	case "Grep":
		seg.cls = clsSearch
	case "Glob":
		seg.cls = clsGlob
	default:
		seg.cls = clsList
	}
	if r.path == "" {
		seg.path = cwd
	}
	return seg, true
}

// classifyFilter checks a command that reads a pipe. It returns a search
// when the filter is xargs running a search.
func classifyFilter(s simple) (*segResult, bool) {
	for _, r := range s.redirs {
		if isOutput(r.op) && !harmlessTarget(r.target) {
			return nil, false
		}
	}
	args := skipAssignments(s.args)
	if len(args) == 0 {
		return nil, false
	}
	name := path.Base(args[0])
	if name == "xargs" {
		sub := xargsCommand(args[1:])
		if len(sub) == 0 {
			return nil, false
		}
		seg, ok := classifySimple(simple{args: sub}, &dir{})
		if !ok {
			return nil, false
		}
		if seg.cls == clsSearch {
			return seg, true
		}
		return nil, true
	}
	spec, ok := commands[name]
	if !ok || !spec.filter {
		return nil, false
	}
	if _, ok := scanArgs(args[1:], spec); !ok {
		return nil, false
	}
	return nil, true
}

// classifyGit classifies git grep and git ls-files; every other git
// command stays Bash.
func classifyGit(args []string, cwd string) (*segResult, bool) {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-C":
			if len(args) < 2 {
				return nil, false
			}
			cwd = joinPath(cwd, args[1])
			args = args[2:]
		case "--no-pager", "-P", "--no-optional-locks":
			args = args[1:]
		default:
			return nil, false
		}
	}
	if len(args) == 0 {
		return nil, false
	}
	spec, ok := gitCommands[args[0]]
	if !ok {
		return nil, false
	}
	sa, ok := scanArgs(args[1:], spec)
	if !ok {
		return nil, false
	}
	if spec.cls == clsGlob {
		seg := &segResult{cls: clsGlob}
		for _, o := range sa.operands {
			if strings.ContainsAny(o, "*?[") && seg.pattern == "" {
				seg.pattern = o
			} else if seg.path == "" {
				seg.path = joinPath(cwd, o)
			}
		}
		if seg.path == "" {
			seg.path = cwd
		}
		return seg, true
	}
	if sa.script == "" {
		return nil, false
	}
	paths := sa.operands
	if sa.dashdash >= 0 {
		paths = sa.operands[sa.dashdash:]
	}
	return &segResult{cls: clsSearch, pattern: sa.script, path: firstPath(cwd, paths)}, true
}

// globOf reads find and fd arguments.
func globOf(name string, sa scanned, cwd string) *segResult {
	if name == "find" {
		return &segResult{cls: clsGlob, pattern: sa.pattern, path: firstPath(cwd, sa.operands)}
	}
	// fd [PATTERN] [PATH...]
	seg := &segResult{cls: clsGlob}
	ops := sa.operands
	if len(ops) > 0 {
		seg.pattern, ops = ops[0], ops[1:]
	}
	if e := sa.value("e", "extension"); e != "" && seg.pattern == "" {
		seg.pattern = "*." + e
	}
	seg.path = firstPath(cwd, ops)
	return seg
}

// shellScript returns SCRIPT of sh -c SCRIPT (bash, zsh, dash; -lc, -l -c).
func shellScript(name string, args []string) (string, bool) {
	switch name {
	case "bash", "sh", "zsh", "dash":
	default:
		return "", false
	}
	c := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case c:
			return a, true
		case a == "-o" || a == "+o":
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1 && !strings.HasPrefix(a, "--"):
			c = c || strings.ContainsRune(a, 'c')
		case strings.HasPrefix(a, "--"):
		default:
			return "", false
		}
	}
	return "", false
}

// unwrapShell returns the script of a command line that is exactly
// "SHELL -c SCRIPT" (Codex exec writes /bin/bash -lc '…').
func unwrapShell(cmd string) (string, bool) {
	sc, ok := parseScript(cmd)
	if !ok || len(sc) != 1 || len(sc[0]) != 1 || len(sc[0][0].redirs) > 0 {
		return "", false
	}
	args := sc[0][0].args
	if len(args) < 3 {
		return "", false
	}
	script, ok := shellScript(path.Base(args[0]), args[1:])
	if !ok || args[len(args)-1] != script {
		return "", false
	}
	return script, true
}

// argvCommand is the command line of an argv array: the script of
// [SHELL, -lc, SCRIPT], else the words joined and quoted.
func argvCommand(argv []string) string {
	if len(argv) >= 3 {
		if s, ok := shellScript(path.Base(argv[0]), argv[1:]); ok && argv[len(argv)-1] == s {
			return s
		}
	}
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shQuote(a)
	}
	return strings.Join(q, " ")
}

// shQuote quotes s for a POSIX shell when it needs quoting.
func shQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("@%+=:,./-_", c)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

func skipAssignments(args []string) []string {
	for len(args) > 0 {
		a := args[0]
		i := strings.IndexByte(a, '=')
		if i <= 0 || !isName(a[:i]) {
			break
		}
		args = args[1:]
	}
	return args
}

func isName(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

func isOutput(op string) bool {
	switch op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	}
	return false
}

// harmlessTarget: a redirection that writes no file.
func harmlessTarget(t string) bool {
	switch t {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty":
		return true
	}
	return false
}

// dir is the directory set by the cd commands met so far: the value of
// joinPath applied at each cd, kept as cleaned path segments so that each
// cd costs the length of its operand, and made a string only when used.
type dir struct {
	raw    string   // the value while no relative operand was joined to it
	joined bool     // segs (and abs) hold the value
	abs    bool     // the joined path is absolute
	segs   []string // the cleaned segments of the joined path
	memo   string   // String() of segs, when fresh
	fresh  bool
}

// cd sets d to joinPath(d, p); "" (cd, cd -) resets it.
func (d *dir) cd(p string) {
	d.fresh = false
	if (d.raw == "" && !d.joined) || p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") {
		*d = dir{raw: p}
		return
	}
	if !d.joined {
		d.joined, d.abs, d.segs = true, strings.HasPrefix(d.raw, "/"), d.segs[:0]
		d.push(d.raw)
		d.raw = ""
	}
	d.push(p)
}

// push adds the segments of a relative path as path.Clean does: "." and
// empty segments go, ".." removes the segment before it.
func (d *dir) push(p string) {
	for p != "" {
		seg := p
		if i := strings.IndexByte(p, '/'); i >= 0 {
			seg, p = p[:i], p[i+1:]
		} else {
			p = ""
		}
		switch {
		case seg == "" || seg == ".":
		case seg == ".." && len(d.segs) > 0 && d.segs[len(d.segs)-1] != "..":
			d.segs = d.segs[:len(d.segs)-1]
		case seg == ".." && d.abs: // above the root is the root
		default:
			d.segs = append(d.segs, seg)
		}
	}
}

func (d *dir) String() string {
	if !d.joined {
		return d.raw
	}
	if !d.fresh {
		s := strings.Join(d.segs, "/")
		switch {
		case d.abs:
			s = "/" + s
		case s == "":
			s = "."
		}
		d.memo, d.fresh = s, true
	}
	return d.memo
}

// joinPath joins a relative path to the directory of an earlier cd.
func joinPath(cwd, p string) string {
	if cwd == "" || p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") || strings.HasPrefix(p, "$") {
		return p
	}
	return path.Join(cwd, p)
}

func firstPath(cwd string, ops []string) string {
	for _, o := range ops {
		if o != "-" {
			return joinPath(cwd, o)
		}
	}
	return cwd
}

// xargsCommand is the command xargs runs.
func xargsCommand(args []string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return args[i+1:]
		case strings.HasPrefix(a, "--"):
			if !strings.Contains(a, "=") && strings.Contains(" --max-args --max-lines --max-procs --delimiter --replace --eof --arg-file --max-chars ", " "+a+" ") {
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if strings.ContainsAny(a[len(a)-1:], "nLPdIEsa") && len(a) == 2 {
				i++
			}
		default:
			return args[i:]
		}
	}
	return nil
}

// shellFor is the command that does what a Read, LS, Glob or Grep asks,
// for a provider whose only such tool is its shell.
func shellFor(name string, in *object) string {
	switch name {
	case "Read":
		fp := in.str("file_path")
		if fp == "" {
			return ""
		}
		off, okOff := number(in.get("offset"))
		lim, okLim := number(in.get("limit"))
		switch {
		case okLim && lim > 0:
			if !okOff || off < 1 {
				off = 1
			}
			return "sed -n '" + strconv.Itoa(off) + "," + strconv.Itoa(off+lim-1) + "p' " + shQuote(fp)
		case okOff && off > 1:
			return "tail -n +" + strconv.Itoa(off) + " " + shQuote(fp)
		}
		return "cat " + shQuote(fp)
	case "LS":
		if p := in.str("path"); p != "" {
			return "ls " + shQuote(p)
		}
		return "ls"
	case "Glob":
		cmd := "rg --files"
		if p := in.str("pattern"); p != "" {
			cmd += " -g " + shQuote(p)
		}
		if p := in.str("path"); p != "" {
			cmd += " " + shQuote(p)
		}
		return cmd
	case "Grep":
		p := in.str("pattern")
		if p == "" {
			return ""
		}
		cmd := "rg -n " + shQuote(p)
		if g := in.str("glob"); g != "" {
			cmd += " -g " + shQuote(g)
		}
		if d := in.str("path"); d != "" {
			cmd += " " + shQuote(d)
		}
		return cmd
	}
	return ""
}
