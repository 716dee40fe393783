package stage

import (
	"context"
	"sync"
)

// Group runs functions under one context. The first error cancels the
// context; Wait returns it.
type Group struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
	err    error
}

// NewGroup returns a group whose context is derived from ctx.
func NewGroup(ctx context.Context) *Group {
	c, cancel := context.WithCancel(ctx)
	return &Group{ctx: c, cancel: cancel}
}

// Context is the context every function of the group should watch.
func (g *Group) Context() context.Context { return g.ctx }

// Go runs f in a goroutine.
func (g *Group) Go(f func(ctx context.Context) error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(g.ctx); err != nil {
			g.once.Do(func() {
				g.err = err
				g.cancel()
			})
		}
	}()
}

// Wait waits for every function and returns the first error.
func (g *Group) Wait() error {
	g.wg.Wait()
	g.cancel()
	return g.err
}
