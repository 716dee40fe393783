// Package claude reads Claude Code: the on-disk session logs of every
// generation (1.0.x inline sidechains, 2.0.x agent-*.jsonl files, 2.1.x
// <session>/subagents/ folders) and the live output of `claude -p
// --output-format stream-json --verbose` and `--output-format json`.
//
// Decisions where the formats leave room:
//   - Usage of a session log is counted per model call: lines are grouped
//     by (message.id, requestId) across all the files of the unit, progress
//     mirrors of subagent messages included, and the line with the largest
//     output count wins (ties: the later line). A call's usage event is
//     emitted with its first line, with that line's src (a watcher sees the
//     call's cost as soon as it is written); a later line of the call that
//     wins gives a usage event of the same message id with the difference,
//     whether it comes in the call's run of lines or after another call
//     (interleaved message ids), so that the call's events add up to its
//     winning line's figures. Most calls repeat one usage on all their lines
//     (1,018 of the shared corpus's 1,089 calls of several lines): one event
//     each.
//   - A resumed or forked session's file, which copies the earlier session's
//     records under its own sessionId, shares its lineage (Lineage: the uuid
//     and timestamp of the head's first record with a uuid) with the earlier
//     session's file: read together, the copied records count once, in the
//     earlier session (see provider.Continuer).
//   - Live output's per-block assistant lines carry their message's usage
//     (input and cache figures, an output count still growing): the first
//     line of a message gives a provisional call usage event at once, a
//     later line of it that raises the figures the difference. The result
//     line's modelUsage settles them as "run" events, one per model: the
//     growth since the previous result of the same session (Claude Code's
//     counters grow over a process) less the provisional figures emitted
//     since, each figure held at 0, with costUSD kept as the native cost.
//     A run cut before its result line keeps the provisional figures.
//   - A subagent whose own file (agent-<agentId>.jsonl) is read in the same
//     unit as its session file is built from that file: text, calls and
//     usage of each model call together, in the file's order. The session
//     file's progress/agent_progress mirrors of that agent's records give a
//     meta event each (type "progress", subtype "mirrored"); the usage of a
//     mirrored call the file turns out to lack is emitted when the unit
//     ends, with the mirror's src.
//     The source tells the parser the unit's member files before any
//     record (provider.Members); the agent id is the file name's.
//   - A subagent with no file of its own in the unit is given by its
//     mirrors: each yields the mirrored record's events in the sidechain
//     stream. Should a file of the agent under another name be read after
//     all, its copy of a mirrored record becomes a meta event of subtype
//     "mirrored", so that nothing is counted twice.
//   - Inline sidechains (1.0.x) have no agentId: their stream is named after
//     the first 8 characters of the uuid of the sidechain's first record.
//   - User text is classified by how Claude Code writes it, not by a list of
//     openings: injected (isMeta) text and interruption markers become system
//     events; text Claude Code writes as its own tagged blocks (markup.go) is
//     a slash_command event when its first tag opens a command the user ran
//     (command-name, command-message, bash-input), else a system event (a
//     command's output, IDE or hook blocks, a tag of a later release), also
//     on a local_command system record; compaction summaries become summary
//     events.
//   - A prompt typed while the agent works (queue.go) is a user event where
//     the agent took it: at the queued_command attachment, or at the
//     queue-operation remove when no attachment holds it (a system event when
//     it is context: isMeta, or Claude Code's tagged blocks such as a
//     <task-notification>); an enqueue, a dequeue (a user record follows) and
//     the second copy of a prompt are meta events.
//   - For a usage report (agt.Options.Usage) message contents are not
//     decoded (texts, tool inputs and results), those of the subagent
//     messages progress records relay included (their usage is in
//     message.usage): the usage events and the sessions' folders are those
//     of a full parse (TestUsageOnly). Meta events are left out (a user
//     record, whose content is not decoded, gives only one; progress
//     records, snapshots), unless it is the file's first event or the
//     first to name its session's folder: the line is still counted
//     (TestUsageOnlyLeavesOut).
//   - Records and their content blocks are read with keys matched to the
//     fields exactly (agt.DecodeExact), not regardless of case: Claude Code
//     writes each key one way (the corpus reads the same either way), and
//     the exact match decodes a tenth faster. A key in another case would
//     be an unknown member, as a new key is.
package claude

import (
	"path/filepath"
	"strings"

	"github.com/agt-project/agt"
)

// Formats read by this package.
const (
	FormatSession    = "claude-session"
	FormatStreamJSON = "claude-stream-json"
	FormatJSON       = "claude-json"
)

// Provider is the Claude Code provider.
type Provider struct{}

// Name is the provider's name in events.
func (Provider) Name() string { return "claude" }

// Agent is what the provider declares about its agent.
func (Provider) Agent() agt.Agent {
	return agt.Agent{Display: "Claude Code", Vendor: "anthropic"}
}

// Formats lists the formats of Claude Code.
func (Provider) Formats() []string { return []string{FormatSession, FormatStreamJSON, FormatJSON} }

// NewParser returns a parser for one unit.
func (Provider) NewParser(format string, opts agt.Options) agt.Parser {
	return newParser(format != FormatSession, opts)
}

// Owner groups the subagent files of Claude Code 2.1.x with their session:
// <dir>/<session>/subagents/**/agent-*.jsonl is read with <dir>/<session>.jsonl.
func (Provider) Owner(path string) string {
	dir, file := filepath.Split(path)
	if !strings.HasPrefix(file, "agent-") || !strings.HasSuffix(file, ".jsonl") {
		return ""
	}
	for d := filepath.Clean(dir); d != "." && d != string(filepath.Separator); d = filepath.Dir(d) {
		if filepath.Base(d) == "subagents" {
			return filepath.Dir(d) + ".jsonl"
		}
	}
	return ""
}

// LoneSession is the native session of a sidechain file read without its
// session's main file: a subagent's records (isSidechain, agentId) whose
// sessionId is their parent's become the session "<sessionId>:agent-<agentId>",
// so that its transcript's name cannot meet its parent's; any other record
// keeps its sessionId.
func LoneSession(sessionID, agentID string, sidechain bool) string {
	if !sidechain || agentID == "" || sessionID == "" || sessionID == "agent-"+agentID {
		return sessionID
	}
	return sessionID + ":agent-" + agentID
}

// Identify names the session of a session log from its head: the sessionId
// of its first record that has one; a sidechain file (2.0.x agent-*.jsonl,
// whose records carry their parent's sessionId) is a member of that
// session. Live output is left to its parser.
func (Provider) Identify(format string, h agt.Head) (session string, member, ok bool) {
	if format != FormatSession {
		return "", false, false
	}
	for _, line := range h.Lines {
		var r struct {
			SessionID   string `json:"sessionId"`
			IsSidechain bool   `json:"isSidechain"`
			AgentID     string `json:"agentId"`
		}
		if agt.API.Unmarshal(line, &r) != nil || r.SessionID == "" {
			continue
		}
		return r.SessionID, LoneSession(r.SessionID, r.AgentID, r.IsSidechain) != r.SessionID, true
	}
	return "", false, false
}

// Lineage names what a session log shares with the session it continues:
// Claude Code writes a resumed or forked session (`claude --resume`,
// `--fork-session`) to a new file whose records copy the earlier
// session's, each keeping its uuid, timestamp and message ids under the
// new sessionId. The lineage is the uuid and timestamp of the first record
// of the head that has a uuid; a sidechain file and live output have none.
func (Provider) Lineage(format string, h agt.Head) string {
	if format != FormatSession {
		return ""
	}
	for _, line := range h.Lines {
		var r struct {
			UUID        string `json:"uuid"`
			Timestamp   string `json:"timestamp"`
			IsSidechain bool   `json:"isSidechain"`
		}
		if agt.API.Unmarshal(line, &r) != nil || r.UUID == "" {
			continue
		}
		if r.IsSidechain {
			return ""
		}
		return r.UUID + "\x00" + r.Timestamp
	}
	return ""
}
