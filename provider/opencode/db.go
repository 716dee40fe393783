package opencode

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agt-project/agt"

	"github.com/agt-project/agt/provider/internal/sqlitero"
)

// OpenCode 1.2.0 and later keep their sessions in the SQLite database
// opencode.db (opencode-<channel>.db for other channels):
//
//	session(id, project_id, parent_id, slug, directory, title, version, …)  one column per Session.Info field
//	message(id, session_id, time_created, time_updated, data)               data = Message info without id, sessionID
//	part(id, message_id, session_id, time_created, time_updated, data)      data = Part without id, messageID, sessionID
//
// WalkDB rebuilds each session's export document from them: the session's
// info from its columns, each message's and part's object from data with its
// id columns put back (at the end, where `opencode export` writes them).

// DBMagic opens every SQLite database file.
const DBMagic = sqlitero.Magic

// IsDB reports whether head, the first bytes of a file, opens a SQLite
// database.
func IsDB(head []byte) bool { return bytes.HasPrefix(head, []byte(DBMagic)) }

// WalkDB reads every session of an OpenCode database, one at a time:
// sessions in order of creation, messages by time of creation and id,
// parts by id. An error from fn ends the walk and is returned.
func WalkDB(path string, fn func(Stored) error) error {
	db, err := openDB(path)
	if err != nil {
		return err
	}
	defer db.Close()
	sessions, err := readSessions(db.DB, path)
	if err != nil {
		return err
	}
	for _, s := range sessions {
		d := newDoc(s.id, path, fn)
		d.info(s.info, agt.Src{Path: path, Ptr: "/session/" + s.id}, nil)
		if err := readMessages(db.DB, path, s.id, d); err != nil {
			return err
		}
		if err := d.close(); err != nil {
			return err
		}
	}
	return nil
}

// errForeignDB is the error of a SQLite database that is not OpenCode's.
var errForeignDB = errors.New("not an OpenCode database (no session, message and part tables)")

// isOpenCodeDB tells whether the SQLite database at path has OpenCode's
// tables. One that cannot be opened counts as OpenCode's when it has
// OpenCode's name, so that the reason is reported when it is read.
func isOpenCodeDB(path string) bool {
	db, err := openDB(path)
	if err != nil {
		return !errors.Is(err, errForeignDB) && ownName(path)
	}
	db.Close()
	return true
}

// ownName tells a file named as OpenCode names its database
// (opencode.db, opencode-<channel>.db): one that cannot be opened is
// OpenCode's damaged database only then; a damaged SQLite file of another
// name is no agent's, left out of a folder walk as any foreign file.
func ownName(path string) bool {
	base := filepath.Base(path)
	return strings.HasPrefix(base, "opencode") && strings.HasSuffix(base, ".db")
}

// openDB opens the database at path if it has OpenCode's tables.
func openDB(path string) (*sqlitero.DB, error) {
	return sqlitero.OpenIf(path, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('session', 'message', 'part')`, 3, errForeignDB)
}

type dbSession struct {
	id   string
	info []byte
}

// dbInfo is Session.Info in the order of `opencode export`, built from the
// session table's columns.
type dbInfo struct {
	ID          string      `json:"id"`
	Slug        *string     `json:"slug,omitempty"`
	ProjectID   *string     `json:"projectID,omitempty"`
	WorkspaceID *string     `json:"workspaceID,omitempty"`
	Directory   *string     `json:"directory,omitempty"`
	Path        *string     `json:"path,omitempty"`
	ParentID    *string     `json:"parentID,omitempty"`
	Title       *string     `json:"title,omitempty"`
	Agent       *string     `json:"agent,omitempty"`
	Model       agt.Raw     `json:"model,omitempty"`
	Version     *string     `json:"version,omitempty"`
	Summary     *dbSummary  `json:"summary,omitempty"`
	Cost        *float64    `json:"cost,omitempty"`
	Tokens      *tokensInfo `json:"tokens,omitempty"`
	Share       *dbShare    `json:"share,omitempty"`
	Metadata    agt.Raw     `json:"metadata,omitempty"`
	Permission  agt.Raw     `json:"permission,omitempty"`
	Time        dbTime      `json:"time"`
	Revert      agt.Raw     `json:"revert,omitempty"`
}

type dbSummary struct {
	Additions int64   `json:"additions"`
	Deletions int64   `json:"deletions"`
	Files     int64   `json:"files"`
	Diffs     agt.Raw `json:"diffs,omitempty"`
}

type tokensInfo struct {
	Input     int64 `json:"input"`
	Output    int64 `json:"output"`
	Reasoning int64 `json:"reasoning"`
	Cache     struct {
		Read  int64 `json:"read"`
		Write int64 `json:"write"`
	} `json:"cache"`
}

type dbShare struct {
	URL string `json:"url"`
}

type dbTime struct {
	Created    int64  `json:"created"`
	Updated    int64  `json:"updated"`
	Compacting *int64 `json:"compacting,omitempty"`
	Archived   *int64 `json:"archived,omitempty"`
}

// row is one row read by column name; the session table's columns changed
// over releases, so it is read with SELECT *.
type row map[string]any

func (r row) str(col string) *string {
	switch v := r[col].(type) {
	case string:
		return &v
	case []byte:
		s := string(v)
		return &s
	}
	return nil
}

func (r row) int(col string) *int64 {
	switch v := r[col].(type) {
	case int64:
		return &v
	case float64:
		n := int64(v)
		return &n
	}
	return nil
}

func (r row) float(col string) *float64 {
	switch v := r[col].(type) {
	case float64:
		return &v
	case int64:
		f := float64(v)
		return &f
	}
	return nil
}

// json returns a column holding JSON text, compacted; nil when it is NULL or
// not JSON.
func (r row) json(col string) agt.Raw {
	s := r.str(col)
	if s == nil || !agt.Valid([]byte(*s)) {
		return nil
	}
	return agt.Compact([]byte(*s))
}

func (r row) has(col string) bool {
	_, ok := r[col]
	return ok
}

func readSessions(db *sql.DB, path string) ([]dbSession, error) {
	var out []dbSession
	err := sqlitero.Each(db, `SELECT * FROM session ORDER BY time_created, id`, nil, func(r map[string]any) error {
		out = append(out, sessionFromRow(r))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

func sessionFromRow(r row) dbSession {
	info := dbInfo{
		Slug: r.str("slug"), ProjectID: r.str("project_id"), WorkspaceID: r.str("workspace_id"),
		Directory: r.str("directory"), Path: r.str("path"), ParentID: r.str("parent_id"),
		Title: r.str("title"), Agent: r.str("agent"), Model: r.json("model"), Version: r.str("version"),
		Metadata: r.json("metadata"), Permission: r.json("permission"), Revert: r.json("revert"),
	}
	if id := r.str("id"); id != nil {
		info.ID = *id
	}
	if r.has("summary_additions") && r[("summary_additions")] != nil {
		s := &dbSummary{Diffs: r.json("summary_diffs")}
		for _, f := range []struct {
			col string
			to  *int64
		}{{"summary_additions", &s.Additions}, {"summary_deletions", &s.Deletions}, {"summary_files", &s.Files}} {
			if v := r.int(f.col); v != nil {
				*f.to = *v
			}
		}
		info.Summary = s
	}
	info.Cost = r.float("cost")
	if r.has("tokens_input") {
		t := &tokensInfo{}
		for _, f := range []struct {
			col string
			to  *int64
		}{
			{"tokens_input", &t.Input}, {"tokens_output", &t.Output}, {"tokens_reasoning", &t.Reasoning},
			{"tokens_cache_read", &t.Cache.Read}, {"tokens_cache_write", &t.Cache.Write},
		} {
			if v := r.int(f.col); v != nil {
				*f.to = *v
			}
		}
		info.Tokens = t
	}
	if u := r.str("share_url"); u != nil {
		info.Share = &dbShare{URL: *u}
	}
	if v := r.int("time_created"); v != nil {
		info.Time.Created = *v
	}
	if v := r.int("time_updated"); v != nil {
		info.Time.Updated = *v
	}
	info.Time.Compacting, info.Time.Archived = r.int("time_compacting"), r.int("time_archived")
	return dbSession{id: info.ID, info: agt.Marshal(info)}
}

// readMessages adds the messages of session id, each with its parts, to d,
// one message at a time: a session's parts are read message by message
// (the part table's index on message_id), so that no more than one
// message's rows are held at once, whatever the session's size.
func readMessages(db *sql.DB, path, id string, d *docBuilder) error {
	mrows, err := db.Query(`SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id`, id)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer mrows.Close()
	parts, err := db.Prepare(`SELECT id, data FROM part WHERE message_id = ? AND session_id = ? ORDER BY id`)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer parts.Close()
	for mrows.Next() {
		var mid, data string
		if err := mrows.Scan(&mid, &data); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := d.message(withIDs([]byte(data), "id", mid, "sessionID", id), agt.Src{Path: path, Ptr: "/message/" + mid}, nil); err != nil {
			return err
		}
		prows, err := parts.Query(mid, id)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for prows.Next() {
			var pid, data string
			if err := prows.Scan(&pid, &data); err != nil {
				prows.Close()
				return fmt.Errorf("%s: %w", path, err)
			}
			d.part(withIDs([]byte(data), "id", pid, "sessionID", id, "messageID", mid), agt.Src{Path: path, Ptr: "/part/" + pid}, nil)
		}
		prows.Close()
		if err := prows.Err(); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return mrows.Err()
}

// withIDs puts the id columns back into a data object (key, value pairs),
// after its other members; a key the object already has is left alone. Data
// that is not a JSON object is returned as it is. The record is checked and
// compacted once, as every record is, when the document takes it.
func withIDs(data []byte, kv ...string) []byte {
	data = bytes.TrimSpace(data)
	if len(data) < 2 || data[0] != '{' || data[len(data)-1] != '}' {
		return data
	}
	var ids struct {
		ID        *string `json:"id"`
		SessionID *string `json:"sessionID"`
		MessageID *string `json:"messageID"`
	}
	if agt.API.Unmarshal(data, &ids) != nil {
		return data
	}
	has := map[string]bool{"id": ids.ID != nil, "sessionID": ids.SessionID != nil, "messageID": ids.MessageID != nil}
	var b strings.Builder
	b.Write(data[:len(data)-1])
	empty := len(bytes.TrimSpace(data[1:len(data)-1])) == 0
	for i := 0; i+1 < len(kv); i += 2 {
		if has[kv[i]] {
			continue
		}
		if !empty {
			b.WriteByte(',')
		}
		empty = false
		b.Write(agt.Marshal(kv[i]))
		b.WriteByte(':')
		b.Write(agt.Marshal(kv[i+1]))
	}
	b.WriteByte('}')
	return []byte(b.String())
}
