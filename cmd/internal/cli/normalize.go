package cli

import (
	"bytes"
	"strings"

	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/canon"
	"github.com/agt-project/agt/provider/price"
	"github.com/agt-project/agt/stage"
	"github.com/urfave/cli/v2"
)

// normalizeFlags are the flags of the normalize stage, shared by the filters
// that run it.
func normalizeFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "to", Usage: "render tool calls with provider `P`'s native names and parameter layout (" + targets() + ")"},
		&cli.StringFlag{Name: "model", Usage: "the `MODEL` of usage and assistant events that name none (codex exec --json), for their cost and context window"},
		&cli.BoolFlag{Name: "keep-shell", Usage: "keep every shell call a Bash call (one that only reads, lists or searches keeps its name, with its kind and via \"shell\" saying so; by default it becomes Read, LS, Glob or Grep), and every Claude Code call its own name"},
		&cli.StringFlag{Name: "prices", Usage: "price table `FILE` (LiteLLM's JSON format, or agt's) instead of the embedded one", TakesFile: true},
	}
}

// targets lists the providers --to and --tool-defs take.
func targets() string { return strings.Join(provider.Targets(), ", ") }

// normalizer builds the normalize transform from the flags.
func normalizer(c *cli.Context, _ IO) (*provider.Normalizer, error) {
	n := &provider.Normalizer{To: c.String("to"), Prices: price.Default(), Model: strings.TrimSpace(c.String("model")), KeepShell: c.Bool("keep-shell")}
	if n.To != "" && provider.Lookup(n.To) == nil {
		return nil, Usagef("--to %q: want one of %s", n.To, targets())
	}
	if f := c.String("prices"); f != "" {
		t, err := price.Load(f)
		if err != nil {
			return nil, err
		}
		n.Prices = t
	}
	return n, nil
}

// toolDefs prints provider p's tool definitions as a JSON array, one
// definition a line.
func toolDefs(io IO, p string) error {
	defs := canon.Definitions(p)
	if defs == nil {
		return Usagef("--tool-defs %q: want one of %s", p, targets())
	}
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, d := range defs {
		b.Write(d)
		if i < len(defs)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	_, err := io.Out.Write(b.Bytes())
	return err
}

// Normalize is agt-normalize: events (or logs) in, canonical events out.
func Normalize(io IO) *cli.App {
	io.Err = stage.Locked(io.Err) // the run's goroutines write to it too
	app := newApp(io, "agt-normalize", "give agt.event/1 events one tool vocabulary, usage meaning and cost",
		`Reads agt.event/1 events (from agt-parse) or provider logs (it parses them
itself) and writes the same events with canonical tool calls (name, kind,
origin, mcp, input: Read Write Edit Bash Grep Glob LS WebFetch WebSearch Task
TodoWrite Skill …, mcp__<server>__<tool>), and cost_usd and context_window on
usage events from an embedded price table (cost_usd is the agent's own figure,
native_cost_usd, for a model the table does not price). native_name and native_input are
never changed; normalizing twice changes nothing; every event in is one out.

Examples:
   agt-parse rollout.jsonl | agt-normalize | jq 'select(.kind=="tool_call") | .tool.name'
   agt-normalize session.jsonl | jq -s 'map(.usage.cost_usd // 0) | add'
   agt-normalize --to codex claude-session.jsonl     # Claude tool calls in Codex's layout
   agt-normalize --prices my-prices.json logs/
   agt-normalize -f --follow-timeout 10m ~/.codex/sessions/   # new rollouts as they are written
   agt-normalize --tool-defs gemini                 # the tools a Gemini facade offers

`+followHelp+`

Exit status: 0 done (or following ended), 1 an input could not be read or a
data error under --strict, 2 usage error, 130 interrupted.`)
	app.ArgsUsage = "[PATH...]"
	app.Flags = append(append(inputFlags(), normalizeFlags()...), followFlags()...)
	app.Flags = append(app.Flags, &cli.StringFlag{Name: "tool-defs", Usage: "print provider `P`'s tool definitions (name, description, JSON Schema of the input) as its API takes them, and exit"})
	app.Action = func(c *cli.Context) error {
		if p := c.String("tool-defs"); p != "" {
			return toolDefs(io, p)
		}
		cfg, err := parseConfig(c)
		if err != nil {
			return err
		}
		n, err := normalizer(c, io)
		if err != nil {
			return err
		}
		cfg.Transform, cfg.Prepare = n.Event, n.Prepare
		fl, inputs, failed, err := start(c, io, cfg)
		if err != nil {
			return err
		}
		limitMemory()
		st, err := read(c, cfg, fl, inputs, stage.NewJSONL(io.Out), io.Err)
		return outcome(st, err, failed)
	}
	return app
}
