package qp

import (
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// TestRegressions holds problems on which the property tests once found a wrong answer,
// each with what went wrong. All are feasible and bounded, so the solver must prove them
// optimal with a KKT certificate.
func TestRegressions(t *testing.T) {
	tests := []struct {
		name string
		p    *model.Problem
	}{
		{
			// A degenerate vertex (8 active constraints in 8 dimensions) where a dependent
			// row was violated by 1.3e-9 (rounding) and nothing could be released: it was
			// declared infeasible. Now retried from fresh factors and, below
			// 100·PrimalTol, accepted as satisfied.
			name: "degenerate vertex rounding",
			p: &model.Problem{Sense: model.Minimize, ColCost: []float64{1, 1, 1, 1, 1, 1, 1, 1},
				ColLower: []float64{-inf, -inf, 0, -inf, -inf, -inf, -inf, -inf}, ColUpper: []float64{inf, inf, inf, 1.0000000000582077, inf, inf, inf, inf},
				RowLower: []float64{-inf, -inf, 2.124999999992724, 1, 3, 2.03125, 2.375, 0}, RowUpper: []float64{1, 1.0000000149011612, inf, 1, 3, 2.03125, 2.375, 0},
				AStart: []int{0, 4, 6, 6, 8, 11, 15, 17, 19}, AIndex: []int{2, 4, 5, 6, 4, 5, 2, 6, 4, 5, 7, 2, 5, 6, 7, 1, 7, 3, 7},
				AValue: []float64{1, 1, -1, 1.25, 1, 1, 1, 1, 1, 1.03125, -1, 0.125, 1, 0.125, 1, 1, -1, 1, 1},
				QStart: []int{0, 8, 15, 21, 26, 30, 33, 35, 36}, QIndex: []int{0, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7, 3, 4, 5, 6, 7, 4, 5, 6, 7, 5, 6, 7, 6, 7, 7},
				QValue: []float64{9, 8, 8, 8, 8, 8, 8, 8, 9, 8, 8, 8, 8, 8, 8, 9, 8, 8, 8, 8, 8, 9, 8, 8, 8, 8, 9, 8, 8, 8, 9, 8, 8, 9, 8, 9}},
		},
		{
			// Same failure with a tiny diagonal (1.5e-5) and large multipliers.
			name: "degenerate vertex large multipliers",
			p: &model.Problem{Sense: model.Minimize, ColCost: []float64{1, 1, 1, 1, 1, 1},
				ColLower: []float64{0, 2, 0, 0.9999999850988388, 1, 0}, ColUpper: []float64{2, 4, 2, 2, 1, 1.0000000002328306},
				RowLower: []float64{-inf, 2.25, -inf, 4, -inf, -inf, -inf, -1.5}, RowUpper: []float64{2, 2.25, 1, inf, 1, 1, 1, -1.5},
				AStart: []int{0, 1, 2, 4, 6, 7, 10}, AIndex: []int{3, 3, 1, 7, 3, 7, 1, 0, 1, 7}, AValue: []float64{1, 1, 0.25, -1.5, 1, -1, 1, 1, 1, 1},
				QStart: []int{0, 4, 6, 8, 9, 9, 10}, QIndex: []int{0, 1, 2, 3, 1, 2, 2, 3, 3, 5}, QValue: []float64{5.25, 2.5, 3.25, 2.5, 4, 0.75, 3.0625, 3.25, 4, 1.52587890625e-05}},
		},
		{
			// A curvature-free variable with cost −1.9e-9 and its bound 2 away: plain
			// proximal steps move it by c/ρ each and ran out of outer iterations; the
			// extrapolation step now takes it to the bound.
			name: "tiny cost drift",
			p: &model.Problem{Sense: model.Minimize, ColCost: []float64{1, 1, 1, 1, 1, -1.862645149230957e-09, 1},
				ColLower: []float64{0, 0, 0, 0, 0, 0, 0}, ColUpper: []float64{2, 2, 2, 2, 2, 2, 2},
				RowLower: []float64{}, RowUpper: []float64{}, AStart: []int{0, 0, 0, 0, 0, 0, 0, 0},
				QStart: []int{0, 0, 0, 0, 0, 0, 0, 1}, QIndex: []int{6}, QValue: []float64{3.0625}},
		},
		{
			// H = 1.2e-8 (positive definite): the unconstrained minimizer is at −1.7e8 and
			// cancellation left the active row 6e-8 short. Refinement in the working-set
			// solve fixes it.
			name: "tiny curvature cancellation",
			p: &model.Problem{Sense: model.Minimize, ColCost: []float64{2}, ColLower: []float64{-0.75}, ColUpper: []float64{1.25},
				RowLower: []float64{0.2501253973969142}, RowUpper: []float64{inf}, AStart: []int{0, 1}, AIndex: []int{0}, AValue: []float64{1.0005017087969463},
				QStart: []int{0, 1}, QIndex: []int{0}, QValue: []float64{1.2012342933721831e-08}},
		},
		{
			// A 3×3 H that is singular up to rounding, but whose last Cholesky pivot is
			// 8e-8: the pivot test passed it as strictly convex and the dual method
			// misjudged a dependent bound (σ ≈ 1e12) as infeasible. The λ_min estimate
			// now sends it to the proximal path.
			name: "hidden near-singular block",
			p: &model.Problem{Sense: model.Minimize, ColCost: []float64{1, 1, 1}, ColLower: []float64{0, 0, 0}, ColUpper: []float64{2, 1.5, 2},
				RowLower: []float64{3.46875}, RowUpper: []float64{3.46875}, AStart: []int{0, 1, 2, 2}, AIndex: []int{0, 0}, AValue: []float64{1.5, 1.96875},
				QStart: []int{0, 3, 5, 6}, QIndex: []int{0, 1, 2, 1, 2, 2},
				QValue: []float64{1.0039062649011612, 0.12503051781095564, 1.1245121955871582, 0.01562523842221708, 0.12597275525331497, 4.9688262939453125}},
		},
		{
			// σ = 2e9 from a nearly curvature-free variable made δ²/σ = 8e-12 look like
			// linear dependence (with ρ = 1e-9), and the problem was called infeasible.
			name: "mixed scales dependence test",
			p: &model.Problem{Sense: model.Minimize, ColCost: []float64{4.76837158203125e-07, 1, 1, 1, 1},
				ColLower: []float64{0, 0, 1, 0, 0}, ColUpper: []float64{2, 2, 1, 2, 2},
				RowLower: []float64{-inf, -inf, -inf, 2.5, -inf, 3.5}, RowUpper: []float64{1, 1, 1, 2.5, 2.0625, 3.5},
				AStart: []int{0, 0, 2, 4, 7, 8}, AIndex: []int{4, 5, 3, 5, 3, 4, 5, 3}, AValue: []float64{1, 1.5, 1, 1, 1, 1, 1, 0.5},
				QStart: []int{0, 4, 7, 9, 10, 11}, QIndex: []int{0, 1, 2, 3, 1, 2, 3, 2, 3, 3, 4},
				QValue: []float64{2.2737367544323206e-13, 4.76837158203125e-07, -4.76837158203125e-07, -4.76837158203125e-07, 1, -1, -1, 1, 1, 1, 1}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.p.Validate(); err != nil {
				t.Fatal(err)
			}
			sol := solve(t, tc.p, solvers.Options{})
			if sol.Status != solvers.Optimal {
				t.Fatalf("status %v, want optimal", sol.Status)
			}
			if r := checkKKT(tc.p, sol); r.max() > 1e-7 {
				t.Fatalf("KKT: %v", r)
			}
		})
	}
}

// TestRegressionInfeasibleLPCycle: an infeasible LP (gonum's simplex agrees) on which the
// "retry from fresh factors" path replayed the same additions forever, because the retry
// flag was reset after every successful addition; the solve ended at the safety cap with
// NumericalError. Retries are now only for drift-sized violations, three per run.
func TestRegressionInfeasibleLPCycle(t *testing.T) {
	p := &model.Problem{Sense: model.Minimize, ColCost: []float64{3, 0, 0, 0, 0},
		ColLower: []float64{-inf, 0, -inf, -inf, 0}, ColUpper: []float64{0, inf, 1, inf, inf},
		RowLower: []float64{0, 0, -inf, 0, 0, 4}, RowUpper: []float64{inf, inf, 0, 0, 0, 4},
		AStart: []int{0, 4, 8, 11, 14, 15}, AIndex: []int{2, 3, 4, 5, 2, 3, 4, 5, 2, 3, 4, 2, 4, 5, 5},
		AValue: []float64{2, -3, -2, 2, 3, 1, -3, 1, -3, -4, 3, -2, 1, -2, -1}}
	sol := solve(t, p, solvers.Options{})
	if sol.Status != solvers.Infeasible {
		t.Fatalf("status %v after %d changes, want infeasible", sol.Status, sol.Iterations)
	}
}
