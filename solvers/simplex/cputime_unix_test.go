//go:build unix

package simplex_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used (user + system), for benchmarks that
// report it next to wall time: on a shared machine it varies far less.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
