package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/stage"
)

// Identifier is implemented by providers that name, from the head of an
// input, the native session it holds, and whether the input is a member
// file of that session (a Claude Code sidechain file) rather than its main
// file. ok is false when the head does not tell.
type Identifier interface {
	Identify(format string, head agt.Head) (session string, member, ok bool)
}

// Continuer is implemented by providers whose agent writes a resumed or
// forked session to a file of its own that opens with a copy of the
// records of the session it continues, each record keeping its native id
// under the new session's id. Lineage names, from the head of an input,
// what such files share ("" when the head does not tell): inputs of
// different sessions whose heads name the same lineage are read as one
// group, and a record that a later one repeats counts once (see recount).
type Continuer interface {
	Lineage(format string, head agt.Head) string
}

// A group is the units that hold one session, or one lineage of sessions
// (a session and the sessions resumed or forked from it), in the order they
// are read.
type group struct {
	units []*stage.Unit
	// roots maps the native id of each session of a lineage but its first
	// (the original) to the original's; nil for a group of one session
	roots map[string]string
	// told: the pre-pass told its session (else it is one unit, alone)
	told bool
}

// A session is (provider, native session id): every input that holds it is
// read in one group of units that follow each other, so that transcripts
// can make one session of them with memory bounded by the sessions of one
// group, and so that a record held by several of them counts once (see
// recount). groupUnits is the cheap pre-pass that finds the groups: it
// reads the detection head (the first lines) of the first file of each
// unit, again, and asks its provider which session it holds.
//
//   - Units of one session (copies: a backup, an archive, another machine's
//     copy) form a group placed where the last of them was (so that the
//     members of an archive of copies are read in archive order: going back
//     in a .tar.gz reads it again from its start); within it the largest
//     copy comes first (size of the file or archive member, when known), so
//     that a truncated copy only adds what the larger one lacks.
//   - Sessions of one lineage (Continuer: a session and the sessions resumed
//     or forked from it, whose files open with the same records) form one
//     group. The original is the session whose largest copy is the
//     smallest (a resumed file holds the original's records and its own);
//     at equal sizes, the one met first. It is read first, then the others
//     in the same order, each session's copies together, largest first.
//   - A member file (a Claude Code 2.0 agent-*.jsonl sidechain file) joins
//     the unit of its session's main file in the same folder, as a file read
//     with it, else the first unit of its session that has no file of its
//     name; failing that it joins the group of its session as a unit of its
//     own; with no main file at all, it is a group of its own, with the other
//     copies of the same file name.
//   - With cfg.Recall, the inputs an earlier run read a session from (an
//     -o folder's index names them) join the session's group as units of
//     their own, so that the session is made again of all of its copies.
//   - A whole JSON document whose provider cannot tell its session from its
//     first block is known by that block: documents that begin alike (a
//     backup of it, a later copy) are copies, one group.
//   - An input whose session the head does not tell (standard input, a
//     pipe, a store a provider claims, no provider, no session id in the
//     first lines) stays a group of its own, where it was.
//
// The pre-pass holds one small record per unit; reading a head costs an
// open and one block.
func groupUnits(ctx context.Context, cfg Config, forced Provider, units []*stage.Unit) []group {
	gr := &grouping{cfg: cfg, forced: forced, units: units, ids: identifyUnits(ctx, cfg, forced, units),
		same: map[string]string{}, groups: map[string]int{}}
	gr.joinLineages()
	gr.place()
	gr.order()
	if cfg.Recall != nil {
		gr.recall()
	}
	return gr.result()
}

// unitIdent is what the pre-pass knows of a unit from the head of its
// first file.
type unitIdent struct {
	key     string // provider NUL native session; "" unknown
	lineage string // provider NUL lineage; "" none
	member  bool
	size    int64
	dir     string
}

// identifyUnits reads the head of each unit's first file (until ctx ends).
// Nothing else of the run goes on meanwhile: the heads of plain files are
// read by as many goroutines as the run has processors (each unit's answer
// in its place, so the order does not change); archive members, which
// share their archive's reader, one after another.
func identifyUnits(ctx context.Context, cfg Config, forced Provider, units []*stage.Unit) []unitIdent {
	ids := make([]unitIdent, len(units))
	one := func(i int) {
		in := units[i].Files[0]
		size, ok := reopenable(in)
		if !ok {
			return
		}
		h := identify(cfg, forced, in)
		if h.session == "" {
			return
		}
		ids[i] = unitIdent{key: h.prov + "\x00" + h.session, member: h.member, size: size, dir: path.Dir(in.Path)}
		if h.lineage != "" && !h.member {
			ids[i].lineage = h.prov + "\x00" + h.lineage
		}
	}
	var plain, members []int
	for i, u := range units {
		if strings.Contains(u.Files[0].Path, "!/") {
			members = append(members, i)
		} else {
			plain = append(plain, i)
		}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	for range min(workers, len(plain)) {
		wg.Go(func() {
			for i := range next {
				one(i)
			}
		})
	}
	for _, i := range plain {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	for _, i := range members {
		if ctx.Err() != nil {
			break
		}
		one(i)
	}
	return ids
}

// grouping is groupUnits' work: the units, what their heads tell, and the
// groups made of them so far.
type grouping struct {
	cfg    Config
	forced Provider
	units  []*stage.Unit
	ids    []unitIdent       // of units, by index
	same   map[string]string // session key → the key of its group, when another
	groups map[string]int    // key → index in out
	out    [][]*stage.Unit
	last   []int // the index of the last input of each group
	pos    map[*stage.Unit]int
	// sessions: of each session key (a main unit's), its largest copy's
	// size and its first unit
	sessions map[string]sess
}

type sess struct {
	size  int64 // of its largest main copy
	first int   // the index of its first unit
}

// find is the key of the group of the session key k.
func (gr *grouping) find(k string) string {
	for gr.same[k] != "" {
		k = gr.same[k]
	}
	return k
}

// joinLineages makes the sessions of one lineage share the key of the
// first one met.
func (gr *grouping) joinLineages() {
	lineages := map[string]string{} // lineage → the first session key met
	for _, id := range gr.ids {
		if id.lineage == "" {
			continue
		}
		first, ok := lineages[id.lineage]
		if !ok {
			lineages[id.lineage] = id.key
			continue
		}
		if a, b := gr.find(first), gr.find(id.key); a != b {
			gr.same[b] = a
		}
	}
}

// join adds u, the i-th unit (nil: only its place), to the group of key.
func (gr *grouping) join(key string, u *stage.Unit, i int) {
	key = gr.find(key)
	if g, ok := gr.groups[key]; ok && key != "" {
		gr.out[g], gr.last[g] = append(gr.out[g], u), max(gr.last[g], i)
		return
	}
	gr.groups[key] = len(gr.out)
	gr.out, gr.last = append(gr.out, []*stage.Unit{u}), append(gr.last, i)
}

// place puts each unit in its group, a member file into the unit of its
// session's main file (see groupUnits).
func (gr *grouping) place() {
	mains := map[string][]int{} // key → main units, in order
	for i := range gr.units {
		if gr.ids[i].key != "" && !gr.ids[i].member {
			mains[gr.ids[i].key] = append(mains[gr.ids[i].key], i)
		}
	}
	var members []int
	for i, u := range gr.units {
		switch id := gr.ids[i]; {
		case id.key == "":
			gr.join("", u, i)
		case id.member:
			if len(mains[id.key]) == 0 { // alone: a group with its copies
				gr.join(id.key+"\x00"+path.Base(u.Files[0].Path), u, i)
			} else {
				gr.join(id.key, nil, i) // counts for the group's place
				members = append(members, i)
			}
		default:
			gr.join(id.key, u, i)
		}
	}
	for _, i := range members { // into the unit of the main file beside it
		if into := gr.mainFor(i, mains[gr.ids[i].key]); into >= 0 {
			gr.units[into].Files = append(gr.units[into].Files, gr.units[i].Files...)
		} else {
			gr.join(gr.ids[i].key, gr.units[i], i)
		}
	}
	for gi, g := range gr.out {
		gr.out[gi] = slices.DeleteFunc(g, func(u *stage.Unit) bool { return u == nil })
	}
}

// mainFor is the main unit among mains that the member unit i joins: the
// main file beside it, else the first that can take it; -1 none.
func (gr *grouping) mainFor(i int, mains []int) int {
	id := gr.ids[i]
	into, base := -1, path.Base(gr.units[i].Files[0].Path)
	for _, m := range mains {
		if !hasBase(gr.units[m], base) && (into < 0 || gr.ids[m].dir == id.dir) {
			into = m
			if gr.ids[m].dir == id.dir {
				break
			}
		}
	}
	return into
}

// order sorts each group: the original session first (its largest copy
// the smallest), each session's copies together, the largest first;
// member units after the main ones.
func (gr *grouping) order() {
	gr.pos = map[*stage.Unit]int{}
	for i, u := range gr.units {
		gr.pos[u] = i
	}
	gr.sessions = map[string]sess{}
	for i := len(gr.ids) - 1; i >= 0; i-- {
		if id := gr.ids[i]; id.key != "" && !id.member {
			s := gr.sessions[id.key]
			gr.sessions[id.key] = sess{size: max(s.size, id.size), first: i}
		}
	}
	for _, g := range gr.out {
		gr.orderGroup(g)
	}
}

// orderGroup sorts the units of one group (see order).
func (gr *grouping) orderGroup(g []*stage.Unit) {
	if len(g) < 2 {
		return
	}
	sort.SliceStable(g, func(a, b int) bool {
		ia, ib := gr.ids[gr.pos[g[a]]], gr.ids[gr.pos[g[b]]]
		if ia.member != ib.member {
			return !ia.member
		}
		if ia.key != ib.key && !ia.member {
			sa, sb := gr.sessions[ia.key], gr.sessions[ib.key]
			if sa.size != sb.size {
				return sa.size < sb.size
			}
			return sa.first < sb.first
		}
		return ia.size > ib.size
	})
}

// recall adds to each group the inputs an earlier run read its sessions
// from (cfg.Recall).
func (gr *grouping) recall() {
	for gi, g := range gr.out {
		var keys []string // the sessions of the group (a lineage holds several)
		for _, u := range g {
			if id := gr.ids[gr.pos[u]]; id.key != "" && !id.member && !slices.Contains(keys, id.key) {
				keys = append(keys, id.key)
			}
		}
		added := false
		for _, key := range keys {
			added = gr.recallSession(gi, key) || added
		}
		if added {
			gr.orderGroup(gr.out[gi])
		}
	}
}

// recallSession adds to the group gi the inputs an earlier run read the
// session key from, and tells whether there were any.
func (gr *grouping) recallSession(gi int, key string) (added bool) {
	prov, native, _ := strings.Cut(key, "\x00")
	var files []stage.Input
	for _, u := range gr.out[gi] {
		files = append(files, u.Files...)
	}
	for _, u := range recalled(gr.cfg, gr.forced, gr.out[gi], Units(gr.cfg.Recall(prov, native, files))) {
		size, _ := reopenable(u.Files[0])
		gr.pos[u] = len(gr.units)
		gr.units, gr.ids = append(gr.units, u), append(gr.ids, unitIdent{key: key, size: size})
		gr.out[gi], added = append(gr.out[gi], u), true
	}
	return added
}

// result is the groups in the order of their last inputs: the members of
// an archive (a backup), which come after the files they copy, are then
// read in archive order, without going back in it.
func (gr *grouping) result() []group {
	groupsOut := make([]group, len(gr.out))
	for gi, g := range gr.out {
		groupsOut[gi] = group{units: g, roots: roots(g, func(u *stage.Unit) (string, bool) {
			id := gr.ids[gr.pos[u]]
			return id.key, id.member
		}), told: len(g) > 0 && gr.ids[gr.pos[g[0]]].key != ""}
	}
	seq := make([]int, len(gr.out))
	for i := range seq {
		seq[i] = i
	}
	sort.SliceStable(seq, func(a, b int) bool { return gr.last[seq[a]] < gr.last[seq[b]] })
	var kept []group
	for _, gi := range seq {
		if len(groupsOut[gi].units) > 0 {
			kept = append(kept, groupsOut[gi])
		}
	}
	return kept
}

// roots maps the native id of each session of the ordered units g but the
// first to the first's: the sessions of a lineage and their original. key
// names a unit's session key (provider NUL native id) and whether it is a
// member unit. A group of one session has none.
func roots(g []*stage.Unit, key func(*stage.Unit) (string, bool)) map[string]string {
	var m map[string]string
	root := ""
	for _, u := range g {
		k, member := key(u)
		if k == "" || member {
			continue
		}
		_, native, _ := strings.Cut(k, "\x00")
		switch {
		case root == "":
			root = native
		case native != root:
			if m == nil {
				m = map[string]string{}
			}
			m[native] = root
		}
	}
	return m
}

// hasBase tells whether u reads a file of the base name b.
func hasBase(u *stage.Unit, b string) bool {
	for _, f := range u.Files {
		if path.Base(f.Path) == b {
			return true
		}
	}
	return false
}

// reopenable tells whether an input can be read twice (a regular file, or
// a member of an archive that is one or that was read on stdin: not
// standard input itself, a pipe or a device), with its size when known (0 when compressed).
func reopenable(in stage.Input) (int64, bool) {
	if in.Path == stage.StdinPath {
		return 0, false
	}
	file, _, member := strings.Cut(in.Path, "!/")
	if member && file == stage.StdinPath { // stdin's archive is kept in a file
		return in.Size, true
	}
	st, err := os.Stat(file) // an archive member: its archive
	if member {
		return in.Size, err == nil && st.Mode().IsRegular()
	}
	if err != nil || !st.Mode().IsRegular() {
		return 0, false
	}
	if strings.HasSuffix(in.Path, ".gz") {
		return 0, true // compressed: its size says little
	}
	return st.Size(), true
}

// identity is what the head of an input tells: its provider's name, the
// native session it holds ("" when the head does not tell), whether it is
// a member file, and its lineage (Continuer; "" none).
type identity struct {
	prov, session string
	member        bool
	lineage       string
}

// identify reads the head of in and tells its identity.
func identify(cfg Config, forced Provider, in stage.Input) (id identity) {
	defer func() { // a provider that panics on a head does not tell; the read proper reports it
		if recover() != nil {
			id = identity{}
		}
	}()
	if in.Walk != "" && stage.Store(in.Path) {
		return identity{}
	}
	rc, err := in.Open()
	if err != nil {
		return identity{}
	}
	defer rc.Close()
	h, told, done := identifyHead(cfg, forced, rc)
	if done {
		return told
	}
	if len(h.Lines) == 0 || isEvents(h) {
		return identity{}
	}
	p, format := forced, ""
	if p != nil {
		if format = p.Sniff(h); format == "" {
			format = p.Formats()[0]
		}
	} else if p, format = Detect(h); p == nil {
		return identity{}
	}
	id = identity{prov: p.Name()}
	if c, ok := p.(Continuer); ok {
		id.lineage = c.Lineage(format, h)
	}
	if i, ok := p.(Identifier); ok {
		if s, m, ok := i.Identify(format, h); ok {
			id.session, id.member = s, m
			return id
		}
	}
	id.session = headSession(cfg, p, format, h)
	return id
}

// identifyHead reads the first non-blank lines of an input (long lines
// left out) for identify. done tells that they already tell its identity
// (told): lines not JSON (none), or a whole document (see identifyDoc).
func identifyHead(cfg Config, forced Provider, rc io.Reader) (h agt.Head, told identity, done bool) {
	br := stage.NewBlockReader(rc)
	br.SetLimit(cfg.MaxLine, agt.MaxLineText)
	lines, _ := br.Next(firstBlock)
	long := map[int]bool{}
	for _, l := range br.Long() {
		long[l.Index] = true
	}
	for i, line := range lines {
		if i == 0 {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
		}
		t := stage.TrimSpace(line)
		if len(t) == 0 || long[i] {
			continue
		}
		if !agt.API.Valid(t) {
			if len(h.Lines) > 0 || (t[0] != '{' && t[0] != '[') { // not JSON: not told
				return h, identity{}, true
			}
			// a whole document: its first block, for the providers that
			// can tell its session from its beginning
			block := bytes.Join(lines[i:], []byte("\n"))
			prov, session, member := identifyDoc(forced, block)
			if session == "" { // its copies have the same beginning
				sum := sha256.Sum256(block)
				return h, identity{session: "document " + hex.EncodeToString(sum[:16])}, true
			}
			return h, identity{prov: prov, session: session, member: member}, true
		}
		if h.Lines = append(h.Lines, t); len(h.Lines) == headLines {
			break
		}
	}
	return h, identity{}, false
}

// headSession runs a provider's parser over the head lines and returns the
// first native session its events name ("" when none does).
func headSession(cfg Config, p Provider, format string, h agt.Head) string {
	pr := p.NewParser(format, cfg.Opts)
	em := agt.NewEmitter(p.Name(), format, cfg.Opts)
	for i, line := range h.Lines {
		em.At(agt.Src{Path: "head", Line: int64(i + 1)}, agt.Raw(line))
		v, _ := stage.SafeDecode(pr, line)
		if v != nil {
			stage.SafeApply(pr, em, v)
		}
		if s := em.Current(); s != "" {
			return s
		}
		evs, _ := em.Take()
		for _, ev := range evs {
			if ev.NativeSession != "" {
				return ev.NativeSession
			}
		}
	}
	return ""
}

// identifyDoc names the session of a whole JSON document from its first
// block (doc, cut anywhere), when its provider can tell it (Identifier with
// head.Doc set); other documents are not told.
func identifyDoc(forced Provider, doc []byte) (prov, session string, member bool) {
	h := agt.Head{Doc: doc}
	p, format := forced, ""
	if p != nil {
		if format = p.Sniff(h); format == "" {
			return "", "", false
		}
	} else if p, format = Detect(h); p == nil {
		return "", "", false
	}
	if id, ok := p.(Identifier); ok {
		if s, m, ok := id.Identify(format, h); ok {
			return p.Name(), s, m
		}
	}
	return "", "", false
}

// recalled makes units of the inputs an earlier run read a session from:
// as in one run, a member file (a Claude Code 2.0 sidechain file) joins a
// main file's unit, one in its folder first (among the recalled units,
// then the group's), else the first that has no file of its name; failing
// that it is a unit of its own. It returns the units to add to the group.
func recalled(cfg Config, forced Provider, group, extra []*stage.Unit) []*stage.Unit {
	var mains, members []*stage.Unit
	for _, u := range extra {
		if identify(cfg, forced, u.Files[0]).member {
			members = append(members, u)
		} else {
			mains = append(mains, u)
		}
	}
	for _, m := range members {
		dir, base := path.Dir(m.Files[0].Path), path.Base(m.Files[0].Path)
		var into *stage.Unit
		for _, pass := range []func(u *stage.Unit) bool{
			func(u *stage.Unit) bool { return path.Dir(u.Files[0].Path) == dir },
			func(u *stage.Unit) bool { return true },
		} {
			for _, us := range [][]*stage.Unit{mains, group} {
				for _, u := range us {
					if into == nil && pass(u) && !hasBase(u, base) {
						into = u
					}
				}
			}
		}
		if into != nil {
			into.Files = append(into.Files, m.Files...)
		} else {
			mains = append(mains, m)
		}
	}
	return mains
}
