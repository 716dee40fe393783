package codex

import (
	"bytes"
	"strconv"

	"github.com/agt-project/agt"
)

// legacyParser reads the early Rust rollouts (codex-rollout-legacy): a bare
// header line, {"record_type":"state"} markers and bare ResponseItems.
type legacyParser struct {
	*conv
	started bool
	usage   bool // for a usage report (agt.Options.Usage): see Decode
	// env reads the lines a later Codex appended in the envelope of
	// current rollouts (a legacy session resumed)
	env *rolloutParser
}

func (p *legacyParser) Decode(rec []byte) (any, error) {
	if bytes.HasPrefix(rec, envelopeStart) {
		// a line in the envelope of current rollouts (Codex writes the
		// timestamp first; a legacy line never opens with it): a later
		// version wrote on in its own format
		return p.env.Decode(rec)
	}
	if p.usage {
		if skimmed, err := skimLegacy(rec); skimmed {
			return nil, err
		}
	}
	var it item
	err := agt.DecodeExact(rec, &it)
	if err != nil {
		if !agt.IsFieldError(err) {
			return nil, err
		}
	}
	if e := it.prepare(rec, ""); err == nil {
		err = e
	}
	it.legacyText()
	return &it, err
}

func (p *legacyParser) Apply(em *agt.Emitter, v any) {
	switch v.(type) {
	case *rolloutLine, *skimLine:
		// from here on the items have their event_msg twins
		p.legacy = false
		p.env.Apply(em, v)
		return
	}
	it := v.(*item)
	switch {
	case it.RecordType != "":
		p.meta(em, &agt.Meta{Type: "record_type", Subtype: it.RecordType})
	case it.Type == "" && it.ID != "" && !p.started:
		p.started = true
		p.header(em, it, "header")
	default:
		p.item(em, it)
	}
}

func (p *legacyParser) Finish(em *agt.Emitter) {
	if !p.legacy {
		p.env.Finish(em)
		return
	}
	p.finish(em)
}

// skimLegacy reads a legacy line for a usage report (see skim): legacy
// rollouts hold no token counts, times or folders past their header, so
// a line that is a ResponseItem of a type the tables know or a
// record_type marker is read for its types only, which checks it as
// agt.Check does, and gives no event. skimmed is false for a line that
// must be decoded whole: the header (no type), an unknown type, or a type
// member of the wrong JSON type.
func skimLegacy(rec []byte) (skimmed bool, err error) {
	var v struct {
		Type       string `json:"type"`
		RecordType string `json:"record_type"`
	}
	switch err := agt.DecodeExact(rec, &v); {
	case err != nil && !agt.IsFieldError(err):
		return true, err // not JSON: agt.Check's error
	case err != nil:
		return false, nil
	}
	return v.RecordType != "" || responseItems[v.Type] != nil, nil
}

// envelopeStart opens every line of a current rollout.
var envelopeStart = []byte(`{"timestamp":`)

// newLegacy returns the parser of a legacy rollout, whose env reads the
// lines in the current envelope with the legacy lines' state (session,
// calls, token counter).
func newLegacy(usage bool) *legacyParser {
	c := newConv(true)
	return &legacyParser{conv: c, usage: usage, env: &rolloutParser{conv: c, usage: usage}}
}

// header starts the session of a legacy rollout.
func (c *conv) header(em *agt.Emitter, it *item, what string) {
	c.ts = normTS(it.Timestamp)
	em.Session(it.ID)
	c.stream = agt.StreamMain
	m := &agt.Meta{Type: what}
	if it.Git != nil {
		m.GitBranch = it.Git.Branch
	}
	c.meta(em, m)
	c.ts = "" // the records that follow have no timestamp
}

// item handles a bare ResponseItem.
func (c *conv) item(em *agt.Emitter, it *item) {
	h := responseItems[it.Type]
	if h == nil {
		em.Unknown("", c.stream, "response_item/"+it.Type)
		return
	}
	h(c, em, it)
}

// docParser reads the TypeScript-era rollout document (codex-legacy-json):
// {session:{timestamp,id,instructions}, items:[ResponseItem…]}.
type docParser struct {
	*conv
}

type legacyDoc struct {
	session    *item
	sessionRaw agt.Raw
	items      []item
	raws       []agt.Raw
	errs       []error
}

func (p *docParser) Decode(rec []byte) (any, error) {
	var d struct {
		Session agt.Raw   `json:"session"`
		Items   []agt.Raw `json:"items"`
	}
	err := agt.DecodeExact(rec, &d)
	if err != nil {
		if !agt.IsFieldError(err) {
			return nil, err
		}
	}
	doc := &legacyDoc{}
	if !d.Session.IsNull() {
		doc.sessionRaw = agt.Compact(d.Session)
		doc.session = &item{}
		if e := agt.DecodeValue("session", doc.sessionRaw, doc.session); err == nil {
			err = e
		}
	}
	doc.items = make([]item, len(d.Items))
	doc.raws = make([]agt.Raw, len(d.Items))
	doc.errs = make([]error, len(d.Items))
	for i, r := range d.Items {
		doc.raws[i] = agt.Compact(r)
		doc.errs[i] = agt.DecodeExact(doc.raws[i], &doc.items[i])
		if e := doc.items[i].prepare(doc.raws[i], ""); doc.errs[i] == nil {
			doc.errs[i] = e
		}
		doc.items[i].legacyText()
	}
	return doc, err
}

func (p *docParser) Apply(em *agt.Emitter, v any) {
	doc := v.(*legacyDoc)
	base := em.Src()
	at := func(ptr string, raw agt.Raw) {
		em.SetSrc(agt.Src{Path: base.Path, Line: base.Line, Ptr: ptr}, raw)
	}
	if doc.session != nil {
		at("/session", doc.sessionRaw)
		p.header(em, doc.session, "session")
	}
	for i := range doc.items {
		at("/items/"+strconv.Itoa(i), doc.raws[i])
		if err := doc.errs[i]; err != nil {
			em.Errorf("%v", err)
			if !agt.IsFieldError(err) {
				continue
			}
		}
		p.item(em, &doc.items[i])
	}
	if doc.session == nil && len(doc.items) == 0 {
		at("", em.Line())
		p.meta(em, &agt.Meta{Type: "document"})
	}
}

func (p *docParser) Finish(em *agt.Emitter) { p.finish(em) }
