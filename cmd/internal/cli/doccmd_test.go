package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/agt-project/agt/provider/providertest"
)

// The test binary is also the four filters: run under one of their names
// (a link in the sandbox of TestDocCommands and TestDemo) it is that filter.
// A filter that follows its paths (-f) is given --follow-timeout
// $AGT_TEST_FOLLOW_TIMEOUT when that is set: it reads its files to their end
// and ends, as an interrupt would end it, so that a documented command that
// follows ends too (its output is the same whatever the timeout).
func init() {
	if app, ok := apps[filepath.Base(os.Args[0])]; ok {
		if d := os.Getenv("AGT_TEST_FOLLOW_TIMEOUT"); d != "" && slices.ContainsFunc(os.Args[1:], func(a string) bool { return a == "-f" || a == "--follow" }) {
			if i := slices.Index(os.Args, "--follow-timeout"); i > 0 && i+1 < len(os.Args) {
				os.Args[i+1] = d // the documented timeout, shortened
			} else {
				os.Args = slices.Insert(os.Args, 1, "--follow-timeout", d)
			}
		}
		os.Exit(Main(app))
	}
}

var updateDocs = flag.Bool("update-docs", false, "rewrite the generated part of docs/flags.md")

// docFiles are the README and the pages of docs/ that a user reads: the
// guides and references, and the rules (docs/rules/); not the journal
// (dated records, whose commands and links were true on their day).
func docFiles(t *testing.T) []string {
	t.Helper()
	root := providertest.RepoRoot(t)
	files := []string{filepath.Join(root, "README.md")}
	for _, glob := range []string{"docs/*.md", "docs/rules/*.md"} {
		pages, err := filepath.Glob(filepath.Join(root, glob))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, pages...)
	}
	return files
}

// docShellCommands are the commands of a page's shell blocks (```sh), in
// order: a command goes on over a line that ends in a backslash or inside
// quotes; comment lines are left out.
func docShellCommands(page string) []string {
	var cmds []string
	inBlock := false
	var cur strings.Builder
	var single, double bool
	for _, line := range strings.Split(page, "\n") {
		if !inBlock {
			inBlock = slices.Contains([]string{"```sh", "```bash", "```shell"}, strings.TrimSpace(line))
			continue
		}
		if strings.TrimSpace(line) == "```" && cur.Len() == 0 {
			inBlock = false
			continue
		}
		if cur.Len() == 0 && (strings.HasPrefix(strings.TrimSpace(line), "#") || strings.TrimSpace(line) == "") {
			continue
		}
		comment := false
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case comment:
			case c == '\\' && !single && i+1 < len(line):
				i++
			case c == '\'' && !double:
				single = !single
			case c == '"' && !single:
				double = !double
			case c == '#' && !single && !double && (i == 0 || line[i-1] == ' '):
				comment = true
			}
		}
		cur.WriteString(line)
		if single || double || strings.HasSuffix(line, "\\") {
			cur.WriteString("\n")
			continue
		}
		cmds = append(cmds, cur.String())
		cur.Reset()
	}
	return cmds
}

// docNotRun are the commands of the docs the test does not run, by a part of
// their text, with the reason; docNeeds are those it runs when a program is
// on PATH.
var docNotRun = map[string]string{
	"make demo":          "builds bin/ with go build: TestDemo runs its recipe with the test's filters",
	"make test":          "the whole suite, this test included",
	"make check":         "lint, the long tests and the race detector: .ci/run runs it",
	"make install":       "installs into GOBIN or PREFIX: .ci/run follows it into a temporary folder",
	"go install ":        "needs the module published, and the network",
	"hadoop ":            "needs a Hadoop cluster (the mapper it runs, examples/agt-map.sh, is run here)",
	"agt_dask.py":        "starts a Dask cluster: TestDask (cmd/agt-transcript) runs the script over the corpus",
	"curl ":              "posts to a running Collector: TestCollector (export) posts every corpus export to one",
	"tools/otelcol":      "builds the Collector from its own module: .ci/run does, for TestCollector",
	"go test ":           "runs a test of the suite, from the repository",
	"agentv eval ":       "needs AgentV and an eval file: TestAgentVEval (export) runs agentv eval --transcript over every corpus folder",
	"--completion bash)": "defines the completion in the shell that runs it; TestDocs parses the script",
}

var docNeeds = map[string]string{"parallel ": "parallel", "jq ": "jq"}

// The sandbox's agents: a command that runs an agent runs this script
// instead, which prints a capture of that agent's live output.
var docFakeAgents = map[string]string{
	"claude": "testdata/claude/live/gen__claude-2.1.197__tools.jsonl",
	"codex":  "testdata/codex/live/gen__codex-0.169.0__tools.jsonl",
}

// The bundled logs the sandbox holds, under the names the docs give them
// and where the agents write them.
var docSandboxFiles = map[string]string{
	"work/session.jsonl":                             "testdata/claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl",
	"work/SESSION.jsonl":                             "testdata/claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl",
	"work/rollout.jsonl":                             "testdata/codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl",
	"work/claude-session.jsonl":                      "testdata/claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl",
	"work/logs/claude.jsonl":                         "testdata/claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl",
	"home/.claude/projects/-home-me-app/3f2a….jsonl": "testdata/claude/agentsessions__claude-small-2.1.80.jsonl",
	"work/LOGS/claude.jsonl":                         "testdata/claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl",
	"work/LOGS/codex.jsonl":                          "testdata/codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl",
	"work/LOGS/gemini.jsonl":                         "testdata/gemini/agentsessions__gemini-jsonl-v040.jsonl",
	"work/LOGS/pi.jsonl":                             "testdata/pi/pidev__96-2b1009dcd7-0.excerpt.jsonl",
	"home/.claude/projects/-home-me-app/7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl":                          "testdata/claude/agtrace__7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl",
	"home/.claude/projects/-home-me-app/agent-0c4c3cf8.jsonl":                                                "testdata/claude/agtrace__agent-0c4c3cf8.jsonl",
	"home/.codex/sessions/2025/12/10/rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl": "testdata/codex/agtrace__rollout-2025-12-10T04-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl",
}

// docSandbox lays out a folder for the docs' commands: work/ (the working
// folder: the named logs, LOGS/, logs/, old-sessions.tar.gz,
// my-prices.json, examples/, bin/),
// home/ (HOME, with a Claude Code project and a Codex day), and bin/ with
// the filters and the fake agents; it returns the folder and the
// environment to run in.
func docSandbox(t *testing.T) (dir string, env []string) {
	t.Helper()
	root := providertest.RepoRoot(t)
	dir = t.TempDir()
	for _, d := range []string{"bin", "work/bin", "home/.zfunc", "home/.config/fish/completions"} {
		docMust(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	for dst, src := range docSandboxFiles {
		b, err := os.ReadFile(filepath.Join(root, src))
		if err != nil {
			t.Fatal(err)
		}
		docMust(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, dst)), 0o755))
		docMust(t, os.WriteFile(filepath.Join(dir, dst), b, 0o644))
	}
	// old-sessions.tar.gz: LOGS/ archived
	var tgz bytes.Buffer
	zw := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(zw)
	for _, name := range []string{"claude.jsonl", "codex.jsonl"} {
		b, _ := os.ReadFile(filepath.Join(dir, "work", "LOGS", name))
		docMust(t, tw.WriteHeader(&tar.Header{Name: "old/" + name, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}))
		tw.Write(b)
	}
	tw.Close()
	zw.Close()
	docMust(t, os.WriteFile(filepath.Join(dir, "work", "old-sessions.tar.gz"), tgz.Bytes(), 0o644))
	// my-prices.json: a price table of one model, in LiteLLM's format
	docMust(t, os.WriteFile(filepath.Join(dir, "work", "my-prices.json"), []byte(`{"claude-sonnet-4-5-20250929": {"input_cost_per_token": 3e-06, "output_cost_per_token": 1.5e-05, "cache_read_input_token_cost": 3e-07, "cache_creation_input_token_cost": 3.75e-06, "max_input_tokens": 200000, "mode": "chat", "litellm_provider": "anthropic"}}`), 0o644))
	docMust(t, os.Symlink(filepath.Join(root, "examples"), filepath.Join(dir, "work", "examples")))
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for name := range apps {
		docMust(t, os.Symlink(self, filepath.Join(dir, "bin", name)))
		docMust(t, os.Symlink(self, filepath.Join(dir, "work", "bin", name)))
	}
	for agent, capture := range docFakeAgents {
		script := fmt.Sprintf("#!/bin/sh\n# %s, replaced by a capture of its live output\ncat '%s'\n", agent, filepath.Join(root, capture))
		docMust(t, os.WriteFile(filepath.Join(dir, "bin", agent), []byte(script), 0o755))
	}
	env = []string{
		"PATH=" + filepath.Join(dir, "bin") + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + filepath.Join(dir, "home"),
		"TMPDIR=" + os.TempDir(),
		"LC_ALL=C.UTF-8",
		"AGT_TEST_FOLLOW_TIMEOUT=200ms",
	}
	return dir, env
}

func docMust(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// docTreeState is the size and time of every file under dir.
func docTreeState(dir string) map[string]string {
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			m[p] = fmt.Sprint(info.Size(), info.ModTime().UnixNano())
		}
		return nil
	})
	return m
}

// TestDocCommands runs every shell command of the README and of docs/ (in
// page order, each page in its own sandbox), and the examples of each
// filter's --help (which flags.md and the man pages hold), with bash and
// pipefail: it must exit 0 and write something, on stdout or stderr or into
// a file (a run of agt-transcript -o that finds everything up to date says
// so on stderr). A command that follows its paths (-f) ends once it has
// read them (see init). The commands not run are in docNotRun, with the
// reason; an entry there that no command matches is an error. The pages
// run in parallel; -short runs the README's commands alone.
func TestDocCommands(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	if raceBuild {
		t.Skip("under the race detector: the docs' commands run in the plain build")
	}
	var mu sync.Mutex
	used := map[string]bool{}
	total, ran := 0, 0
	pages := map[string][]string{}
	var order []string
	for _, page := range docFiles(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		if cmds := docShellCommands(string(b)); len(cmds) > 0 {
			pages[filepath.Base(page)] = cmds
			order = append(order, filepath.Base(page))
		}
		if testing.Short() {
			break // the README's
		}
	}
	if !testing.Short() {
		pages["--help"] = docHelpExamples(t)
		order = append(order, "--help")
	}
	t.Cleanup(func() {
		if !testing.Short() {
			for part := range docNotRun {
				if !used[part] {
					t.Errorf("docNotRun: no command holds %q", part)
				}
			}
		}
		t.Logf("%d commands, %d run", total, ran)
	})
	for _, page := range order {
		cmds := pages[page]
		t.Run(page, func(t *testing.T) {
			t.Parallel()
			dir, env := docSandbox(t)
		next:
			for _, c := range cmds {
				mu.Lock()
				total++
				mu.Unlock()
				for part, why := range docNotRun {
					if strings.Contains(c, part) {
						mu.Lock()
						used[part] = true
						mu.Unlock()
						t.Logf("not run: %s\n    (%s)", c, why)
						continue next
					}
				}
				for part, prog := range docNeeds {
					if _, err := exec.LookPath(prog); strings.Contains(c, part) && err != nil {
						t.Logf("not run, %s is not installed: %s", prog, c)
						continue next
					}
				}
				mu.Lock()
				ran++
				mu.Unlock()
				docRunCommand(t, dir, env, c)
			}
		})
	}
}

// docHelpExamples are the commands under "Examples:" in each filter's --help:
// the lines indented by six spaces up to the first blank line.
func docHelpExamples(t *testing.T) []string {
	t.Helper()
	var cmds []string
	for _, name := range []string{"agt-parse", "agt-normalize", "agt-transcript", "agt-streamlog", "agt-report"} {
		var out, errb bytes.Buffer
		if code := Run(context.Background(), apps[name](IO{In: strings.NewReader(""), Out: &out, Err: &errb}), []string{name, "--help"}); code != 0 {
			t.Fatalf("%s --help: exit %d: %s", name, code, errb.String())
		}
		_, examples, ok := strings.Cut(out.String(), "Examples:\n")
		if !ok {
			t.Fatalf("%s --help: no Examples", name)
		}
		n := len(cmds)
		for _, l := range strings.Split(examples, "\n") {
			if strings.TrimSpace(l) == "" {
				break
			}
			if c, ok := strings.CutPrefix(l, "      "); ok {
				cmds = append(cmds, c)
			}
		}
		if len(cmds) == n {
			t.Errorf("%s --help: no example commands", name)
		}
	}
	return cmds
}

func docRunCommand(t *testing.T, dir string, env []string, c string) {
	t.Helper()
	before := docTreeState(dir)
	cmd := exec.Command("bash", "-c", "set -o pipefail\n"+c)
	cmd.Dir = filepath.Join(dir, "work")
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stdout
	cmd.Start()
	err := cmd.Wait()
	if err != nil {
		t.Errorf("%s\n    %v; stderr: %s", c, err, stderr.String())
		return
	}
	changed := stdout.Len() > 0 || stderr.Len() > 0
	after := docTreeState(dir)
	for p, v := range after {
		if before[p] != v {
			changed = true
		}
	}
	if !changed {
		t.Errorf("%s\n    wrote nothing, on stdout or stderr or into a file", c)
	}
}

// TestDocShellCommands: the splitting of a shell block into commands.
func TestDocShellCommands(t *testing.T) {
	page := "text\n```sh\n# a comment\na | jq 'x\n  y'   # it's\nb \\\n  c\n\nd \"it's\"\n```\n```\nnot sh\n```\n"
	got := docShellCommands(page)
	want := []string{"a | jq 'x\n  y'   # it's", "b \\\n  c", `d "it's"`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The help of each filter, as docs/flags.md holds it below its mark.
const docFlagsMark = "<!-- generated by go test ./cmd/internal/cli -run TestFlagsDoc -update-docs: do not edit below -->\n"

// stubProvider tells that the stub provider is registered (stub_test.go).
var stubProvider bool

// TestFlagsDoc: docs/flags.md ends with each filter's --help, as the
// filters print it (-update-docs rewrites it).
func TestFlagsDoc(t *testing.T) {
	if stubProvider {
		t.Skip("the stub provider is registered: --help lists it, docs/flags.md does not")
	}
	path := filepath.Join(providertest.RepoRoot(t), "docs", "flags.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, _, ok := strings.Cut(string(b), docFlagsMark)
	if !ok {
		t.Fatalf("docs/flags.md: no mark %q", docFlagsMark)
	}
	var gen strings.Builder
	for _, name := range []string{"agt-parse", "agt-normalize", "agt-transcript", "agt-streamlog", "agt-report"} {
		var out, errb bytes.Buffer
		if code := Run(context.Background(), apps[name](IO{In: strings.NewReader(""), Out: &out, Err: &errb}), []string{name, "--help"}); code != 0 {
			t.Fatalf("%s --help: exit %d: %s", name, code, errb.String())
		}
		fmt.Fprintf(&gen, "\n### %s\n\n```\n%s```\n", name, strings.TrimRight(out.String(), "\n")+"\n")
	}
	want := head + docFlagsMark + gen.String()
	if *updateDocs {
		docMust(t, os.WriteFile(path, []byte(want), 0o644))
		return
	}
	if string(b) != want {
		t.Errorf("docs/flags.md is not the filters' --help (go test ./cmd/internal/cli -run TestFlagsDoc -update-docs rewrites it); first difference at byte %d", docFirstDiff(string(b), want))
	}
}

func docFirstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// docLink is a Markdown link: [text](target).
var docLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// docAnchors are the ids GitHub gives the headings of a Markdown page:
// lower case, letters, digits, spaces, '-' and '_' kept, spaces as '-', a
// repeated id numbered (-1, -2).
func docAnchors(page string) map[string]bool {
	ids := map[string]bool{}
	seen := map[string]int{}
	for _, line := range strings.Split(docStripCode(page), "\n") {
		h := strings.TrimLeft(line, "#")
		if len(h) == len(line) || len(line)-len(h) > 6 || !strings.HasPrefix(h, " ") {
			continue
		}
		var id strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(h)) {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_':
				id.WriteRune(r)
			case r == ' ':
				id.WriteRune('-')
			}
		}
		s := id.String()
		if n := seen[s]; n > 0 {
			ids[fmt.Sprintf("%s-%d", s, n)] = true
		} else {
			ids[s] = true
		}
		seen[s]++
	}
	return ids
}

// docStripCode is a page without its fenced blocks.
func docStripCode(page string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "```") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// TestDocLinks: every relative link of the README and docs/ names a file
// or folder of the repository, and an anchor a heading of its page; every
// page of docs/ is reached from the README.
func TestDocLinks(t *testing.T) {
	root := providertest.RepoRoot(t)
	n := 0
	for _, page := range docFiles(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range docLink.FindAllStringSubmatch(docStripCode(string(b)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			n++
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				if _, serr := os.Stat(path); serr != nil {
					t.Errorf("%s: link %s: no such file", filepath.Base(page), target)
					continue
				}
			}
			if anchor != "" && !docAnchors(string(raw))[anchor] {
				t.Errorf("%s: link %s: no heading of that id in %s", filepath.Base(page), target, filepath.Base(path))
			}
		}
	}
	if n < 20 {
		t.Errorf("%d relative links: the pages were not read", n)
	}
	// every page is reached from the README, itself or through a page it
	// links to
	reached := map[string]bool{}
	queue := []string{filepath.Join(root, "README.md")}
	for len(queue) > 0 {
		page := queue[0]
		queue = queue[1:]
		if reached[page] || !strings.HasSuffix(page, ".md") {
			continue
		}
		reached[page] = true
		b, _ := os.ReadFile(page)
		for _, m := range docLink.FindAllStringSubmatch(docStripCode(string(b)), -1) {
			if file, _, _ := strings.Cut(m[1], "#"); file != "" && !strings.Contains(file, "://") {
				queue = append(queue, filepath.Join(filepath.Dir(page), file))
			}
		}
	}
	for _, page := range docFiles(t) {
		if !reached[page] {
			t.Errorf("%s: no link leads there from the README", filepath.Base(page))
		}
	}
}

// TestDocAnchors: GitHub's heading ids.
func TestDocAnchors(t *testing.T) {
	got := docAnchors("# agt\n## The -o folder (issue 23)\n### Follow mode (-f)\n## `agt.event/1`: one event a line\n```\n# not a heading\n```\n## Notes\n## Notes\n")
	for _, want := range []string{"agt", "the--o-folder-issue-23", "follow-mode--f", "agtevent1-one-event-a-line", "notes", "notes-1"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a comment in a code block is a heading")
	}
}

// TestReadme: the README says what agt is and gives a first command in its
// first 15 lines, and stays under 12 KB (the rest lives in docs/).
func TestReadme(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(providertest.RepoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) >= 12000 {
		t.Errorf("README.md: %d bytes, want under 12000: move the detail into docs/", len(b))
	}
	head := strings.Join(strings.SplitN(string(b), "\n", 16)[:15], "\n")
	if !strings.Contains(head, "agt is ") || !strings.Contains(head, "```sh\n") || !regexp.MustCompile("(?m)^(make|bin/agt-|agt-)").MatchString(head) {
		t.Errorf("README.md: the first 15 lines do not say what agt is and give a command:\n%s", head)
	}
}
