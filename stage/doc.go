// Package stage holds the goroutine machinery every agt filter is built from:
// a line reader without a line-length limit, batches of lines, an ordered
// parallel map, a runner that wires stages under one context and returns the
// first fatal error, and a buffered writer that turns a closed stdout into a
// quiet end of the run.
package stage
