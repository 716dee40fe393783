package provider

import (
	"bytes"
	"context"
	"os"
	"path"
	"sort"
	"strings"

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

// A session is (provider, native session id): every input that holds it is
// read in one group of units that follow each other, so that transcripts
// can make one session of them with memory bounded by the sessions of one
// group. groupUnits is the cheap pre-pass that finds the groups: it reads
// the detection head (the first lines) of the first file of each unit,
// again, and asks its provider which session it holds.
//
//   - Units of one session (copies: a backup, an archive, another machine's
//     copy) form a group placed where the last of them was (so that the
//     members of an archive of copies are read in archive order: going back
//     in a .tar.gz reads it again from its start); within it the largest
//     copy comes first (size of the file or archive member, when known), so
//     that a truncated copy only adds what the larger one lacks.
//   - A member file (a Claude Code 2.0 agent-*.jsonl sidechain file) joins
//     the unit of its session's main file in the same folder, as a file read
//     with it, else the first unit of its session that has no file of its
//     name; failing that it joins the group of its session as a unit of its
//     own; with no main file at all, it is a group of its own, with the other
//     copies of the same file name.
//   - With cfg.Recall, the inputs an earlier run read a session from (an
//     -o folder's index names them) join the session's group as units of
//     their own, so that the session is made again of all of its copies.
//   - An input whose session the head does not tell (a whole JSON document
//     whose provider cannot tell it from its first block, standard input, a
//     pipe, no provider, no session id in the first lines) stays a group of
//     its own, where it was.
//
// The pre-pass holds one small record per unit; reading a head costs an
// open and one block.
func groupUnits(ctx context.Context, cfg Config, forced Provider, units []*stage.Unit) [][]*stage.Unit {
	type ident struct {
		key    string // provider NUL native session; "" unknown
		member bool
		size   int64
		dir    string
	}
	ids := make([]ident, len(units))
	for i, u := range units {
		if ctx.Err() != nil {
			break
		}
		in := u.Files[0]
		size, ok := reopenable(in)
		if !ok {
			continue
		}
		prov, session, member := identify(cfg, forced, in)
		if session == "" {
			continue
		}
		ids[i] = ident{key: prov + "\x00" + session, member: member, size: size, dir: path.Dir(in.Path)}
	}
	groups := map[string]int{} // key → index in out
	var out [][]*stage.Unit
	var last []int    // the index of the last input of each group
	var keys []string // the key of each group
	join := func(key string, u *stage.Unit, i int) {
		if g, ok := groups[key]; ok && key != "" {
			out[g], last[g] = append(out[g], u), max(last[g], i)
			return
		}
		groups[key] = len(out)
		out, last, keys = append(out, []*stage.Unit{u}), append(last, i), append(keys, key)
	}
	mains := map[string][]int{} // key → main units, in order
	for i := range units {
		if ids[i].key != "" && !ids[i].member {
			mains[ids[i].key] = append(mains[ids[i].key], i)
		}
	}
	var members []int
	for i, u := range units {
		switch id := ids[i]; {
		case id.key == "":
			join("", u, i)
		case id.member:
			if len(mains[id.key]) == 0 { // alone: a group with its copies
				join(id.key+"\x00"+path.Base(u.Files[0].Path), u, i)
			} else {
				join(id.key, nil, i) // counts for the group's place
				members = append(members, i)
			}
		default:
			join(id.key, u, i)
		}
	}
	for _, i := range members { // into the unit of the main file beside it
		id, u := ids[i], units[i]
		into, base := -1, path.Base(u.Files[0].Path)
		for _, m := range mains[id.key] { // the main file beside it, else the first that can take it
			if !hasBase(units[m], base) && (into < 0 || ids[m].dir == id.dir) {
				into = m
				if ids[m].dir == id.dir {
					break
				}
			}
		}
		if into >= 0 {
			units[into].Files = append(units[into].Files, u.Files...)
		} else {
			join(id.key, u, i)
		}
	}
	for gi, g := range out {
		kept := g[:0]
		for _, u := range g {
			if u != nil {
				kept = append(kept, u)
			}
		}
		out[gi] = kept
	}
	// the largest copy first; member units after the main ones
	pos := map[*stage.Unit]int{}
	for i, u := range units {
		pos[u] = i
	}
	order := func(g []*stage.Unit) {
		if len(g) > 1 {
			sort.SliceStable(g, func(a, b int) bool {
				ia, ib := ids[pos[g[a]]], ids[pos[g[b]]]
				if ia.member != ib.member {
					return !ia.member
				}
				return ia.size > ib.size
			})
		}
	}
	for _, g := range out {
		order(g)
	}
	if cfg.Recall != nil { // the inputs an earlier run read the session from join its group
		for gi, key := range keys {
			prov, native, ok := strings.Cut(key, "\x00")
			if !ok || native == "" || strings.Contains(native, "\x00") || len(out[gi]) == 0 { // unknown, or a member file alone
				continue
			}
			var files []stage.Input
			for _, u := range out[gi] {
				files = append(files, u.Files...)
			}
			extra := recalled(cfg, forced, out[gi], Units(cfg.Recall(prov, native, files)))
			for _, u := range extra {
				size, _ := reopenable(u.Files[0])
				pos[u] = len(units)
				units, ids = append(units, u), append(ids, ident{key: key, size: size})
				out[gi] = append(out[gi], u)
			}
			if len(extra) > 0 {
				order(out[gi])
			}
		}
	}
	// groups in the order of their last inputs: the members of an archive
	// (a backup), which come after the files they copy, are then read in
	// archive order, without going back in it
	seq := make([]int, len(out))
	for i := range seq {
		seq[i] = i
	}
	sort.SliceStable(seq, func(a, b int) bool { return last[seq[a]] < last[seq[b]] })
	var kept [][]*stage.Unit
	for _, gi := range seq {
		if len(out[gi]) > 0 {
			kept = append(kept, out[gi])
		}
	}
	return kept
}

// recalled makes units of the inputs an earlier run read a session from:
// as in one run, a member file (a Claude Code 2.0 sidechain file) joins a
// main file's unit, one in its folder first (among the recalled units,
// then the group's), else the first that has no file of its name; failing
// that it is a unit of its own. It returns the units to add to the group.
func recalled(cfg Config, forced Provider, group, extra []*stage.Unit) []*stage.Unit {
	var mains, members []*stage.Unit
	for _, u := range extra {
		if _, _, member := identify(cfg, forced, u.Files[0]); member {
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

// identify reads the head of in and returns its provider's name and the
// native session it holds ("" when the head does not tell), and whether it
// is a member file.
func identify(cfg Config, forced Provider, in stage.Input) (prov, session string, member bool) {
	defer func() { // a provider that panics on a head does not tell; the read proper reports it
		if recover() != nil {
			prov, session, member = "", "", false
		}
	}()
	if in.Walk != "" && strings.HasSuffix(in.Path, ".db") {
		return "", "", false
	}
	rc, err := in.Open()
	if err != nil {
		return "", "", false
	}
	defer rc.Close()
	br := stage.NewBlockReader(rc)
	br.SetLimit(cfg.MaxLine, agt.MaxLineText)
	lines, _ := br.Next(firstBlock)
	long := map[int]bool{}
	for _, l := range br.Long() {
		long[l.Index] = true
	}
	var h agt.Head
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
				return "", "", false
			}
			// a whole document: its first block, for the providers that
			// can tell its session from its beginning
			return identifyDoc(forced, bytes.Join(lines[i:], []byte("\n")))
		}
		if h.Lines = append(h.Lines, t); len(h.Lines) == headLines {
			break
		}
	}
	if len(h.Lines) == 0 || isEvents(h) {
		return "", "", false
	}
	p, format := forced, ""
	if p != nil {
		if format = p.Sniff(h); format == "" {
			format = p.Formats()[0]
		}
	} else if p, format = Detect(h); p == nil {
		return "", "", false
	}
	if id, ok := p.(Identifier); ok {
		if s, m, ok := id.Identify(format, h); ok {
			return p.Name(), s, m
		}
	}
	return p.Name(), headSession(cfg, p, format, h), false
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
