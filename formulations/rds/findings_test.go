package rds

import (
	"context"
	"math"
	"testing"
)

// TestTable1Completions pins the completion times the README's Findings quote for the
// Table 1 case study (rds.txt §2.2; capacities are our reconstruction, see table1), in
// closed loop with a perfect forecast: RDS's RHC with the deadline-first stage meets
// both deadlines, eq. 3 alone finishes J2 about ten minutes late, Fair five.
func TestTable1Completions(t *testing.T) {
	eq3 := DefaultParams()
	eq3.Deadlines = DeadlinesOff
	sc := table1()
	for _, tc := range []struct {
		name   string
		c      Controller
		j1, j2 float64
	}{
		{"rhc deadlines first", &RHCController{Solver: qpSolver(t), Params: DefaultParams(), Predictor: Known(sc.Capacity)}, 40, 30},
		{"eq. 3 alone", &RHCController{Solver: qpSolver(t), Params: eq3, Predictor: Known(sc.Capacity)}, 40, 39.99},
		{"fair", FairController{}, 40, 35},
	} {
		run, err := Simulate(context.Background(), table1(), tc.c)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		j1, j2 := run.Jobs[0].Completion, run.Jobs[1].Completion
		if math.Abs(j1-tc.j1) > 0.005 || math.Abs(j2-tc.j2) > 0.005 {
			t.Errorf("%s: J1 completes at %.4f, J2 at %.4f; the README says %g and %g", tc.name, j1, j2, tc.j1, tc.j2)
		}
	}
}
