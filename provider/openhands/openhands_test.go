package openhands_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/provider/openhands"
	"github.com/agt-project/agt/provider/providertest"
)

// TestGolden parses real trajectories and compares the events with
// reviewed golden files.
func TestGolden(t *testing.T) {
	providertest.GoldenFiles(t, "openhands", true, "*.json", "v1/*")
}

func TestSniff(t *testing.T) {
	const ev = `{"id":0,"timestamp":"2025-01-27T22:44:56.900854","source":"user","message":"hi","action":"message","args":{"content":"hi"}}`
	providertest.Sniff(t, openhands.Provider{}, []providertest.SniffCase{
		{"trajectory", agt.Head{Doc: []byte("[\n  " + ev + "\n]")}, openhands.FormatTrajectory},
		{"one-line trajectory", providertest.Head("[" + ev + "]"), openhands.FormatTrajectory},
		{"folder line", providertest.Head(`{"openhands":"s","file":"/x/events/0.json","event":` + ev + `}`), openhands.FormatEvents},
		{"array of other objects", agt.Head{Doc: []byte(`[{"id":1,"title":"x"}]`)}, ""},
		{"continue index", agt.Head{Doc: []byte(`[{"sessionId":"s","title":"t","dateCreated":"1","workspaceDirectory":"/w"}]`)}, ""},
		{"event without source", agt.Head{Doc: []byte(`[{"id":0,"timestamp":"t","action":"message"}]`)}, ""},
	})
}

// TestUsage: each model response counts once, with the agent's own figures
// (LiteLLM's usage in tool_call_metadata.model_response): totals 4621 and
// 4823 (claude-3-5-sonnet, 3482 tokens written then read from the cache),
// and 2483 (gpt-4o, 2304 of 2473 prompt tokens cached).
func TestUsage(t *testing.T) {
	for _, c := range []struct {
		file                       string
		n                          int
		input, read, write, output int64
	}{
		{"All-Hands-AI__OpenHands__trajs-basic.json", 2, 4 + 6, 3482, 3482 + 1158, 1135 + 177},
		{"All-Hands-AI__OpenHands__trajs-basic_interactions.json", 1, 169, 2304, 0, 10},
	} {
		out, _, _ := providertest.Parse(t, provider.Config{}, providertest.Testdata(t, "openhands", c.file))
		n := 0
		var sum agt.Usage
		for _, ev := range providertest.Events(t, out) {
			if ev.Kind == agt.KindUsage {
				n++
				sum.Add(ev.Usage)
			}
		}
		if n != c.n || sum.Input != c.input || sum.CacheRead != c.read || sum.CacheWrite != c.write || sum.Output != c.output ||
			sum.Total != c.input+c.read+c.write+c.output {
			t.Errorf("%s: %d usage events, sum %+v", c.file, n, sum)
		}
	}
}

// TestEventFolder writes the events of a real trajectory as a session's
// event folder (<sid>/events/<id>.json, as OpenHands stores them) and reads
// the folder: the same events as the trajectory, in the session named
// after the folder, each naming its file.
func TestEventFolder(t *testing.T) {
	b, err := os.ReadFile(providertest.Testdata(t, "openhands", "All-Hands-AI__OpenHands__trajs-basic.json"))
	if err != nil {
		t.Fatal(err)
	}
	var evs []json.RawMessage
	if err := json.Unmarshal(b, &evs); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "sessions", "abc123", "events")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		var id struct{ ID int }
		json.Unmarshal(e, &id)
		var pretty bytes.Buffer
		json.Indent(&pretty, e, "", "  ")
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(id.ID)+".json"), pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := providertest.ParseClean(t, provider.Config{}, filepath.Dir(dir))
	want, _, _ := providertest.Parse(t, provider.Config{}, providertest.Testdata(t, "openhands", "All-Hands-AI__OpenHands__trajs-basic.json"))
	got := providertest.Events(t, out)
	ref := providertest.Events(t, want)
	if len(got) != len(ref) {
		t.Fatalf("%d events, want %d", len(got), len(ref))
	}
	files := map[string]bool{}
	for i := range got {
		if got[i].NativeSession != "abc123" || got[i].Format != openhands.FormatEvents || got[i].Kind != ref[i].Kind {
			t.Errorf("event %d: %s %s %s, want %s", i, got[i].NativeSession, got[i].Format, got[i].Kind, ref[i].Kind)
		}
		files[filepath.Base(got[i].Src.Path)] = true
	}
	if len(files) != len(evs) {
		t.Errorf("files named %v", files)
	}
}

// TestV1Usage: a V1 conversation's usage is its base_state.json's, one call
// per response with the agent's own figures (per_turn_token 3814, 3901 and
// 3962; cost 0.00122745 in all), linked to the events of that response.
func TestV1Usage(t *testing.T) {
	out := providertest.ParseClean(t, provider.Config{}, providertest.Testdata(t, "openhands", "v1", "cd94562403b9487ebdd4018e3f531dfd"))
	responses := map[string]bool{}
	var totals []int64
	cost := 0.0
	for _, ev := range providertest.Events(t, out) {
		if ev.Kind == agt.KindUsage {
			totals = append(totals, ev.Usage.Total)
			cost += *ev.Usage.NativeCostUSD
			if !responses[ev.Usage.MessageID] {
				t.Errorf("usage of response %s, which no event names", ev.Usage.MessageID)
			}
		} else if ev.MessageID != "" {
			responses[ev.MessageID] = true
		}
		if ev.NativeSession != "cd94562403b9487ebdd4018e3f531dfd" {
			t.Errorf("session %s", ev.NativeSession)
		}
	}
	if len(totals) != 3 || totals[0] != 3814 || totals[1] != 3901 || totals[2] != 3962 || cost < 0.00122744 || cost > 0.00122746 {
		t.Errorf("totals %v cost %v", totals, cost)
	}
}

// TestV1SystemPromptUpdate: a SystemPromptUpdateEvent (appended when a
// conversation is restored with another agent configuration) is the new
// system prompt, not an unknown record.
func TestV1SystemPromptUpdate(t *testing.T) {
	src := providertest.Testdata(t, "openhands", "v1", "cd94562403b9487ebdd4018e3f531dfd")
	dir := filepath.Join(t.TempDir(), "cd94562403b9487ebdd4018e3f531dfd")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	update := `{"id":"9a0e5f7c-2b1d-4c3e-8f6a-1b2c3d4e5f60","timestamp":"2026-02-05T11:30:00.000000","source":"agent","system_prompt":{"cache_prompt":false,"type":"text","text":"You are OpenHands agent, with new tools."},"tools":[],"reason":"tools_changed","kind":"SystemPromptUpdateEvent"}`
	if err := os.WriteFile(filepath.Join(dir, "events", "event-00099-9a0e5f7c-2b1d-4c3e-8f6a-1b2c3d4e5f60.json"), []byte(update), 0o644); err != nil {
		t.Fatal(err)
	}
	out := providertest.ParseClean(t, provider.Config{}, dir)
	n := 0
	for _, ev := range providertest.Events(t, out) {
		if ev.Kind == agt.KindSystem && ev.Meta != nil && ev.Meta.Type == "system_prompt_update" {
			n++
			if ev.Text.Str() != "You are OpenHands agent, with new tools." {
				t.Errorf("text %q", ev.Text.Str())
			}
		}
	}
	if n != 1 {
		t.Errorf("%d system prompt updates, want 1", n)
	}
}
