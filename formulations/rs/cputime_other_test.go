//go:build !linux

package rs

import "testing"

// reportCPU runs f as the benchmark loop (CPU time is reported on Linux only).
func reportCPU(b *testing.B, f func()) {
	b.Helper()
	for b.Loop() {
		f()
	}
}
