package cli

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/urfave/cli/v2"
)

// discoverFlag is --discover, shared by the filters that read provider
// input.
var discoverFlag = &cli.BoolFlag{Name: "discover", Usage: "also read the log folders every supported agent writes to on this machine (as their environment variables place them: CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, COPILOT_HOME, PI_CODING_AGENT_DIR, XDG_DATA_HOME…)"}

// found is a log folder (or database) of an agent found on this machine.
type found struct{ provider, path string }

// discover lists the log folders of the agents that exist, in the
// providers' order; a path that cannot be reached (missing, a symlink loop,
// no permission) is left out without a word, as is the same folder reached
// twice.
func discover(getenv func(string) string, home string) []found {
	var out []found
	var seen []os.FileInfo
next:
	for _, p := range provider.All() {
		l, ok := p.(provider.Locator)
		if !ok {
			continue
		}
		for _, path := range l.Logs(getenv, home) {
			st, err := os.Stat(path)
			if err != nil {
				continue
			}
			for _, s := range seen {
				if os.SameFile(s, st) {
					continue next
				}
			}
			seen = append(seen, st)
			out = append(out, found{p.Name(), path})
		}
	}
	return out
}

// places are the log folders the agents would write to on this machine
// (those discover looks for, found or not), with home written ~.
func places(getenv func(string) string, home string) []string {
	var out []string
	for _, p := range provider.All() {
		if l, ok := p.(provider.Locator); ok {
			for _, path := range l.Logs(getenv, home) {
				if home != "" && strings.HasPrefix(path, home+"/") {
					path = "~" + path[len(home):]
				}
				if !slices.Contains(out, path) {
					out = append(out, path)
				}
			}
		}
	}
	return out
}

// nothingFound is the line of a --discover that found no log folder: where
// it looked and which variables place the folders.
func nothingFound(getenv func(string) string, home string) string {
	var vars []string
	for _, v := range discoverVars() {
		vars = append(vars, v.name)
	}
	where := "HOME is not set"
	if p := places(getenv, home); len(p) > 0 {
		where = "looked in " + strings.Join(p, ", ")
	}
	return fmt.Sprintf("no agent log folder found (%s); set HOME or %s to where the agents write their logs", where, strings.Join(vars, ", "))
}

// trimmedEnv is os.Getenv, with a blank value read as unset.
func trimmedEnv(k string) string { return strings.TrimSpace(os.Getenv(k)) }

// homeDir is the user's home folder, "" when $HOME is unset or relative.
func homeDir() string {
	h := trimmedEnv("HOME")
	if !strings.HasPrefix(h, "/") {
		return ""
	}
	return h
}

// operands are the paths a run reads: the arguments, then the folders
// --discover finds; the summary line of what was found goes to stderr
// (unless -q). Operands are worked out once per run (Before).
func operands(c *cli.Context) []string {
	if ops, ok := c.App.Metadata["operands"].([]string); ok {
		return ops
	}
	return c.Args().Slice()
}

// discoverBefore is the Before hook of the filters: it adds what
// --discover finds to the operands.
func discoverBefore(c *cli.Context) error {
	ops := c.Args().Slice()
	if c.Bool("discover") {
		f := discover(trimmedEnv, homeDir())
		var names []string
		counts := map[string]int{}
		for _, x := range f {
			ops = append(ops, x.path)
			if counts[x.provider] == 0 {
				names = append(names, x.provider)
			}
			counts[x.provider]++
		}
		if !c.Bool("quiet") {
			msg := nothingFound(trimmedEnv, homeDir())
			if len(f) > 0 {
				var parts []string
				for _, n := range names {
					parts = append(parts, fmt.Sprintf("%s (%d)", n, counts[n]))
				}
				noun := "log folders"
				if len(f) == 1 {
					noun = "log folder"
				}
				msg = fmt.Sprintf("reading %d %s: %s", len(f), noun, strings.Join(parts, ", "))
			}
			fmt.Fprintf(c.App.ErrWriter, "%s: --discover: %s\n", c.App.Name, agt.Printable(msg))
		}
		if len(ops) == 0 {
			ops = []string{} // nothing to read (not stdin)
		}
	}
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata["operands"] = ops
	c.App.Metadata["discover"] = c.Bool("discover")
	return nil
}
