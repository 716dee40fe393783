package stage

import (
	"encoding/binary"
	"os"
	"sync"
	"syscall"
)

// notifier wakes the readers of followed files when their file changes
// (inotify), so that a line's events do not wait for the next poll. The
// poll goes on, less often, for what inotify does not tell (a network file
// system). A nil notifier wakes nobody.
type notifier struct {
	f      *os.File
	fd     int // f's (f.Fd would make f blocking, and Close would not end its read)
	mu     sync.Mutex
	byWd   map[int32]map[chan struct{}]bool
	closed bool
}

// watchMask is what wakes a reader: data written, a truncation (attributes),
// the file removed or moved.
const watchMask = syscall.IN_MODIFY | syscall.IN_ATTRIB | syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF

// newNotifier starts a notifier, or returns nil when inotify is not there.
func newNotifier() *notifier {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil
	}
	// non-blocking: the runtime's poller reads it, and Close ends the read
	n := &notifier{f: os.NewFile(uintptr(fd), "inotify"), fd: fd, byWd: map[int32]map[chan struct{}]bool{}}
	go n.run()
	return n
}

// watch returns a channel that receives when the file at path changes, and
// the function that ends the watch; nil when the file cannot be watched
// (too many watches: it is then polled as often as without a notifier).
func (n *notifier) watch(path string) (<-chan struct{}, func()) {
	if n == nil {
		return nil, func() {}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil, func() {}
	}
	wd, err := syscall.InotifyAddWatch(n.fd, path, watchMask)
	if err != nil {
		return nil, func() {}
	}
	c := make(chan struct{}, 1)
	w := int32(wd)
	if n.byWd[w] == nil {
		n.byWd[w] = map[chan struct{}]bool{}
	}
	n.byWd[w][c] = true
	return c, func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		if n.byWd[w][c] {
			delete(n.byWd[w], c)
			if len(n.byWd[w]) == 0 {
				delete(n.byWd, w)
				if !n.closed {
					syscall.InotifyRmWatch(n.fd, uint32(w))
				}
			}
		}
	}
}

// run reads events and wakes the readers of their files.
func (n *notifier) run() {
	buf := make([]byte, 64<<10)
	for {
		k, err := n.f.Read(buf)
		if err != nil {
			return
		}
		n.mu.Lock()
		for off := 0; off+syscall.SizeofInotifyEvent <= k; {
			wd := int32(binary.NativeEndian.Uint32(buf[off:]))
			mask := binary.NativeEndian.Uint32(buf[off+4:])
			for c := range n.byWd[wd] {
				select {
				case c <- struct{}{}:
				default: // a wake is pending already
				}
			}
			if mask&syscall.IN_IGNORED != 0 { // the watch is gone (its file removed)
				delete(n.byWd, wd)
			}
			off += syscall.SizeofInotifyEvent + int(binary.NativeEndian.Uint32(buf[off+12:]))
		}
		n.mu.Unlock()
	}
}

// close ends the notifier; the readers go on polling.
func (n *notifier) close() {
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.closed {
		n.closed = true
		n.f.Close()
	}
}
