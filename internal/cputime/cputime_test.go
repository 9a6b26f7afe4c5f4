//go:build unix

package cputime

import "testing"

// Process grows while this process computes (on unix, where it is measured).
func TestProcessGrows(t *testing.T) {
	before := Process()
	if before <= 0 {
		t.Fatalf("Process() = %v before any work, want > 0", before)
	}
	x := 0.0
	for i := range 50_000_000 {
		x += float64(i % 7)
	}
	after := Process()
	if after <= before {
		t.Fatalf("Process() went from %v to %v over 5e7 iterations (x=%g)", before, after, x)
	}
}
