package aider_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/aider"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/stage"
)

// TestGolden parses the start of a real chat history and compares the
// events with a reviewed golden file.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "aider", true, "*.md")
}

func TestSniff(t *testing.T) {
	providertest.Sniff(t, aider.Provider{}, []providertest.SniffCase{
		{"header", providertest.Head("# aider chat started at 2024-08-05 19:33:02", "> Aider v0.47.2-dev"), aider.FormatHistory},
		{"cut short", providertest.Head("-*- mode: fundamental -*-", ">", "> isort....Passed", "> black....Passed"), aider.FormatHistory},
		{"one quote", providertest.Head("> a quote"), ""},
		{"markdown", providertest.Head("# Title", "> a quote", "> more"), ""},
		{"quotes only", providertest.Head("> a quote", "> more", "#### A heading"), ""},
		{"cut, Aider's status", providertest.Head("> Added a.py to the chat.", "> Tokens: 1k sent, 20 received.", "#### go on"), aider.FormatHistory},
		{"mode line not first", providertest.Head("> a quote", "-*- mode: fundamental -*-", "> more"), ""},
		{"banner in prose", providertest.Head("> Aider vs. the rest", "> more"), ""},
		{"Aider-like words", providertest.Head("> Tokens are counted per call.", "> Added later: the databases.", "#### Layout"), ""},
		{"json", providertest.Head(`{"type":"user"}`), ""},
	})
}

// TestUsage: each "> Tokens:" line is one call's usage with the agent's own
// figures, including the rounded counts and the cache of newer releases;
// the sample's two lines are 5,244/604 ($0.02) and 12,566/84 ($0.0019).
func TestUsage(t *testing.T) {
	out, _, _ := providertest.Parse(t, provider.Config{}, providertest.Testdata(t, "aider", "Aider-AI__aider__tests-fixtures-chat-history.md"))
	var got []agt.Usage
	for _, ev := range providertest.Events(t, out) {
		if ev.Kind == agt.KindUsage {
			got = append(got, *ev.Usage)
		}
	}
	if len(got) != 2 || got[0].Input != 5244 || got[0].Output != 604 || *got[0].NativeCostUSD != 0.02 ||
		got[1].Input != 12566 || got[1].Output != 84 || *got[1].NativeCostUSD != 0.0019 {
		t.Errorf("usage %+v", got)
	}

	const newer = "\n# aider chat started at 2025-05-01 10:00:00\n\n> Aider v0.83.1  \n> Main model: anthropic/claude-sonnet-4 with diff edit format  \n\n#### fix it  \n\nDone.\n\n> Tokens: 2.4k sent, 1.1k cache write, 12k cache hit, 389 received. Cost: $0.01 message, $0.05 session.  \n"
	f := filepath.Join(t.TempDir(), ".aider.chat.history.md")
	if err := os.WriteFile(f, []byte(newer), 0o644); err != nil {
		t.Fatal(err)
	}
	out = providertest.ParseClean(t, provider.Config{}, f)
	n := 0
	for _, ev := range providertest.Events(t, out) {
		if ev.Kind == agt.KindUsage {
			n++
			u := ev.Usage
			if u.Input != 2400 || u.CacheWrite != 1100 || u.CacheRead != 12000 || u.Output != 389 || u.Total != 15889 || ev.Model != "anthropic/claude-sonnet-4" {
				t.Errorf("usage %+v model %s", u, ev.Model)
			}
		}
		if ev.NativeSession != ".aider.chat.history.md@2025-05-01T10:00:00" {
			t.Errorf("session %s", ev.NativeSession)
		}
	}
	if n != 1 {
		t.Errorf("%d usage events", n)
	}
}

// TestMarkdownWalk walks every Markdown file of the shared tree (the
// corpus's notes, the format descriptions, the new agents' samples) and of
// the repository (docs, READMEs, test data) as a folder walk reads them:
// only Aider histories (the files in a folder named aider) are taken; the
// others are left out without a word.
func TestMarkdownWalk(t *testing.T) {
	root := providertest.RepoRoot(t)
	if _, err := os.Stat(filepath.Join(root, "..", "shared")); err != nil {
		t.Skip("no shared tree beside the repository")
	}
	var files []string
	for _, dir := range []string{filepath.Join(root, "..", "shared"), root} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() && d.Name() == ".git" {
				return fs.SkipDir
			}
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				files = append(files, p)
			}
			return nil
		})
	}
	histories := 0
	for _, p := range files {
		in := stage.FileInput(p)
		in.Walk = filepath.Dir(p)
		var out, diag bytes.Buffer
		if _, err := provider.Parse(context.Background(), provider.Config{Config: stage.Config{Quiet: true}}, []stage.Input{in}, &out, &diag); err != nil {
			t.Fatal(err)
		}
		want := filepath.Base(filepath.Dir(p)) == "aider"
		if got := out.Len() > 0; got != want {
			t.Errorf("%s: taken %v, want %v", p, got, want)
		}
		if want {
			histories++
			if ev := providertest.Events(t, out.Bytes()); ev[0].Provider != "aider" {
				t.Errorf("%s: read as %s", p, ev[0].Provider)
			}
		} else if diag.Len() > 0 {
			t.Errorf("%s: a document left out is reported: %s", p, diag.String())
		}
	}
	if histories == 0 || len(files) < 8 {
		t.Fatalf("%d Markdown files, %d histories: the walk found too few", len(files), histories)
	}
	t.Logf("%d Markdown files, %d Aider histories", len(files), histories)
}

// TestUnclosedFence: a reply that opens a code fence it never closes (a
// model's ```typescript followed by ```python) must not swallow the lines
// only Aider writes: each "> Tokens:" line stays a usage event, each "####"
// line a user turn, each run header a session.
func TestUnclosedFence(t *testing.T) {
	const history = "# aider chat started at 2025-05-01 10:00:00\n\n> Main model: gpt-4o\n\n#### write it\n\nHere:\n\n```typescript\nconst a = 1;\n```python\nprint(1)\n```\n\n> Tokens: 1.2k sent, 300 received.\n\n#### and the test\n\nDone.\n\n> Tokens: 2k sent, 50 received.\n\n# aider chat started at 2025-05-02 09:00:00\n\n#### again\n\nOk.\n\n> Tokens: 900 sent, 10 received.\n"
	f := filepath.Join(t.TempDir(), ".aider.chat.history.md")
	if err := os.WriteFile(f, []byte(history), 0o644); err != nil {
		t.Fatal(err)
	}
	out := providertest.ParseClean(t, provider.Config{}, f)
	var usage, users int
	var input int64
	sessions := map[string]bool{}
	for _, ev := range providertest.Events(t, out) {
		sessions[ev.NativeSession] = true
		switch ev.Kind {
		case agt.KindUsage:
			usage++
			input += ev.Usage.Input
		case agt.KindUser:
			users++
		case agt.KindAssistant:
			if strings.Contains(ev.Text.Str(), "Tokens:") || strings.Contains(ev.Text.Str(), "####") {
				t.Errorf("a reply swallowed Aider's own lines: %q", ev.Text.Str())
			}
		}
	}
	if usage != 3 || input != 4100 || users != 3 || len(sessions) != 2 {
		t.Errorf("usage events %d (input %d), user turns %d, sessions %d; want 3 (4100), 3, 2", usage, input, users, len(sessions))
	}
}
