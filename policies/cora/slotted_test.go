package cora_test

import (
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/policies/cora"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// TestShiftIsExact: the rewritten utility at slot t equals the original at the
// response elapsed + t·k, for every family Shift rewrites and for the wrapper.
func TestShiftIsExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		elapsed := rapid.Float64Range(0, 500).Draw(t, "elapsed")
		k := rapid.Float64Range(0.01, 10).Draw(t, "k")
		var u sched.Utility
		switch rapid.IntRange(0, 4).Draw(t, "family") {
		case 0:
			u = sched.Sigmoid{Priority: rapid.Float64Range(0, 5).Draw(t, "p"), Deadline: rapid.Float64Range(0, 300).Draw(t, "d"), Decay: rapid.Float64Range(0, 6).Draw(t, "mu")}
		case 1:
			u = sched.Linear{Priority: rapid.Float64Range(0, 5).Draw(t, "W"), Budget: rapid.Float64Range(0, 300).Draw(t, "B"), Slope: rapid.Float64Range(0, 2).Draw(t, "beta"), Hard: rapid.Bool().Draw(t, "hard")}
		case 2:
			u = sched.Step{Value: 3, Deadline: rapid.Float64Range(0, 300).Draw(t, "d"), Late: 1}
		case 3:
			u = sched.Constant{Value: 2}
		default:
			u = sched.RDS{Priority: 2, Soft: 40, Hard: 70}
		}
		s := cora.Shift(u, elapsed, k)
		for slot := 1; slot <= 50; slot++ {
			want := workload.UtilityOfResponse(u, elapsed+float64(slot)*k)
			got := s.At(slot)
			if math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
				// A step or a hard budget may flip at a boundary within rounding of t·k.
				r := elapsed + float64(slot)*k
				if st, ok := u.(sched.Step); ok && math.Abs(r-st.Deadline) < 1e-9 {
					continue
				}
				if l, ok := u.(sched.Linear); ok && l.Hard && math.Abs(r-l.Budget) < 1e-9 {
					continue
				}
				t.Fatalf("%T slot %d: %v, want %v", u, slot, got, want)
			}
		}
	})
}
