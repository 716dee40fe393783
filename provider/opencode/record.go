package opencode

import (
	"time"

	"github.com/agt-project/agt"
)

// The OpenCode objects, naming only the fields agt uses. They are the same in
// `opencode export`, in the storage files, in the database's data columns
// (minus the id columns) and in the parts of `opencode run --format json`.

// sessionInfo is Session.Info.
type sessionInfo struct {
	ID          string `json:"id"`
	Slug        string `json:"slug"`
	ProjectID   string `json:"projectID"`
	WorkspaceID string `json:"workspaceID"`
	Directory   string `json:"directory"`
	ParentID    string `json:"parentID"`
	Title       string `json:"title"`
	Agent       string `json:"agent"`
	Version     string `json:"version"`
	Model       struct {
		ID         string `json:"id"`
		ProviderID string `json:"providerID"`
	} `json:"model"`
	Time struct {
		Created int64 `json:"created"`
	} `json:"time"`
}

// message is a Message info: user or assistant.
type message struct {
	ID         string `json:"id"`
	SessionID  string `json:"sessionID"`
	Role       string `json:"role"`
	ParentID   string `json:"parentID"`
	ModelID    string `json:"modelID"`
	ProviderID string `json:"providerID"`
	Mode       string `json:"mode"`
	Agent      string `json:"agent"`
	Finish     string `json:"finish"`
	Model      struct {
		ProviderID string `json:"providerID"`
		ModelID    string `json:"modelID"`
	} `json:"model"`
	Path struct {
		Cwd string `json:"cwd"`
	} `json:"path"`
	Time struct {
		Created   int64 `json:"created"`
		Completed int64 `json:"completed"`
	} `json:"time"`
	Cost    *float64 `json:"cost"`
	Tokens  *tokens  `json:"tokens"`
	Error   agt.Raw  `json:"error"`
	Summary isTrue   `json:"summary"` // true on compaction summaries; an object on user messages
}

// isTrue is a field that counts only when it is the literal true.
type isTrue bool

// UnmarshalJSON accepts any value.
func (t *isTrue) UnmarshalJSON(b []byte) error {
	*t = string(b) == "true"
	return nil
}

// tokens is OpenCode's token count of a message or step.
type tokens struct {
	Total     agt.Count `json:"total"`
	Input     agt.Count `json:"input"`
	Output    agt.Count `json:"output"`
	Reasoning agt.Count `json:"reasoning"`
	Cache     struct {
		Read  agt.Count `json:"read"`
		Write agt.Count `json:"write"`
	} `json:"cache"`
}

// part is a Part of any type.
type part struct {
	ID        string  `json:"id"`
	SessionID string  `json:"sessionID"`
	MessageID string  `json:"messageID"`
	Type      string  `json:"type"`
	Text      agt.Raw `json:"text"`
	Synthetic bool    `json:"synthetic"`
	Ignored   bool    `json:"ignored"`
	Time      struct {
		Start int64 `json:"start"`
		End   int64 `json:"end"`
	} `json:"time"`

	// tool
	CallID string     `json:"callID"`
	Tool   string     `json:"tool"`
	State  *toolState `json:"state"`

	// step-start, step-finish, snapshot
	Snapshot string   `json:"snapshot"`
	Reason   string   `json:"reason"`
	Cost     *float64 `json:"cost"`
	Tokens   *tokens  `json:"tokens"`

	// file
	Mime     string `json:"mime"`
	Filename string `json:"filename"`
	URL      string `json:"url"`

	// patch
	Hash  string   `json:"hash"`
	Files []string `json:"files"`

	// agent, subtask
	Name        string  `json:"name"`
	Prompt      agt.Raw `json:"prompt"`
	Description string  `json:"description"`
	Agent       string  `json:"agent"`
	Command     string  `json:"command"`

	// compaction
	Auto     bool `json:"auto"`
	Overflow bool `json:"overflow"`

	// retry
	Attempt int     `json:"attempt"`
	Error   agt.Raw `json:"error"`
}

// toolState is the state of a tool part.
type toolState struct {
	Status   string  `json:"status"`
	Input    agt.Raw `json:"input"`
	Raw      string  `json:"raw"`
	Output   agt.Raw `json:"output"`
	Error    agt.Raw `json:"error"`
	Title    string  `json:"title"`
	Metadata struct {
		Exit      *int   `json:"exit"`
		SessionID string `json:"sessionId"`
	} `json:"metadata"`
	Time struct {
		Start int64 `json:"start"`
		End   int64 `json:"end"`
	} `json:"time"`
}

// apiError is the error of an assistant message, a retry part or a live
// error event: {name, data:{message, …}}.
type apiError struct {
	Name string `json:"name"`
	Data struct {
		Message string `json:"message"`
	} `json:"data"`
}

// ts formats epoch milliseconds as RFC 3339 UTC with milliseconds.
func ts(ms int64) string {
	if ms <= 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z")
}

// first returns the first of vs that is not zero.
func first(vs ...int64) int64 {
	for _, v := range vs {
		if v != 0 {
			return v
		}
	}
	return 0
}
