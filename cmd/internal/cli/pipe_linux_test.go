package cli

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWidenPipe: a pipe on stdout gets a buffer of pipeSize bytes (where
// the system allows that much); a regular file is left alone.
func TestWidenPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	size := func() int {
		n, _, errno := syscall.Syscall(syscall.SYS_FCNTL, w.Fd(), syscall.F_GETPIPE_SZ, 0)
		if errno != 0 {
			t.Fatal(errno)
		}
		return int(n)
	}
	if size() >= pipeSize {
		t.Skipf("pipes start with %d bytes here", size())
	}
	widenPipe(w)
	if got := size(); got != pipeSize {
		if b, err := os.ReadFile("/proc/sys/fs/pipe-max-size"); err == nil {
			t.Logf("pipe-max-size %s", b)
		}
		t.Errorf("pipe buffer %d bytes, want %d", got, pipeSize)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	widenPipe(f) // not a pipe: nothing to do, nothing fails
	if _, err := f.WriteString("x"); err != nil {
		t.Error(err)
	}
}
