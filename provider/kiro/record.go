package kiro

import (
	"strconv"
	"strings"
	"time"

	"github.com/agt-project/agt"
)

// entry is one log entry; only the fields agt uses.
type entry struct {
	Version string `json:"version"`
	Kind    string `json:"kind"`
	Data    *data  `json:"data"`
}

// data is an entry's payload, all kinds' members together.
type data struct {
	MessageID string  `json:"message_id"`
	Content   []block `json:"content"`
	Meta      *struct {
		Timestamp *float64 `json:"timestamp"`
	} `json:"meta"`

	// Compaction
	Summary  agt.Raw `json:"summary"`
	Strategy agt.Raw `json:"strategy"`
	// ResetTo
	TargetIndex *int64 `json:"target_index"`
}

// block is a content block: kind and data.
type block struct {
	Kind string  `json:"kind"`
	Data agt.Raw `json:"data"`
}

// toolUse is a toolUse block's data.
type toolUse struct {
	ID    string  `json:"toolUseId"`
	Name  string  `json:"name"`
	Input agt.Raw `json:"input"`
}

// toolResult is a toolResult block's data.
type toolResult struct {
	ID      string  `json:"toolUseId"`
	Content []block `json:"content"`
	Status  string  `json:"status"`
}

// decode reads a line; a member of the wrong type is an error, but what
// was read is kept.
func decode(line []byte) (*entry, error) {
	e := &entry{}
	err := agt.Decode(line, e)
	if err != nil && !agt.IsFieldError(err) {
		return nil, err
	}
	return e, err
}

// ts is a prompt's time: epoch seconds, possibly with a fraction.
func (d *data) ts() string {
	if d.Meta == nil || d.Meta.Timestamp == nil {
		return ""
	}
	s := *d.Meta.Timestamp
	if s <= 0 || s > 1e11 {
		return ""
	}
	return agt.FormatTime(time.UnixMilli(int64(s * 1000)))
}

// output is a result's output: the text of a lone text block, else the
// blocks as they are.
func (r *toolResult) output() agt.Raw {
	if len(r.Content) == 1 && r.Content[0].Kind == "text" && len(r.Content[0].Data) > 0 && r.Content[0].Data[0] == '"' {
		return r.Content[0].Data
	}
	if len(r.Content) == 0 {
		return nil
	}
	return agt.Marshal(r.Content)
}

// exitCode is the exit code a shell's json block states.
func (r *toolResult) exitCode() *int {
	for _, b := range r.Content {
		if b.Kind != "json" {
			continue
		}
		var j struct {
			ExitStatus string `json:"exit_status"`
		}
		if agt.API.Unmarshal(b.Data, &j) != nil || j.ExitStatus == "" {
			continue
		}
		// Rust's ExitStatus: "exit status: N" (Unix), "exit code: N"
		// (Windows); "signal: N" is no exit code
		for _, prefix := range [...]string{"exit status:", "exit code:"} {
			if rest, ok := strings.CutPrefix(j.ExitStatus, prefix); ok {
				if n, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil {
					return &n
				}
			}
		}
	}
	return nil
}
