// Package agt holds the domain types of the agt toolkit: the provider-agnostic
// event (agt.event/1) that every filter reads and writes, its parts (tool calls,
// results, usage, metadata), the deterministic ids, and the Emitter through
// which provider parsers turn native records into events.
//
// The filters themselves live in cmd/; the provider parsers in provider/; the
// goroutine pipeline in stage/.
package agt
