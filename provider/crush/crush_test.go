package crush_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/crush"
	"github.com/agt-project/agt/provider/providertest"
)

// TestGolden parses an excerpt of a real Crush database and compares the
// events with a reviewed golden file.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "crush", true, "*.db")
}

func TestSniff(t *testing.T) {
	cases := []struct {
		line, want string
	}{
		{`{"crush":"session","row":{"id":"s"}}`, crush.FormatDB},
		{`{"crush":"message","row":{"id":"m","session_id":"s","parts":"[]"}}`, crush.FormatDB},
		{`{"crush":"goose","row":{}}`, ""},
		{`{"table":"sessions","row":{"id":"s"}}`, ""},
	}
	for _, c := range cases {
		if got := (crush.Provider{}).Sniff(providertest.Head(c.line)); got != c.want {
			t.Errorf("%s: got %q, want %q", c.line, got, c.want)
		}
	}
}

// next is the real database of the agents-next samples, skipped when absent.
func next(t *testing.T, name string) string {
	f := filepath.Join(providertest.RepoRoot(t), "..", "shared", "agents-next", "crush", name)
	if _, err := os.Stat(f); err != nil {
		t.Skip(err)
	}
	return f
}

// TestWholeDB reads the whole real database: every row of sessions,
// messages and files is named in some event's src, nothing is unknown, and
// the run's usage is the cost Crush summed per session (3.201505 and
// 0.02034625 dollars), with no token counts (Crush keeps only the last
// call's).
func TestWholeDB(t *testing.T) {
	f := next(t, "dbos-inc__dbos-transact-golang__crush.db")
	out := providertest.ParseClean(t, provider.Config{}, f)
	rows := map[string]bool{}
	var cost float64
	for _, ev := range providertest.Events(t, out) {
		rows[ev.Src.Ptr] = true
		if ev.Kind == agt.KindUsage {
			if ev.Usage.Total != 0 || ev.Usage.NativeCostUSD == nil {
				t.Errorf("usage %+v", ev.Usage)
				continue
			}
			cost += *ev.Usage.NativeCostUSD
		}
	}
	if len(rows) != 2+82+15 {
		t.Errorf("%d rows named, want 99", len(rows))
	}
	if d := cost - (3.201505 + 0.02034625); d > 1e-9 || d < -1e-9 {
		t.Errorf("cost %v", cost)
	}
}

// TestWAL reads the real database with its -wal and -shm files from a
// folder that can be written to (SQLite reads the WAL), and in place from
// a folder that cannot (read as immutable): the same events.
func TestWAL(t *testing.T) {
	f := next(t, "dbos-inc__dbos-transact-golang__crush.db")
	dir := t.TempDir()
	for _, ext := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(f + ext)
		if err != nil {
			t.Skip(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "crush.db"+ext), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, _, _ := providertest.Parse(t, provider.Config{}, filepath.Join(dir, "crush.db"))
	b, _, _ := providertest.Parse(t, provider.Config{}, f)
	a = bytes.ReplaceAll(a, []byte(filepath.Join(dir, "crush.db")), []byte("X"))
	b = bytes.ReplaceAll(b, []byte(f), []byte("X"))
	if !bytes.Equal(a, b) || len(a) == 0 {
		t.Errorf("the database read with its WAL differs (%d bytes, %d in place)", len(a), len(b))
	}
}

// TestEmptyNewSchema: the newer schema (todos, is_summary_message,
// read_files) is claimed and read; it has no rows, so no events.
func TestEmptyNewSchema(t *testing.T) {
	f := next(t, "aaditagrawal__slopmeter__crush-empty-2026.db")
	in, ok := (crush.Provider{}).Claim(f, false)
	if !ok {
		t.Fatal("not claimed")
	}
	r, err := in.Open()
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(r)
	r.Close()
	if err != nil || len(b) != 0 {
		t.Errorf("%d bytes, err %v", len(b), err)
	}
}

// TestLogs: --discover lists the database of every project in Crush's
// projects.json.
func TestLogs(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "crush"), 0o755)
	os.WriteFile(filepath.Join(dir, "crush", "projects.json"), []byte(`{"projects":[{"path":"/p","data_dir":"/p/.crush","last_accessed":"2026-01-01T00:00:00Z"}]}`), 0o644)
	env := map[string]string{"XDG_DATA_HOME": dir}
	got := (crush.Provider{}).Logs(func(k string) string { return env[k] }, "/home/u")
	if len(got) != 1 || got[0] != filepath.Join("/p/.crush", "crush.db") {
		t.Errorf("logs %v", got)
	}
}
