package export_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var (
	harborOnce   sync.Once
	harborSchema *jsonschema.Schema
	harborErr    error
)

// harbor is the strict schema of ATIF as Harbor's pydantic models accept it
// (testdata/export/atif-harbor.schema.json).
func harbor(t testing.TB) *jsonschema.Schema {
	harborOnce.Do(func() {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		harborSchema, harborErr = c.Compile(filepath.Join(providertest.RepoRoot(t), "testdata", "export", "atif-harbor.schema.json"))
	})
	if harborErr != nil {
		t.Fatal(harborErr)
	}
	return harborSchema
}

// harborCheck is why Harbor's models would reject the ATIF document b, or
// nil: the schema, then the models' validators across objects, in every
// trajectory (embedded ones included): step ids 1, 2, …; no tool_call_id
// twice in a step; every source_call_id a call of its step; embedded
// trajectories with unique trajectory_ids; every reference without a path
// resolved among the trajectory's own embedded ones.
func harborCheck(t testing.TB, b []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	if err := harbor(t).Validate(doc); err != nil {
		return err
	}
	var tr harborTrajectory
	if err := json.Unmarshal(b, &tr); err != nil {
		return err
	}
	return tr.check("")
}

type harborTrajectory struct {
	TrajectoryID *string `json:"trajectory_id"`
	Steps        []struct {
		StepID    int `json:"step_id"`
		ToolCalls []struct {
			ID string `json:"tool_call_id"`
		} `json:"tool_calls"`
		Observation *struct {
			Results []struct {
				SourceCallID *string `json:"source_call_id"`
				Refs         []struct {
					TrajectoryID   *string `json:"trajectory_id"`
					TrajectoryPath *string `json:"trajectory_path"`
				} `json:"subagent_trajectory_ref"`
			} `json:"results"`
		} `json:"observation"`
	} `json:"steps"`
	Subagents []harborTrajectory `json:"subagent_trajectories"`
}

func (tr *harborTrajectory) check(at string) error {
	for i, s := range tr.Steps {
		if s.StepID != i+1 {
			return fmt.Errorf("%ssteps[%d].step_id: expected %d, got %d", at, i, i+1, s.StepID)
		}
	}
	seen := map[string]bool{}
	for i := range tr.Subagents {
		sub := &tr.Subagents[i]
		if sub.TrajectoryID == nil {
			return fmt.Errorf("%ssubagent_trajectories[%d].trajectory_id is required", at, i)
		}
		if seen[*sub.TrajectoryID] {
			return fmt.Errorf("%ssubagent_trajectories[%d].trajectory_id %q is not unique", at, i, *sub.TrajectoryID)
		}
		seen[*sub.TrajectoryID] = true
	}
	for _, s := range tr.Steps {
		if s.Observation == nil {
			continue
		}
		for _, r := range s.Observation.Results {
			for _, ref := range r.Refs {
				if ref.TrajectoryPath != nil && *ref.TrajectoryPath != "" {
					continue
				}
				if ref.TrajectoryID == nil || !seen[*ref.TrajectoryID] {
					return fmt.Errorf("%sstep %d: subagent_trajectory_ref %v not in subagent_trajectories", at, s.StepID, ref.TrajectoryID)
				}
			}
		}
	}
	for _, s := range tr.Steps {
		calls := map[string]bool{}
		for _, c := range s.ToolCalls {
			if calls[c.ID] {
				return fmt.Errorf("%sstep %d has duplicate tool_call_id %q", at, s.StepID, c.ID)
			}
			calls[c.ID] = true
		}
		if s.Observation == nil {
			continue
		}
		for _, r := range s.Observation.Results {
			if r.SourceCallID != nil && !calls[*r.SourceCallID] {
				return fmt.Errorf("%sstep %d: source_call_id %q is not a tool call of the step", at, s.StepID, *r.SourceCallID)
			}
		}
	}
	for i := range tr.Subagents {
		if err := tr.Subagents[i].check(fmt.Sprintf("%ssubagent_trajectories[%d].", at, i)); err != nil {
			return err
		}
	}
	return nil
}

// harborDirs are the corpus folders whose sessions TestATIFHarbor exports:
// every agent's logs, the live captures and the other agents'.
func harborDirs(t testing.TB) []string { return append(corpusProviders(t), "live", "other") }

// TestATIFHarbor exports every corpus session and live capture as ATIF and
// checks each document as Harbor's models would; it counts the documents
// checked and accepted.
func TestATIFHarbor(t *testing.T) {
	corpus := providertest.CorpusDir(t)
	bin := agtTranscript(t)
	var checked, accepted int
	for _, d := range harborDirs(t) {
		out, err := exec.Command(bin, "-q", "--format", "atif", filepath.Join(corpus, d)).Output()
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		for i, line := range bytes.SplitAfter(out, []byte{'\n'}) {
			if len(line) == 0 {
				continue
			}
			checked++
			if err := harborCheck(t, line); err != nil {
				t.Errorf("%s: document %d: Harbor would reject it: %v", d, i+1, err)
				continue
			}
			accepted++
		}
	}
	t.Logf("ATIF: %d documents checked, %d accepted by Harbor's models", checked, accepted)
}

// TestHarborCheck: harborCheck accepts a document Harbor's models accept
// and rejects each thing they reject.
func TestHarborCheck(t *testing.T) {
	good := `{"schema_version":"ATIF-v1.8","session_id":"s","agent":{"name":"a","version":"1"},"steps":[` +
		`{"step_id":1,"source":"user","message":"hi"},` +
		`{"step_id":2,"source":"agent","message":"","tool_calls":[{"tool_call_id":"c1","function_name":"Task","arguments":{}}],` +
		`"observation":{"results":[{"source_call_id":"c1","content":"done","subagent_trajectory_ref":[{"trajectory_id":"s/sub"}]}]},"metrics":{"prompt_tokens":1}}],` +
		`"subagent_trajectories":[{"schema_version":"ATIF-v1.8","trajectory_id":"s/sub","agent":{"name":"a","version":"1"},"steps":[{"step_id":1,"source":"agent","message":"x"}]}]}`
	if err := harborCheck(t, []byte(good)); err != nil {
		t.Fatalf("a good document: %v", err)
	}
	for _, c := range []struct{ what, from, to string }{
		{"empty steps", `"steps":[{"step_id":1,"source":"agent","message":"x"}]`, `"steps":[]`},
		{"a field the models do not have", `"session_id":"s",`, `"session_id":"s","tags":[],`},
		{"a gap in step ids", `{"step_id":2,`, `{"step_id":3,`},
		{"a tool call twice in a step", `"tool_calls":[{"tool_call_id":"c1","function_name":"Task","arguments":{}}]`, `"tool_calls":[{"tool_call_id":"c1","function_name":"Task","arguments":{}},{"tool_call_id":"c1","function_name":"Task","arguments":{}}]`},
		{"a result of no call of the step", `"source_call_id":"c1"`, `"source_call_id":"c2"`},
		{"a reference to no embedded trajectory", `"subagent_trajectory_ref":[{"trajectory_id":"s/sub"}]`, `"subagent_trajectory_ref":[{"trajectory_id":"s/other"}]`},
		{"a reference without id or path", `"subagent_trajectory_ref":[{"trajectory_id":"s/sub"}]`, `"subagent_trajectory_ref":[{"session_id":"s"}]`},
		{"an embedded trajectory without id", `"trajectory_id":"s/sub",`, ``},
		{"tool calls on a user step", `{"step_id":1,"source":"user","message":"hi"}`, `{"step_id":1,"source":"user","message":"hi","tool_calls":[]}`},
		{"reasoning on a system step", `{"step_id":1,"source":"user","message":"hi"}`, `{"step_id":1,"source":"system","message":"hi","reasoning_content":"r"}`},
		{"arguments that are not an object", `"arguments":{}`, `"arguments":"x"`},
		{"a text part without text", `"message":"hi"`, `"message":[{"type":"text"}]`},
		{"a negative llm_call_count", `"message":"x"}]}]}`, `"message":"x","llm_call_count":-1}]}]}`},
		{"a bad timestamp", `"message":"hi"}`, `"message":"hi","timestamp":"yesterday"}`},
	} {
		bad := strings.Replace(good, c.from, c.to, 1)
		if bad == good {
			t.Fatalf("%s: %q not in the document", c.what, c.from)
		}
		if err := harborCheck(t, []byte(bad)); err == nil {
			t.Errorf("%s: accepted", c.what)
		}
	}
}
