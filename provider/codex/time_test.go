package codex

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// TestLayoutMS: a rollout line's time read without time.Parse is the time
// time.Parse reads, and a text it does not take (another layout, a day or
// time out of range) is left to time.Parse.
func TestLayoutMS(t *testing.T) {
	parse := func(ts string) int64 {
		tm, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil {
			return 0
		}
		return tm.UnixMilli()
	}
	cases := []string{
		"2026-01-05T18:21:03.419Z", "2024-02-29T23:59:59.999Z", "2023-02-29T00:00:00.000Z",
		"2026-04-31T00:00:00.000Z", "2026-12-31T24:00:00.000Z", "2026-13-01T00:00:00.000Z",
		"2026-00-10T00:00:00.000Z", "2026-01-00T00:00:00.000Z", "2026-01-05T18:60:03.419Z",
		"2026-01-05T18:21:60.419Z", "0000-01-01T00:00:00.000Z", "2026-01-05T18:21:03.41xZ",
		"2026-01-05T18:21:03.419+", "2026-01-05 18:21:03.419Z", "2026-01-05T18:21:03.4190Z", "",
	}
	r := rand.New(rand.NewPCG(27, 1))
	for range 20000 { // the fields around and past their ranges
		cases = append(cases, fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
			r.IntN(10000), r.IntN(14), r.IntN(33), r.IntN(25), r.IntN(61), r.IntN(61), r.IntN(1000)))
	}
	ok := 0
	for _, ts := range cases {
		ms, fast := layoutMS(ts)
		if fast {
			ok++
			if want := parse(ts); ms != want {
				t.Errorf("%q: %d, time.Parse %d", ts, ms, want)
			}
		} else if parse(ts) != 0 && len(ts) == len(tsLayout) && ts[23] == 'Z' && ts[19] == '.' {
			t.Errorf("%q: left to time.Parse, which reads it", ts)
		}
		if got, want := unixMS(ts), parse(ts); got != want {
			t.Errorf("unixMS(%q) = %d, want %d", ts, got, want)
		}
	}
	if ok < 1000 {
		t.Errorf("only %d of %d times read in the layout", ok, len(cases))
	}
}
