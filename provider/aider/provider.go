// Package aider reads Aider's chat history, .aider.chat.history.md in the
// root of each project: Markdown that Aider appends to, run after run.
//
//	# aider chat started at 2024-08-05 19:33:32    a run starts (local time)
//	#### <user input>                              user lines (commands too: #### /diff)
//	> <status line>                                Aider's own output: banner, model, edits, commits, lint and test output, usage
//	<plain text>                                   the model's reply (code fences included)
//
// Lines are read in blocks: consecutive user lines are one user event (a
// /command a slash_command event), a reply (up to the next user, status or
// header line, code fences kept whole) one assistant event, consecutive
// status lines one system event; each event names the first line of its
// block. A plain line right after a status line, with no blank line
// between, continues the status block (Aider quotes only the first line of
// some multi-line outputs). Status lines with facts become meta events
// too: "Aider v…" (version), "Model: …" / "Models: … with … edit format,
// weak model …" / "Main model: …" (the model of the replies that follow),
// and "Tokens: …" a usage event.
//
// Usage: "> Tokens: 5,244 sent, 604 received. Cost: $0.02 request, $0.02
// session." (newer: "2.4k sent, 1.1k cache write, 12k cache hit, 389
// received", "message" for "request") is one call's usage, the reply
// before it: input = sent, cache_write = cache write, cache_read = cache
// hit (Aider's report for Anthropic models, whose sent count leaves the
// cache out), output = received; the request's cost is native_cost_usd.
// Counts above 1000 are written rounded ("2.4k", "12k") in newer
// releases: they are read as written, so such sums are approximate.
//
// A run has no id: its session is the history file's name and the run's
// start time ("<file>@2024-08-05T19:33:32"); lines before the first header
// (a history cut short) belong to the session named after the file. Only
// the header has a time, local and without a zone: it is read as UTC.
package aider

import "github.com/agt-project/agt"

// FormatHistory is the chat history Markdown.
const FormatHistory = "aider-history"

// Provider is the aider provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "aider" }

// Agent is what the provider declares about its agent (no default vendor:
// it runs the model it is given).
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Aider", Docs: []string{".md"}}
}

// Formats lists the formats read.
func (Provider) Formats() []string { return []string{FormatHistory} }

// NewParser returns a parser for one history file.
func (Provider) NewParser(string, agt.Options) agt.Parser { return &parser{} }

// Blocks reports that a history's records are blocks of lines (user
// lines, a reply, status lines), each event naming its block's first line.
func (Provider) Blocks() bool { return true }
