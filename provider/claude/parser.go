package claude

import (
	"hash/maphash"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/agt-project/agt"
)

// parser turns the records of one unit into events.
type parser struct {
	live  bool
	opts  agt.Options
	calls map[string]string // session NUL tool_use id → event id of the call, until its result

	// session logs: usage per model call, emitted at the call's first line
	// and open while its lines come (until a later call starts in its
	// stream, or the unit ends): a line of it that raises the figures gives
	// the difference
	open  []*call          // open calls, by first appearance
	byKey map[string]*call // session NUL message id NUL request id → open call
	// the latest closed calls (hash of their key → emitted figures), in a
	// ring of maxClosed
	closed map[uint64]figures
	ring   []uint64
	next   int
	seed   maphash.Seed
	// session logs: hashes of session NUL uuid of the records already
	// emitted from a progress mirror
	mirrored map[uint64]struct{}
	// the agents whose own file the unit reads after its first one
	// (Members): their progress mirrors defer to it
	ownFile map[string]bool
	// the calls of such mirrors, figures only, until a line of the call
	// comes from the file; the usage of those the file lacks is emitted
	// when the unit ends
	deferred   []*call
	byDeferred map[string]*call
	// 1.0.x inline sidechains: hash of record uuid → stream
	sidechain map[uint64]string
	// 1.0.x inline sidechains: session NUL prompt → the subagent call
	// with that prompt, until a sidechain starts with it; session NUL
	// call id → the agent of the sidechain it started, until its result
	prompts map[string]string
	inline  map[string]string
	// calls without any id, counted to key them apart (see anonKey)
	anon int
	// a sidechain file read alone (its unit starts with a sidechain record):
	// its session is renamed loneAs, and its agent's records are the main
	// stream
	decided           bool
	loneOf, loneAgent string
	loneAs            string

	// prompts typed while the agent worked (see queue.go)
	queue queues

	// a usage report's meta events left out (see leftOut): the file of
	// the last kept, each session's folder
	metaFile string
	folders  map[string]string

	// live output
	tasks   map[string]string                // Agent tool_use id → task (agent) id
	results map[string]map[string]*agt.Usage // session → model → totals so far
	model   string
	said    map[string]bool // sessions whose main stream gave assistant text
	// live output: the provisional usage of the calls seen since the
	// session's last result line (session → model → figures emitted),
	// and the figures emitted per call (session NUL message id)
	pending map[string]map[string]*agt.Usage
	liveFig map[string]figures
}

// call is the usage of one model call, as the largest of its lines.
type call struct {
	k       string // its key in byKey
	key     string
	reqID   string
	session string
	stream  string
	ts      string
	model   string
	u       agt.Usage
	src     agt.Src
	raw     agt.Raw
	sent    figures // the figures its usage events add up to so far
}

// figures are the counts of a usage event already emitted, kept so that a
// line of its call that comes back later (interleaved ids) can still raise
// them.
type figures struct {
	input, cacheRead, cacheWrite, cacheWrite1h, output, reasoning int64
}

func figuresOf(u *agt.Usage) figures {
	return figures{u.Input, u.CacheRead, u.CacheWrite, u.CacheWrite1h, u.Output, u.Reasoning}
}

// usage is f as usage figures.
func (f figures) usage() *agt.Usage {
	return &agt.Usage{Input: f.input, CacheRead: f.cacheRead, CacheWrite: f.cacheWrite, CacheWrite1h: f.cacheWrite1h, Output: f.output, Reasoning: f.reasoning}
}

func newParser(live bool, opts agt.Options) *parser {
	return &parser{
		live:      live,
		opts:      opts,
		calls:     map[string]string{},
		byKey:     map[string]*call{},
		closed:    map[uint64]figures{},
		seed:      maphash.MakeSeed(),
		mirrored:  map[uint64]struct{}{},
		sidechain: map[uint64]string{},
		prompts:   map[string]string{},
		inline:    map[string]string{},
		tasks:     map[string]string{},
		results:   map[string]map[string]*agt.Usage{},
		said:      map[string]bool{},
		pending:   map[string]map[string]*agt.Usage{},
		liveFig:   map[string]figures{},
		queue:     queues{},
	}
}

// Members notes the agents whose own subagent file the unit reads after
// its session file: agent-<agentId>.jsonl (2.0 beside the session file, 2.1
// under <session>/subagents/). A subagent whose file is read is built from
// it; the session file's progress mirrors of its records give nothing but
// a meta event each.
func (p *parser) Members(paths []string) {
	for _, path := range paths {
		if id := fileAgent(path); id != "" {
			if p.ownFile == nil {
				p.ownFile = map[string]bool{}
			}
			p.ownFile[id] = true
		}
	}
}

// fileAgent is the agent id a subagent file's name gives
// (agent-<agentId>.jsonl, compressed or not), "" for another name.
func fileAgent(path string) string {
	base := filepath.Base(path)
	id, ok := strings.CutPrefix(base, "agent-")
	if !ok {
		return ""
	}
	id, _, _ = strings.Cut(id, ".")
	return id
}

func (p *parser) Decode(line []byte) (any, error) {
	d, err := decodeRecord(line, p.opts.Usage)
	if d == nil {
		return nil, err
	}
	return d, err
}

func (p *parser) Apply(em *agt.Emitter, v any) {
	d := v.(*decoded)
	r := &d.rec
	sid := r.SessionID
	if !p.live && !p.decided && sid != "" {
		p.decided = true
		if lone := LoneSession(sid, r.AgentID, r.IsSidechain); lone != sid {
			p.loneOf, p.loneAgent, p.loneAs = sid, r.AgentID, lone
		}
	}
	if p.loneOf != "" && sid == p.loneOf {
		sid = p.loneAs
	}
	if sid == "" {
		sid = r.LiveSessionID
	}
	if sid != "" && em.Current() == "" {
		em.Session(sid)
	}
	c := ctx{p: p, em: em, d: d, session: sid, stream: p.stream(r), ts: agt.Timestamp(r.Timestamp)}
	n := em.Count()
	if r.IsSidechain && p.isMirrored(sid, r.UUID) {
		if r.Type == "assistant" {
			p.addCall(em, r, c.session, c.stream, c.ts)
		}
		c.meta(r.Type, "mirrored", nil) // already emitted from a progress mirror
		return
	}
	c.record()
	if em.Count() == n {
		c.meta(r.Type, "", nil)
	}
}

// leftOut tells, for a usage report (agt.Options.Usage), that a meta event
// of folder cwd is not needed: the report reads of a meta event only its
// folder, which a record of its session gave before in the unit, and it
// is not its file's first event (which places the file among the groups
// of inputs). The record is still counted as a line read. Most of a usage
// report's records give only such an event: user records (whose contents
// it does not decode), progress records, file history snapshots.
func (p *parser) leftOut(c *ctx, cwd string) bool {
	if !p.opts.Usage || p.live {
		return false
	}
	path := c.em.Src().Path
	if path != p.metaFile {
		p.metaFile = path // the file's first event: kept
		return false
	}
	if cwd == "" {
		return true
	}
	if p.folders == nil {
		p.folders = map[string]string{}
	}
	if p.folders[c.session] != "" {
		return true
	}
	p.folders[strings.Clone(c.session)] = strings.Clone(cwd)
	return false
}

// stream names the stream of a record: main, or the sidechain of a subagent.
func (p *parser) stream(r *record) string {
	if p.live {
		if r.ParentToolUseID == "" {
			return agt.StreamMain
		}
		if t := p.tasks[r.ParentToolUseID]; t != "" {
			return "sidechain:" + t
		}
		return "sidechain:" + r.ParentToolUseID
	}
	if !r.IsSidechain || (p.loneAgent != "" && r.AgentID == p.loneAgent) {
		return agt.StreamMain
	}
	if r.AgentID != "" {
		return "sidechain:" + r.AgentID
	}
	// 1.0.x inline sidechain: inherit the stream of the parent record
	s := ""
	if r.ParentUUID != nil {
		s = p.sidechain[maphash.String(p.seed, *r.ParentUUID)]
	}
	if s == "" {
		id := r.UUID
		if len(id) > 8 {
			id = id[:8]
		}
		s = "sidechain:" + id // a new string, owned
	}
	if r.UUID != "" {
		p.sidechain[maphash.String(p.seed, r.UUID)] = s
	}
	return s
}

func (p *parser) Finish(em *agt.Emitter) {
	for _, c := range p.deferred {
		if c.k != "" { // a call of a mirror its subagent's file lacks
			p.emitCall(em, c)
		}
	}
	p.deferred, p.byDeferred = nil, nil
	p.open, p.byKey, p.closed, p.ring, p.next = nil, map[string]*call{}, map[uint64]figures{}, nil, 0
}

// maxClosed is the number of closed calls whose figures are remembered: a
// line of a call closed longer ago is taken as a call of its own.
const maxClosed = 4096

// remember keeps the emitted figures of a closed call, forgetting the
// oldest past maxClosed.
func (p *parser) remember(h uint64, f figures) {
	if len(p.ring) < maxClosed {
		p.ring = append(p.ring, h)
	} else {
		delete(p.closed, p.ring[p.next])
		p.ring[p.next] = h
		p.next = (p.next + 1) % maxClosed
	}
	p.closed[h] = f
}

// mirror notes a record emitted from a progress mirror; isMirrored tells
// whether a record was.
func (p *parser) mirror(session, uuid string) {
	p.mirrored[maphash.String(p.seed, session+"\x00"+uuid)] = struct{}{}
}

func (p *parser) isMirrored(session, uuid string) bool {
	_, ok := p.mirrored[maphash.String(p.seed, session+"\x00"+uuid)]
	return ok
}

// emitCall emits the usage event of a call that is final.
func (p *parser) emitCall(em *agt.Emitter, c *call) {
	u := c.u
	u.Scope, u.MessageID = agt.ScopeCall, c.key
	u.Sum()
	em.SetSrc(c.src, c.raw)
	em.Emit(agt.Event{Kind: agt.KindUsage, NativeSession: c.session, Stream: c.stream, TS: c.ts, Model: c.model, Usage: &u}, c.key, "usage\x00"+c.reqID)
}

// closeStream closes the open calls of a stream, which a new call closes:
// their figures are remembered (a line of one that comes back later can
// still raise them).
func (p *parser) closeStream(session, stream string) {
	kept := p.open[:0]
	for _, c := range p.open {
		if c.session != session || c.stream != stream {
			kept = append(kept, c)
			continue
		}
		delete(p.byKey, c.k)
		p.remember(maphash.String(p.seed, c.k), c.sent)
	}
	clear(p.open[len(kept):])
	p.open = kept
}

// callKey is the model call an assistant line with usage belongs to: its
// message id (else the line's uuid), and the key of the call in the
// session (with the request id); ok is false for a line without usage or
// of the synthetic model.
func callKey(r *record, session string) (key, k string, ok bool) {
	m := r.Message
	if m == nil || m.Usage == nil || m.Model == "<synthetic>" {
		return "", "", false
	}
	key = m.ID
	if key == "" {
		key = r.UUID
	}
	return key, session + "\x00" + key + "\x00" + r.RequestID, true
}

// addCall emits the usage of an assistant line of a session log: the
// first line of a call gives its figures at once; a later line of it that
// wins (the largest output, ties the later line) gives the difference, so
// that the call's events add up to its winning line's figures. A call
// stays open while its lines come; the first line of another call in the
// same stream closes it.
func (p *parser) addCall(em *agt.Emitter, r *record, session, stream, ts string) {
	key, k, ok := callKey(r, session)
	if !ok {
		return
	}
	m := r.Message
	if d := p.byDeferred[k]; d != nil { // the subagent's file has the call
		delete(p.byDeferred, k)
		d.k = ""
	}
	u := usageOf(m.Usage)
	if key == "" && r.RequestID == "" {
		k = p.anonKey(k, session, stream, &u)
	}
	c := p.byKey[k]
	if c == nil {
		h := maphash.String(p.seed, k)
		if f, ok := p.closed[h]; ok {
			p.correct(em, r, session, stream, ts, key, h, f, u)
			return
		}
		p.closeStream(session, stream)
		// strings decoded from a line share its memory: clone what is kept
		c = &call{k: strings.Clone(k), key: strings.Clone(key), reqID: strings.Clone(r.RequestID), session: strings.Clone(session),
			stream: strings.Clone(stream), ts: strings.Clone(ts), model: strings.Clone(m.Model)}
		p.byKey[c.k] = c
		p.open = append(p.open, c)
		// the figures only: nothing of the line is kept
		c.u, c.src, c.sent = u, em.Src(), figuresOf(&u)
		if p.opts.Raw {
			c.raw = em.Line()
		}
		p.emitCall(em, c)
		c.raw = nil
		return
	}
	now := figuresOf(&u)
	if u.Output < c.u.Output || now == c.sent {
		return
	}
	d := diff(&u, c.sent.usage())
	c.u, c.sent = u, now
	d.Scope, d.MessageID, d.Speed = agt.ScopeCall, key, u.Speed
	d.Sum()
	em.Emit(agt.Event{Kind: agt.KindUsage, NativeSession: session, Stream: stream, TS: ts, Model: m.Model, Usage: d}, key, "usage\x00"+r.RequestID+"\x00"+lineKey(em, r))
}

// deferCall holds the usage of a mirrored assistant record whose
// subagent's own file the unit reads later (the largest output of the
// call's mirrors), so that a call the file lacks still counts.
func (p *parser) deferCall(em *agt.Emitter, r *record, session, stream, ts string) {
	key, k, ok := callKey(r, session)
	if !ok || key == "" && r.RequestID == "" {
		return
	}
	m := r.Message
	u := usageOf(m.Usage)
	c := p.byDeferred[k]
	if c == nil {
		if p.byDeferred == nil {
			p.byDeferred = map[string]*call{}
		}
		c = &call{k: strings.Clone(k), key: strings.Clone(key), reqID: strings.Clone(r.RequestID), session: strings.Clone(session),
			stream: strings.Clone(stream), ts: strings.Clone(ts), model: strings.Clone(m.Model)}
		p.byDeferred[c.k] = c
		p.deferred = append(p.deferred, c)
	} else if u.Output < c.u.Output {
		return
	}
	c.u = u
	c.src = em.Src()
	if p.opts.Raw {
		c.raw = em.Line()
	}
}

// anonKey is the byKey key of a line whose message has no id, no uuid and
// no request id: the open call of its stream that has no ids either and the
// same input and cache figures (another line of the same response, which
// repeats its usage), else a call of its own.
func (p *parser) anonKey(k, session, stream string, u *agt.Usage) string {
	for _, c := range p.open {
		if c.key == "" && c.reqID == "" && c.session == session && c.stream == stream &&
			c.u.Input == u.Input && c.u.CacheRead == u.CacheRead && c.u.CacheWrite == u.CacheWrite {
			return c.k
		}
	}
	p.anon++
	return k + "\x00" + strconv.Itoa(p.anon)
}

// correct handles a line of a call whose usage was already emitted (its
// message id came back after another call began in the same stream): when
// the line wins under the largest-output rule, a usage event carries the
// difference, so that the call's events add up to the figures of its
// largest line.
func (p *parser) correct(em *agt.Emitter, r *record, session, stream, ts, key string, h uint64, was figures, u agt.Usage) {
	now := figuresOf(&u)
	if u.Output < was.output || now == was {
		return
	}
	p.closed[h] = now
	d := diff(&u, was.usage())
	d.Scope, d.MessageID = agt.ScopeCall, key
	d.Sum()
	em.Emit(agt.Event{Kind: agt.KindUsage, NativeSession: session, Stream: stream, TS: ts, Model: r.Message.Model, Usage: d}, key, "usage\x00"+r.RequestID+"\x00"+lineKey(em, r))
}

// lineKey names the line a usage difference comes from: its record's
// uuid, which a copy of the record (a resumed session's file, a backup)
// keeps, so that the copy's difference has the same event id and counts
// once; the line's place when the record has none.
func lineKey(em *agt.Emitter, r *record) string {
	if r.UUID != "" {
		return r.UUID
	}
	return em.Key()
}

// usageOf takes the figures of a line's usage.
func usageOf(mu *usage) agt.Usage {
	u := agt.Usage{Input: int64(mu.Input), CacheRead: int64(mu.CacheRead), CacheWrite: int64(mu.CacheWrite), Output: int64(mu.Output)}
	if mu.CacheCreation != nil {
		u.CacheWrite1h = int64(mu.CacheCreation.OneHour)
	}
	if mu.OutputDetails != nil {
		u.Reasoning = int64(mu.OutputDetails.Thinking)
	}
	if mu.Speed != "standard" {
		u.Speed = strings.Clone(mu.Speed)
	}
	return u
}

// liveCall emits the usage of a live assistant line as soon as it comes,
// provisional: stream-json writes one line per content block, each with
// the message's usage (input and cache figures, an output count still
// growing), and only the result line gives the run's final figures. The
// first line of a message gives its figures; a later line of the same
// message that raises them gives the difference (largest output wins, as
// in session logs). The result line settles them (runUsage).
func (p *parser) liveCall(c *ctx) {
	r := &c.d.rec
	m := r.Message
	if m == nil || m.Usage == nil || m.Model == "<synthetic>" || m.ID == "" {
		return
	}
	u := usageOf(m.Usage)
	now := figuresOf(&u)
	k := c.session + "\x00" + m.ID
	was, seen := p.liveFig[k]
	if seen && (u.Output < was.output || now == was) {
		return
	}
	suffix := "usage"
	d := &u
	if seen {
		d = diff(&u, was.usage())
		if d.Input < 0 || d.CacheRead < 0 || d.CacheWrite < 0 || d.CacheWrite1h < 0 || d.Reasoning < 0 {
			return // a line that lowers a figure: the first figures stand
		}
		d.Speed = u.Speed
		suffix = "usage\x00" + c.em.Key()
	}
	p.liveFig[strings.Clone(k)] = now
	d.Scope, d.MessageID, d.Provisional = agt.ScopeCall, m.ID, true
	d.Sum()
	byModel := p.pending[c.session]
	if byModel == nil {
		byModel = map[string]*agt.Usage{}
		p.pending[strings.Clone(c.session)] = byModel
	}
	sum := byModel[m.Model]
	if sum == nil {
		sum = &agt.Usage{}
		byModel[strings.Clone(m.Model)] = sum
	}
	sum.Add(d)
	c.em.Emit(agt.Event{Kind: agt.KindUsage, NativeSession: c.session, Stream: c.stream, TS: c.ts, Model: m.Model, Usage: d}, m.ID, suffix)
}

// settle takes the provisional figures of the session's calls off the run
// figures u of model: what the run adds to them. A figure the calls exceed
// is held at 0 (the calls' figures then stand).
func settle(u, prov *agt.Usage) {
	if prov == nil {
		return
	}
	sub := func(a *int64, b int64) { *a = max(*a-b, 0) }
	sub(&u.Input, prov.Input)
	sub(&u.CacheRead, prov.CacheRead)
	sub(&u.CacheWrite, prov.CacheWrite)
	sub(&u.CacheWrite1h, prov.CacheWrite1h)
	sub(&u.Output, prov.Output)
	sub(&u.Reasoning, prov.Reasoning)
}

// runUsage emits the usage of a live result line: per model, the growth
// since the previous result of the session, less the provisional usage
// of its calls already emitted (liveCall), so that the events of the run
// add up to the result's figures.
func (p *parser) runUsage(c *ctx) {
	r := &c.d.rec
	models := make([]string, 0, len(r.ModelUsage))
	for m := range r.ModelUsage {
		models = append(models, m)
	}
	sort.Strings(models)
	pend := p.pending[c.session]
	delete(p.pending, c.session)
	prev := p.results[c.session]
	if prev == nil {
		prev = map[string]*agt.Usage{}
		p.results[strings.Clone(c.session)] = prev
	}
	for _, m := range models {
		mu := r.ModelUsage[m]
		now := &agt.Usage{Input: int64(mu.Input), CacheRead: int64(mu.CacheRead), CacheWrite: int64(mu.CacheWrite), CacheWrite1h: int64(mu.CacheWrite1h), Output: int64(mu.Output), Reasoning: int64(mu.Thinking), NativeCostUSD: mu.CostUSD}
		u := diff(now, prev[m])
		prev[strings.Clone(m)] = now
		settle(u, pend[m])
		delete(pend, m)
		u.Scope = agt.ScopeRun
		u.ContextWindow = int64(mu.Context)
		u.Sum()
		c.emit(agt.Event{Kind: agt.KindUsage, Model: m, Usage: u}, "usage:"+m)
	}
	if len(models) == 0 && r.Usage != nil {
		// no per-model figures (early 2.x): the result's own usage
		u := &agt.Usage{Scope: agt.ScopeRun, Input: int64(r.Usage.Input), CacheRead: int64(r.Usage.CacheRead), CacheWrite: int64(r.Usage.CacheWrite), Output: int64(r.Usage.Output), NativeCostUSD: r.TotalCost}
		for _, m := range slices.Sorted(maps.Keys(pend)) {
			settle(u, pend[m])
		}
		u.Sum()
		c.emit(agt.Event{Kind: agt.KindUsage, Model: p.model, Usage: u}, "usage")
	}
}

// diff is now minus prev (prev may be nil), costs included.
func diff(now, prev *agt.Usage) *agt.Usage {
	u := *now
	if prev == nil {
		return &u
	}
	u.Input -= prev.Input
	u.CacheRead -= prev.CacheRead
	u.CacheWrite -= prev.CacheWrite
	u.CacheWrite1h -= prev.CacheWrite1h
	u.Output -= prev.Output
	u.Reasoning -= prev.Reasoning
	if now.NativeCostUSD != nil && prev.NativeCostUSD != nil {
		v := *now.NativeCostUSD - *prev.NativeCostUSD
		u.NativeCostUSD = &v
	}
	return &u
}

// exitCode reads "Exit code N" at the start of a tool result's text.
func exitCode(out agt.Raw) *int {
	const p = `"Exit code `
	if !strings.HasPrefix(string(out), p) {
		return nil
	}
	s := string(out[len(p):])
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || (i == 0 && s[i] == '-')) {
		i++
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil {
		return nil
	}
	return &n
}
