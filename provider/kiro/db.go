package kiro

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/sqlitero"
)

// The legacy chat's database, data.sqlite3 in the CLI's data folder
// (kiro-cli, earlier amazon-q, in the platform's local data folder): its
// conversations in conversations_v2(key the working folder,
// conversation_id, value the ConversationState as JSON text, created_at,
// updated_at in Unix milliseconds), earlier one a folder in
// conversations(key, value), which the CLI copied into conversations_v2
// when it made it. Claim makes such a database one input (format kiro-db):
// a line per conversation, {"kiro":"conversation","table":…,"key":…,
// "conversation_id":…,"created_at":…,"updated_at":…,"value":{…}}, from
// conversations_v2 where it is, else from conversations; each is read as
// a document (conversation.go), its events pointing at
// /<table>/<conversation_id>/history/N.

// errForeign is the error of a SQLite database that is not the CLI's.
var errForeign = errors.New("not a Kiro CLI database (no conversations table)")

// store is the CLI's database, with its conversations.
var store = sqlitero.Store{
	Probe: `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND
		((name = 'conversations_v2' AND sql LIKE '%conversation_id%') OR (name = 'conversations' AND sql LIKE '%value%'))`,
	Want:    1,
	Foreign: errForeign,
	Write:   writeRows,
}

// convRow is one conversation line of a database.
type convRow struct {
	Kiro    string  `json:"kiro"`
	Table   string  `json:"table"`
	Key     string  `json:"key"`
	ID      string  `json:"conversation_id,omitempty"`
	Created int64   `json:"created_at,omitempty"`
	Updated int64   `json:"updated_at,omitempty"`
	Value   agt.Raw `json:"value"`

	err error // what keeps its conversation from being read (see Apply)
}

// writeRows writes a line per conversation, the latest updated last.
func writeRows(db *sqlitero.DB, w io.Writer) error {
	table, q := "conversations_v2", `SELECT key, conversation_id, value, created_at, updated_at FROM conversations_v2 ORDER BY updated_at, created_at, conversation_id`
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'conversations_v2'`).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		table, q = "conversations", `SELECT key, value FROM conversations ORDER BY key`
	}
	return sqlitero.Each(db.DB, q, nil, func(r map[string]any) error {
		row := convRow{Kiro: "conversation", Table: table}
		row.Key, _ = r["key"].(string)
		row.ID, _ = r["conversation_id"].(string)
		row.Created, _ = r["created_at"].(int64)
		row.Updated, _ = r["updated_at"].(int64)
		v, _ := r["value"].(string)
		row.Value = agt.Raw(v)
		if agt.Valid(row.Value) {
			row.Value = agt.Compact(row.Value) // one line, whatever the CLI wrote
		} else {
			row.Value = agt.Marshal(v) // kept as text: the parser reports it
		}
		_, err := w.Write(append(agt.Marshal(row), '\n'))
		return err
	})
}

// dbParser reads the conversation lines of a database.
type dbParser struct{ conv convParser }

// Decode reads a line and the conversation it holds. What keeps the
// conversation from being read is kept on its row, for Apply to tell in
// the conversation's own session, not the one before it.
func (p *dbParser) Decode(line []byte) (any, error) {
	row := &convRow{}
	if err := agt.Decode(line, row); err != nil {
		return nil, err
	}
	if len(row.Value) == 0 || row.Value[0] != '{' {
		row.err = errors.New("conversation value is not a JSON object")
		return row, nil
	}
	v, err := p.conv.Decode(row.Value)
	row.err = err
	if v == nil {
		return row, nil
	}
	cv := v.(*convValue)
	cv.row = row
	if cv.c.ID == "" {
		cv.c.ID = row.ID
	}
	return cv, nil
}

// Apply emits a conversation's events, pointing into its row, after the
// error that kept part of it from being read.
func (p *dbParser) Apply(em *agt.Emitter, v any) {
	row, cv := rowOf(v)
	id := row.ID
	if cv != nil && cv.c.ID != "" {
		id = cv.c.ID
	}
	if id == "" {
		id = row.Key
	}
	em.SetSrc(agt.Src{Path: em.Src().Path, Ptr: "/" + row.Table + "/" + escape(id)}, em.Line())
	if id != "" {
		em.Session(id)
	} else if em.Current() == "" {
		em.Session(em.Fallback())
	}
	if row.err != nil {
		em.Errorf("%v", row.err)
	}
	if cv != nil {
		p.conv.Apply(em, cv)
	}
}

// rowOf is the row of a decoded line, and its conversation when it has one.
func rowOf(v any) (*convRow, *convValue) {
	if cv, ok := v.(*convValue); ok {
		return cv.row, cv
	}
	return v.(*convRow), nil
}

// Finish emits nothing.
func (*dbParser) Finish(*agt.Emitter) {}

// escape makes an id one JSON pointer token.
func escape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// sniffDB recognises the lines Claim makes of a database by their head
// (agt writes them, kiro first): a line holds a whole conversation, longer
// than what detection sees of it.
func sniffDB(line []byte) bool {
	return bytes.HasPrefix(line, []byte(`{"kiro":"conversation","table":"`))
}
