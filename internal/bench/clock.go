package bench

import (
	"time"

	"github.com/coraopt/coraopt/internal/cputime"
)

// Clock is where the harness reads time: wall time for the reported timings and the
// process's CPU time (user + system) as a steadier companion on a shared machine. Tests
// inject a fake one; SystemClock is the real thing.
type Clock interface {
	Now() time.Time
	// CPU is the CPU time the process has used so far; 0 where it cannot be read.
	CPU() time.Duration
}

// SystemClock reads the system's monotonic wall clock and the process's CPU time.
type SystemClock struct{}

// Now implements Clock.
func (SystemClock) Now() time.Time { return time.Now() }

// CPU implements Clock.
func (SystemClock) CPU() time.Duration { return cputime.Process() }
