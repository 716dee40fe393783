package transcript_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var (
	schemasOnce sync.Once
	schemas     map[string]*jsonschema.Schema
	schemasErr  error
)

// schema is the JSON Schema of agt.event/1 or agt.transcript/1 kept in
// docs/schema/.
func schema(t testing.TB, name string) *jsonschema.Schema {
	schemasOnce.Do(func() {
		schemas = map[string]*jsonschema.Schema{}
		for _, n := range []string{"agt.event-1", "agt.transcript-1"} {
			c := jsonschema.NewCompiler()
			s, err := c.Compile(filepath.Join(providertest.RepoRoot(t), "docs", "schema", n+".schema.json"))
			if err != nil {
				schemasErr = err
				return
			}
			schemas[n] = s
		}
	})
	if schemasErr != nil {
		t.Fatal(schemasErr)
	}
	return schemas[name]
}

// validLines checks each line of b against the schema name.
func validLines(t testing.TB, name, file string, b []byte) int {
	t.Helper()
	s := schema(t, name)
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<30)
	n := 0
	for sc.Scan() {
		n++
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sc.Bytes()))
		if err != nil {
			t.Fatalf("%s:%d: %v", file, n, err)
		}
		if err := s.Validate(doc); err != nil {
			t.Errorf("%s:%d: %v", file, n, err)
		}
	}
	return n
}

// TestSchemas validates every golden transcript against the transcript
// schema and every golden event file against the event schema.
func TestSchemas(t *testing.T) {
	root := filepath.Join(providertest.RepoRoot(t), "testdata")
	var transcripts, events int
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		var name string
		switch {
		case strings.HasSuffix(p, ".transcript.jsonl"):
			name = "agt.transcript-1"
		case strings.Contains(filepath.ToSlash(rel), "/golden/") && strings.HasSuffix(p, ".jsonl"):
			name = "agt.event-1"
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if name == "agt.event-1" && !bytes.HasPrefix(b, []byte(`{"schema":"agt.event/1"`)) {
			return nil // another golden (a summary stream log)
		}
		n := validLines(t, name, rel, b)
		if name == "agt.transcript-1" {
			transcripts += n
		} else {
			events += n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if transcripts == 0 || events == 0 {
		t.Fatalf("%d transcripts, %d events validated", transcripts, events)
	}
	t.Logf("%d golden transcripts, %d golden events valid", transcripts, events)
}

// validTranscript checks tr against the transcript schema.
func validTranscript(t testing.TB, tr *transcript.Transcript) {
	t.Helper()
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	validLines(t, "agt.transcript-1", tr.Provider+" "+tr.NativeSession, b)
}

// TestSchemaOutcome holds the transcript schema to the outcome field: a
// transcript without one, or with a status not in the list, does not fit.
func TestSchemaOutcome(t *testing.T) {
	s := schema(t, "agt.transcript-1")
	base := `{"schema":"agt.transcript/1","session":"s","native_session":"n","provider":"claude","format":"claude-session","models":[],"messages":[],` +
		`"usage":{"scope":"session","input":0,"cache_read":0,"cache_write":0,"cache_write_1h":0,"output":0,"reasoning":0,"total":0},"subagents":[],` +
		`"counts":{"messages":0,"tool_calls":0,"tool_errors":0,"unpaired_calls":0,"unpaired_results":0,"errors":0,"unknown":0}`
	for _, c := range []struct {
		tail string
		ok   bool
	}{
		{`,"outcome":{"status":"max_turns","reason":"Reached maximum number of turns (1)","errors":1}}`, true},
		{`}`, false},
		{`,"outcome":{"status":"done","errors":0}}`, false},
		{`,"outcome":{"status":"success"}}`, false},
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(base + c.tail))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(doc); (err == nil) != c.ok {
			t.Errorf("%s: valid %v, want %v (%v)", c.tail, err == nil, c.ok, err)
		}
	}
}
