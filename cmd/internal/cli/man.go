package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agt-project/agt/provider"
	"github.com/urfave/cli/v2"
)

// Filters are the agt filters, for the SEE ALSO of each man page.
var Filters = []string{"agt-parse", "agt-normalize", "agt-transcript", "agt-streamlog", "agt-report"}

// envVar is a variable of the environment a filter reads, for the
// ENVIRONMENT section of its man page, shown when the filter has the
// flag named by needs ("" for all).
type envVar struct{ name, needs, text string }

var envVars = []envVar{
	{"AGT_STREAM_LOG", "stream-log", "the stream log mode of -o runs when --stream-log is not given: false, raw or summary"},
	{"NO_COLOR", "color", "when set and not empty, --color auto colors nothing"},
	{"COLUMNS", "color", "the width summary lines are cut to on a terminal (else the terminal's own width)"},
	{"HOME", "discover", "the home folder under which --discover looks for the agents' default log folders"},
	{"GOGC", "", "the Go garbage collector's target percentage (when unset: 300 for a run under the 256 MiB soft memory limit, 200 otherwise)"},
	{"TMPDIR", "", "where a session of more than 128 MiB of messages keeps its compressed older messages (agt.transcript/1 output and summary stream logs), in a file removed at once"},
}

// discoverVars are the environment variables --discover reads, each with the
// providers that read it, found by asking every provider where its logs
// are, once with every variable unset and once with every one set.
func discoverVars() []envVar {
	readers := map[string][]string{}
	var names []string
	for _, p := range provider.All() {
		l, ok := p.(provider.Locator)
		if !ok {
			continue
		}
		for _, val := range []string{"", "/x"} {
			l.Logs(func(k string) string {
				if !slices.Contains(readers[k], p.Name()) {
					if readers[k] == nil {
						names = append(names, k)
					}
					readers[k] = append(readers[k], p.Name())
				}
				return val
			}, "/home/u")
		}
	}
	slices.Sort(names)
	var out []envVar
	for _, n := range names {
		out = append(out, envVar{n, "discover", "where --discover looks for the logs of " + strings.Join(readers[n], ", ")})
	}
	return out
}

// exitNotes end the EXIT STATUS of every page: what the inputs that are
// no logs give.
const exitNotes = `An input named that is no agent log (binary data, agt-streamlog's summary
lines) is reported in one line and counts as an input that could not be read
(1); an empty file or a folder with nothing to read is reported in one line
and is no failure (0). A usage error is one line and exit 2: a flag left
without its value, an unknown flag (the nearest is suggested), -o into a folder
of other files without --force.`

// manPage writes app's man page (roff, man macros): NAME, SYNOPSIS,
// DESCRIPTION, OPTIONS, EXAMPLES, EXIT STATUS, ENVIRONMENT, SEE ALSO.
// The description's paragraphs that open "Examples:" and "Exit status:"
// are those sections; lines indented by three spaces are shown as typed.
func manPage(w io.Writer, app *cli.App) error {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH %s 1\n.nh\n.SH NAME\n%s \\- %s\n", strings.ToUpper(app.Name), roff(app.Name), roff(app.Usage))
	fmt.Fprintf(&b, ".SH SYNOPSIS\n.B %s\n[\\fIOPTION\\fR]... %s\n", roff(app.Name), roffMeta(app.ArgsUsage))
	var examples, exit []string
	b.WriteString(".SH DESCRIPTION\n")
	for _, para := range strings.Split(strings.TrimSpace(app.Description), "\n\n") {
		switch {
		case strings.HasPrefix(para, "Examples:"):
			examples = append(examples, strings.TrimLeft(strings.TrimPrefix(para, "Examples:"), "\n"))
		case strings.HasPrefix(para, "Exit status:"):
			exit = append(exit, strings.TrimSpace(strings.TrimPrefix(para, "Exit status:")))
		default:
			writePara(&b, para)
		}
	}
	b.WriteString(".SH OPTIONS\n")
	for _, f := range docFlags(app) {
		var words []string
		for _, word := range f.words {
			s := `\fB` + roff(word) + `\fR`
			if f.takes {
				s += ` \fI` + roff(f.meta) + `\fR`
			}
			words = append(words, s)
		}
		fmt.Fprintf(&b, ".TP\n%s\n%s", strings.Join(words, ", "), roff(f.usage))
		if f.defalt != "" {
			fmt.Fprintf(&b, " (default: %s)", roff(f.defalt))
		}
		b.WriteString("\n")
	}
	if len(examples) > 0 {
		b.WriteString(".SH EXAMPLES\n")
		for _, e := range examples {
			writePara(&b, e)
		}
	}
	if len(exit) > 0 {
		b.WriteString(".SH EXIT STATUS\n")
		for _, e := range append(exit, exitNotes) {
			writePara(&b, e)
		}
	}
	b.WriteString(".SH ENVIRONMENT\n")
	for _, v := range append(slices.Clone(envVars), discoverVars()...) {
		if v.needs != "" && !slices.ContainsFunc(app.Flags, func(f cli.Flag) bool { return f.Names()[0] == v.needs }) {
			continue
		}
		fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", roff(v.name), roff(v.text))
	}
	b.WriteString(".SH SEE ALSO\n")
	var see []string
	for _, f := range Filters {
		if f != app.Name {
			see = append(see, `\fB`+roff(f)+`\fR(1)`)
		}
	}
	b.WriteString(strings.Join(append(see, `\fBjq\fR(1)`), ", ") + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writePara writes a paragraph of the description: its lines indented by
// three spaces (examples, sample output) as typed, the others filled.
func writePara(b *strings.Builder, para string) {
	b.WriteString(".PP\n")
	typed := false
	for _, line := range strings.Split(para, "\n") {
		ex := strings.HasPrefix(line, "   ")
		switch {
		case ex && !typed:
			b.WriteString(".nf\n.RS 4\n")
		case !ex && typed:
			b.WriteString(".RE\n.fi\n")
		}
		typed = ex
		if ex {
			line = strings.TrimPrefix(line, "   ")
		}
		b.WriteString(roff(line) + "\n")
	}
	if typed {
		b.WriteString(".RE\n.fi\n")
	}
}

// roff escapes text for a roff line: backslashes and dashes, and a dot or
// quote that would open the line as a request.
func roff(s string) string {
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffMeta is an operand synopsis ([PATH...]) with its words in italics.
func roffMeta(s string) string {
	return strings.NewReplacer("PATH", `\fIPATH\fR`).Replace(roff(s))
}
