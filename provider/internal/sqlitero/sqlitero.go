// Package sqlitero opens the SQLite databases agents write (OpenCode's
// opencode.db, Crush's crush.db) for reading, without ever writing beside
// them.
//
// SQLite writes next to a database it opens, even read-only, when the
// database is in WAL mode: it creates or updates the -shm index and may
// create an empty -wal. A user's folder is not agt's to write, so:
//
//   - a database with no -wal file beside it, or an empty one, is opened
//     immutable: SQLite reads the main file alone and creates nothing;
//   - a database whose -wal holds frames (changes committed but not yet
//     checkpointed into the main file, as while the agent runs) is copied
//     with its WAL into a private temporary folder, and the copy is read;
//     Close removes the folder. Detection opens it the same way (its tables
//     may be in the WAL), so such a database is copied twice;
//   - a database in rollback-journal mode with its journal beside it (the
//     agent is in a transaction) is copied with the journal, which SQLite
//     rolls back into the copy: the database as it was before the
//     transaction (openRolledBack).
package sqlitero

import (
	"database/sql"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // pure-Go SQLite
)

// DB is a database opened for reading.
type DB struct {
	*sql.DB
	tmp string // the private copy's folder, if any
}

// Close closes the database and removes its private copy.
func (d *DB) Close() error {
	err := d.DB.Close()
	if d.tmp != "" {
		if rerr := os.RemoveAll(d.tmp); err == nil {
			err = rerr
		}
	}
	return err
}

// Open opens the database at path for reading, its WAL included.
func Open(path string) (*DB, error) {
	if st, err := os.Stat(path + "-journal"); err == nil && st.Size() > 0 {
		return openRolledBack(path)
	}
	if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
		return openMain(path)
	}
	tmp, err := os.MkdirTemp("", "agt-sqlite-")
	if err != nil {
		return nil, err
	}
	copyPath := filepath.Join(tmp, "db")
	for _, suffix := range []string{"", "-wal"} {
		if err := copyFile(path+suffix, copyPath+suffix); err != nil {
			os.RemoveAll(tmp)
			return nil, err
		}
	}
	db, err := open(copyPath, "mode=ro")
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	return &DB{DB: db, tmp: tmp}, nil
}

// openRolledBack opens a database in rollback-journal mode whose journal
// is there (its writer is in a transaction: pages of the main file may
// already hold changes not committed, the journal their old content). The
// journal, then the main file, are copied into a private folder, and the
// copy is opened for writing, so that SQLite rolls the hot journal back
// into it: the database as it was before the transaction, whole. A
// transaction that ends between the two copies leaves its old pages in
// the journal copy: rolled back too, to the state before it.
func openRolledBack(path string) (*DB, error) {
	tmp, err := os.MkdirTemp("", "agt-sqlite-")
	if err != nil {
		return nil, err
	}
	copyPath := filepath.Join(tmp, "db")
	for _, suffix := range []string{"-journal", ""} {
		if err := copyFile(path+suffix, copyPath+suffix); err != nil {
			os.RemoveAll(tmp)
			return nil, err
		}
	}
	db, err := open(copyPath, "")
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	return &DB{DB: db, tmp: tmp}, nil
}

// openMain opens the main file of the database at path alone (immutable).
func openMain(path string) (*DB, error) {
	db, err := open(path, "mode=ro&immutable=1")
	if err != nil {
		return nil, err
	}
	return &DB{DB: db}, nil
}

func open(path, query string) (*sql.DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: query}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return db, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// OpenIf opens the database at path (Open) and keeps it when count, a
// query of one number (how many of the agent's tables sqlite_master holds),
// gives at least want; else it is closed and the error wraps foreign. The
// tables are looked for with the WAL too: a database the agent has not
// checkpointed yet may hold even its schema there only.
func OpenIf(path string, count string, want int, foreign error) (*DB, error) {
	db, err := Open(path)
	if err != nil {
		return nil, err
	}
	var n int
	if err := db.QueryRow(count).Scan(&n); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if n < want {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, foreign)
	}
	return db, nil
}

// Each runs the query q and calls fn with each row, its columns by name
// (text and blob columns as strings); an error from fn ends the walk and is
// returned.
func Each(db *sql.DB, q string, args []any, fn func(map[string]any) error) error {
	rows, err := db.Query(q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		r := make(map[string]any, len(cols))
		for i, c := range cols {
			if b, ok := vals[i].([]byte); ok {
				vals[i] = string(b)
			}
			r[c] = vals[i]
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Magic opens every SQLite database file.
const Magic = "SQLite format 3\x00"

// Store is an agent's database: Probe counts the tables that mark it
// (OpenIf's query: Want of them, else Foreign), Write writes its rows as
// the lines its parser reads.
type Store struct {
	Probe   string
	Want    int
	Foreign error
	Write   func(*DB, io.Writer) error
}

// Open opens the database at path if it is the store's.
func (s Store) Open(path string) (*DB, error) { return OpenIf(path, s.Probe, s.Want, s.Foreign) }

// Holds tells whether path is a regular file holding a SQLite database
// with the store's tables. Only regular files are looked into: reading
// the head of a pipe would take it from its reader.
func (s Store) Holds(path string) bool {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	head := make([]byte, len(Magic))
	n, _ := io.ReadFull(f, head)
	f.Close()
	if string(head[:n]) != Magic {
		return false
	}
	db, err := s.Open(path)
	if err != nil {
		return false
	}
	db.Close()
	return true
}

// Rows opens the database at path and returns what Write writes of it,
// written on a goroutine of its own; a read error ends the stream after
// what was written.
func (s Store) Rows(path string) (io.ReadCloser, error) {
	db, err := s.Open(path)
	if err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	go func() {
		err := s.Write(db, pw)
		db.Close()
		pw.CloseWithError(err)
	}()
	return pr, nil
}
