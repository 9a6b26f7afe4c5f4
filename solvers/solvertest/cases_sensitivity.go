package solvertest

import (
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Sensitivity cases (Config.Duals): the dual sign convention of package solvers checked
// independently of any certificate arithmetic. A row dual is ∂z*/∂b_i and a reduced cost
// ∂z*/∂β_j, where b_i and β_j are the finite bounds of row i and column j: shifting every
// finite bound of a row (or column) by ±h and solving again, the central difference of the
// optimal values must equal the multiplier. Each model's optimum is nondegenerate with a
// margin well above h, so the active set does not change and the difference is exact for
// LPs (z* is linear there) and for QPs (z* is quadratic there).
func sensitivityCases() []testCase {
	return []testCase{
		{"lp_duals_finite_difference", needDuals, testLPDualsFiniteDifference},
		{"lp_reduced_cost_at_upper", needDuals, testLPReducedCostAtUpper},
		{"qp_duals_finite_difference", needQP | needDuals, testQPDualsFiniteDifference},
	}
}

// signed returns the sign a sensitivity case's objective takes in sense (+1 minimized, −1
// maximized, so that both senses have the same optimum) and the problem's name.
func signed(sense model.Sense, base string) (float64, string) {
	if sense == model.Maximize {
		return -1, base + "_max"
	}
	return 1, base + "_min"
}

// sensitivityStep is h: small against every model's margin (0.2 or more), large enough
// that a backend's objective error over 2h stays below DualTol.
const sensitivityStep = 0.01

// LP2 is  opt  ±(x + 2y) + 10  s.t.  r1: x + y ≥ 2,  r2: x − y ≤ 1,  x ∈ [0, 3], y ≥ 0,
// minimized with the sign + and maximized with −; in both senses the optimum is the
// vertex r1 ∩ r2 = (1.5, 0.5), z = 10 ± 2.5, with both columns strictly inside their
// bounds. With b1, b2 the bounds of r1 and r2 the vertex is ((b1 + b2)/2, (b1 − b2)/2), so
// z = 10 ± (3b1 − b2)/2: the duals are y = (3/2, −1/2) for the minimization and
// (−3/2, 1/2) for the maximization, and both reduced costs are 0. Backend tests beyond
// the suite use it as a small LP with a known answer.
func LP2(sense model.Sense) *model.Problem {
	sign, name := signed(sense, "lp2")
	return dense{
		name:   name,
		sense:  sense,
		offset: 10,
		c:      vec(sign, 2*sign),
		lo:     vec(0, 0), up: vec(3, inf),
		rows: []row{ge(2, 1, 1), le(1, 1, -1)},
	}.problem()
}

func testLPDualsFiniteDifference(t testing.TB, s solvers.Solver, cfg Config) {
	for _, sense := range []model.Sense{model.Minimize, model.Maximize} {
		p := LP2(sense)
		want := 12.5
		if sense == model.Maximize {
			want = 7.5
		}
		sol := solveOptimal(t, s, cfg, p, want)
		checkSensitivities(t, s, cfg, p, sol)
	}
}

// opt  ±(x + 2y)  s.t.  r: x + y ≥ 2,  x ∈ [0, 1],  y ≥ 0 (minimized with +, maximized
// with −). The cheaper column x stops at its upper bound u = 1 and y = 2 − u carries the
// rest: z = ±(u + 2(2 − u)) = ±(4 − u), so x's reduced cost ∂z/∂u is −1 in the
// minimization and +1 in the maximization (the signs package solvers prescribes for a
// column at its upper bound), and r's dual ∂z/∂b is ±2. A backend with a basis must
// report x AtUpper.
func testLPReducedCostAtUpper(t testing.TB, s solvers.Solver, cfg Config) {
	for _, sense := range []model.Sense{model.Minimize, model.Maximize} {
		sign, name := signed(sense, "rc")
		p := dense{
			name:  name,
			sense: sense,
			c:     vec(sign, 2*sign),
			lo:    vec(0, 0), up: vec(1, inf),
			rows: []row{ge(2, 1, 1)},
		}.problem()
		sol := solveOptimal(t, s, cfg, p, 3*sign)
		if sol.ReducedCost == nil || math.Abs(sol.ReducedCost[0]+sign) > cfg.Tolerances().Dual {
			t.Errorf("%s: reduced cost of x at its upper bound %v, want %g", name, sol.ReducedCost, -sign)
		}
		checkSensitivities(t, s, cfg, p, sol)
		if cfg.Basis && (sol.Basis == nil || len(sol.Basis.Cols) != 2 || sol.Basis.Cols[0] != solvers.AtUpper) {
			t.Errorf("%s: basis %+v, want column x AtUpper", name, sol.Basis)
		}
	}
}

// opt  ±((x − 1)² + (y − 2)² − 5)  s.t.  r: x + y ≤ 2,  x free,  y ≤ 1.2
// (Q = ±2I, c = ∓(2, 4)). With b the bound of r and u that of y, both active, the optimum
// is (b − u, u) = (0.8, 1.2): z = ±((b − u − 1)² + (u − 2)² − 5) = ±(0.04 + 0.64 − 5), so
// ∂z/∂b = ±2(b − u − 1) = ∓0.4 and ∂z/∂u = ±(−2(b − u − 1) + 2(u − 2)) = ∓1.2. The signs
// hold with margins 0.2 (b − u < 1) and 0.3 (4u − 2b − 2 < 0) in b and u, so ±h keeps the
// active set.
func testQPDualsFiniteDifference(t testing.TB, s solvers.Solver, cfg Config) {
	for _, sense := range []model.Sense{model.Minimize, model.Maximize} {
		sign, name := signed(sense, "qp_fd")
		p := dense{
			name:   name,
			sense:  sense,
			offset: 0,
			c:      vec(-2*sign, -4*sign),
			lo:     vec(-inf, -inf), up: vec(inf, 1.2),
			rows: []row{le(2, 1, 1)},
			q:    [][]float64{{2 * sign, 0}, {0, 2 * sign}},
		}.problem()
		sol := solveOptimal(t, s, cfg, p, sign*(0.04+0.64-5))
		checkSensitivities(t, s, cfg, p, sol)
	}
}

// checkSensitivities compares every row dual and every reduced cost of sol, an optimum of
// p, with the central difference of the optimal value when all finite bounds of that row
// or column move by ±sensitivityStep. A row or column without a finite bound has nothing
// to move. The difference may be off by the backends' objective error over 2h; the
// tolerance is 10·DualTol relative to the multiplier's scale.
func checkSensitivities(t testing.TB, s solvers.Solver, cfg Config, p *model.Problem, sol *solvers.Solution) {
	t.Helper()
	if sol.Status != solvers.Optimal || sol.RowDual == nil || sol.ReducedCost == nil {
		t.Errorf("%s: status %s with RowDual %v and ReducedCost %v: nothing to compare", p.Name, sol.Status, sol.RowDual, sol.ReducedCost)
		return
	}
	tol := 10 * cfg.Tolerances().Dual
	h := sensitivityStep
	// shifted solves p with every finite bound of row k (or column k) moved by by.
	shifted := func(col bool, k int, by float64) float64 {
		q := p.Clone()
		lo, up := q.RowLower, q.RowUpper
		if col {
			lo, up = q.ColLower, q.ColUpper
		}
		if !math.IsInf(lo[k], 0) {
			lo[k] += by
		}
		if !math.IsInf(up[k], 0) {
			up[k] += by
		}
		r := solve(t, s, q, solvers.Options{})
		if r.Status != solvers.Optimal {
			t.Fatalf("%s with the bounds of %s %d moved by %g: status %s, want optimal", p.Name, kind(col), k, by, r.Status)
		}
		return r.Objective
	}
	compare := func(col bool, lo, up, mult []float64) {
		for k := range lo {
			if math.IsInf(lo[k], 0) && math.IsInf(up[k], 0) {
				continue
			}
			fd := (shifted(col, k, h) - shifted(col, k, -h)) / (2 * h)
			if !(math.Abs(mult[k]-fd) <= tol*scale(fd)) {
				t.Errorf("%s: %s %d: multiplier %.9g, but moving its bounds changes the optimum at the rate %.9g (package solvers: ∂z*/∂bound)", p.Name, kind(col), k, mult[k], fd)
			}
		}
	}
	if p.NumRows() > 0 {
		compare(false, p.RowLower, p.RowUpper, sol.RowDual)
	}
	compare(true, p.ColLower, p.ColUpper, sol.ReducedCost)
}

func kind(col bool) string {
	if col {
		return "column"
	}
	return "row"
}
