//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package sweep

import "os"

// lockFile cannot lock on this system (no flock): the part is opened unguarded.
func lockFile(*os.File) error { return ErrNoLocking }
