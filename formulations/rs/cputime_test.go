package rs

import (
	"testing"

	"github.com/coraopt/coraopt/internal/cputime"
)

// reportCPU runs f as the benchmark loop and reports cpu-ns/op, the process's CPU time
// per run, next to the wall-clock ns/op (see package internal/cputime).
func reportCPU(b *testing.B, f func()) {
	b.Helper()
	start := cputime.Process()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if end := cputime.Process(); start > 0 && n > 0 {
		b.ReportMetric(float64(end-start)/float64(n), "cpu-ns/op")
	}
}
