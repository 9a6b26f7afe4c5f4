//go:build !unix

package cputime

import "time"

// Process is not available on this platform: always 0.
func Process() time.Duration { return 0 }
