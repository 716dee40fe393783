package goose

import (
	"errors"
	"io"
	"math"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/internal/sqlitero"
)

// errForeign is the error of a SQLite database that is not Goose's.
var errForeign = errors.New("not a Goose database (no sessions table with working_dir, no messages table with content_json)")

// store is Goose's database, with its sessions and messages.
var store = sqlitero.Store{
	Probe: `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND
		((name = 'sessions' AND sql LIKE '%working_dir%') OR (name = 'messages' AND sql LIKE '%content_json%'))`,
	Want:    2,
	Foreign: errForeign,
	Write:   writeRows,
}

// line is one row as the parser reads it.
type line struct {
	Goose  string         `json:"goose"`
	Row    map[string]any `json:"row"`
	Ledger map[string]any `json:"ledger,omitempty"` // a session's: the sums of its ledger rows
}

// writeRows writes the sessions (in order of creation), each followed by
// its messages (in the order they were written) and, where the database
// has a usage ledger (schema 15 on), its ledger rows: each row goes before
// the first message written after it (by time, messages first within a
// second), so a call's usage follows the reply it paid for.
func writeRows(db *sqlitero.DB, w io.Writer) error {
	var sessions []map[string]any
	if err := sqlitero.Each(db.DB, `SELECT * FROM sessions ORDER BY created_at, rowid`, nil, func(r map[string]any) error {
		sessions = append(sessions, r)
		return nil
	}); err != nil {
		return err
	}
	ledger, err := hasLedger(db)
	if err != nil {
		return err
	}
	write := func(l line) error {
		_, err := w.Write(append(agt.Marshal(l), '\n'))
		return err
	}
	for _, s := range sessions {
		var sums map[string]any
		if ledger {
			if err := sqlitero.Each(db.DB, ledgerSums, []any{s["id"]}, func(r map[string]any) error {
				sums = r
				return nil
			}); err != nil {
				return err
			}
		}
		if err := write(line{Goose: "session", Row: s, Ledger: sums}); err != nil {
			return err
		}
		var rows []map[string]any
		if ledger {
			if err := sqlitero.Each(db.DB, `SELECT * FROM usage_ledger WHERE session_id = ? ORDER BY created_timestamp, id`, []any{s["id"]},
				func(r map[string]any) error {
					rows = append(rows, r)
					return nil
				}); err != nil {
				return err
			}
		}
		flush := func(before int64) error {
			for len(rows) > 0 && seconds(rows[0]["created_timestamp"]) < before {
				if err := write(line{Goose: "usage", Row: rows[0]}); err != nil {
					return err
				}
				rows = rows[1:]
			}
			return nil
		}
		if err := sqlitero.Each(db.DB, `SELECT * FROM messages WHERE session_id = ? ORDER BY id`, []any{s["id"]},
			func(r map[string]any) error {
				if err := flush(seconds(r["created_timestamp"])); err != nil {
					return err
				}
				return write(line{Goose: "message", Row: r})
			}); err != nil {
			return err
		}
		if err := flush(math.MaxInt64); err != nil {
			return err
		}
	}
	// rows of a session the table does not hold (Goose deletes them with
	// it; a damaged or hand-made database): read, under their own session
	orphans := map[string]string{"message": `SELECT * FROM messages WHERE session_id NOT IN (SELECT id FROM sessions) ORDER BY id`}
	if ledger {
		orphans["usage"] = `SELECT * FROM usage_ledger WHERE session_id NOT IN (SELECT id FROM sessions) ORDER BY id`
	}
	for _, kind := range []string{"message", "usage"} {
		if q, ok := orphans[kind]; ok {
			if err := sqlitero.Each(db.DB, q, nil, func(r map[string]any) error { return write(line{Goose: kind, Row: r}) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// ledgerSums sums a session's ledger rows, as Goose does to tell its
// totals (get_session_usage_totals).
const ledgerSums = `SELECT count(*) AS rows, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
	SUM(total_tokens) AS total_tokens, SUM(cache_read_tokens) AS cache_read_tokens,
	SUM(cache_write_tokens) AS cache_write_tokens, SUM(cost) AS cost FROM usage_ledger WHERE session_id = ?`

// hasLedger tells whether the database has Goose's usage_ledger table.
func hasLedger(db *sqlitero.DB) (bool, error) {
	n := 0
	err := sqlitero.Each(db.DB, `SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'usage_ledger'`, nil,
		func(r map[string]any) error {
			n = int(seconds(r["n"]))
			return nil
		})
	return n > 0, err
}

// seconds is a timestamp column in Unix seconds: Goose wrote some
// messages' created_timestamp in milliseconds.
func seconds(v any) int64 {
	n, _ := v.(int64)
	if n > msThreshold {
		n /= 1000
	}
	return n
}

// msThreshold is the value above which Goose's timestamps are milliseconds
// (its MILLISECOND_TIMESTAMP_THRESHOLD).
const msThreshold = 10_000_000_000
