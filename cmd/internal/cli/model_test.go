package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
)

// TestModelFlag runs Codex exec --json output, which names no model, with
// and without --model through every filter that normalizes. Without it, the
// cost that cannot be computed says why: one stderr line per run naming
// --model, however many usage events and files lack a model.
func TestModelFlag(t *testing.T) {
	in := filepath.Join(providertest.CorpusDir(t), "live", "codex-exec-json", "gen__codex-0.169.0__tools.jsonl")
	in2 := filepath.Join(providertest.CorpusDir(t), "live", "codex-exec-json", "gen__codex-0.169.0__resume.jsonl")
	cases := []struct {
		name    string
		app     App
		args    []string
		stdout  []string
		without []string
		stderr  string // "" : none
	}{
		{"normalize", Normalize, []string{in, "--model", "gpt-5"}, []string{`"model":"gpt-5"`, `"cost_usd":`, `"context_window":272000`}, nil, ""},
		{"normalize none", Normalize, []string{in}, nil, []string{`"model":`, `"cost_usd":`}, "agt-normalize: usage without a model: no cost; give --model M\n"},
		{"normalize none twice", Normalize, []string{in, in2}, nil, []string{`"cost_usd":`}, "agt-normalize: usage without a model: no cost; give --model M\n"},
		{"normalize unknown", Normalize, []string{"--model=nosuch-model", in}, []string{`"model":"nosuch-model"`}, []string{`"cost_usd":`}, `no price for model "nosuch-model"`},
		{"transcript", Transcript, []string{in, "--model", "gpt-5"}, []string{`"model":"gpt-5"`, `"context_window":272000`, `"cost_usd":`}, nil, ""},
		{"transcript none", Transcript, []string{in}, nil, []string{`"cost_usd":`}, "agt-transcript: usage without a model: no cost; give --model M\n"},
		{"streamlog none", Streamlog, []string{"--mode", "raw", in}, nil, []string{`"cost_usd":`}, "agt-streamlog: usage without a model: no cost; give --model M\n"},
		{"streamlog", Streamlog, []string{"--mode", "raw", in, "--model", "gpt-5"}, []string{`"model":"gpt-5"`, `"cost_usd":`}, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Run(context.Background(), c.app(IO{In: strings.NewReader(""), Out: &out, Err: &errb}), append([]string{"agt"}, c.args...))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			for _, s := range c.stdout {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %s", s)
				}
			}
			for _, s := range c.without {
				if strings.Contains(out.String(), s) {
					t.Errorf("stdout holds %s", s)
				}
			}
			if c.stderr == "" && errb.Len() > 0 {
				t.Errorf("stderr: %s", errb.String())
			}
			if c.stderr != "" && strings.Count(errb.String(), c.stderr) != 1 {
				t.Errorf("stderr should say once %q: %s", c.stderr, errb.String())
			}
		})
	}
}
