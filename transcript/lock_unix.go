//go:build unix

package transcript

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on f without waiting: errLocked when
// another process holds it. The lock goes with f's descriptor.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
