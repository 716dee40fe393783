//go:build race

package cli

// docRace: the test binary is built with the race detector. The tests that
// run the docs' commands as processes of it skip then: each process would
// be instrumented (slow), and they check the docs, not concurrency.
const docRace = true
