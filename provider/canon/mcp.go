package canon

import (
	"path"
	"strings"

	"github.com/agt-project/agt"
)

// MCPStyle is one provider's way of naming an MCP server's tool.
type MCPStyle struct {
	provider string   // "" = every provider; set by Register
	Pattern  string   // {s} is the server, {t} the tool
	Servers  []string // when set, only these servers: the separator also occurs in server names
	Out      bool     // the provider's spelling when rendering
	OutOnly  bool     // for rendering only: read back, the pattern would take names of no MCP tool
}

// mcpStyles are the MCP naming conventions, tried in order after the
// provider's table rows: the parsers' own spelling for every provider, then
// each provider's (its folder's canon.go, through Register). Copilot 1.0 and Codex end events name the server
// outside the name: their parsers set Tool.MCP, which wins.
var mcpStyles = []MCPStyle{
	{Pattern: "mcp__{s}__{t}"}, // Claude; Codex namespace mcp__<server> + name; parsers' own spelling
}

// parseMCP finds the server and tool in a native name.
func parseMCP(provider, name string) (server, tool string, ok bool) {
	for _, st := range mcpStyles {
		if st.provider != "" && st.provider != provider || st.OutOnly {
			continue
		}
		if len(st.Servers) > 0 {
			for _, s := range st.Servers {
				pre, suf, _ := strings.Cut(strings.ReplaceAll(st.Pattern, "{s}", s), "{t}")
				if strings.HasPrefix(name, pre) && strings.HasSuffix(name, suf) && len(name) > len(pre)+len(suf) {
					return s, name[len(pre) : len(name)-len(suf)], true
				}
			}
			continue
		}
		if m, ok := matchPattern(st.Pattern, name); ok {
			return m["s"], m["t"], true
		}
	}
	return "", "", false
}

// matchPattern matches name against a pattern of literals and {x}
// placeholders; a placeholder takes the shortest text up to the next
// literal (the last literal must end the name), and none may be empty.
func matchPattern(pattern, name string) (map[string]string, bool) {
	m := map[string]string{}
	rest := name
	for pattern != "" {
		i := strings.IndexByte(pattern, '{')
		if i != 0 {
			lit := pattern
			if i > 0 {
				lit = pattern[:i]
			}
			if !strings.HasPrefix(rest, lit) {
				return nil, false
			}
			rest, pattern = rest[len(lit):], pattern[len(lit):]
			continue
		}
		j := strings.IndexByte(pattern, '}')
		key := pattern[1:j]
		pattern = pattern[j+1:]
		next := pattern
		if k := strings.IndexByte(pattern, '{'); k >= 0 {
			next = pattern[:k]
		}
		var val string
		switch {
		case next == "":
			val = rest
		case next == pattern: // the last literal ends the name
			if !strings.HasSuffix(rest, next) {
				return nil, false
			}
			val = rest[:len(rest)-len(next)]
		default:
			k := strings.Index(rest, next)
			if k < 0 {
				return nil, false
			}
			val = rest[:k]
		}
		if val == "" {
			return nil, false
		}
		m[key] = val
		rest = rest[len(val):]
	}
	return m, rest == ""
}

// mcpName is the canonical name of an MCP tool: Claude Code's, which keeps
// only the characters a tool name may hold (letters, digits, "_" and "-")
// of the server's and the tool's names, any other as "_"
// (mcp__codex_apps__github_fetch_pr for codex_apps' github.fetch_pr). The
// names as they were stay in mcp.server and mcp.tool.
func mcpName(server, tool string) string {
	return "mcp__" + strings.Map(toolChar, server) + "__" + strings.Map(toolChar, tool)
}

// toolChar keeps a character a tool name may hold, else gives "_".
func toolChar(r rune) rune {
	if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
		return r
	}
	return '_'
}

// mcpOut is an MCP tool's name in provider's convention.
func mcpOut(provider, server, tool string) string {
	for _, st := range mcpStyles {
		if st.provider == provider && st.Out {
			return strings.NewReplacer("{s}", server, "{t}", tool).Replace(st.Pattern)
		}
	}
	return mcpName(server, tool)
}

// loadedSkill is the skill an MCP call loaded, where the provider's parser
// read it from the log (agt.MCP.Skill): "" when the log does not tell.
func loadedSkill(preset *agt.MCP) string {
	if preset == nil {
		return ""
	}
	return preset.Skill
}

// nativeHas tells whether a call's native input has the member k.
func nativeHas(t *agt.Tool, k string) bool {
	in, ok := parseObject(t.NativeInput)
	return ok && in.has(k)
}

// skillServer reports whether an MCP server serves skills, one tool per
// skill (Codex mcp:<server>/<skill>): its name says so. It is the rule
// where the log does not show what the server is (loadedSkill).
func skillServer(server string) bool {
	return strings.Contains(strings.ToLower(server), "skill")
}

// skillOfPath finds the skill whose SKILL.md a path names:
// …/skills/[category/]<name>/SKILL.md, and the plugin of a plugin's skill
// (…/plugins/cache/<marketplace>/<plugin>/<version>/skills/…).
func skillOfPath(p string) (skill, plugin string) {
	p = strings.ReplaceAll(p, `\`, "/")
	if path.Base(p) != "SKILL.md" {
		return "", ""
	}
	dir := path.Dir(p)
	parts := strings.Split(dir, "/")
	at := -1
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] == "skills" {
			at = i
			break
		}
	}
	if at < 0 || strings.Contains(p, "://") {
		return "", ""
	}
	skill = parts[len(parts)-1]
	for i := 0; i+3 < at; i++ {
		if parts[i] == "plugins" && parts[i+1] == "cache" {
			plugin = parts[i+3]
			break
		}
	}
	return skill, plugin
}

// SkillDoc is the name of the skill whose SKILL.md text is: a document that
// opens with the YAML front matter every SKILL.md has (between "---" lines,
// with name and description), "" for any other text. A provider's parser
// uses it on what an MCP call returned: a server that answers a call with a
// SKILL.md serves skills, whatever its name.
func SkillDoc(text string) string {
	text = strings.TrimLeft(text, " \t\r\n\ufeff")
	rest, ok := strings.CutPrefix(text, "---")
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(rest, "\n") && !strings.HasPrefix(rest, "\r\n") {
		return ""
	}
	name, desc := "", false
	for _, line := range strings.Split(rest, "\n")[1:] {
		line = strings.TrimRight(line, " \t\r")
		if line == "---" {
			if desc {
				return name
			}
			return ""
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(k, " ") || strings.HasPrefix(k, "\t") {
			continue // a nested or continued value
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		switch strings.TrimSpace(k) {
		case "name":
			name = v
		case "description":
			desc = true
		}
	}
	return ""
}
