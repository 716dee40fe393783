package transcript

import (
	"fmt"
	"os"
	"runtime"
	"sync"
)

// A session that spills more than diskFrom bytes of encoded messages keeps
// its later compressed blocks in a temporary file rather than in memory:
// a long session's compressed messages are about a fifth of its
// transcript, 400 MB for a 2 GB Codex rollout. The file is made in the
// system's temporary folder (TMPDIR) and removed at once where the system
// allows it (the open file stays readable, and nothing is left behind
// even if the run is killed); elsewhere it is removed once the session's
// blocks are let go. A block that cannot be written stays in memory.
var diskFrom = 128 << 20

// disk is the temporary file of a store's blocks.
type disk struct {
	f   *os.File
	mu  sync.Mutex
	end int64 // bytes written
}

// newDisk makes the temporary file of st, or returns nil (the blocks stay
// in memory) when none can be made.
func newDisk(st *store) *disk {
	f, err := os.CreateTemp("", "agt-spill-*")
	if err != nil {
		return nil
	}
	name, gone := f.Name(), os.Remove(f.Name()) == nil
	runtime.AddCleanup(st, func(f *os.File) {
		f.Close()
		if !gone {
			os.Remove(name)
		}
	}, f)
	return &disk{f: f}
}

// put writes z and returns where it is, or ok false (no file, or it could
// not be written).
func (d *disk) put(z []byte) (off int64, ok bool) {
	if d == nil {
		return 0, false
	}
	d.mu.Lock()
	off = d.end
	d.end += int64(len(z))
	d.mu.Unlock()
	_, err := d.f.WriteAt(z, off)
	return off, err == nil
}

// get reads the n bytes at off into buf.
func (d *disk) get(buf []byte, off int64, n int) []byte {
	buf = append(buf[:0], make([]byte, n)...)
	if _, err := d.f.ReadAt(buf, off); err != nil { // our own file: an I/O error
		panic(fmt.Sprintf("transcript: reading spilled messages back from %s: %v", d.f.Name(), err))
	}
	return buf
}
