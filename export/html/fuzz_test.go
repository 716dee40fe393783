package html_test

import (
	"strings"
	"testing"

	"github.com/agt-project/agt/export/html"
)

// mdTags are the elements Markdown makes, and the attributes it gives them.
var mdTags = map[string]bool{"h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "p": true, "br": true, "ul": true, "ol": true,
	"li": true, "blockquote": true, "hr": true, "pre": true, "code": true, "strong": true, "em": true, "a": true}

// FuzzMarkdown checks that no text makes Markdown write an element, an
// attribute or an address of its own: only its elements, a class, and
// an http, https or mailto href.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{hostile, "# a\n- b\n  - c\n```js\nx<y\n```\n> q", "[a](https://x)[b](javascript:y)", "`a` **b** _c_ *d*", "1. x\n\n   y\n2) z", "~~~\n</pre>\n~~~"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\x00\r") {
			return // clean shows them as pictures before Markdown
		}
		out := string(html.Markdown(s))
		for _, m := range tagRE.FindAllStringSubmatch(out, -1) {
			if !mdTags[m[2]] {
				t.Fatalf("element %q from %q", m[0], s)
			}
			for _, a := range attrRE.FindAllStringSubmatch(m[3], -1) {
				switch name, val := a[1], a[2]; name {
				case "class", "rel":
				case "href":
					if !(strings.HasPrefix(val, "https://") || strings.HasPrefix(val, "http://") || strings.HasPrefix(val, "mailto:")) {
						t.Fatalf("href %q from %q", val, s)
					}
				default:
					t.Fatalf("attribute %q from %q", name, s)
				}
			}
		}
		if strings.Count(out, "<") != len(tagRE.FindAllString(out, -1)) {
			t.Fatalf("a < that opens no known tag in %q from %q", out, s)
		}
	})
}
