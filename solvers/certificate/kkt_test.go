package certificate

import (
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// TestCheckKKT: each residual catches what it measures, from X and RowDual alone.
func TestCheckKKT(t *testing.T) {
	const tol = 1e-7
	tests := []struct {
		name string
		p    func() *model.Problem
		sol  func() *solvers.Solution
		edit func(s *solvers.Solution)
		// Which residuals exceed tol; checked says whether duals were examined.
		primal, dual, complement, checked bool
	}{
		{name: "lp optimum", p: lp, sol: lpOptimum, checked: true},
		{name: "lp maximize", p: func() *model.Problem {
			p := lp()
			p.Sense = model.Maximize
			p.ColCost = []float64{2, 1}
			return p
		}, sol: lpOptimum, edit: func(s *solvers.Solution) { s.RowDual = []float64{1} }, checked: true},
		{name: "reported reduced costs are not trusted", p: lp, sol: lpOptimum,
			edit: func(s *solvers.Solution) { s.ReducedCost = []float64{42, -42} }, checked: true},
		{name: "no ReducedCost at all", p: lp, sol: lpOptimum,
			edit: func(s *solvers.Solution) { s.ReducedCost = nil }, checked: true},
		{name: "dual of the wrong sign", p: lp, sol: lpOptimum,
			// y = +1 selects the row's lower bound, −∞; d = (−3, −2) gives y, which sits
			// between its bounds, a nonzero reduced cost.
			edit: func(s *solvers.Solution) { s.RowDual = []float64{1} }, dual: true, checked: true},
		{name: "not optimal: x off its bound, the row slack", p: lp, sol: lpOptimum,
			edit:       func(s *solvers.Solution) { s.X = []float64{2, 1} },
			dual:       true, // d_x = −1 with x strictly inside [0, 3]
			complement: true, // y = −1 on a row 1 away from its bound
			checked:    true},
		{name: "infeasible point", p: lp, sol: lpOptimum,
			edit:   func(s *solvers.Solution) { s.X = []float64{3.5, 1} },
			primal: true, dual: true, complement: true, checked: true},
		{name: "no duals: only the primal residual", p: lp, sol: lpOptimum,
			edit: func(s *solvers.Solution) { s.RowDual = nil }},
		{name: "qp optimum", p: qp, sol: qpOptimum, checked: true},
		{name: "qp not stationary", p: qp, sol: qpOptimum,
			// Feasible, gradient (−1, −3); with y = −2, d = (1, −1) on free columns.
			edit: func(s *solvers.Solution) { s.X = []float64{0.5, 0.5} }, dual: true, checked: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.sol()
			if tc.edit != nil {
				tc.edit(s)
			}
			k := CheckKKT(tc.p(), s, tol)
			if (k.Primal > tol) != tc.primal || (k.Dual > tol) != tc.dual || (k.Complement > tol) != tc.complement || k.Checked != tc.checked {
				t.Fatalf("%+v: want primal %t, dual %t, complement %t beyond %g, checked %t", k, tc.primal, tc.dual, tc.complement, tol, tc.checked)
			}
			if k.OK != !(tc.primal || tc.dual || tc.complement) || k.Tol != tol {
				t.Fatalf("%+v: OK and Tol inconsistent with the residuals", k)
			}
		})
	}
}

// TestCheckKKTResidualsAreRelative pins the scaling: a bound violation is relative to
// max(1, |bound|), a sign violation to the data scale max(1, ‖c‖∞, ‖Qx‖∞).
func TestCheckKKTResidualsAreRelative(t *testing.T) {
	s := lpOptimum()
	s.X = []float64{3.5, 1} // x above 3 by 0.5 (1/6 relative), row 4.5 > 4 (1/8)
	k := CheckKKT(lp(), s, 1e-7)
	if math.Abs(k.Primal-1.0/6) > 1e-15 {
		t.Errorf("Primal %g, want 1/6", k.Primal)
	}
	// d_x = −2 + 1 = −1 with x inside no bound's tolerance: |d_x| / max(1, ‖c‖∞ = 2).
	if math.Abs(k.Dual-0.5) > 1e-15 {
		t.Errorf("Dual %g, want 0.5", k.Dual)
	}
}

// TestCheckKKTWithoutAPoint: no X, or one of the wrong length, is an infinite primal
// residual, never OK.
func TestCheckKKTWithoutAPoint(t *testing.T) {
	for _, s := range []*solvers.Solution{nil, {Status: solvers.Optimal}, {X: []float64{1}}} {
		if k := CheckKKT(lp(), s, 1e-7); k.OK || !math.IsInf(k.Primal, 1) {
			t.Errorf("%+v: %+v, want an infinite primal residual", s, k)
		}
	}
}
