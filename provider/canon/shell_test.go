package canon_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider/canon"
	"github.com/agt-project/agt/provider/providertest"
)

// shellCase is a shell command and what it becomes: the canonical name
// and the members reclassification sets ("" = absent).
type shellCase struct {
	cmd     string
	name    string
	file    string // file_path
	pattern string
	path    string
	files   int // number of files of a multi-file read
	skill   string
}

// realCommands are commands models ran, taken from the corpus (the logs
// of six providers).
var realCommands = []shellCase{
	// reads
	{cmd: "sed -n '1,320p' packages/core/src/import/types.ts", name: "Read", file: "packages/core/src/import/types.ts"},
	{cmd: "cd /home/entity/projects/EntityProcess/agentv && sed -n '620,790p' packages/core/src/evaluation/loaders/grader-parser.ts", name: "Read", file: "/home/entity/projects/EntityProcess/agentv/packages/core/src/evaluation/loaders/grader-parser.ts"},
	{cmd: "nl -ba apps/web/src/content/docs/docs/tools/prepare.mdx | sed -n '56,70p'", name: "Read", file: "apps/web/src/content/docs/docs/tools/prepare.mdx"},
	{cmd: "cd /home/entity/projects/EntityProcess/agentv && nl -ba apps/web/src/content/docs/docs/graders/composite.mdx | sed -n '90,240p'", name: "Read", file: "/home/entity/projects/EntityProcess/agentv/apps/web/src/content/docs/docs/graders/composite.mdx"},
	{cmd: "sed -n '340,390p' packages/eval/src/schemas.ts; sed -n '1,40p' packages/eval/test/define-code-grader.test.ts; sed -n '1,30p' packages/eval/test/define-prompt-template.test.ts", name: "Read", file: "packages/eval/src/schemas.ts", files: 3},
	{cmd: "sed -n '130,146p' .agents/verification.md", name: "Read", file: ".agents/verification.md"},
	{cmd: "cat .gitignore", name: "Read", file: ".gitignore"},
	{cmd: "head -30 /Users/soph/Work/entire/devenv/cli/cmd/entire/cli/hooks_claudecode_handlers.go | grep -E \"^package|^import\"", name: "Read", file: "/Users/soph/Work/entire/devenv/cli/cmd/entire/cli/hooks_claudecode_handlers.go"},
	{cmd: "ls /Users/ninawork/entire/test-repos/test-repo && echo \"---\" && cat /Users/ninawork/entire/test-repos/test-repo/README.md 2>/dev/null || echo \"no README.md\"", name: "Bash"},
	{cmd: "rg -n \"def create_session_token\" backend/src/yinshi/auth.py && sed -n '120,190p' backend/src/yinshi/auth.py", name: "Bash"},
	{cmd: "nl -ba packages/core/src/evaluation/trace.ts | sed -n '1,90p;150,215p;324,400p;1350,1405p'", name: "Read", file: "packages/core/src/evaluation/trace.ts"},
	{cmd: "cat .python-version || true && echo '---' && rg -n \"python ?(3\\.[0-9]+|[0-9]+\\.[0-9]+)\" -S || true", name: "Bash"},
	{cmd: "sed -n '1,200p' go.mod", name: "Read", file: "go.mod"},
	{cmd: "wc -l pi/skills/meta/pi-skill-creator/SKILL.md", name: "Read", file: "pi/skills/meta/pi-skill-creator/SKILL.md"},
	{cmd: "sed -n '1,220p' /home/entity/.agents/skills/workmux/SKILL.md", name: "Read", file: "/home/entity/.agents/skills/workmux/SKILL.md", skill: "workmux"},
	{cmd: "cat /home/entity/.agents/skills/worktree/SKILL.md && cat /home/entity/.agents/skills/workmux/SKILL.md && cat /home/entity/.codex/plugins/cache/beads-marketplace/beads/1.1.0-rc.1/skills/beads/SKILL.md", name: "Read", file: "/home/entity/.agents/skills/worktree/SKILL.md", files: 3, skill: "worktree"},
	{cmd: "cat does-not-exist.txt", name: "Read", file: "does-not-exist.txt"},
	{cmd: "cd /home/entity/projects/EntityProcess/agentv && sed -n '1,220p' .agentv/targets.yaml", name: "Read", file: "/home/entity/projects/EntityProcess/agentv/.agentv/targets.yaml"},
	{cmd: "grep -A 100 \"Calculate content width\" packages/tui/src/components/text.ts | head -120", name: "Grep", pattern: "Calculate content width", path: "packages/tui/src/components/text.ts"},

	// searches
	{cmd: "rg -n \"_SCHEMA_VERSION\" backend/src/yinshi/db.py", name: "Grep", pattern: "_SCHEMA_VERSION", path: "backend/src/yinshi/db.py"},
	{cmd: "cd /home/wei/repo/VibeCodingTracker && grep -n \"Vibe.*Tracker\" src/cli.rs | head -5", name: "Grep", pattern: "Vibe.*Tracker", path: "/home/wei/repo/VibeCodingTracker/src/cli.rs"},
	{cmd: "grep -n '\"WebFetch\"' /Users/alex/workspace/cli/.worktrees/alex/test-explain-checkpoint-boundaries/docs/plans/full.jsonl | head -2", name: "Grep", pattern: "\"WebFetch\"", path: "/Users/alex/workspace/cli/.worktrees/alex/test-explain-checkpoint-boundaries/docs/plans/full.jsonl"},
	{cmd: "grep -B 5 -A 10 \"Reload the theme\" packages/coding-agent/src/theme/theme.ts", name: "Grep", pattern: "Reload the theme", path: "packages/coding-agent/src/theme/theme.ts"},
	{cmd: "rg -n \"resume|slash|completion|autocomplete|command|prompt|input|keydown|Tab|tab\" frontend/src --glob '!**/*.test.*'", name: "Grep", pattern: "resume|slash|completion|autocomplete|command|prompt|input|keydown|Tab|tab", path: "frontend/src"},
	{cmd: "rg -n \"results:|repo_path|auto_push\" packages apps docs examples .agentv -g '!node_modules'", name: "Grep", pattern: "results:|repo_path|auto_push", path: "packages"},
	{cmd: "grep -n \"new Markdown\" packages/tui/test/markdown.test.ts | grep \"0, 0)$\"", name: "Grep", pattern: "new Markdown", path: "packages/tui/test/markdown.test.ts"},
	{cmd: "grep -n \"type.*Temporary\" /Users/alex/workspace/cli/.worktrees/alex/ent-109-text-output-checkpoint-flag/cmd/entire/cli/checkpoint/*.go", name: "Grep", pattern: "type.*Temporary", path: "/Users/alex/workspace/cli/.worktrees/alex/ent-109-text-output-checkpoint-flag/cmd/entire/cli/checkpoint/*.go"},
	{cmd: "rg -n \"sk-[A-Za-z0-9]|Bearer [A-Za-z0-9]|secret|password\" live-proxy-dogfood README.md || true", name: "Grep", pattern: "sk-[A-Za-z0-9]|Bearer [A-Za-z0-9]|secret|password", path: "live-proxy-dogfood"},
	{cmd: "grep -n \"maxCommitsToSearch\" /Users/alex/workspace/cli/.worktrees/alex/ent-109-text-output-checkpoint-flag/cmd/entire/cli/explain.go || echo \"Not found\"", name: "Bash"},
	{cmd: "cd /home/entity/projects/EntityProcess/agentv && rg -n \"class Composite|type: 'composite'|composite\" packages/core/src/evaluation/graders -g\"*.ts\"", name: "Grep", pattern: "class Composite|type: 'composite'|composite", path: "/home/entity/projects/EntityProcess/agentv/packages/core/src/evaluation/graders"},
	{cmd: "rg -n \"setDefaultTimeout|timeout\" node_modules/@types/bun node_modules/bun-types 2>/dev/null | head -80", name: "Grep", pattern: "setDefaultTimeout|timeout", path: "node_modules/@types/bun"},
	{cmd: "git grep -n \"target.*variant\\|index.jsonl\\|row_id\" origin/main -- packages/core apps/cli docs/adr | head -n 120", name: "Grep", pattern: "target.*variant\\|index.jsonl\\|row_id", path: "packages/core"},
	{cmd: "rg -n --hidden -S \"Python|python\" | sed -n '1,200p'", name: "Grep", pattern: "Python|python"},
	{cmd: "grep \"export.*Theme\\|export.*SelectList\" packages/tui/src/index.ts", name: "Grep", pattern: "export.*Theme\\|export.*SelectList", path: "packages/tui/src/index.ts"},
	{cmd: "cd backend && rg -n \"create_sprite|provision_restore_candidate\" tests/test_managed_runtime_manager.py | head -50", name: "Grep", pattern: "create_sprite|provision_restore_candidate", path: "backend/tests/test_managed_runtime_manager.py"},

	// listings and globs
	{cmd: "ls -la /path/to/Demo/todo-app", name: "LS", path: "/path/to/Demo/todo-app"},
	{cmd: "ls -la scripts .workmux 2>/dev/null", name: "LS", path: "scripts"},
	{cmd: "ls -la", name: "LS"},
	{cmd: "tree /path/to/Demo -I 'node_modules|.git' -L 3", name: "LS", path: "/path/to/Demo"},
	{cmd: "ls /Users/alex/workspace/cli/docs/reviews/ 2>/dev/null || echo \"Directory does not exist\"", name: "Bash"},
	{cmd: "ls -la cmd/entire/cli/strategy/ | grep suffix", name: "LS", path: "cmd/entire/cli/strategy/"},
	{cmd: "echo hello && ls", name: "Bash"},
	{cmd: "pwd && ls -la", name: "Bash"},
	{cmd: "find wiki -maxdepth 3 -type f | sort | sed -n '1,160p'", name: "Glob", pattern: "**/*", path: "wiki"},
	{cmd: "find /path/to/Demo -type f -name \"*.tsx\" -o -name \"*.ts\" -o -name \"*.jsx\" -o -name \"*.js\" | head -20", name: "Glob", pattern: "*.tsx", path: "/path/to/Demo"},
	{cmd: "find apps/web/src -maxdepth 4 -type f | rg -n \"sidebar|nav|starlight|astro\"", name: "Glob", pattern: "**/*", path: "apps/web/src"},
	{cmd: "cd /home/entity/projects/EntityProcess/agentv && rg --files packages/core/src | rg 'eval-file\\.schema|eval-validator|zod'", name: "Glob", pattern: "**/*", path: "/home/entity/projects/EntityProcess/agentv/packages/core/src"},
	{cmd: "find packages/coding-agent -name \"main.ts\" -type f", name: "Glob", pattern: "main.ts", path: "packages/coding-agent"},
	{cmd: "find plugins -maxdepth 2 -name package.json -print", name: "Glob", pattern: "package.json", path: "plugins"},
	{cmd: "tree types/ 2>/dev/null || find types/ -type f -name \"*.ts\" | sed 's|types/||' | sort", name: "Bash"},
	{cmd: "git ls-files --others --exclude-standard", name: "Glob", pattern: "**/*"},
	{cmd: "git ls-files plugins/agentv-claude-trace .github/plugin/marketplace.json", name: "Glob", pattern: "**/*", path: "plugins/agentv-claude-trace"},
	{cmd: "find ~/.codex/sessions -type f -name '*.jsonl' -print 2>/dev/null | sort | tail -30", name: "Glob", pattern: "*.jsonl", path: "~/.codex/sessions"},
	{cmd: "find . -name '*.go' | xargs grep -l 'func main'", name: "Grep", pattern: "func main", path: "."},
	{cmd: "find .", name: "Glob", pattern: "**/*", path: "."},

	// writes and everything else stay Bash
	{cmd: "sed -i '' 's/new Editor()/new Editor(defaultEditorTheme)/g' packages/tui/test/editor.test.ts", name: "Bash"},
	{cmd: "cd /Users/badlogic/workspaces/pi-mono/packages/coding-agent/src && mv changelog.ts clipboard.ts config.ts fuzzy.ts shell.ts tools-manager.ts utils/", name: "Bash"},
	{cmd: "rm -f TODO.md && echo removed && rg -n \"TODO.md\" || true", name: "Bash"},
	{cmd: "cat > types/state.ts << 'EOF'\nimport { Todo } from './todo';\nEOF", name: "Bash"},
	{cmd: "cd /tmp && git init test-restore && cd test-restore && echo \"initial\" > file.txt && git add file.txt", name: "Bash"},
	{cmd: "git show origin/main:apps/cli/test/commands/results/serve.test.ts | sed -n '3940,4010p'", name: "Bash"},
	{cmd: "git diff -- apps/cli/src/commands/grade/index.ts", name: "Bash"},
	{cmd: "go build ./cmd/entire/cli 2>&1 | head -20", name: "Bash"},
	{cmd: "mise run lint 2>&1 | tail -30", name: "Bash"},
	{cmd: "for i in 1 2 3 4 5; do time ./entire help > /dev/null 2>&1; done", name: "Bash"},
	{cmd: "find \"$(go env GOMODCACHE)/github.com/posthog\" -name \"*.go\" 2>/dev/null | head -5", name: "Bash"},
	{cmd: "ls -la .git/hooks && for f in .git/hooks/*; do echo ===$f===; head -80 \"$f\" 2>/dev/null || true; done", name: "Bash"},
	{cmd: "python - <<'PY'\nimport inspect\nprint(1)\nPY", name: "Bash"},
	{cmd: "sed -n '1,220p' /Users/goose-guest/.codex/skills/using-entire/SKILL.md && entire status && git log --format='%h %s%n%b' -8", name: "Bash"},
	{cmd: "curl -sS http://127.0.0.1:10531/v1/models | head -c 1000 || true", name: "Bash"},
	{cmd: "npx tsc --noEmit --pretty 2>&1 | head -30", name: "Bash"},
	{cmd: "gh pr diff 1556", name: "Bash"},
	{cmd: "mkdir -p myapp", name: "Bash"},
}

// edgeCommands are written for the cases the corpus lacks.
var edgeCommands = []shellCase{
	{cmd: "bash -lc 'cat README.md'", name: "Read", file: "README.md"},
	{cmd: "sh -c \"cd src && grep -rn TODO .\"", name: "Grep", pattern: "TODO", path: "src"},
	{cmd: "cat a.txt | tee b.txt", name: "Bash"},
	{cmd: "cat a.txt > b.txt", name: "Bash"},
	{cmd: "cat a.txt >> b.txt", name: "Bash"},
	{cmd: "head -n 5 a.txt 2>&1 | tail -2", name: "Read", file: "a.txt"},
	{cmd: "find . -name '*.tmp' -delete", name: "Bash"},
	{cmd: "find . -name '*.go' -exec gofmt -l {} +", name: "Bash"},
	{cmd: "find . -type f | xargs rm", name: "Bash"},
	{cmd: "sort -o out.txt in.txt", name: "Bash"},
	{cmd: "awk '{ system(\"rm \" $1) }' list.txt", name: "Bash"},
	{cmd: "awk -F: '{print $1}' /etc/passwd", name: "Read", file: "/etc/passwd"},
	{cmd: "cat $(ls *.md)", name: "Bash"},
	{cmd: "cat `ls`", name: "Bash"},
	{cmd: "(cd src && cat a.go)", name: "Bash"},
	{cmd: "cat a.go &", name: "Bash"},
	{cmd: "diff <(sort a) <(sort b)", name: "Bash"},
	{cmd: "cd src && cat ../README.md", name: "Read", file: "README.md"},
	{cmd: "wc -l < data.csv", name: "Read", file: "data.csv"},
	{cmd: "jq -r '.name' package.json", name: "Read", file: "package.json"},
	{cmd: "echo hi", name: "Bash"},
	{cmd: "uniq in.txt out.txt", name: "Bash"},
	{cmd: "/bin/cat -n main.go # show it", name: "Read", file: "main.go"},
	{cmd: "cat a.md \\\n  b.md", name: "Read", file: "a.md", files: 2},
	{cmd: "rg --files | rg canon", name: "Glob", pattern: "**/*"},
	{cmd: "grep", name: "Bash"},
}

// TestShellReclassification: a canonical Bash call (the vocabulary's
// provider's) of each command becomes the tool the command is, with the
// members it names, and renders for every target as that target's shell
// tool (each provider's tests say which tool that is: its renderCases).
func TestShellReclassification(t *testing.T) {
	if len(realCommands) < 60 {
		t.Fatalf("only %d real commands", len(realCommands))
	}
	vocabulary := providertest.Vocabulary(t)
	shells := map[string][2]string{}
	for _, to := range canon.Targets() {
		shells[to] = shellOf(t, vocabulary, to)
	}
	for _, set := range [][]shellCase{realCommands, edgeCommands} {
		for _, c := range set {
			tool := &agt.Tool{NativeName: "Bash", NativeInput: obj("command", c.cmd)}
			canon.Normalize(vocabulary, tool)
			in := providertest.Members(t, tool.Input)
			if tool.Name != c.name {
				t.Errorf("%q: name %s, want %s (input %s)", c.cmd, tool.Name, c.name, tool.Input)
				continue
			}
			wantKind := map[string]string{"Read": "read", "Grep": "search", "Glob": "search", "LS": "search", "Bash": "execute"}[c.name]
			if tool.Kind != wantKind {
				t.Errorf("%q: kind %s, want %s", c.cmd, tool.Kind, wantKind)
			}
			check := func(k, want string) {
				t.Helper()
				got, _ := in[k].(string)
				if got != want {
					t.Errorf("%q: %s = %q, want %q", c.cmd, k, got, want)
				}
			}
			check("command", c.cmd)
			check("file_path", c.file)
			check("pattern", c.pattern)
			check("path", c.path)
			check("skill", c.skill)
			files, _ := in["files"].([]any)
			if len(files) != c.files {
				t.Errorf("%q: %d files, want %d", c.cmd, len(files), c.files)
			}
			// the command renders back as the shell tool of every target
			for _, to := range canon.Targets() {
				name, input := canon.Render(to, "", tool)
				want := shells[to][0]
				if name != want {
					t.Errorf("%q → %s: %s, want %s", c.cmd, to, name, want)
				}
				if got := providertest.Members(t, input); got[shells[to][1]] == nil {
					t.Errorf("%q → %s: no command in %s", c.cmd, to, input)
				}
			}
		}
	}
}

// shellOf is the shell tool of target to and its member that holds the
// command: what a canonical Bash call of the vocabulary's provider that
// no other tool stands for renders as.
func shellOf(t *testing.T, vocabulary, to string) [2]string {
	t.Helper()
	const cmd = "make -j2"
	tool := &agt.Tool{NativeName: "Bash", NativeInput: obj("command", cmd)}
	canon.Normalize(vocabulary, tool)
	name, input := canon.Render(to, "", tool)
	for k, v := range providertest.Members(t, input) {
		if v == cmd {
			return [2]string{name, k}
		}
	}
	t.Fatalf("→ %s: no shell tool: %s %s", to, name, input)
	return [2]string{}
}

// TestKeepShell: NormalizeKeep leaves every shell call a Bash call, its
// kind and via saying what a reclassified one does; normalizing a kept
// call again without it keeps it; every reclassified call says via shell.
func TestKeepShell(t *testing.T) {
	vocabulary := providertest.Vocabulary(t)
	for _, set := range [][]shellCase{realCommands, edgeCommands} {
		for _, c := range set {
			kept := &agt.Tool{NativeName: "Bash", NativeInput: obj("command", c.cmd)}
			canon.NormalizeKeep(vocabulary, "/w", kept)
			wantKind := map[string]string{"Read": "read", "Grep": "search", "Glob": "search", "LS": "search", "Bash": "execute"}[c.name]
			wantVia := map[bool]string{true: canon.ViaShell}[c.name != "Bash"]
			if kept.Name != "Bash" || kept.Kind != wantKind || kept.Via != wantVia {
				t.Errorf("%q kept: %s %s via %q, want Bash %s via %q", c.cmd, kept.Name, kept.Kind, kept.Via, wantKind, wantVia)
			}
			again := *kept
			canon.NormalizeIn(vocabulary, "/w", &again)
			if again.Name != "Bash" || again.Kind != kept.Kind || string(again.Input) != string(kept.Input) {
				t.Errorf("%q kept, normalized again: %s %s", c.cmd, again.Name, again.Kind)
			}
			re := &agt.Tool{NativeName: "Bash", NativeInput: obj("command", c.cmd)}
			canon.NormalizeIn(vocabulary, "/w", re)
			if (re.Name != "Bash") != (re.Via == canon.ViaShell) {
				t.Errorf("%q: %s via %q", c.cmd, re.Name, re.Via)
			}
		}
	}
}
