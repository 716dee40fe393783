package cli

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// TestDiscoverKiroLegacy finds the legacy chat's database in a fake home
// (not a folder of Amazon Q Developer CLI that holds none), and
// agt-transcript --discover reads its conversations (the real ones of
// testdata, in conversations_v2 as the CLI lays it out).
func TestDiscoverKiroLegacy(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, ".local/share/kiro-cli", "Library/Application Support/amazon-q")
	db, err := sql.Open("sqlite", filepath.Join(root, ".local/share/kiro-cli/data.sqlite3"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE conversations_v2 (key TEXT NOT NULL, conversation_id TEXT NOT NULL, value TEXT NOT NULL,
		created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (key, conversation_id))`); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"awsq__v1-basic_tool_use.json", "awsq__v1-with_cancelled_tool_uses.json"} {
		b, err := os.ReadFile(providertest.Testdata(t, "kiro", "v1", name))
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			ID string `json:"conversation_id"`
		}
		json.Unmarshal(b, &doc)
		if _, err := db.Exec(`INSERT INTO conversations_v2 VALUES ('/w', ?, ?, 1774656899000, 1774656899000)`, doc.ID, string(b)); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	got, names := discoveredIn(func(string) string { return "" }, root)
	if want := []string{".local/share/kiro-cli/data.sqlite3"}; !slices.Equal(got, want) || strings.Join(names, " ") != "kiro" {
		t.Errorf("got %q %q, want %q", got, names, want)
	}
	if m, stderr := transcribeDiscovered(t, root, "kiro"); len(m) != 2 {
		t.Errorf("kiro transcripts %v; stderr %s", m, stderr)
	}
}
