package canon

import (
	"strings"
	"testing"
)

// TestLex: the words and operators of commands, a word met whole (no
// quote, escape or expansion in it) taken as it is in the command and one
// built from parts the same.
func TestLex(t *testing.T) {
	cases := []struct{ in, want string }{ // want: words, and operators in <>
		{"ls -la src", "ls|-la|src"},
		{"  ls\t-la  ", "ls|-la"},
		{"cat a.txt|wc -l", "cat|a.txt|<|>|wc|-l"},
		{"cd /x && make test; echo ok", "cd|/x|<&&>|make|test|<;>|echo|ok"},
		{"grep -rn foo 2>/dev/null", "grep|-rn|foo|<>>|/dev/null"},
		{"make 2>&1 | tail", "make|<|>|tail"},
		{"echo a>b", "echo|a|<>>|b"},
		{"echo 12>b", "echo|<>>|b"},
		{`x"y z"w 'q'r`, "xy zw|qr"},
		{`a\ b c`, "a b|c"},
		{"echo $HOME/x a$b", "echo|$HOME/x|a$b"},
		{"echo a#b # a comment", "echo|a#b"},
		{"(cd x)", "<(>|cd|x|<)>"},
		{"sed -n 1,20p f\nnl f", "sed|-n|1,20p|f|<;>|nl|f"},
		{"héllo wörld", "héllo|wörld"},
	}
	for _, c := range cases {
		toks, ok := lex(c.in)
		if !ok {
			t.Errorf("lex(%q): not lexed", c.in)
			continue
		}
		var got []string
		for _, tk := range toks {
			if tk.op != "" {
				got = append(got, "<"+tk.op+">")
			} else {
				got = append(got, tk.word)
			}
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("lex(%q) = %s, want %s", c.in, g, c.want)
		}
	}
}

func BenchmarkLex(b *testing.B) {
	cmds := []string{
		"ls -la src/components",
		"sed -n '1,200p' internal/server/handler.go",
		`rg -n "func main" --glob '*.go' .`,
		"cd /home/user/project && go test ./... 2>&1 | tail -50",
		"git status --short && git diff --stat",
	}
	for b.Loop() {
		for _, c := range cmds {
			lex(c)
		}
	}
}
