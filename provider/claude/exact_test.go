package claude

import "testing"

// TestExactKeys: a record's keys are its fields' only in their exact case
// (agt.DecodeExact), the content blocks' too; the corpus reads the same.
func TestExactKeys(t *testing.T) {
	d, err := decodeRecord([]byte(`{"type":"assistant","UUID":"u","sessionId":"s","message":{"role":"assistant","content":[{"Type":"text","text":"hi"}]}}`), false)
	if err != nil {
		t.Fatal(err)
	}
	if d.rec.Type != "assistant" || d.rec.SessionID != "s" || d.rec.UUID != "" {
		t.Errorf("type %q, session %q, uuid %q: want assistant, s, and no uuid (its key is UUID)", d.rec.Type, d.rec.SessionID, d.rec.UUID)
	}
	if len(d.blocks) != 1 || d.blocks[0].Type != "" || string(d.blocks[0].Text) != `"hi"` {
		t.Errorf("blocks %+v: want one block with no type (its key is Type)", d.blocks)
	}
}
