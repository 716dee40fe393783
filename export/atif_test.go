package export_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/export"
	"github.com/agt-project/agt/export/atif"
	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/transcript"
)

func call(id, name, status, output string) transcript.ToolCall {
	tc := transcript.ToolCall{ID: id, Name: name, NativeName: name, Input: agt.Raw(`{}`), Status: status}
	if output != "" {
		tc.Output = agt.Raw(output)
	}
	return tc
}

func msg(role, text string, calls ...transcript.ToolCall) transcript.Message {
	return transcript.Message{Role: role, Text: agt.String(text), ToolCalls: calls}
}

// TestATIFShapes renders sessions in the shapes Harbor's models are
// strict about: a subagent started by a subagent's call (nested, and
// referred to by that call even without a result), a tool call id twice
// in a step, a session whose own conversation is empty, and one with no
// message at all.
func TestATIFShapes(t *testing.T) {
	tr := &transcript.Transcript{Session: "agt-1", NativeSession: "s", Provider: providertest.Stub,
		Messages: []transcript.Message{
			msg(transcript.RoleUser, "go"),
			msg(transcript.RoleAssistant, "", call("t1", "Task", transcript.StatusOK, `[{"type":"text","text":"a"},{"type":"text","text":"b"}]`),
				call("d", "Bash", transcript.StatusOK, `"1"`), call("d", "Bash", transcript.StatusError, `"2"`)),
		},
		Subagents: []transcript.Subagent{
			{Stream: "sidechain:A", ToolCallID: "t1", Messages: []transcript.Message{msg(transcript.RoleAssistant, "", call("t2", "Task", transcript.StatusUnknown, ""))}},
			{Stream: "sidechain:B", ToolCallID: "t2", Messages: []transcript.Message{msg(transcript.RoleAssistant, "done")}},
			{Stream: "sidechain:C", Messages: []transcript.Message{msg(transcript.RoleAssistant, "warmup")}},
		},
	}
	var b bytes.Buffer
	if err := atif.Write(&b, tr); err != nil {
		t.Fatal(err)
	}
	if err := harborCheck(t, b.Bytes()); err != nil {
		t.Fatalf("Harbor would reject it: %v\n%s", err, b.Bytes())
	}
	var got atif.Trajectory
	json.Unmarshal(b.Bytes(), &got)
	step := got.Steps[1]
	ids := []string{step.ToolCalls[0].ToolCallID, step.ToolCalls[1].ToolCallID, step.ToolCalls[2].ToolCallID}
	if ids[0] != "t1" || ids[1] != "d" || ids[2] != "d#2" || step.ToolCalls[2].Extra["native_id"] != "d" {
		t.Errorf("tool call ids %v", ids)
	}
	r := step.Observation.Results
	if len(r) != 3 || *r[0].Content != "a\nb" || r[2].SourceCallID != "d#2" || *r[2].Content != "2" ||
		len(r[0].Subagents) != 1 || r[0].Subagents[0].TrajectoryID != "s/sidechain:A" {
		t.Errorf("results %+v", r)
	}
	if len(got.Subagents) != 2 || got.Subagents[0].TrajectoryID != "s/sidechain:A" || got.Subagents[1].TrajectoryID != "s/sidechain:C" {
		t.Fatalf("embedded %+v", got.Subagents)
	}
	a := got.Subagents[0]
	if len(a.Subagents) != 1 || a.Subagents[0].TrajectoryID != "s/sidechain:B" {
		t.Errorf("sidechain:A embeds %+v", a.Subagents)
	}
	if res := a.Steps[0].Observation.Results; len(res) != 1 || res[0].Content != nil || res[0].SourceCallID != "t2" || res[0].Subagents[0].TrajectoryID != "s/sidechain:B" {
		t.Errorf("sidechain:A's call of B: %+v", res)
	}

	child := &transcript.Transcript{Session: "agt-2", NativeSession: "c", Provider: providertest.Stub,
		Subagents: []transcript.Subagent{{Stream: "subagent:review", Messages: []transcript.Message{msg(transcript.RoleAssistant, "ok")}}}}
	b.Reset()
	if err := atif.WriteV17(&b, child); err != nil {
		t.Fatal(err)
	}
	got = atif.Trajectory{}
	json.Unmarshal(b.Bytes(), &got)
	if err := harborCheck(t, b.Bytes()); err != nil || got.SchemaVersion != atif.V17 || len(got.Steps) != 1 || got.Extra["stream"] != "subagent:review" || len(got.Subagents) != 0 {
		t.Errorf("a child rollout: %v %s", err, b.Bytes())
	}

	b.Reset()
	if err := atif.Write(&b, &transcript.Transcript{Session: "agt-3", NativeSession: "e", Provider: providertest.Stub}); !errors.Is(err, export.ErrNothing) || b.Len() != 0 {
		t.Errorf("an empty session: %v, %q", err, b.Bytes())
	}
}
