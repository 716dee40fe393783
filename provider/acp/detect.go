package acp

import (
	"strings"

	"github.com/agt-project/agt"
)

// sniffMsg is what detection reads of a JSON-RPC message.
type sniffMsg struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  *struct {
		ProtocolVersion agt.Raw `json:"protocolVersion"`
		SessionID       string  `json:"sessionId"`
		Cwd             string  `json:"cwd"`
		Update          *struct {
			Kind string `json:"sessionUpdate"`
		} `json:"update"`
	} `json:"params"`
	Result *struct {
		ProtocolVersion   agt.Raw `json:"protocolVersion"`
		AgentCapabilities agt.Raw `json:"agentCapabilities"`
		AgentInfo         agt.Raw `json:"agentInfo"`
	} `json:"result"`
}

type sniffLine struct {
	Dir string    `json:"dir"`
	Msg *sniffMsg `json:"msg"`
	sniffMsg
}

// Sniff recognises an ACP capture: a JSON-RPC 2.0 line (bare, or in a
// {"dir","msg"} capture wrapper) among the first lines that is an ACP
// request or notification (initialize with an integer protocolVersion,
// session/*, fs/* or terminal/* with a sessionId, session/update with a
// sessionUpdate) or an initialize result (integer protocolVersion with
// agentCapabilities or agentInfo). MCP's initialize has a string
// protocolVersion and no session/* methods.
func (Provider) Sniff(h agt.Head) string {
	for _, l := range h.Lines {
		if len(l) == 0 || l[0] != '{' {
			continue
		}
		var s sniffLine
		agt.API.Unmarshal(l, &s) // fields of other types stay empty
		m := &s.sniffMsg
		if s.Msg != nil {
			if _, ok := wrapperDirs[s.Dir]; !ok {
				continue
			}
			m = s.Msg
		}
		if isACP(m) {
			return FormatACP
		}
	}
	return ""
}

func isACP(m *sniffMsg) bool {
	if m.JSONRPC != "2.0" {
		return false
	}
	if r := m.Result; r != nil && m.Method == "" {
		return isInt(r.ProtocolVersion) && (len(r.AgentCapabilities) > 0 || len(r.AgentInfo) > 0)
	}
	pr := m.Params
	if pr == nil {
		return false
	}
	switch {
	case m.Method == "initialize":
		return isInt(pr.ProtocolVersion)
	case m.Method == "session/update":
		return pr.SessionID != "" && pr.Update != nil && pr.Update.Kind != ""
	case m.Method == "session/new":
		return pr.Cwd != ""
	}
	_, known := methods[m.Method]
	return known && pr.SessionID != "" && strings.ContainsRune(m.Method, '/')
}

// isInt reports a JSON integer (ACP's protocolVersion; MCP's is a date string).
func isInt(r agt.Raw) bool {
	if len(r) == 0 {
		return false
	}
	for _, c := range r {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
