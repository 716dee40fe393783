package cline

import "github.com/agt-project/agt"

// document is a session file's top-level members: those of the messages
// document and of the manifest together (the messages array is read
// element by element, see Decode).
type document struct {
	Version      *float64 `json:"version"`
	UpdatedAt    string   `json:"updated_at"`
	Agent        string   `json:"agent"`
	SessionID    string   `json:"sessionId"`
	SystemPrompt *string  `json:"system_prompt"`

	// the manifest
	ManifestID    string   `json:"session_id"`
	Source        string   `json:"source"`
	StartedAt     string   `json:"started_at"`
	EndedAt       string   `json:"ended_at"`
	ExitCode      *int     `json:"exit_code"`
	Status        string   `json:"status"`
	Provider      string   `json:"provider"`
	Model         string   `json:"model"`
	Cwd           string   `json:"cwd"`
	WorkspaceRoot string   `json:"workspace_root"`
	ParentSession string   `json:"parent_session_id"`
	Metadata      manifest `json:"metadata"`
}

// manifest is the manifest's metadata member, as far as agt reads it.
type manifest struct {
	Title string `json:"title"`
	Fork  *struct {
		From string `json:"forkedFromSessionId"`
	} `json:"fork"`
}

// message is one element of the messages array.
type message struct {
	ID        string     `json:"id"`
	Role      string     `json:"role"`
	Content   agt.Raw    `json:"content"` // a string or an array of blocks
	TS        *float64   `json:"ts"`      // epoch milliseconds
	ModelInfo *modelInfo `json:"modelInfo"`
	Metrics   *metrics   `json:"metrics"`
	Metadata  *struct {
		Kind    string `json:"kind"`
		Summary string `json:"summary"`
	} `json:"metadata"`
}

type modelInfo struct {
	ID       string `json:"id"`
	ModelID  string `json:"modelId"` // the extension's task messages
	Mode     string `json:"mode"`
	Provider string `json:"provider"`
	Family   string `json:"family"`
}

// block is one content block, all types' members together.
type block struct {
	Type      string  `json:"type"`
	Text      *string `json:"text"`
	Thinking  *string `json:"thinking"`
	Data      string  `json:"data"`
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Input     agt.Raw `json:"input"`
	ToolUseID string  `json:"tool_use_id"`
	Content   agt.Raw `json:"content"`
	IsError   bool    `json:"is_error"`
	Path      string  `json:"path"`
	MediaType string  `json:"mediaType"`
}
