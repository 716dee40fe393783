package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestTranscriptRaw: agt-transcript --raw gives each message the records
// it was made from: every message but an unreadable line's has some, each
// is a line of the input (line formats), a record shows once in a row, the
// lines are valid against the schema, the pipe with agt-parse --raw gives
// the same bytes, and without --raw no message has any.
func TestTranscriptRaw(t *testing.T) {
	root := providertest.RepoRoot(t)
	sch, err := jsonschema.NewCompiler().Compile(filepath.Join(root, "docs", "schema", "agt.transcript-1.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, p := range corpusInputs(t) {
		if testing.Short() && i%5 != 0 {
			continue
		}
		name, _ := filepath.Rel(filepath.Dir(filepath.Dir(p)), p)
		ext := filepath.Ext(p)
		t.Run(name, func(t *testing.T) {
			fused := runApp(t, Transcript, nil, "-q", "--raw", p)
			piped := runApp(t, Transcript, runApp(t, Normalize, runApp(t, Parse, nil, "-q", "--raw", p), "-q"), "-q", "--raw")
			if !bytes.Equal(fused, piped) {
				t.Errorf("agt-transcript --raw differs from agt-parse --raw | agt-normalize | agt-transcript --raw:\n fused %.300s\n piped %.300s", fused, piped)
			}
			if plain := runApp(t, Transcript, nil, "-q", p); bytes.Contains(plain, []byte(`"raw":[`)) {
				t.Errorf("without --raw, a message has records: %.300s", plain)
			}
			var lines map[string]bool
			if ext == ".jsonl" {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				lines = map[string]bool{}
				for _, l := range strings.Split(string(data), "\n") {
					lines[strings.TrimSpace(l)] = true
				}
			}
			sc := bufio.NewScanner(bytes.NewReader(fused))
			sc.Buffer(nil, 1<<30)
			for sc.Scan() {
				v, err := jsonschema.UnmarshalJSON(bytes.NewReader(sc.Bytes()))
				if err != nil {
					t.Fatal(err)
				}
				if err := sch.Validate(v); err != nil {
					t.Fatalf("%v", err)
				}
				var tr struct {
					Messages  []rawMessage
					Subagents []struct{ Messages []rawMessage }
				}
				if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
					t.Fatal(err)
				}
				ms := tr.Messages
				for _, s := range tr.Subagents {
					ms = append(ms, s.Messages...)
				}
				for _, m := range ms {
					if len(m.Raw) == 0 && m.Kind != "error" {
						t.Errorf("message %d (%s) has no record", m.Index, m.Role)
					}
					for k, r := range m.Raw {
						if k > 0 && bytes.Equal(r, m.Raw[k-1]) {
							t.Errorf("message %d: record %d twice in a row", m.Index, k)
						}
						if lines != nil && !lines[string(r)] {
							t.Errorf("message %d: record %.200s is no line of the input", m.Index, r)
						}
					}
					seen[m.Role] = seen[m.Role] || len(m.Raw) > 0
				}
			}
		})
	}
	if !seen["user"] || !seen["assistant"] {
		t.Errorf("records seen on user messages %v, on assistant messages %v", seen["user"], seen["assistant"])
	}
}

type rawMessage struct {
	Index int
	Role  string
	Kind  string
	Raw   []json.RawMessage
}
