package kiro_test

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/kiro"
	"github.com/agt-project/agt/provider/providertest"

	_ "modernc.org/sqlite"
)

// v1Samples are the real conversations of the legacy chat in testdata.
var v1Samples = []string{"awsq__v1-basic_tool_use.json", "awsq__v1-with_cancelled_tool_uses.json"}

// MakeLegacyDB writes a data.sqlite3 as the CLI's migrations lay it out
// (007 conversations, 008 conversations_v2 filled from it), holding the
// real conversations of testdata, each under its working folder.
func makeLegacyDB(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE conversations (key TEXT PRIMARY KEY, value TEXT)`,
		`CREATE TABLE conversations_v2 (key TEXT NOT NULL, conversation_id TEXT NOT NULL, value TEXT NOT NULL,
			created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (key, conversation_id))`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for i, name := range v1Samples {
		b, err := os.ReadFile(providertest.Testdata(t, "kiro", "v1", name))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			ID string `json:"conversation_id"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		key := "/w/project" + string(rune('a'+i))
		if _, err := db.Exec(`INSERT INTO conversations (key, value) VALUES (?, ?)`, key, string(b)); err != nil {
			t.Fatal(err)
		}
		at := int64(1774656899000 + i*1000)
		if _, err := db.Exec(`INSERT INTO conversations_v2 VALUES (?, ?, ?, ?, ?)`, key, doc.ID, string(b), at, at); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLegacyDB: the legacy chat's database is claimed as one input; each
// conversation of conversations_v2 (not again from conversations, which
// the CLI copied into it) gives the events the document gives, pointing
// into its row, with the row's creation time on the conversation's meta
// event.
func TestLegacyDB(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.sqlite3")
	makeLegacyDB(t, path)
	if _, ok := (kiro.Provider{}).Claim(path, false); !ok {
		t.Fatal("database not claimed")
	}
	if _, ok := (kiro.Provider{}).Claim(providertest.Testdata(t, "goose", "sessions.db"), false); ok {
		t.Error("a Goose database claimed")
	}
	kinds := func(evs []agt.Event) map[string]string {
		m := map[string]string{}
		for _, ev := range evs {
			m[ev.NativeSession] += ev.Kind + " "
		}
		return m
	}
	got := providertest.Events(t, providertest.ParseClean(t, provider.Config{}, path))
	var want []agt.Event
	for _, name := range v1Samples {
		want = append(want, providertest.Events(t, providertest.ParseClean(t, provider.Config{}, providertest.Testdata(t, "kiro", "v1", name)))...)
	}
	g, w := kinds(got), kinds(want)
	if len(g) != len(v1Samples) {
		t.Fatalf("%d sessions, want %d", len(g), len(v1Samples))
	}
	for s, k := range w {
		if g[s] != k {
			t.Errorf("%s: %s\nwant %s", s, g[s], k)
		}
	}
	for _, ev := range got {
		if ev.Format != kiro.FormatDB || !strings.HasPrefix(ev.Src.Ptr, "/conversations_v2/"+ev.NativeSession) {
			t.Errorf("event %d: format %s src %s", ev.Seq, ev.Format, ev.Src.Ptr)
		}
		if ev.Kind == agt.KindMeta && ev.Meta.Type == "conversation" && ev.TS == "" {
			t.Errorf("%s: the conversation has no time", ev.NativeSession)
		}
	}
}

// TestLegacyLogs: --discover looks for the legacy chat's database of Kiro
// CLI and of Amazon Q Developer CLI on every platform.
func TestLegacyLogs(t *testing.T) {
	env := map[string]string{"LOCALAPPDATA": "/l"}
	got := (kiro.Provider{}).Logs(func(k string) string { return env[k] }, "/h")
	want := []string{"/h/.kiro/sessions", "/h/.local/share/kiro-cli/data.sqlite3", "/h/.local/share/amazon-q/data.sqlite3",
		"/h/Library/Application Support/kiro-cli/data.sqlite3", "/h/Library/Application Support/amazon-q/data.sqlite3",
		"/l/kiro-cli/data.sqlite3", "/l/amazon-q/data.sqlite3"}
	if strings.Join(got, "|") != filepath.FromSlash(strings.Join(want, "|")) {
		t.Errorf("%q\nwant %q", got, want)
	}
}
