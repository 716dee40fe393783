//go:build race

package cli

// raceBuild: the test binary is built with the race detector. The tests that
// run the docs' commands as processes of it skip then (each process would be
// instrumented, slow), and so do the corpus-wide property tests that check
// identity, not concurrency; the concurrency tests read a part of the
// corpus. make long runs them all without it.
const raceBuild = true
