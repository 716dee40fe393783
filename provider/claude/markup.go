package claude

import (
	"strings"

	"github.com/agt-project/agt"
)

// Claude Code writes what it adds to a conversation on its own (a local
// command, its output, IDE context, hook output) as user text made of
// tagged blocks, <tag>…</tag>, while a prompt the user types is free text.
// markupKind reads that structure rather than a list of known openings, so
// that a tag a new release adds is context, not a prompt:
//   - a text whose first block is a command tag (commandTags: a slash
//     command, a ! shell command) is the command the user ran;
//   - a text made only of tagged blocks of other tags is context (a command's
//     output, <bash-stdout>, <local-command-stdout>, IDE or hook blocks);
//   - anything else is not markup ("").
//
// A prompt typed as nothing but tagged blocks (a pasted XML document) is
// taken as context too; its text is kept in the system event.

// commandTags are the tags that open a command the user ran.
var commandTags = map[string]bool{
	"command-name":    true,
	"command-message": true,
	"bash-input":      true,
}

// markupKind is the kind of a user text (a JSON string literal) written as
// Claude Code's markup, "" when it is not markup.
func markupKind(lit string) string {
	if !strings.HasPrefix(lit, `"<`) {
		return ""
	}
	s := agt.Raw(lit).Str()
	first := ""
	for n := 0; ; n++ {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			if n == 0 {
				return ""
			}
			return agt.KindSystem
		}
		name, rest, ok := tagBlock(s)
		if n == 0 {
			first = name
			if commandTags[first] {
				return agt.KindSlashCommand
			}
		}
		if !ok {
			return ""
		}
		s = rest
	}
}

// tagBlock reads the tagged block s opens with: its tag name and what follows
// it; ok is false when s does not open with a whole block.
func tagBlock(s string) (name, rest string, ok bool) {
	if len(s) < 3 || s[0] != '<' {
		return "", "", false
	}
	end := strings.IndexByte(s, '>')
	if end < 2 {
		return "", "", false
	}
	name = s[1:end]
	if !tagName(name) {
		return "", "", false
	}
	closing := "</" + name + ">"
	i := strings.Index(s[end+1:], closing)
	if i < 0 {
		return name, "", false
	}
	return name, s[end+1+i+len(closing):], true
}

// tagName reports whether s is a tag name: a letter, then letters, digits,
// '-' or '_'.
func tagName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '-' || c == '_')) {
			return false
		}
	}
	return s != ""
}
