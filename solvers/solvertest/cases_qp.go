package solvertest

import (
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Quadratic cases (Config.QP). Objective cᵀx + ½xᵀQx + Offset, Q symmetric with its lower
// triangle stored. Certificates are KKT points: c + Qx − Aᵀy = d with the same sign rules
// as for LPs, which for a convex QP prove optimality.
func qpCases() []testCase {
	return []testCase{
		{"qp_unconstrained", needQP, testQPUnconstrained},
		{"qp_box", needQP, testQPBox},
		{"qp_equality", needQP, testQPEquality},
		{"qp_ranged_rows", needQP, testQPRangedRows},
		{"qp_singular_hessian", needQP, testQPSingularHessian},
		{"qp_unbounded_singular", needQP, testQPUnboundedSingular},
		{"qp_infeasible", needQP, testQPInfeasible},
		{"qp_maximize_concave", needQP, testQPMaximizeConcave},
	}
}

// Strictly convex, no rows, free columns, an off-diagonal Q: Q = [[2, 1], [1, 2]],
// c = (−3, 0). The stationary point solves Qx = −c: x = (2, −1), z = −6 + ½·(2·3 + 0) = −3;
// d = c + Qx = 0.
func testQPUnconstrained(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "qp_unconstrained",
		c:    vec(-3, 0),
		lo:   vec(-inf, -inf), up: vec(inf, inf),
		q: [][]float64{{2, 1}, {1, 2}},
	}.problem()
	solveOptimal(t, s, cfg, p, -3)
}

// (x − 3)² + (y + 1)² over the box x ∈ [0, 2], y ∈ [0, 5]: Q = 2I, c = (−6, 2), offset 10.
// The projection of (3, −1) on the box is (2, 0), z = 1 + 1 = 2. d = c + Qx = (−2, 2):
// x at upper with d ≤ 0, y at lower with d ≥ 0. Dual objective 10 + (−2)·2 + 2·0 − ½·8 = 2.
func testQPBox(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:   "qp_box",
		offset: 10,
		c:      vec(-6, 2),
		lo:     vec(0, 0), up: vec(2, 5),
		q: [][]float64{{2, 0}, {0, 2}},
	}.problem()
	solveOptimal(t, s, cfg, p, 2)
}

// min x² + y² + z² s.t. x + y + z = 3, free columns: x = (1, 1, 1), z* = 3. Qx = (2, 2, 2)
// = Aᵀy with y = 2 (= dz*/db of z*(b) = b²/3 at b = 3); d = 0.
func testQPEquality(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "qp_equality",
		c:    vec(0, 0, 0),
		lo:   vec(-inf, -inf, -inf), up: vec(inf, inf, inf),
		rows: []row{eq(3, 1, 1, 1)},
		q:    [][]float64{{2, 0, 0}, {0, 2, 0}, {0, 0, 2}},
	}.problem()
	solveOptimal(t, s, cfg, p, 3)
}

// (x − 2)² + (y − 2)² s.t. 1 ≤ x + y ≤ 2 and 0.5 ≤ x − y ≤ 1: Q = 2I, c = (−4, −4),
// offset 8, free columns. The centre (2, 2) violates both rows; with both active at
// x + y = 2 (upper) and x − y = 0.5 (lower): x = (1.25, 0.75), z = 0.5625 + 1.5625 = 2.125.
// c + Qx = (−1.5, −2.5) = Aᵀy gives y = (−2, 0.5): ≤ 0 at the upper bound, ≥ 0 at the lower
// (min). Dual objective 8 + 2·(−2) + 0.5·0.5 − ½·(2·1.25² + 2·0.75²) = 2.125.
func testQPRangedRows(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:   "qp_ranged_rows",
		offset: 8,
		c:      vec(-4, -4),
		lo:     vec(-inf, -inf), up: vec(inf, inf),
		rows: []row{rng(1, 2, 1, 1), rng(0.5, 1, 1, -1)},
		q:    [][]float64{{2, 0}, {0, 2}},
	}.problem()
	solveOptimal(t, s, cfg, p, 2.125)
}

// PSD but singular Hessian with a linear term: min x² + y s.t. x + y ≥ 1, free columns
// (Q = diag(2, 0), c = (0, 1)). On the row y = 1 − x and x² − x + 1 is least at x = 1/2:
// x = (1/2, 1/2), z = 3/4. c + Qx = (1, 1) = Aᵀy with y = 1 ≥ 0 (row at lower, min).
func testQPSingularHessian(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "qp_singular_hessian",
		c:    vec(0, 1),
		lo:   vec(-inf, -inf), up: vec(inf, inf),
		rows: []row{ge(1, 1, 1)},
		q:    [][]float64{{2, 0}, {0, 0}},
	}.problem()
	solveOptimal(t, s, cfg, p, 0.75)
}

// The same singular Hessian without the row that held y: min x² + y s.t. x ≤ 3 (a row),
// y free. The ray (0, −1) lies in Q's null space and decreases cᵀx: Unbounded.
func testQPUnboundedSingular(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "qp_unbounded_singular",
		c:    vec(0, 1),
		lo:   vec(-inf, -inf), up: vec(inf, inf),
		rows: []row{le(3, 1, 0)},
		q:    [][]float64{{2, 0}, {0, 0}},
	}.problem()
	solveStatus(t, s, cfg, p, solvers.Unbounded)
}

// min x² + y² s.t. x + y ≥ 3 and x + y ≤ 1: infeasible.
func testQPInfeasible(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "qp_infeasible",
		c:    vec(0, 0),
		lo:   vec(-inf, -inf), up: vec(inf, inf),
		rows: []row{ge(3, 1, 1), le(1, 1, 1)},
		q:    [][]float64{{2, 0}, {0, 2}},
	}.problem()
	solveStatus(t, s, cfg, p, solvers.Infeasible)
}

// Maximizing a concave quadratic: max 4x + 2y − x² − y² s.t. x + y ≤ 2, x, y ≥ 0
// (Q = −2I). The free maximum (2, 1) violates the row; on x + y = 2 the gradient
// (4 − 2x, 2 − 2y) must be parallel to (1, 1): x = (3/2, 1/2), z = 7 − 2.5 = 4.5, with
// y = 1 ≥ 0 (row at upper in a max: raising the bound raises z) and d = 0.
func testQPMaximizeConcave(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:  "qp_maximize_concave",
		sense: model.Maximize,
		c:     vec(4, 2),
		rows:  []row{le(2, 1, 1)},
		q:     [][]float64{{-2, 0}, {0, -2}},
	}.problem()
	solveOptimal(t, s, cfg, p, 4.5)
}
