package transcript_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/agt-project/agt"
	"github.com/agt-project/agt/provider"
	"github.com/agt-project/agt/transcript"
)

// TestSpillUnit: a session spills once the sessions of its unit keep
// together more than spillUnit bytes, not before: alone under it, a long
// session holds all its messages as values; beside a second session of
// the same file, the two pass it and spill.
func TestSpillUnit(t *testing.T) {
	defer transcript.SetSpill(16, 4<<10, 64)()
	one := longSession(500)
	defer transcript.SetSpillUnit(1 << 60)()
	_, _, kept := unitRun(t, one)
	defer transcript.SetSpillUnit(kept + kept/4)()
	if most, _, _ := unitRun(t, one); most < 1000 {
		t.Errorf("one session under the unit's bytes: %d messages held as values, want all 1000", most)
	}
	two := make([]agt.Event, 0, 2*len(one))
	for i := range one { // a second session in the same file, interleaved
		other := one[i]
		other.Session, other.NativeSession, other.ID = "s2", "n2", other.ID+"-2"
		two = append(two, one[i], other)
	}
	for i := range two {
		two[i].Seq = int64(i)
	}
	if most, last, _ := unitRun(t, two); most >= 2000 || last > 4*16 {
		t.Errorf("two sessions over the unit's bytes: at most %d and at the end %d messages held as values, want under 2000 and at most %d", most, last, 4*16)
	}
}

// unitRun consolidates evs, one file, a batch at a time, and returns the
// most messages its sessions held as values after a batch, how many they
// held after the last, and the bytes they kept.
func unitRun(t *testing.T, evs []agt.Event) (most, last, kept int) {
	t.Helper()
	cons := transcript.NewConsolidator(provider.UnitKey, false, func(string, *transcript.Transcript, []agt.Event) error { return nil })
	cons.Spill = true
	for len(evs) > 0 {
		n := min(len(evs), 100)
		if err := cons.Add(evs[:n]); err != nil {
			t.Fatal(err)
		}
		evs = evs[n:]
		last = transcript.Values(cons)
		most = max(most, last)
	}
	kept = transcript.UnitBytes(cons)
	if err := cons.Close(); err != nil {
		t.Fatal(err)
	}
	return most, last, kept
}

// TestSpillNoTempFolder: past diskFrom a session's blocks go to a
// temporary file; where none can be made (TMPDIR names no folder), they
// stay in memory, and the transcript is the same either way.
func TestSpillNoTempFolder(t *testing.T) {
	defer transcript.SetSpill(16, 4<<10, 64)()
	defer transcript.SetSpillDisk(0)()
	evs := longSession(500)
	whole, _ := transcriptsOf(t, evs, false)
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("TMP", t.TempDir())
	if _, ts := transcriptsOf(t, evs, true); transcript.OnDisk(ts[0]) == 0 {
		t.Errorf("no block on disk with a temporary folder")
	}
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "none"))
	t.Setenv("TMP", filepath.Join(t.TempDir(), "none"))
	spilled, ts := transcriptsOf(t, evs, true)
	if len(whole) != 1 || len(spilled) != 1 || !bytes.Equal(whole[0], spilled[0]) {
		t.Fatalf("spilled transcript differs from whole")
	}
	if n := transcript.OnDisk(ts[0]); n != 0 {
		t.Errorf("%d blocks on disk without a temporary folder", n)
	}
	if h := ts[0].Held(); h == 0 {
		t.Errorf("no block held in memory")
	}
}
