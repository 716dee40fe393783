package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// agentVars are the environment variables --discover reads.
var agentVars = []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "COPILOT_HOME", "PI_CODING_AGENT_DIR", "PI_CODING_AGENT_SESSION_DIR", "XDG_DATA_HOME"}

// mkdirs makes the folders (and, for names ending in .db, files) under root.
func mkdirs(t *testing.T, root string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		p = filepath.Join(root, p)
		if strings.HasSuffix(p, ".db") {
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDiscover lists the log folders found under a fake home, with the
// agents' environment variables set or not.
func TestDiscover(t *testing.T) {
	every := []string{".claude/projects", ".config/claude/projects", ".codex/sessions", ".codex/archived_sessions",
		".gemini/tmp/a1/chats", ".gemini/tmp/b2/chats", ".gemini/tmp/c3/logs", ".copilot/session-state", ".copilot/history-session-state",
		".pi/agent/sessions", ".local/share/opencode/opencode.db", ".local/share/opencode/opencode-beta.db", ".local/share/opencode/storage"}
	cases := []struct {
		name  string
		dirs  []string
		env   map[string]string // $R is the root of the case
		home  bool
		want  []string // under the root
		names string
	}{
		{name: "every agent's default layout", dirs: every, home: true,
			want: []string{".config/claude/projects", ".claude/projects", ".codex/sessions", ".codex/archived_sessions",
				".gemini/tmp/a1/chats", ".gemini/tmp/b2/chats", ".copilot/session-state", ".copilot/history-session-state",
				".pi/agent/sessions", ".local/share/opencode/opencode.db", ".local/share/opencode/opencode-beta.db", ".local/share/opencode/storage"},
			names: "claude claude codex codex gemini gemini copilot copilot pi opencode opencode opencode"},
		{name: "nothing there", home: true},
		{name: "no home", dirs: every},
		{name: "the variables move every agent", home: true, dirs: append([]string{"c1/projects", "c2/projects", "cx/sessions", "g/.gemini/tmp/x/chats",
			"cp/session-state", "pi/sessions", "pis", "xdg/opencode/storage"}, every...),
			env: map[string]string{"CLAUDE_CONFIG_DIR": "$R/c1,$R/c2", "CODEX_HOME": "$R/cx", "GEMINI_CLI_HOME": "$R/g", "COPILOT_HOME": "$R/cp",
				"PI_CODING_AGENT_DIR": "$R/pi", "XDG_DATA_HOME": "$R/xdg"},
			want:  []string{"c1/projects", "c2/projects", "cx/sessions", "g/.gemini/tmp/x/chats", "cp/session-state", "pi/sessions", "xdg/opencode/storage"},
			names: "claude claude codex gemini copilot pi opencode"},
		{name: "Pi's session folder wins", dirs: []string{"pis", "pi/sessions"}, env: map[string]string{"PI_CODING_AGENT_DIR": "$R/pi", "PI_CODING_AGENT_SESSION_DIR": "$R/pis"},
			want: []string{"pis"}, names: "pi"},
		{name: "a blank variable is unset", home: true, dirs: []string{".codex/sessions"}, env: map[string]string{"CODEX_HOME": "  "},
			want: []string{".codex/sessions"}, names: "codex"},
		{name: "a folder with a comma is one folder", dirs: []string{"a,b/projects"}, env: map[string]string{"CLAUDE_CONFIG_DIR": "$R/a,b"},
			want: []string{"a,b/projects"}, names: "claude"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			mkdirs(t, root, c.dirs...)
			getenv := func(k string) string {
				return strings.TrimSpace(strings.ReplaceAll(c.env[k], "$R", root))
			}
			home := ""
			if c.home {
				home = root
			}
			var got, names []string
			for _, f := range discover(getenv, home) {
				rel, _ := filepath.Rel(root, f.path)
				got, names = append(got, filepath.ToSlash(rel)), append(names, f.provider)
			}
			if !slices.Equal(got, c.want) || strings.Join(names, " ") != c.names {
				t.Errorf("got %q %q\nwant %q %q", got, names, c.want, c.names)
			}
		})
	}
	// the same folder reached twice (~/.config/claude a link to ~/.claude)
	root := t.TempDir()
	mkdirs(t, root, ".claude/projects", ".config")
	os.Symlink(filepath.Join(root, ".claude"), filepath.Join(root, ".config", "claude"))
	if f := discover(func(string) string { return "" }, root); len(f) != 1 {
		t.Errorf("a folder reached twice: %v", f)
	}
}

// TestDiscoverRun converts the logs of every agent under a fake home with
// agt-transcript --discover -o out/, a path given beside them.
func TestDiscoverRun(t *testing.T) {
	corpus := providertest.CorpusDir(t)
	home := t.TempDir()
	copies := map[string]string{
		"claude/agentsessions__claude-small-2.1.80.jsonl":   ".claude/projects/-home-me-app/a.jsonl",
		"codex/agentsessions__codex-small-0.146.jsonl":      ".codex/sessions/2026/01/01/rollout-a.jsonl",
		"gemini/agentsessions__gemini-jsonl-v040.jsonl":     ".gemini/tmp/app/chats/session-a.jsonl",
		"copilot/agentsessions__copilot-small-1.0.77.jsonl": ".copilot/session-state/s1/events.jsonl",
		"pi/pidev__96-2b1009dcd7-0.jsonl":                   ".pi/agent/sessions/--home-me-app--/a.jsonl",
		"opencode/derived__opencode-bf-cfcff0517c.db":       ".local/share/opencode/opencode.db",
	}
	for from, to := range copies {
		b, err := os.ReadFile(filepath.Join(corpus, from))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(home, to)), 0o755)
		if err := os.WriteFile(filepath.Join(home, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	for _, v := range agentVars {
		t.Setenv(v, "")
	}
	extra := filepath.Join(t.TempDir(), "extra.jsonl")
	os.WriteFile(extra, []byte(claudeLine+"\n"), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), Transcript(IO{In: strings.NewReader(""), Out: &stdout, Err: &stderr}), []string{"agt-transcript", extra, "--discover", "-o", out})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "agt-transcript: --discover: reading 6 log folders: claude (1), codex (1), gemini (1), copilot (1), pi (1), opencode (1)\n") {
		t.Errorf("stderr: %s", stderr.String())
	}
	for _, p := range []string{"claude", "codex", "gemini", "copilot", "pi", "opencode"} {
		if m, _ := filepath.Glob(filepath.Join(out, p, "*.transcript.jsonl")); len(m) == 0 {
			t.Errorf("no %s transcript", p)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "claude", "s1.transcript.jsonl")); err != nil {
		t.Errorf("the path given beside --discover: %v", err)
	}
}

// discoveredIn is what discover finds in the fake home root, with getenv
// for the environment: the folders (relative to root, with /) and their
// providers.
func discoveredIn(getenv func(string) string, root string) (paths, provs []string) {
	for _, f := range discover(getenv, root) {
		rel, _ := filepath.Rel(root, f.path)
		paths, provs = append(paths, filepath.ToSlash(rel)), append(provs, f.provider)
	}
	return paths, provs
}

// transcribeDiscovered runs agt-transcript --discover -o with the fake
// home root as HOME (every agent's variable and the system folders'
// unset) and returns the transcripts written under the provider's folder,
// and stderr.
func transcribeDiscovered(t *testing.T, root, prov string) ([]string, string) {
	t.Helper()
	t.Setenv("HOME", root)
	for _, v := range append(agentVars, "APPDATA", "LOCALAPPDATA", "XDG_CONFIG_HOME") {
		t.Setenv(v, "")
	}
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	if code := Run(context.Background(), Transcript(IO{In: strings.NewReader(""), Out: &stdout, Err: &stderr}), []string{"agt-transcript", "--discover", "-o", out}); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	m, _ := filepath.Glob(filepath.Join(out, prov, "*.transcript.jsonl"))
	return m, stderr.String()
}
