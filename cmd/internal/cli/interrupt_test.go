package cli

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"os"
	"sync"
	"testing"
	"time"
)

// heldReader gives its data, then waits, as a pipe from an agent that is
// still running does: once all is read, it calls drained (once), then
// blocks until released (after the run), as a read from a pipe does: an
// interrupt does not end it.
type heldReader struct {
	data     *bytes.Reader
	drained  func()
	released <-chan struct{}
}

func (r heldReader) Read(p []byte) (int, error) {
	if r.data.Len() > 0 {
		return r.data.Read(p)
	}
	r.drained()
	<-r.released
	return 0, errors.New("released")
}

// TestInterruptWritesWhatWasRead: every filter interrupted once it has
// read all of a live input (its stdin still open) writes what it read as
// the end of input would have had it (the last model call's usage, the
// session's transcript, lines held to tell the provider), then exits 130.
func TestInterruptWritesWhatWasRead(t *testing.T) {
	filters := []filterRun{
		{"agt-parse", Parse, nil},
		{"agt-normalize", Normalize, nil},
		{"agt-streamlog", Streamlog, nil},
		{"agt-streamlog-raw", Streamlog, []string{"--mode", "raw"}},
		{"agt-transcript", Transcript, nil},
	}
	t.Setenv("NO_COLOR", "1")
	ins := liveInputs(t)
	maps.Copy(ins, liveCorpus(t))
	for name, p := range ins {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range filters {
			t.Run(f.name+"/"+name, func(t *testing.T) {
				args := append([]string{"-q"}, f.args...)
				whole := runApp(t, f.app, data, args...)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var out, errb bytes.Buffer
				// all read: the user presses Ctrl-C
				released := make(chan struct{})
				defer close(released)
				in := heldReader{bytes.NewReader(data), sync.OnceFunc(cancel), released}
				done := make(chan int, 1)
				go func() { done <- Run(ctx, f.app(IO{In: in, Out: &out, Err: &errb}), append([]string{"agt"}, args...)) }()
				var code int
				select {
				case code = <-done:
				case <-time.After(hangGuard): // not a time limit: a run that never ends
					t.Fatalf("hang guard: the run did not end on the interrupt; stdout so far:\n%.300s", out.Bytes())
				}
				if code != ExitInterrupted {
					t.Fatalf("exit %d, want %d: %s", code, ExitInterrupted, errb.String())
				}
				if !bytes.Equal(out.Bytes(), whole) {
					t.Errorf("interrupted, the output differs from the whole input's:\n got  %.300s\n want %.300s", out.Bytes(), whole)
				}
			})
		}
	}
}
