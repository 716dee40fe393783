package crush

import (
	"database/sql"
	"errors"
	"io"

	"github.com/agt-project/agt"

	"github.com/agt-project/agt/provider/internal/sqlitero"
)

// errForeign is the error of a SQLite database that is not Crush's.
var errForeign = errors.New("not a Crush database (no sessions table, no messages table with parts)")

// store is Crush's database, with its sessions and messages.
var store = sqlitero.Store{
	Probe: `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND
		(name = 'sessions' OR (name = 'messages' AND sql LIKE '%parts%'))`,
	Want:    2,
	Foreign: errForeign,
	Write:   func(db *sqlitero.DB, w io.Writer) error { return writeRows(db.DB, w) },
}

// tables are the tables read after each session, with their order.
var tables = []struct {
	kind, query string
}{
	{"message", `SELECT * FROM messages WHERE session_id = ? ORDER BY created_at, rowid`},
	{"file", `SELECT * FROM files WHERE session_id = ? ORDER BY created_at, rowid`},
	{"read_file", `SELECT * FROM read_files WHERE session_id = ? ORDER BY read_at, rowid`},
}

func writeRows(db *sql.DB, w io.Writer) error {
	have := map[string]bool{}
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var n string
		if rows.Scan(&n) == nil {
			have[n] = true
		}
	}
	rows.Close()
	// the sessions first (few, small), then each with its rows
	var sessions []map[string]any
	if err := sqlitero.Each(db, `SELECT * FROM sessions ORDER BY created_at, rowid`, nil, func(r map[string]any) error {
		sessions = append(sessions, r)
		return nil
	}); err != nil {
		return err
	}
	write := func(kind string, r map[string]any) error {
		_, err := w.Write(append(agt.Marshal(line{Crush: kind, Row: r}), '\n'))
		return err
	}
	table := map[string]string{"message": "messages", "file": "files", "read_file": "read_files"}
	for _, s := range sessions {
		if err := write("session", s); err != nil {
			return err
		}
		for _, t := range tables {
			if !have[table[t.kind]] {
				continue
			}
			if err := sqlitero.Each(db, t.query, []any{s["id"]}, func(r map[string]any) error { return write(t.kind, r) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// line is one row as the parser reads it.
type line struct {
	Crush string         `json:"crush"`
	Row   map[string]any `json:"row"`
}
