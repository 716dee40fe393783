package export

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/agt-project/agt"
)

// ErrNothing is the error of a renderer given a session with nothing it
// can show (no message in any of its conversations): the CLI leaves the
// session out with one line on stderr.
var ErrNothing = errors.New("nothing to show (no message), left out")

// textBlock is a content block of text (the Messages API's text, the
// Responses API's input_text and output_text), or an ACP content wrapper
// of one.
type textBlock struct {
	Type    string     `json:"type"`
	Text    *string    `json:"text"`
	Content *textBlock `json:"content"`
}

// textTypes are the block types that hold text.
var textTypes = map[string]bool{"text": true, "input_text": true, "output_text": true}

// ResultText is a tool result as text: a string's value; content blocks
// that are all text (or ACP content wrappers of text), their texts joined
// with newlines; any other value as its JSON (Text).
func ResultText(r agt.Raw) string {
	if len(r) == 0 || r[0] != '[' {
		return Text(r)
	}
	var blocks []textBlock
	if err := json.Unmarshal(r, &blocks); err != nil || len(blocks) == 0 {
		return Text(r)
	}
	texts := make([]string, len(blocks))
	for i, b := range blocks {
		if b.Type == "content" && b.Content != nil {
			b = *b.Content
		}
		if !textTypes[b.Type] || b.Text == nil {
			return Text(r)
		}
		texts[i] = *b.Text
	}
	return strings.Join(texts, "\n")
}

// Root is the index in convs of the conversation that stands for the
// session: its own, or, when that has no message (a Codex child rollout, a
// subagent's file read alone), the first subagent's that has one; -1 when
// no conversation has a message.
func Root(convs []Conv) int {
	for i := range convs {
		if len(convs[i].Messages) > 0 {
			return i
		}
	}
	return -1
}
