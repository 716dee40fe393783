package gemini

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/agt-project/agt"
)

// record is one record of a session log: a message, the metadata header, a
// $set patch or a $rewindTo; or a session document's top-level members.
type record struct {
	// MessageRecord
	ID             string     `json:"id"`
	Timestamp      string     `json:"timestamp"`
	Type           string     `json:"type"`
	Content        agt.Raw    `json:"content"`
	DisplayContent agt.Raw    `json:"displayContent"`
	Thoughts       []thought  `json:"thoughts"`
	Tokens         *tokens    `json:"tokens"`
	Model          string     `json:"model"`
	ToolCalls      []toolCall `json:"toolCalls"`

	// ConversationRecord (header line, document)
	SessionID        string  `json:"sessionId"`
	ProjectHash      string  `json:"projectHash"`
	StartTime        string  `json:"startTime"`
	LastUpdated      string  `json:"lastUpdated"`
	Kind             string  `json:"kind"`
	Summary          string  `json:"summary"`
	Directories      agt.Raw `json:"directories"`
	MemoryScratchpad agt.Raw `json:"memoryScratchpad"`
	Messages         agt.Raw `json:"messages"`

	// JSONL updates
	Set      *patch  `json:"$set"`
	RewindTo *string `json:"$rewindTo"`
}

// patch is the object of a {"$set": …} record.
type patch struct {
	SessionID        string  `json:"sessionId"`
	LastUpdated      string  `json:"lastUpdated"`
	Kind             string  `json:"kind"`
	Summary          string  `json:"summary"`
	Directories      agt.Raw `json:"directories"`
	MemoryScratchpad agt.Raw `json:"memoryScratchpad"`
	Messages         agt.Raw `json:"messages"`
}

type thought struct {
	Subject     string `json:"subject"`
	Description string `json:"description"`
	Timestamp   string `json:"timestamp"`
}

// toolCall is a ToolCallRecord: the call and, once run, its result.
type toolCall struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Args          agt.Raw `json:"args"`
	Result        agt.Raw `json:"result"`
	ResultDisplay agt.Raw `json:"resultDisplay"`
	Status        string  `json:"status"`
	Timestamp     string  `json:"timestamp"`
}

// messageKinds maps a message type to its event kind.
var messageKinds = map[string]string{
	"user":    agt.KindUser,
	"gemini":  agt.KindAssistant,
	"info":    agt.KindSystem,
	"error":   agt.KindSystem,
	"warning": agt.KindSystem,
}

// callStatus tells, per tool call status, whether the call is over and
// whether it failed. Statuses not listed (scheduled, validating, executing,
// awaiting_approval) are calls still running.
var callStatus = map[string]struct{ done, failed bool }{
	"success":   {true, false},
	"error":     {true, true},
	"cancelled": {true, true},
}

// part is one Part of a PartListUnion.
type part struct {
	Text             agt.Raw `json:"text"`
	Thought          bool    `json:"thought"`
	FunctionResponse agt.Raw `json:"functionResponse"`
}

// contentText is the text of a PartListUnion (a string, a Part or a Part
// list): the string itself, or its text parts joined (thought parts left
// out). fnResp reports function responses among the parts.
func contentText(c agt.Raw) (text agt.Raw, fnResp bool) {
	c = bytes.TrimSpace(c)
	if len(c) == 0 {
		return nil, false
	}
	var parts []part
	switch c[0] {
	case '"':
		if len(c) <= 2 {
			return nil, false
		}
		return c, false
	case '[':
		if agt.API.Unmarshal(c, &parts) != nil {
			return nil, false
		}
	case '{':
		var p part
		if agt.API.Unmarshal(c, &p) != nil {
			return nil, false
		}
		parts = []part{p}
	default:
		return nil, false
	}
	var texts []agt.Raw
	for _, p := range parts {
		if len(p.FunctionResponse) > 0 {
			fnResp = true
		}
		if p.Thought || len(p.Text) <= 2 || p.Text[0] != '"' {
			continue
		}
		texts = append(texts, p.Text)
	}
	switch len(texts) {
	case 0:
		return nil, fnResp
	case 1:
		return texts[0], fnResp
	}
	var b strings.Builder
	for _, t := range texts {
		b.WriteString(t.Str())
	}
	return agt.String(b.String()), fnResp
}

// typed reports whether a user message's content is what the person
// typed, from what the CLI displayed as their input (displayContent): no
// display, or a display with text that is no slash command. A slash
// command's display (its content is the command's prompt, e.g. /init's)
// or a display with no text at all (a request the CLI made itself, such as
// "System: Please continue.") means the content is the CLI's.
func typed(display agt.Raw) bool {
	if d := bytes.TrimSpace(display); len(d) == 0 || string(d) == "null" {
		return true
	}
	t, _ := contentText(display)
	return t != nil && slashCommand(display) == nil
}

// slashCommand is the text of a displayContent that is a slash command.
func slashCommand(display agt.Raw) agt.Raw {
	t, _ := contentText(display)
	if len(t) > 2 && t[1] == '/' {
		return t
	}
	return nil
}

// thoughtText is a thought as reasoning text.
func thoughtText(t thought) agt.Raw {
	switch {
	case t.Subject == "":
		return agt.String(t.Description)
	case t.Description == "":
		return agt.String(t.Subject)
	}
	return agt.String(t.Subject + "\n\n" + t.Description)
}

// functionResponse is a Part holding a tool's response.
type functionResponse struct {
	FunctionResponse *struct {
		Response *struct {
			Output agt.Raw `json:"output"`
			Error  agt.Raw `json:"error"`
		} `json:"response"`
	} `json:"functionResponse"`
}

// toolOutput is what a call returned: the response's output (or error) when
// the result is a single functionResponse part, else the result as given,
// else the text shown to the user.
func toolOutput(tc *toolCall) agt.Raw {
	res := bytes.TrimSpace(tc.Result)
	if len(res) == 0 || string(res) == "null" {
		if tc.ResultDisplay.IsNull() {
			return nil
		}
		return agt.Compact(tc.ResultDisplay)
	}
	els, _ := elements(res)
	if res[0] == '{' {
		els = [][]byte{res}
	}
	if len(els) == 1 {
		var fr functionResponse
		if agt.API.Unmarshal(els[0], &fr) == nil && fr.FunctionResponse != nil && fr.FunctionResponse.Response != nil {
			r := fr.FunctionResponse.Response
			if !r.Output.IsNull() {
				return agt.Compact(r.Output)
			}
			if !r.Error.IsNull() {
				return agt.Compact(r.Error)
			}
		}
	}
	return agt.Compact(res)
}

// shellTools are the tools whose output reports the command's exit code on
// a line "Exit Code: N".
var shellTools = map[string]bool{"run_shell_command": true}

// exitCode reads the exit code a shell tool's output reports, nil when it
// reports none.
func exitCode(name string, out agt.Raw) *int {
	if !shellTools[name] || len(out) == 0 || out[0] != '"' || !bytes.Contains(out, []byte("Exit Code: ")) {
		return nil
	}
	const label = "Exit Code: "
	s := out.Str()
	if !strings.HasPrefix(s, label) {
		i := strings.Index(s, "\n"+label)
		if i < 0 {
			return nil
		}
		s = s[i+1:]
	}
	s = s[len(label):]
	if j := strings.IndexByte(s, '\n'); j >= 0 {
		s = s[:j]
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return nil
	}
	return &n
}
