package canon

import (
	"regexp"
	"strings"
)

// cmdSpec says how a command's arguments read and what it does.
type cmdSpec struct {
	cls      string // read, list, glob, search, neutral, cd
	values   string // short options that take a value
	long     string // long options that take a value, space-separated
	long2    string // long options that take two values (jq --arg NAME VALUE)
	script   bool   // the first operand is a script or pattern, not a file
	scriptBy string // short options that give the script instead (sed -e, grep -e)
	deny     string // short options that write files or run programs
	denyLong string // long options that do
	filter   bool   // may read a pipe after the first command
	maxOps   int    // more operands than this name an output file (uniq IN OUT); 0 = any
	find     bool   // find's expression syntax
	shows    bool   // prints the content of the files it reads (a read of a SKILL.md loads the skill)
	safe     func(script string) bool
}

// commands is every command the classifier knows; any other keeps a call
// Bash.
var commands = map[string]*cmdSpec{
	// reads
	"cat":       {shows: true, cls: clsRead, filter: true},
	"head":      {shows: true, cls: clsRead, values: "nc", long: "lines bytes", filter: true},
	"tail":      {shows: true, cls: clsRead, values: "ncs", long: "lines bytes pid sleep-interval", filter: true},
	"nl":        {shows: true, cls: clsRead, values: "bdfhilnsvw", long: "body-numbering section-delimiter footer-numbering header-numbering line-increment join-blank-lines number-format number-separator starting-line-number number-width", filter: true},
	"wc":        {cls: clsRead, filter: true},
	"less":      {shows: true, cls: clsRead, filter: true},
	"more":      {shows: true, cls: clsRead, filter: true},
	"bat":       {shows: true, cls: clsRead, values: "lrHm", long: "language line-range highlight-line style theme map-syntax color paging decorations wrap tabs", filter: true},
	"batcat":    {shows: true, cls: clsRead, values: "lrHm", long: "language line-range highlight-line style theme map-syntax color paging decorations wrap tabs", filter: true},
	"sed":       {shows: true, cls: clsRead, values: "efl", long: "expression file line-length", script: true, scriptBy: "ef", deny: "i", denyLong: "in-place", filter: true, safe: sedSafe},
	"awk":       {cls: clsRead, values: "Ffv", long: "field-separator assign file", script: true, scriptBy: "f", filter: true, safe: awkSafe},
	"gawk":      {cls: clsRead, values: "Ffv", long: "field-separator assign file", script: true, scriptBy: "f", filter: true, safe: awkSafe},
	"cut":       {cls: clsRead, values: "bcdf", long: "bytes characters delimiter fields output-delimiter", filter: true},
	"sort":      {cls: clsRead, values: "kStT", long: "key buffer-size temporary-directory field-separator parallel", deny: "o", denyLong: "output", filter: true},
	"uniq":      {cls: clsRead, values: "fsw", long: "skip-fields skip-chars check-chars", filter: true, maxOps: 1},
	"jq":        {cls: clsRead, values: "f", long: "indent from-file", long2: "arg argjson slurpfile rawfile", script: true, scriptBy: "f", filter: true},
	"column":    {cls: clsRead, values: "csoNRHWE", long: "separator output-separator table-columns table-right table-hide table-wrap", filter: true},
	"fold":      {cls: clsRead, values: "w", long: "width", filter: true},
	"fmt":       {cls: clsRead, values: "wpgd", long: "width prefix goal", filter: true},
	"rev":       {cls: clsRead, filter: true},
	"tac":       {shows: true, cls: clsRead, values: "s", long: "separator", filter: true},
	"tr":        {cls: clsNeutral, filter: true},
	"file":      {cls: clsRead, values: "mfFeP", long: "magic-file files-from separator exclude"},
	"stat":      {cls: clsRead, values: "c", long: "format printf"},
	"strings":   {cls: clsRead, values: "nte", long: "bytes radix encoding", filter: true},
	"xxd":       {cls: clsRead, values: "lcsgo", deny: "r", filter: true, maxOps: 1},
	"hexdump":   {cls: clsRead, values: "nsef", filter: true},
	"od":        {cls: clsRead, values: "AtNjw", filter: true},
	"diff":      {cls: clsRead, values: "UCLFIxXS", long: "unified context label ignore-matching-lines exclude exclude-from from-file to-file starting-file"},
	"cmp":       {cls: clsRead, values: "in", long: "ignore-initial bytes"},
	"md5sum":    {cls: clsRead},
	"sha1sum":   {cls: clsRead},
	"sha256sum": {cls: clsRead},
	"sha512sum": {cls: clsRead},
	"shasum":    {cls: clsRead, values: "a", long: "algorithm"},
	"cksum":     {cls: clsRead},

	// listings
	"ls":   {cls: clsList, values: "IwT", long: "ignore hide width tabsize color time-style format sort indicator-style quoting-style block-size"},
	"tree": {cls: clsList, values: "LIPHT", long: "charset filelimit timefmt sort", deny: "o"},
	"eza":  {cls: clsList, values: "LI", long: "level ignore-glob sort time color"},
	"exa":  {cls: clsList, values: "LI", long: "level ignore-glob sort time color"},

	// globs
	"find":   {cls: clsGlob, find: true},
	"fd":     {cls: clsGlob, values: "edtEcjSo", long: "extension max-depth min-depth type exclude color threads size owner base-directory search-path changed-within changed-before ignore-file", deny: "xX", denyLong: "exec exec-batch"},
	"fdfind": {cls: clsGlob, values: "edtEcjSo", long: "extension max-depth min-depth type exclude color threads size owner base-directory search-path changed-within changed-before ignore-file", deny: "xX", denyLong: "exec exec-batch"},

	// searches
	"grep":  {cls: clsSearch, values: "efmABCdD", long: "regexp file max-count after-context before-context context include exclude exclude-dir exclude-from label binary-files devices directories color colour", script: true, scriptBy: "ef", filter: true},
	"egrep": {cls: clsSearch, values: "efmABCdD", long: "regexp file max-count after-context before-context context include exclude exclude-dir exclude-from label binary-files devices directories color colour", script: true, scriptBy: "ef", filter: true},
	"fgrep": {cls: clsSearch, values: "efmABCdD", long: "regexp file max-count after-context before-context context include exclude exclude-dir exclude-from label binary-files devices directories color colour", script: true, scriptBy: "ef", filter: true},
	"rg":    {cls: clsSearch, values: "efgtTmABCMjEdr", long: "regexp file glob iglob type type-not type-add max-count after-context before-context context max-columns threads encoding max-depth sort sortr color colors ignore-file max-filesize path-separator context-separator field-match-separator field-context-separator replace engine dfa-size-limit regex-size-limit", script: true, scriptBy: "ef", denyLong: "pre pre-glob", filter: true},
	"ag":    {cls: clsSearch, values: "ABCGgmp", long: "ignore ignore-dir file-search-regex depth max-count context after before pager path-to-ignore", script: true, filter: true},
	"ack":   {cls: clsSearch, values: "ABCm", long: "type ignore-dir ignore-file max-count context after-context before-context output", script: true, filter: true},

	// neutral: set state, print nothing, read no file
	"true":   {cls: clsNeutral},
	":":      {cls: clsNeutral},
	"set":    {cls: clsNeutral},
	"export": {cls: clsNeutral},
	"unset":  {cls: clsNeutral},
	"cd":     {cls: clsCd},
	"pushd":  {cls: clsCd},

	// print: write text of their own, which is no read or search: a
	// command that runs one stays Bash
	"echo":     {cls: clsPrint},
	"printf":   {cls: clsPrint},
	"pwd":      {cls: clsPrint},
	"realpath": {cls: clsPrint},
	"readlink": {cls: clsPrint},
	"basename": {cls: clsPrint},
	"dirname":  {cls: clsPrint},
}

// gitCommands are the git subcommands that read: git grep and git ls-files.
var gitCommands = map[string]*cmdSpec{
	"grep":     {cls: clsSearch, values: "efABCmO", long: "max-depth context after-context before-context max-count open-files-in-pager threads", script: true, scriptBy: "ef"},
	"ls-files": {cls: clsGlob, values: "xX", long: "exclude exclude-from exclude-per-directory format"},
}

// find's predicates that take a value, those that name what is looked for,
// and those that write or run programs.
var (
	findValues = set("-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype -maxdepth -mindepth -newer -anewer -cnewer -size -mtime -mmin -atime -amin -ctime -cmin -perm -user -group -uid -gid -links -inum -samefile -fstype -printf -regextype -used -context -newermt")
	findNames  = set("-name -iname -path -ipath -wholename -iwholename -regex -iregex")
	findDeny   = set("-exec -execdir -ok -okdir -delete -fprint -fprint0 -fprintf -fls")
)

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// opt is an option and its value.
type opt struct{ name, val string }

// scanned is a command's arguments read by its spec.
type scanned struct {
	operands []string
	opts     []opt
	script   string
	fromOps  bool   // the script was the first operand
	pattern  string // find: the first name pattern
	dashdash int    // index in operands of the first operand after "--", or -1
}

func (s scanned) has(names ...string) bool {
	for _, o := range s.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

func (s scanned) value(names ...string) string {
	for _, o := range s.opts {
		for _, n := range names {
			if o.name == n && o.val != "" {
				return o.val
			}
		}
	}
	return ""
}

// scanArgs reads args by spec; ok is false when an option writes or runs
// a program.
func scanArgs(args []string, spec *cmdSpec) (scanned, bool) {
	if spec.find {
		return scanFind(args)
	}
	sa := scanned{dashdash: -1}
	long := " " + spec.long + " "
	long2 := " " + spec.long2 + " "
	denyLong := " " + spec.denyLong + " "
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			sa.dashdash = len(sa.operands)
			sa.operands = append(sa.operands, args[i+1:]...)
			i = len(args)
		case a == "-" || !strings.HasPrefix(a, "-"):
			sa.operands = append(sa.operands, a)
		case strings.HasPrefix(a, "--"):
			name, val, inline := strings.Cut(a[2:], "=")
			if strings.Contains(denyLong, " "+name+" ") {
				return sa, false
			}
			switch {
			case inline:
			case strings.Contains(long2, " "+name+" "):
				if i+2 < len(args) {
					val = args[i+2]
				}
				i += 2
			case strings.Contains(long, " "+name+" "):
				if i+1 < len(args) {
					val = args[i+1]
				}
				i++
			}
			sa.opts = append(sa.opts, opt{name, val})
		case isDigits(a[1:]): // head -20
			sa.opts = append(sa.opts, opt{"n", a[1:]})
		default:
			for j := 1; j < len(a); j++ {
				c := a[j]
				if strings.IndexByte(spec.deny, c) >= 0 {
					return sa, false
				}
				if strings.IndexByte(spec.values, c) >= 0 {
					val := a[j+1:]
					if val == "" && i+1 < len(args) {
						i++
						val = args[i]
					}
					sa.opts = append(sa.opts, opt{string(c), val})
					break
				}
				sa.opts = append(sa.opts, opt{string(c), ""})
			}
		}
	}
	if spec.script {
		given := false
		for _, o := range sa.opts {
			if len(o.name) == 1 && strings.Contains(spec.scriptBy, o.name) || o.name == "regexp" || o.name == "expression" {
				if sa.script == "" {
					sa.script = o.val
				}
				given = true
			}
		}
		if !given && len(sa.operands) > 0 {
			sa.script, sa.operands, sa.fromOps = sa.operands[0], sa.operands[1:], true
			if sa.dashdash > 0 {
				sa.dashdash--
			}
		}
	}
	if spec.maxOps > 0 && len(sa.operands) > spec.maxOps {
		return sa, false
	}
	if spec.safe != nil && !spec.safe(sa.script) {
		return sa, false
	}
	return sa, true
}

func scanFind(args []string) (scanned, bool) {
	sa := scanned{dashdash: -1}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "(" || a == "!" || a == ")" || strings.HasPrefix(a, "-") && len(a) > 1 {
			break
		}
		sa.operands = append(sa.operands, a)
	}
	for ; i < len(args); i++ {
		a := args[i]
		if findDeny[a] {
			return sa, false
		}
		if findValues[a] {
			if findNames[a] && sa.pattern == "" && i+1 < len(args) {
				sa.pattern = args[i+1]
			}
			i++
		}
	}
	return sa, true
}

// sed scripts that write (w FILE, s///w FILE) or run commands (e).
var sedUnsafe = regexp.MustCompile(`(^|[;{}\n/0-9$])\s*[wWe](\s|$)`)

func sedSafe(script string) bool { return !sedUnsafe.MatchString(script) }

// awk programs that run commands or print to files.
var awkUnsafe = regexp.MustCompile(`system\s*\(|\|\s*getline|\|&|printf?\b[^;}]*>\s*"|printf?\b[^;}]*\|\s*"`)

func awkSafe(script string) bool { return !awkUnsafe.MatchString(script) }
