//go:build highs

package rds

import (
	"strings"
	"testing"
)

// TestTable1HiGHS runs the Table 1 case with HiGHS as the controller's solver and pins a
// finding: HiGHS 1.10's QP solver ends the step at minute 10 — the one that decides
// J2's share — with numerical_error (the built-in backend solves it and both deadlines
// are met, TestTable1Completions). The policy falls back to minute 0's targets, which
// know nothing of J2; Algorithm 1 gives J2 only what J1's target leaves, and J2 ends at
// minute 40, ten minutes late. Every other step solves. When a HiGHS release solves
// that step this test fails: then J2 should make minute 30 as with the built-in backend.
func TestTable1HiGHS(t *testing.T) {
	p := mustNew(t, Config{Forecast: Ideal, Backend: "highs"})
	j1, j2 := runTable1(t, p)
	if p.Fallbacks() != 1 || !strings.Contains(p.LastError().Error(), "t = 600 s") || !strings.Contains(p.LastError().Error(), "numerical_error") {
		t.Fatalf("%d fallbacks, last %v; the finding was one, at t = 600 s, numerical_error", p.Fallbacks(), p.LastError())
	}
	if j1 != 40 || j2 != 40 {
		t.Errorf("J1 completes at %g, J2 at %g; with the minute-10 fallback they completed at 40 and 40", j1, j2)
	}
}
