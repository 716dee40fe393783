package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSchemas: every line agt-normalize and agt-transcript write over the
// corpus, the new agents' samples and the licensed testdata is valid
// against the JSON Schema of its kind (docs/schema), and every field the
// filters write is one the schema names (the schemas refuse others), so
// that a field added to the code and not to the contract fails here.
func TestSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("over the corpus: run without -short (the race run leaves it out)")
	}
	root := providertest.RepoRoot(t)
	corpus := providertest.CorpusDir(t)
	inputs := []string{filepath.Join(root, "testdata"), corpus, filepath.Join(corpus, "..", "agents-next")}
	for _, c := range []struct {
		app    App
		schema string
	}{
		{Normalize, "agt.event-1.schema.json"},
		{Transcript, "agt.transcript-1.schema.json"},
	} {
		t.Run(c.schema, func(t *testing.T) {
			sch, err := jsonschema.NewCompiler().Compile(filepath.Join(root, "docs", "schema", c.schema))
			if err != nil {
				t.Fatal(err)
			}
			args := append([]string{"-q", "-j", "2"}, inputs...)
			code, out, errs := runCode(t, c.app, nil, args...)
			if code != 0 && code != ExitFailure { // the corpus holds unreadable inputs on purpose
				t.Fatalf("exit %d: %s", code, errs)
			}
			n, bad := 0, 0
			sc := bufio.NewScanner(bytes.NewReader([]byte(out)))
			sc.Buffer(nil, 1<<30)
			for sc.Scan() {
				n++
				v, err := jsonschema.UnmarshalJSON(bytes.NewReader(sc.Bytes()))
				if err != nil {
					t.Fatalf("line %d: %v", n, err)
				}
				if err := sch.Validate(v); err != nil {
					if bad++; bad <= 5 {
						var head struct {
							Src           struct{ Path string } `json:"src"`
							Kind, Session string
						}
						json.Unmarshal(sc.Bytes(), &head)
						t.Errorf("line %d (%s %s %s): %v", n, head.Kind, head.Session, head.Src.Path, err)
					}
				}
			}
			if bad > 0 || n == 0 {
				t.Errorf("%d of %d lines invalid", bad, n)
			}
		})
	}
}
