package qp

import (
	"context"
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

var inf = math.Inf(1)

// dense describes a small problem with dense matrices for table tests.
type dense struct {
	sense    model.Sense
	h        [][]float64 // full symmetric Q (nil: LP)
	c        []float64
	lo, up   []float64
	a        [][]float64
	rlo, rup []float64
	offset   float64
}

// problem compiles d into CSC form (lower triangle of Q).
func (d dense) problem() *model.Problem {
	n, m := len(d.c), len(d.a)
	p := &model.Problem{
		Sense: d.sense, Offset: d.offset,
		ColCost: append([]float64(nil), d.c...), ColLower: append([]float64(nil), d.lo...), ColUpper: append([]float64(nil), d.up...),
		RowLower: append([]float64(nil), d.rlo...), RowUpper: append([]float64(nil), d.rup...),
		AStart: make([]int, n+1),
	}
	if p.Sense == 0 {
		p.Sense = model.Minimize
	}
	if m == 0 {
		p.RowLower, p.RowUpper = []float64{}, []float64{}
	}
	for j := range n {
		for i := range m {
			if v := d.a[i][j]; v != 0 {
				p.AIndex = append(p.AIndex, i)
				p.AValue = append(p.AValue, v)
			}
		}
		p.AStart[j+1] = len(p.AIndex)
	}
	if d.h != nil {
		p.QStart = make([]int, n+1)
		for j := range n {
			for i := j; i < n; i++ {
				if v := d.h[i][j]; v != 0 {
					p.QIndex = append(p.QIndex, i)
					p.QValue = append(p.QValue, v)
				}
			}
			p.QStart[j+1] = len(p.QIndex)
		}
		if len(p.QIndex) == 0 {
			p.QStart = nil
		}
	}
	return p
}

// fataler is the part of testing.TB and *rapid.T that solve needs.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func solve(t fataler, p *model.Problem, opt solvers.Options) *solvers.Solution {
	t.Helper()
	sol, err := New().Solve(context.Background(), p, opt)
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	return sol
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*max(1, math.Abs(b)) }

// TestHandDerived checks small problems whose KKT systems were solved by hand (the
// derivation is in each case's comment).
func TestHandDerived(t *testing.T) {
	tests := []struct {
		name   string
		d      dense
		status solvers.Status
		obj    float64
		x, y   []float64 // nil: not checked
	}{
		{
			// min ½(x1²+x2²) − x1 − x2, x1 + x2 ≤ 1. By symmetry x = (½, ½); stationarity
			// x_j − 1 − y = 0 gives y = −½ (upper side of a minimization: y ≤ 0).
			name: "simplex projection",
			d: dense{h: [][]float64{{1, 0}, {0, 1}}, c: []float64{-1, -1}, lo: []float64{-inf, -inf}, up: []float64{inf, inf},
				a: [][]float64{{1, 1}}, rlo: []float64{-inf}, rup: []float64{1}},
			status: solvers.Optimal, obj: -0.75, x: []float64{0.5, 0.5}, y: []float64{-0.5},
		},
		{
			// HiGHS's qptestnw: min −2x1 −5x2 + x1² + x2², x ≥ 0, three ≥ rows. The
			// unconstrained minimizer (1, 2.5) violates x1 − 2x2 ≥ −2; projecting onto that
			// line gives (1.4, 1.7), which satisfies the other rows; gradient (0.8, −1.6) =
			// y·(1, −2) gives y = 0.8.
			name: "qptestnw",
			d: dense{h: [][]float64{{2, 0}, {0, 2}}, c: []float64{-2, -5}, lo: []float64{0, 0}, up: []float64{inf, inf},
				a: [][]float64{{1, -2}, {-1, -2}, {-1, 2}}, rlo: []float64{-2, -6, -2}, rup: []float64{inf, inf, inf}},
			status: solvers.Optimal, obj: -6.45, x: []float64{1.4, 1.7}, y: []float64{0.8, 0, 0},
		},
		{
			// HiGHS's qjh: the file states x = (0.5, 5, 1.5), objective −5.25. Check: with
			// x1 + x3 = 2 active, gradient Hx + c = (−0.5, 0, −0.5) = y·(1, 0, 1), y = −0.5.
			name: "qjh",
			d: dense{h: [][]float64{{2, 0, -1}, {0, 0.2, 0}, {-1, 0, 2}}, c: []float64{0, -1, -3},
				lo: []float64{0, 0, 0}, up: []float64{inf, inf, inf},
				a: [][]float64{{1, 0, 1}}, rlo: []float64{-inf}, rup: []float64{2}},
			status: solvers.Optimal, obj: -5.25, x: []float64{0.5, 5, 1.5}, y: []float64{-0.5},
		},
		{
			// qjh_uncon: Hx = −c gives x2 = 5, 2x1 − x3 = 0, −x1 + 2x3 = 3: x = (1, 5, 2),
			// objective ½cᵀx = −5.5.
			name: "qjh_uncon",
			d: dense{h: [][]float64{{2, 0, -1}, {0, 0.2, 0}, {-1, 0, 2}}, c: []float64{0, -1, -3},
				lo: []float64{-inf, -inf, -inf}, up: []float64{inf, inf, inf}},
			status: solvers.Optimal, obj: -5.5, x: []float64{1, 5, 2},
		},
		{
			// max −x1² + 4x1 + 1 s.t. x1 ≤ 1 (row). x = 1, objective 4; raising the bound
			// to 1+δ raises the objective by 2δ, so y = 2 (upper side of a maximization: ≥ 0).
			name: "maximize concave",
			d: dense{sense: model.Maximize, h: [][]float64{{-2}}, c: []float64{4}, lo: []float64{-inf}, up: []float64{inf},
				a: [][]float64{{1}}, rlo: []float64{-inf}, rup: []float64{1}, offset: 1},
			status: solvers.Optimal, obj: 4, x: []float64{1}, y: []float64{2},
		},
		{
			// min x1² + x2² s.t. x1 + x2 = 2: x = (1, 1), z*(b) = b²/2 so y = 2.
			name: "equality",
			d: dense{h: [][]float64{{2, 0}, {0, 2}}, c: []float64{0, 0}, lo: []float64{-inf, -inf}, up: []float64{inf, inf},
				a: [][]float64{{1, 1}}, rlo: []float64{2}, rup: []float64{2}},
			status: solvers.Optimal, obj: 2, x: []float64{1, 1}, y: []float64{2},
		},
		{
			// min ½x1² + ½x2² + ½x3² with x3 fixed at 3 and 1 ≤ x1 + x2 ≤ 4 (lower side
			// active): x = (½, ½, 3), y = ½, objective ¼ + 4.5.
			name: "ranged row and fixed column",
			d: dense{h: [][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, c: []float64{0, 0, 0},
				lo: []float64{-inf, -inf, 3}, up: []float64{inf, inf, 3},
				a: [][]float64{{1, 1, 0}}, rlo: []float64{1}, rup: []float64{4}},
			status: solvers.Optimal, obj: 4.75, x: []float64{0.5, 0.5, 3}, y: []float64{0.5},
		},
		{
			// Inconsistent equalities x1 + x2 = 1 and x1 + x2 = 2.
			name: "infeasible equalities",
			d: dense{h: [][]float64{{1, 0}, {0, 1}}, c: []float64{0, 0}, lo: []float64{-inf, -inf}, up: []float64{inf, inf},
				a: [][]float64{{1, 1}, {1, 1}}, rlo: []float64{1, 2}, rup: []float64{1, 2}},
			status: solvers.Infeasible,
		},
		{
			// HiGHS's qpinfeasible: x1 + x2 ≥ 42 with both in [0, 10]; H singular (x2 has
			// no curvature), so the proximal path runs.
			name: "qpinfeasible",
			d: dense{sense: model.Maximize, h: [][]float64{{-1, 0}, {0, 0}}, c: []float64{0, 1},
				lo: []float64{0, 0}, up: []float64{10, 10}, a: [][]float64{{1, 1}}, rlo: []float64{42}, rup: []float64{inf}},
			status: solvers.Infeasible,
		},
		{
			// HiGHS's qpunbounded: max x2 − ½x1², x1 ∈ [0, 40], x2 ≥ 0: x2 grows forever.
			name: "qpunbounded",
			d: dense{sense: model.Maximize, h: [][]float64{{-1, 0}, {0, 0}}, c: []float64{0, 1},
				lo: []float64{0, 0}, up: []float64{40, inf}},
			status: solvers.Unbounded,
		},
		{
			// LP: min −x1 − x2, x1 + 2x2 ≤ 4, 3x1 + x2 ≤ 6, x ≥ 0. Vertex (8/5, 6/5),
			// objective −14/5; −1 = y1 + 3y2, −1 = 2y1 + y2 give y = (−2/5, −1/5).
			name: "lp vertex",
			d: dense{c: []float64{-1, -1}, lo: []float64{0, 0}, up: []float64{inf, inf},
				a: [][]float64{{1, 2}, {3, 1}}, rlo: []float64{-inf, -inf}, rup: []float64{4, 6}},
			status: solvers.Optimal, obj: -2.8, x: []float64{1.6, 1.2}, y: []float64{-0.4, -0.2},
		},
		{
			// LP: min −x1, x1 − x2 ≤ 1, x ≥ 0: the ray (1, 1) is feasible and improving.
			name: "lp unbounded",
			d: dense{c: []float64{-1, 0}, lo: []float64{0, 0}, up: []float64{inf, inf},
				a: [][]float64{{1, -1}}, rlo: []float64{-inf}, rup: []float64{1}},
			status: solvers.Unbounded,
		},
		{
			// Singular H = [[1,1],[1,1]]: min ½(x1+x2)² − x1, 0 ≤ x ≤ 10. With s = x1+x2 and
			// x1 ≤ s, the best is x1 = s = 1: x = (1, 0), objective −½.
			name:   "singular coupled",
			d:      dense{h: [][]float64{{1, 1}, {1, 1}}, c: []float64{-1, 0}, lo: []float64{0, 0}, up: []float64{10, 10}},
			status: solvers.Optimal, obj: -0.5, x: []float64{1, 0},
		},
		{
			// Redundant (duplicated) active rows: min ½‖x‖² − 2x1 − 2x2, x1 + x2 ≤ 1 twice.
			// x = (½, ½); the duals split −1.5 between the two rows in some way.
			name: "duplicated active row",
			d: dense{h: [][]float64{{1, 0}, {0, 1}}, c: []float64{-2, -2}, lo: []float64{-inf, -inf}, up: []float64{inf, inf},
				a: [][]float64{{1, 1}, {1, 1}}, rlo: []float64{-inf, -inf}, rup: []float64{1, 1}},
			status: solvers.Optimal, obj: 0.25 - 2, x: []float64{0.5, 0.5},
		},
		{
			// Degenerate vertex: three rows active at x = (1, 1) in two dimensions.
			// min ½‖x − (2,2)‖² − 4 (as c = (−2,−2)), x1 ≤ 1, x2 ≤ 1, x1 + x2 ≤ 2.
			name: "degenerate vertex",
			d: dense{h: [][]float64{{1, 0}, {0, 1}}, c: []float64{-2, -2}, lo: []float64{-inf, -inf}, up: []float64{1, 1},
				a: [][]float64{{1, 1}}, rlo: []float64{-inf}, rup: []float64{2}},
			status: solvers.Optimal, obj: -3, x: []float64{1, 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.d.problem()
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			sol := solve(t, p, solvers.Options{})
			if sol.Status != tc.status {
				t.Fatalf("status %v, want %v", sol.Status, tc.status)
			}
			if tc.status != solvers.Optimal {
				if sol.X != nil {
					t.Errorf("X = %v for status %v, want nil", sol.X, sol.Status)
				}
				return
			}
			if !near(sol.Objective, tc.obj, 1e-9) {
				t.Errorf("objective %.12g, want %.12g", sol.Objective, tc.obj)
			}
			for j, want := range tc.x {
				if !near(sol.X[j], want, 1e-8) {
					t.Errorf("x[%d] = %.12g, want %.12g", j, sol.X[j], want)
				}
			}
			for i, want := range tc.y {
				if !near(sol.RowDual[i], want, 1e-8) {
					t.Errorf("y[%d] = %.12g, want %.12g", i, sol.RowDual[i], want)
				}
			}
			if r := checkKKT(p, sol); r.max() > 1e-9 {
				t.Errorf("KKT: %v", r)
			}
		})
	}
}

// TestCheckKKTDetects makes sure the certificate used by the property tests can fail:
// perturbed solutions of a known problem (with infinite bounds, which once made the
// checker compute NaN and pass everything) must be rejected.
func TestCheckKKTDetects(t *testing.T) {
	d := dense{h: [][]float64{{1, 0}, {0, 1}}, c: []float64{-1, -1}, lo: []float64{-inf, 0}, up: []float64{inf, inf},
		a: [][]float64{{1, 1}}, rlo: []float64{-inf}, rup: []float64{1}}
	p := d.problem()
	good := solve(t, p, solvers.Options{})
	if r := checkKKT(p, good); r.max() > 1e-9 {
		t.Fatalf("optimal solution rejected: %v", r)
	}
	perturb := map[string]func(s *solvers.Solution){
		"infeasible x":       func(s *solvers.Solution) { s.X[0] += 0.1 },
		"wrong dual sign":    func(s *solvers.Solution) { s.RowDual[0] = -s.RowDual[0] },
		"stale reduced cost": func(s *solvers.Solution) { s.ReducedCost[1] += 1e-3 },
		"interior x":         func(s *solvers.Solution) { s.X[0] -= 0.1 },
		"objective":          func(s *solvers.Solution) { s.Objective += 1e-3 },
	}
	for name, f := range perturb {
		s := *good
		s.X = append([]float64(nil), good.X...)
		s.RowDual = append([]float64(nil), good.RowDual...)
		s.ReducedCost = append([]float64(nil), good.ReducedCost...)
		f(&s)
		if r := checkKKT(p, &s); !(r.max() > 1e-7) {
			t.Errorf("%s: accepted (%v)", name, r)
		}
	}
	var r kktReport
	r.primal = math.NaN()
	if !(r.max() > 1e-7) {
		t.Error("NaN violation accepted")
	}
}
