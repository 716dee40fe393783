package codex_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/agt-project/agt/provider/providertest"
	"github.com/agt-project/agt/provider/providertest/transcripts"
	"github.com/agt-project/agt/transcript"
)

// TestCorpusTypedPrompts checks every Codex rollout of the corpus: its
// transcripts' user messages are exactly the prompts Codex logged as typed
// (its user_message events) while every other user item, the injected
// context, is a system message that keeps its text. (That no user message
// of any corpus log starts with an injected block is transcript's
// TestCorpusInjectedContext.)
func TestCorpusTypedPrompts(t *testing.T) {
	dir := providertest.CorpusDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "codex", "*"))
	rollouts := 0
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		t.Run(rel, func(t *testing.T) {
			ts := transcripts.Of(t, f)
			if len(ts) == 0 || ts[0].Format != "codex-rollout" {
				return
			}
			rollouts++
			var users, system []string
			for _, m := range transcripts.Messages(ts) {
				switch {
				case m.Role == transcript.RoleUser && m.Kind == "":
					users = append(users, m.Text.Str())
				case m.Role == transcript.RoleSystem:
					system = append(system, m.Text.Str())
				}
			}
			typed, context := rolloutUserTexts(t, f)
			sort.Strings(users)
			sort.Strings(typed)
			if strings.Join(users, "\x00") != strings.Join(typed, "\x00") {
				t.Errorf("%d user messages, want the %d typed prompts", len(users), len(typed))
			}
			kept := map[string]int{}
			for _, s := range system {
				kept[s]++
			}
			for _, c := range context {
				if kept[c] <= 0 {
					t.Errorf("injected context lost: %.80q", c)
				}
				kept[c]--
			}
		})
	}
	if rollouts == 0 {
		t.Error("no rollout in the corpus")
	}
}

// rolloutUserTexts reads a rollout's typed prompts (event_msg user_message
// of a typed kind) and its injected context (user response_items whose text
// is no user_message's).
func rolloutUserTexts(t *testing.T, path string) (typed, context []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	logged := map[string]int{}
	var items []string
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		var l struct {
			Type    string `json:"type"`
			Payload struct {
				Type    string `json:"type"`
				Role    string `json:"role"`
				Message string `json:"message"`
				Kind    any    `json:"kind"`
				Content []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
			} `json:"payload"`
		}
		if json.Unmarshal(line, &l) == nil {
			p := l.Payload
			switch {
			case l.Type == "event_msg" && p.Type == "user_message":
				logged[p.Message]++
				if p.Kind == nil || p.Kind == "plain" {
					typed = append(typed, p.Message)
				}
			case l.Type == "response_item" && p.Type == "message" && p.Role == "user":
				var texts []string
				for _, c := range p.Content {
					if c.Type == "input_text" {
						texts = append(texts, c.Text)
					}
				}
				items = append(items, strings.Join(texts, "\n\n"))
			}
		}
		if err != nil {
			break
		}
	}
	for _, it := range items {
		if logged[it] > 0 {
			logged[it]--
			continue
		}
		context = append(context, it)
	}
	return typed, context
}
