package rs

import (
	"syscall"
	"testing"
)

// processCPU is the CPU time (user + system) this process has used, in nanoseconds.
// Benchmarks report it per op as cpu-ns/op next to wall-clock ns/op: on a shared
// machine the wall clock also counts the time other processes held the CPU.
func processCPU() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}

// reportCPU runs f as the benchmark loop and reports cpu-ns/op.
func reportCPU(b *testing.B, f func()) {
	b.Helper()
	start, ok := processCPU()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if end, ok2 := processCPU(); ok && ok2 && n > 0 {
		b.ReportMetric(float64(end-start)/float64(n), "cpu-ns/op")
	}
}
