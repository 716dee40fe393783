package stage

import (
	"context"
	"io"
	"testing"

	"github.com/agt-project/agt"
)

// lineParser makes one unknown event of each record.
type lineParser struct{}

func (lineParser) Decode(rec []byte) (any, error) { return struct{}{}, nil }
func (lineParser) Apply(em *agt.Emitter, _ any)   { em.Unknown("", "", "") }
func (lineParser) Finish(*agt.Emitter)            {}

// batches is a Source of given batches.
type batches []*Batch

func (bs batches) Read(ctx context.Context, out chan<- *Batch) error {
	for _, b := range bs {
		out <- b
	}
	return nil
}
func (batches) Skipped() int64             { return 0 }
func (batches) Ignored() (int64, []string) { return 0, nil }

// TestApplyTime: a run counts the time of its ordered step (Stats.Apply),
// as a wall-clock span, and as the CPU time of the step's own thread when
// AGT_DEBUG_SERIAL is set (serialCPU).
func TestApplyTime(t *testing.T) {
	for _, cpu := range []bool{false, true} {
		serialCPU = cpu
		em := agt.NewEmitter("x", "x", agt.Options{})
		em.Session(agt.FallbackSession("x"))
		u := &Unit{Parser: lineParser{}, Em: em}
		var src batches
		for i := range 50 {
			b := &Batch{Unit: u, Path: "x", First: int64(1 + 1000*i), End: i == 49}
			for range 1000 {
				b.Lines = append(b.Lines, []byte(`{"a":1}`))
			}
			src = append(src, b)
		}
		events := 0
		st, err := Run(context.Background(), Config{Workers: 2}, src, Events{Take: func(evs []agt.Event) error { events += len(evs); return nil }}, io.Discard)
		if err != nil || events < 50000 {
			t.Fatalf("cpu %v: %v, %d events", cpu, err, events)
		}
		if st.Apply <= 0 {
			t.Errorf("cpu %v: ordered step's time %v", cpu, st.Apply)
		}
	}
	serialCPU = false
}
