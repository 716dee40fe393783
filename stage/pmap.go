package stage

import "context"

// Map applies fn to every item of in on n goroutines and sends the results
// to the returned channel in the order of in. It stops when in is closed or
// ctx is done; the returned channel is closed after the last result.
func Map[T, U any](ctx context.Context, in <-chan T, n int, fn func(T) U) <-chan U {
	if n < 1 {
		n = 1
	}
	type job struct {
		item T
		done chan U
	}
	work := make(chan job, n)
	order := make(chan chan U, 2*n)
	out := make(chan U, n)
	go func() {
		defer close(work)
		defer close(order)
		for item := range in {
			j := job{item, make(chan U, 1)}
			select {
			case order <- j.done:
			case <-ctx.Done():
				return
			}
			select {
			case work <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	for i := 0; i < n; i++ {
		go func() {
			for j := range work {
				j.done <- fn(j.item)
			}
		}()
	}
	go func() {
		defer close(out)
		for done := range order {
			var u U
			select {
			case u = <-done:
			case <-ctx.Done():
				return
			}
			select {
			case out <- u:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}
