package export_test

import (
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
)

// TestResultText reads tool results in the shapes the agents write them:
// text blocks become their text, anything else stays JSON.
func TestResultText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`, "a\nb"},
		{`[{"type":"input_text","text":"a.txt\nb.txt\n"}]`, "a.txt\nb.txt\n"},
		{`[{"type":"content","content":{"type":"text","text":"File not found"}}]`, "File not found"},
		{`[{"type":"text","text":"x","tool_name":"Read","source":"s"}]`, "x"},
		{`[{"type":"text","text":"x"},{"type":"image","source":{"data":"AAA"}}]`, `[{"type":"text","text":"x"},{"type":"image","source":{"data":"AAA"}}]`},
		{`[{"type":"diff","path":"a"}]`, `[{"type":"diff","path":"a"}]`},
		{`[]`, `[]`},
		{`{"ok":true}`, `{"ok":true}`},
		{``, ``},
	} {
		if got := export.ResultText(agt.Raw(c.in)); got != c.want {
			t.Errorf("ResultText(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}
