package pi

import (
	"strings"

	"github.com/agt-project/agt"
)

// sessionEntries maps the entry types of a session file to their handlers.
var sessionEntries = map[string]handler{
	"session":               header,
	"message":               messageEntry,
	"custom_message":        messageEntry, // its message is built from the entry
	"compaction":            compaction,
	"branch_summary":        branchSummary,
	"model_change":          modelChange,
	"thinking_level_change": simpleMeta(func(r *record) agt.Raw { return obj("thinkingLevel", r.ThinkingLevel) }),
	"custom":                custom,
	"label":                 simpleMeta(func(r *record) agt.Raw { return obj("targetId", r.TargetID, "label", r.Label) }),
	"session_info":          sessionInfo,
}

// key is the native key of an entry: its id (v2+), or "" (v1 entries have
// none) to key by line.
func (r *record) key() string {
	if r.Type == "session" {
		return ""
	}
	return r.ID.Str()
}

// header is the first line of a session file (and of pi --mode json): the
// session id, cwd, format version; v1 also names provider, model and
// thinking level, and branchedFrom where v3 says parentSession.
func header(p *parser, em *agt.Emitter, r *record) {
	parent := r.ParentSession
	if parent == "" {
		parent = r.BranchedFrom
	}
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: timeOf(r.Timestamp), Model: r.ModelID,
		Meta: &agt.Meta{Type: "session", Cwd: r.Cwd, ParentSession: parent,
			Data: obj("version", r.Version, "provider", r.Provider, "modelId", r.ModelID, "thinkingLevel", r.ThinkingLevel)}},
		r.ID.Str(), "session")
}

func messageEntry(p *parser, em *agt.Emitter, r *record) {
	if r.msg == nil {
		em.Errorf("%s entry without a message", r.Type)
		return
	}
	ts := timeOf(r.Timestamp)
	if ts == "" {
		ts = timeOf(r.msg.Timestamp)
	}
	p.message(em, r.msg, at{r.key(), ts})
}

// compaction keeps the summary that replaced the context before
// firstKeptEntryId (v1: firstKeptEntryIndex). Its usage, when logged, is
// the summarising call's and is kept in the meta data only.
func compaction(p *parser, em *agt.Emitter, r *record) {
	em.Emit(agt.Event{Kind: agt.KindSummary, TS: timeOf(r.Timestamp), Text: r.Summary,
		Meta: &agt.Meta{Type: "compaction", Data: obj("firstKeptEntryId", r.FirstKeptEntryID, "firstKeptEntryIndex", r.FirstKeptEntryIndex,
			"tokensBefore", r.TokensBefore, "fromHook", r.FromHook, "details", r.Details, "usage", r.Usage)}},
		r.key(), "summary")
}

// branchSummary keeps the summary of a branch left with /tree.
func branchSummary(p *parser, em *agt.Emitter, r *record) {
	em.Emit(agt.Event{Kind: agt.KindSummary, TS: timeOf(r.Timestamp), Text: r.Summary,
		Meta: &agt.Meta{Type: "branch_summary", Data: obj("fromId", r.FromID, "fromHook", r.FromHook, "details", r.Details)}},
		r.key(), "summary")
}

func modelChange(p *parser, em *agt.Emitter, r *record) {
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: timeOf(r.Timestamp), Model: r.ModelID,
		Meta: &agt.Meta{Type: r.Type, Data: obj("provider", r.Provider, "modelId", r.ModelID)}}, r.key(), "meta")
}

// custom is extension state, outside the model's context.
func custom(p *parser, em *agt.Emitter, r *record) {
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: timeOf(r.Timestamp),
		Meta: &agt.Meta{Type: r.Type, Subtype: r.CustomType, Data: r.Data}}, r.key(), "meta")
}

func sessionInfo(p *parser, em *agt.Emitter, r *record) {
	em.Emit(agt.Event{Kind: agt.KindMeta, TS: timeOf(r.Timestamp),
		Meta: &agt.Meta{Type: r.Type, Title: r.Name}}, r.key(), "meta")
}

// simpleMeta is the handler of a record that becomes one meta event of its
// type with the data that data picks.
func simpleMeta(data func(r *record) agt.Raw) handler {
	return func(p *parser, em *agt.Emitter, r *record) {
		var d agt.Raw
		if data != nil {
			d = data(r)
		}
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: timeOf(r.Timestamp),
			Meta: &agt.Meta{Type: r.Type, Data: d}}, r.key(), "meta")
	}
}

// branch marks a branch point of the entry tree: an entry (v2+) whose
// parent is not the entry before it in the file continues an earlier
// entry (/tree, /branch) or starts a new root. A meta event "branch" comes
// before the entry's own events: data {parentId, previousId}.
func (p *parser) branch(em *agt.Emitter, r *record) {
	id := r.key()
	if id == "" {
		return
	}
	parent := r.ParentID.Str() // "" for a root (parentId null)
	if p.last != "" && parent != p.last {
		em.Emit(agt.Event{Kind: agt.KindMeta, TS: timeOf(r.Timestamp),
			Meta: &agt.Meta{Type: "branch", Data: obj("parentId", parent, "previousId", p.last)}}, id, "branch")
	}
	p.last = strings.Clone(id) // kept beyond the record
}
