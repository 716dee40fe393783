package price

import (
	"regexp"
	"strings"
)

// canon is the fixed sequence of rewrites that turns a model id as agents
// and gateways write it into LiteLLM's spelling. Each step applies to the
// result of the one before.
var canon = []struct {
	name string
	re   *regexp.Regexp
	repl string
}{
	{"path prefix (anthropic/, openrouter/anthropic/, models/)", regexp.MustCompile(`^.*/`), ""},
	{"Claude Code context suffix ([1m])", regexp.MustCompile(`\[[^\]]*\]$`), ""},
	{"Bedrock version (-v1:0)", regexp.MustCompile(`-v\d+(:\d+)?$`), ""},
	{"variant suffix (:high, :0, :free)", regexp.MustCompile(`:[^:]*$`), ""},
	{"Vertex date (@20250929)", regexp.MustCompile(`@`), "-"},
	{"Bedrock region and vendor (us.anthropic.)", regexp.MustCompile(`^([a-z]+\.)+`), ""},
}

// claudeDots writes Claude's dotted versions with dashes (claude-opus-4.8).
var claudeDots = regexp.MustCompile(`^(claude-.*?)(\d+)\.(\d+)`)

// dateSuffix is a model id's snapshot date: -20250929 or -2025-08-07.
var dateSuffix = regexp.MustCompile(`^(.+)-(\d{8}|\d{4}-\d{2}-\d{2})$`)

func splitDate(id string) (base, date string) {
	m := dateSuffix.FindStringSubmatch(id)
	if m == nil {
		return id, ""
	}
	return m[1], m[2]
}

// Match returns the id of the table entry model is priced by. The order of
// attempts is fixed (see the package doc), so the choice is deterministic.
func (t *Table) Match(model string) (string, bool) {
	if v, ok := t.matched.Load(model); ok {
		id := v.(string)
		return id, id != ""
	}
	id := t.match(model)
	t.matched.Store(model, id)
	return id, id != ""
}

func (t *Table) match(model string) string {
	s := strings.ToLower(strings.TrimSpace(model))
	if s == "" {
		return ""
	}
	if _, ok := t.models[s]; ok {
		return s
	}
	c := s
	for _, step := range canon {
		c = step.re.ReplaceAllString(c, step.repl)
	}
	cands := []string{c}
	for d := claudeDots.ReplaceAllString(c, "$1$2-$3"); d != cands[len(cands)-1]; d = claudeDots.ReplaceAllString(d, "$1$2-$3") {
		cands = append(cands, d)
	}
	last := cands[len(cands)-1]
	for _, c := range cands {
		if id := t.dated(c); id != "" {
			return id
		}
	}
	// Last resort: a gateway's own prefix (aide-gpt-5).
	for i := strings.IndexByte(last, '-'); i >= 0; {
		rest := last[i+1:]
		if id := t.dated(rest); id != "" {
			return id
		}
		j := strings.IndexByte(rest, '-')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return ""
}

// dated looks id up as is, then without its date, then (undated) as its
// latest dated entry.
func (t *Table) dated(id string) string {
	if id == "" {
		return ""
	}
	if _, ok := t.models[id]; ok {
		return id
	}
	base, date := splitDate(id)
	if date != "" {
		if _, ok := t.models[base]; ok {
			return base
		}
	}
	return t.latest[base]
}
