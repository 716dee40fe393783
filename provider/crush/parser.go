package crush

import (
	"strconv"
	"time"

	"github.com/agt-project/agt"
)

// rec is one row line.
type rec struct {
	Crush string `json:"crush"`
	Row   row    `json:"row"`
}

// row holds the columns agt reads, of any table.
type row struct {
	ID               string    `json:"id"`
	SessionID        string    `json:"session_id"`
	ParentSessionID  *string   `json:"parent_session_id"`
	Title            string    `json:"title"`
	MessageCount     int64     `json:"message_count"`
	PromptTokens     agt.Count `json:"prompt_tokens"`
	CompletionTokens agt.Count `json:"completion_tokens"`
	Cost             *float64  `json:"cost"`
	SummaryMessageID *string   `json:"summary_message_id"`
	Role             string    `json:"role"`
	Parts            string    `json:"parts"`
	Model            *string   `json:"model"`
	Provider         *string   `json:"provider"`
	IsSummary        int64     `json:"is_summary_message"`
	Path             string    `json:"path"`
	Version          int64     `json:"version"`
	CreatedAt        int64     `json:"created_at"`
	ReadAt           int64     `json:"read_at"`
	FinishedAt       *int64    `json:"finished_at"`
}

// part is one element of a message's parts.
type part struct {
	Type string  `json:"type"`
	Data agt.Raw `json:"data"`
}

type partData struct {
	Text       *string `json:"text"`
	Thinking   *string `json:"thinking"`
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Input      *string `json:"input"`
	ToolCallID string  `json:"tool_call_id"`
	Content    agt.Raw `json:"content"`
	IsError    bool    `json:"is_error"`
	Reason     string  `json:"reason"`
	Time       int64   `json:"time"`
	Message    string  `json:"message"`
	Details    string  `json:"details"`
	Command    string  `json:"command"`
	Output     *string `json:"output"`
	ExitCode   *int    `json:"exit_code"`
}

// parser reads the rows of one database.
type parser struct {
	calls map[string]string // tool call id → event id, current session
}

// Decode reads one row line.
func (p *parser) Decode(b []byte) (any, error) {
	r := &rec{}
	if err := agt.Decode(b, r); err != nil {
		return nil, err
	}
	return r, nil
}

// tableOf names the table of each row kind, for src pointers.
var tableOf = map[string]string{"session": "sessions", "message": "messages", "file": "files", "read_file": "read_files"}

// Apply emits the events of one row.
func (p *parser) Apply(em *agt.Emitter, v any) {
	r, ok := v.(*rec)
	if !ok {
		return
	}
	t := tableOf[r.Crush]
	if t == "" {
		em.Unknown("", "", r.Crush)
		return
	}
	id := r.Row.ID
	sid := r.Row.SessionID
	if r.Crush == "session" {
		sid = id
	}
	if r.Crush == "read_file" {
		id = r.Row.Path
	}
	em.SetSrc(agt.Src{Path: em.Src().Path, Ptr: "/" + t + "/" + escape(id)}, em.Line())
	if sid != "" && sid != em.Current() {
		em.Session(sid)
		p.calls = map[string]string{}
	}
	switch r.Crush {
	case "session":
		p.session(em, &r.Row)
	case "message":
		p.message(em, &r.Row)
	case "file":
		em.Emit(agt.Event{TS: ts(r.Row.CreatedAt), Kind: agt.KindMeta,
			Meta: &agt.Meta{Type: "file", Data: agt.Marshal(map[string]any{"path": r.Row.Path, "version": r.Row.Version})}}, id, "file")
	case "read_file":
		em.Emit(agt.Event{TS: ts(r.Row.ReadAt), Kind: agt.KindMeta,
			Meta: &agt.Meta{Type: "read_file", Data: agt.Marshal(map[string]any{"path": r.Row.Path})}}, "read:"+id, "read")
	}
}

// escape makes an id one JSON pointer token.
func escape(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			out = append(out, '~', '0')
		case '/':
			out = append(out, '~', '1')
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}

// Finish has nothing held back.
func (p *parser) Finish(*agt.Emitter) {}

// ts reads a Crush time: Unix seconds (milliseconds past 10^12).
func ts(v int64) string {
	switch {
	case v <= 0:
		return ""
	case v > 1e12:
		return agt.FormatTime(time.UnixMilli(v))
	}
	return agt.FormatTime(time.Unix(v, 0))
}

func (p *parser) session(em *agt.Emitter, r *row) {
	m := &agt.Meta{Type: "session", Title: r.Title,
		Data: agt.Marshal(map[string]any{
			"message_count": r.MessageCount, "prompt_tokens": r.PromptTokens,
			"completion_tokens": r.CompletionTokens, "cost": r.Cost, "summary_message_id": r.SummaryMessageID,
		})}
	if r.ParentSessionID != nil {
		m.ParentSession = *r.ParentSessionID
	}
	em.Emit(agt.Event{TS: ts(r.CreatedAt), Kind: agt.KindMeta, Meta: m}, r.ID, "session")
	if r.Cost != nil && *r.Cost > 0 {
		c := *r.Cost
		em.Emit(agt.Event{TS: ts(r.CreatedAt), Kind: agt.KindUsage,
			Usage: &agt.Usage{Scope: agt.ScopeRun, NativeCostUSD: &c}}, r.ID, "usage")
	}
}

// roleKinds maps a message's role to the kind of its text parts.
var roleKinds = map[string]string{"user": agt.KindUser, "assistant": agt.KindAssistant, "tool": agt.KindToolResult}

func (p *parser) message(em *agt.Emitter, r *row) {
	kind := roleKinds[r.Role]
	var parts []part
	if kind == "" || agt.API.UnmarshalFromString(r.Parts, &parts) != nil {
		em.Unknown("", "", "message")
		return
	}
	base := agt.Event{TS: ts(r.CreatedAt)}
	if r.Role == "assistant" {
		if r.Model != nil {
			base.Model = *r.Model
		}
		base.MessageID = r.ID
	}
	n := em.Count()
	for i, pt := range parts {
		suffix := "p" + strconv.Itoa(i)
		var d partData
		if len(pt.Data) > 0 && pt.Data[0] == '{' {
			em.Field("data", pt.Data, &d)
		}
		ev := base
		switch {
		case pt.Type == "text" && d.Text != nil && kind != agt.KindToolResult:
			ev.Kind, ev.Text = kind, agt.String(*d.Text)
			if r.IsSummary != 0 {
				ev.Kind = agt.KindSummary
			}
		case pt.Type == "reasoning" && d.Thinking != nil:
			ev.Kind, ev.Text = agt.KindReasoning, agt.String(*d.Thinking)
		case pt.Type == "tool_call":
			var in agt.Raw
			if d.Input != nil {
				in = agt.String(*d.Input)
			}
			in = agt.ToolArgs(in)
			ev.Kind = agt.KindToolCall
			ev.Tool = &agt.Tool{ID: d.ID, Name: d.Name, NativeName: d.Name, Input: in, NativeInput: in}
			p.calls[d.ID] = em.Emit(ev, r.ID, suffix)
			continue
		case pt.Type == "tool_result":
			ev.Kind = agt.KindToolResult
			ev.Result = &agt.Result{ID: d.ToolCallID, Call: p.calls[d.ToolCallID], Output: d.Content, IsError: d.IsError}
		case pt.Type == "finish":
			ev.Kind = agt.KindMeta
			ev.Meta = &agt.Meta{Type: "finish", Subtype: d.Reason}
			if failed[d.Reason] {
				ev.Kind, ev.Meta.Type = agt.KindSystem, "finish"
				text := d.Message
				if d.Details != "" {
					text += ": " + d.Details
				}
				ev.Text = agt.String(text)
			}
		case pt.Type == "shell_command":
			// a command the user ran: a call and its result
			id := r.ID + "#" + suffix
			in := agt.Marshal(map[string]string{"command": d.Command})
			ev.Kind = agt.KindToolCall
			ev.Tool = &agt.Tool{ID: id, Name: "shell_command", NativeName: "shell_command", Input: in, NativeInput: in}
			call := em.Emit(ev, r.ID, suffix)
			out := ""
			if d.Output != nil {
				out = *d.Output
			}
			res := base
			res.Kind, res.Model, res.MessageID = agt.KindToolResult, "", ""
			res.Result = &agt.Result{ID: id, Call: call, Output: agt.String(out), IsError: d.ExitCode != nil && *d.ExitCode != 0, ExitCode: d.ExitCode}
			em.Emit(res, r.ID, suffix+"r")
			continue
		case pt.Type == "image_url" || pt.Type == "binary":
			ev.Kind = agt.KindMeta
			ev.Meta = &agt.Meta{Type: pt.Type}
		default:
			ev.Kind = agt.KindUnknown
			ev.Meta = &agt.Meta{Type: "part", Subtype: pt.Type}
		}
		em.Emit(ev, r.ID, suffix)
	}
	if em.Count() == n {
		ev := base
		ev.Kind = agt.KindMeta
		ev.Meta = &agt.Meta{Type: "message", Subtype: r.Role}
		em.Emit(ev, r.ID, "meta")
	}
}

// failed are the finish reasons of a call that did not end well.
var failed = map[string]bool{"error": true, "canceled": true, "permission_denied": true, "content_filter": true}
