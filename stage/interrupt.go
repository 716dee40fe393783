package stage

import (
	"context"
	"io"
)

// An interrupt comes in two steps. The first ends the run's context: files
// and folders are read no further, and what was read is written out. A
// stream that another process writes (a pipe on stdin: the stage after an
// agent, or after another filter) is read on to its end, since the process
// that writes it got the same interrupt and hands on what it had: the last
// model call of a run would be lost otherwise. The second interrupt (or a
// SIGTERM) is the drain's end: the stream too stops where it is.

type drainKey struct{}

// WithDrainStop gives ctx the channel that, closed, ends the draining of
// streams (the second interrupt).
func WithDrainStop(ctx context.Context, hard <-chan struct{}) context.Context {
	return context.WithValue(ctx, drainKey{}, hard)
}

// Drains tells whether r, an input's reader, is a stream read to its end
// after a first interrupt: stdin when it is a pipe or a socket.
func Drains(r io.Reader) bool {
	d, ok := r.(interface{ Drains() bool })
	return ok && d.Drains()
}

// DrainStop is the channel that ends the draining of streams after an
// interrupt; nil when the run has none (a run in a program of its own, a
// test): its streams then stop at the first interrupt, as files do.
func DrainStop(ctx context.Context) <-chan struct{} {
	c, _ := ctx.Value(drainKey{}).(<-chan struct{})
	return c
}
