package goose

import (
	"errors"
	"io"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/sqlitero"
)

// errForeign is the error of a SQLite database that is not Goose's.
var errForeign = errors.New("not a Goose database (no sessions table with working_dir, no messages table with content_json)")

// isGooseDB tells whether path is a regular file holding a SQLite database
// with Goose's tables.
func isGooseDB(path string) bool { return sqlitero.Holds(path, openDB) }

// openDB opens the database at path if it has Goose's tables.
func openDB(path string) (*sqlitero.DB, error) {
	return sqlitero.OpenIf(path, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND
		((name = 'sessions' AND sql LIKE '%working_dir%') OR (name = 'messages' AND sql LIKE '%content_json%'))`, 2, errForeign)
}

// openRows streams the rows of the database at path as JSON lines.
func openRows(path string) (io.ReadCloser, error) { return sqlitero.Stream(path, openDB, writeRows) }

// line is one row as the parser reads it.
type line struct {
	Goose string         `json:"goose"`
	Row   map[string]any `json:"row"`
}

// writeRows writes the sessions (in order of creation), each followed by
// its messages (in the order they were written).
func writeRows(db *sqlitero.DB, w io.Writer) error {
	var sessions []map[string]any
	if err := sqlitero.Each(db.DB, `SELECT * FROM sessions ORDER BY created_at, rowid`, nil, func(r map[string]any) error {
		sessions = append(sessions, r)
		return nil
	}); err != nil {
		return err
	}
	write := func(kind string, r map[string]any) error {
		_, err := w.Write(append(agt.Marshal(line{Goose: kind, Row: r}), '\n'))
		return err
	}
	for _, s := range sessions {
		if err := write("session", s); err != nil {
			return err
		}
		if err := sqlitero.Each(db.DB, `SELECT * FROM messages WHERE session_id = ? ORDER BY id`, []any{s["id"]},
			func(r map[string]any) error { return write("message", r) }); err != nil {
			return err
		}
	}
	return nil
}
