package transcript

// Names the tests use that the program does not.

import (
	"io"

	"github.com/agt-project/agt"
)

// Lines writes each transcript as a line to w.
func Lines(w io.Writer) Flush {
	return func(_ string, t *Transcript, _ []agt.Event) error { return WriteJSON(w, t) }
}
