//go:build !unix

package tas

import "time"

// processCPU is not measured on this platform; benchmarks then omit cpu-ns/op.
func processCPU() time.Duration { return 0 }
