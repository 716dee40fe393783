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

// SetSpill sets how many messages stay values, the size of a spilled
// block and of a generation of the lookups by source and by call, makes a
// session spill whatever its size, and returns what restores them.
func SetSpill(window, block, recent int) (restore func()) {
	w, b, r, f, u := spillWindow, spillBlock, recentSize, spillFrom, spillUnit
	spillWindow, spillBlock, recentSize, spillFrom, spillUnit = window, block, recent, 0, 0
	return func() { spillWindow, spillBlock, recentSize, spillFrom, spillUnit = w, b, r, f, u }
}

// Reopened is how many spilled messages of t were decoded again.
func Reopened(t *Transcript) int {
	n := 0
	if t.spill != nil {
		n += len(t.spill.reopened)
	}
	for i := range t.Subagents {
		if s := t.Subagents[i].spill; s != nil {
			n += len(s.reopened)
		}
	}
	return n
}

// Values is how many messages the open sessions of c hold as values.
func Values(c *Consolidator) int {
	n := 0
	for _, b := range c.sessions {
		for _, cv := range b.streams {
			n += len(cv.msgs)
		}
	}
	return n
}

// SetSpillUnit sets how many bytes the sessions of a unit keep together
// before one of them spills, and returns what restores it.
func SetSpillUnit(n int) (restore func()) {
	u := spillUnit
	spillUnit = n
	return func() { spillUnit = u }
}

// UnitBytes is how many bytes the sessions of c's unit under way keep.
func UnitBytes(c *Consolidator) int { return c.held }

// SetSpillDisk sets how many bytes of encoded messages a session spills
// before its blocks go to a temporary file, and returns what restores it.
func SetSpillDisk(n int) (restore func()) {
	d := diskFrom
	diskFrom = n
	return func() { diskFrom = d }
}

// OnDisk is how many of t's spilled blocks are in its temporary file.
func OnDisk(t *Transcript) int {
	var st *store
	if t.spill != nil {
		st = t.spill.st
	}
	for i := range t.Subagents {
		if s := t.Subagents[i].spill; st == nil && s != nil {
			st = s.st
		}
	}
	n := 0
	if st != nil {
		for _, b := range st.blocks {
			<-b.done
			if b.z == nil {
				n++
			}
		}
	}
	return n
}
