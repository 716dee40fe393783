package stage

import "unsafe" // and go:linkname

// mallocgc is the runtime's allocator. Asked for memory without zeroing
// it, a large allocation skips clearing what the collector freed: a read
// block is overwritten by the read that fills it, so clearing it first
// (make's zeroing) was 5 to 8 % of a fused run's CPU. The runtime keeps
// this name reachable for the packages that use it (go.dev/issue/67401),
// the JSON decoder this module uses among them.
//
//go:linkname mallocgc runtime.mallocgc
func mallocgc(size uintptr, typ unsafe.Pointer, needzero bool) unsafe.Pointer

// newBlock returns a byte slice of length n and capacity c whose bytes
// are not cleared: the caller copies its n bytes in at once, and looks at
// no byte past them that a read has not written.
func newBlock(n, c int) []byte {
	if c < 64<<10 { // small: the allocator's own zeroing is cheap
		return make([]byte, n, c)
	}
	p := mallocgc(uintptr(c), nil, false)
	return unsafe.Slice((*byte)(p), c)[:n]
}
