//go:build unix

package dirlock

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive flock without waiting. flock locks belong to
// the open file, so two Locks in one process also exclude each other.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errLocked
		}
		return err
	}
}

func unlockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
