package sqlitero

import (
	"crypto/sha256"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// snapshot is what a folder holds: each file's size, time and content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = fmt.Sprintf("%d %d %x", st.Size(), st.ModTime().UnixNano(), sha256.Sum256(b))
	}
	return out
}

func count(t *testing.T, db *DB) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM m`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestNothingWrittenBeside opens a WAL database while its writer holds
// rows in the WAL (not checkpointed), then after the writer closed it: the
// reader sees every row, and the folder is the same before and after.
func TestNothingWrittenBeside(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "agent.db")
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: "_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)"}
	w, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	w.SetMaxOpenConns(1)
	for _, q := range []string{`CREATE TABLE m (x)`, `INSERT INTO m VALUES (1), (2), (3)`} {
		if _, err := w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
		t.Fatalf("the writer left no WAL frames (%v): the test needs them", err)
	}

	before := snapshot(t, dir)
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, db); n != 3 {
		t.Errorf("%d rows read with the WAL, want 3", n)
	}
	tmp := db.tmp
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if tmp == "" {
		t.Error("a database with WAL frames was not read from a copy")
	} else if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("the copy's folder is left after Close (%v)", err)
	}
	if after := snapshot(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("reading with a WAL changed the folder:\n before %v\n after  %v", before, after)
	}

	if err := w.Close(); err != nil { // checkpoints and removes the WAL
		t.Fatal(err)
	}
	before = snapshot(t, dir)
	for range 2 {
		db, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := count(t, db); n != 3 {
			t.Errorf("%d rows read from the main file, want 3", n)
		}
		db.Close()
		if after := snapshot(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
			t.Errorf("reading without a WAL changed the folder:\n before %v\n after  %v", before, after)
		}
	}
}

// TestRollbackJournalWhileWriting reads a database in rollback-journal
// mode while its writer is in the middle of a transaction that has
// already written pages to the main file (its cache spilled; the hot
// journal holds their old content): the reader sees the database as it
// was before the transaction, whole, and writes nothing beside it.
func TestRollbackJournalWhileWriting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "agent.db")
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: "_pragma=journal_mode(DELETE)&_pragma=cache_size(2)"}
	w, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	if _, err := w.Exec(`CREATE TABLE m (x)`); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		if _, err := w.Exec(`INSERT INTO m VALUES (?)`, fmt.Sprintf("%0500d", i)); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := w.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`UPDATE m SET x = x || x`); err != nil { // more pages than the cache: spilled to the file
		t.Fatal(err)
	}
	if _, err := tx.Exec(`DELETE FROM m WHERE rowid > 100`); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path + "-journal"); err != nil || st.Size() == 0 {
		t.Fatalf("no hot journal beside the database (%v): the test needs one", err)
	}
	before := snapshot(t, dir)
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var n, long int
	if err := db.QueryRow(`SELECT count(*), sum(length(x) = 500) FROM m`).Scan(&n, &long); err != nil {
		t.Fatalf("reading while the writer's transaction is open: %v", err)
	}
	if n != 200 || long != 200 {
		t.Errorf("%d rows (%d as before the transaction), want 200 and 200", n, long)
	}
	db.Close()
	if after := snapshot(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("the folder changed:\nbefore %v\nafter  %v", before, after)
	}
}
