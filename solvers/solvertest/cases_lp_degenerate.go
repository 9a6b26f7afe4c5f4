package solvertest

import (
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Degenerate vertices: the pivoting rules' hard cases.
func lpDegenerateCases() []testCase {
	return []testCase{
		{"lp_degenerate_vertex", needNothing, testDegenerateVertex},
		{"lp_klee_minty", needNothing, testKleeMinty},
		{"lp_beale_cycling", needNothing, testBealeCycling},
	}
}

// Nine rows through one point: max x + y s.t. x ≤ 1, y ≤ 1, x + y ≤ 2, 2x + y ≤ 3,
// x + 2y ≤ 3, 3x + y ≤ 4, x + 3y ≤ 4, x − y ≤ 0, y − x ≤ 0, x, y ≥ 0. Every row is active
// at (1, 1); row 3 alone bounds z ≤ 2, so x = (1, 1), z = 2 is the unique optimum.
// One dual certificate among many: y3 = 1, the rest 0 (d = 0, dual objective 2).
func testDegenerateVertex(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:  "degenerate_vertex",
		sense: model.Maximize,
		c:     vec(1, 1),
		rows: []row{
			le(1, 1, 0), le(1, 0, 1), le(2, 1, 1), le(3, 2, 1), le(3, 1, 2),
			le(4, 3, 1), le(4, 1, 3), le(0, 1, -1), le(0, -1, 1),
		},
	}.problem()
	solveOptimal(t, s, cfg, p, 2)
}

// The Klee–Minty cube in dimension 6, on which Dantzig's rule visits all 2⁶ vertices:
// max Σ_j 2^(n−j) x_j s.t. 2·Σ_{j<i} 2^(i−j) x_j + x_i ≤ 5^i (i = 1..n), x ≥ 0.
// Optimum x = (0, …, 0, 5^n), z = 5^n = 15625. Certificate y_n = 1, other y = 0:
// d_j = 2^(n−j) − 2·2^(n−j) = −2^(n−j) ≤ 0 for j < n (columns at lower in a max),
// d_n = 0; dual objective 5^n.
func testKleeMinty(t testing.TB, s solvers.Solver, cfg Config) {
	const n = 6
	d := dense{name: "klee_minty", sense: model.Maximize, c: make([]float64, n)}
	for j := range n {
		d.c[j] = math.Pow(2, float64(n-1-j))
	}
	for i := range n {
		a := make([]float64, n)
		for j := range i {
			a[j] = 2 * math.Pow(2, float64(i-j))
		}
		a[i] = 1
		d.rows = append(d.rows, le(math.Pow(5, float64(i+1)), a...))
	}
	solveOptimal(t, s, cfg, d.problem(), math.Pow(5, n))
}

// Beale's example (1955), which cycles under the textbook Dantzig rule:
// min −3/4 x1 + 150 x2 − 1/50 x3 + 6 x4 s.t.
//
//	1/4 x1 − 60 x2 − 1/25 x3 + 9 x4 ≤ 0
//	1/2 x1 − 90 x2 − 1/50 x3 + 3 x4 ≤ 0
//	x3 ≤ 1,  x ≥ 0.
//
// Optimum x = (1/25, 0, 1, 0), z = −3/100 − 1/50 = −1/20. Rows 2 and 3 active; x1 and x3
// basic give y2 = −3/2 (from −3/4 − y2/2 = 0) and y3 = −1/20 (from −1/50 + y2/50 − y3 = 0),
// both ≤ 0 at upper bounds (min); d2 = 150 − 90·3/2 = 15 ≥ 0, d4 = 6 + 3·3/2 = 21/2 ≥ 0;
// dual objective 0·y2 + 1·y3 = −1/20.
func testBealeCycling(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "beale_cycling",
		c:    vec(-0.75, 150, -0.02, 6),
		rows: []row{
			le(0, 0.25, -60, -0.04, 9),
			le(0, 0.5, -90, -0.02, 3),
			le(1, 0, 0, 1, 0),
		},
	}.problem()
	solveOptimal(t, s, cfg, p, -0.05)
}
