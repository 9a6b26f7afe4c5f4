//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package sweep

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes f's exclusive flock without waiting. It returns errLocked when another
// open file holds it, ErrNoLocking when the file system cannot lock.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errLocked
		case errors.Is(err, syscall.ENOSYS), errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOLCK):
			return ErrNoLocking
		}
		return err
	}
}
