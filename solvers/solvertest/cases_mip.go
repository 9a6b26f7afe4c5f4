package solvertest

import (
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Mixed-integer cases (Config.MIP). Each optimum is proven by enumeration or by a bound
// that integrality tightens; each LP relaxation has a different, better value, so a
// backend that ignores Integrality fails.
func mipCases() []testCase {
	return []testCase{
		{"mip_knapsack", needMIP, testMIPKnapsack},
		{"mip_rounding_far_from_lp", needMIP, testMIPRoundingFarFromLP},
		{"mip_infeasible", needMIP, testMIPInfeasible},
		{"mip_offset_negative_bounds", needMIP, testMIPOffsetNegativeBounds},
		{"mip_fixed_charge", needMIP, testMIPFixedCharge},
	}
}

// 0/1 knapsack: max 10a + 13b + 7c + 8d s.t. 3a + 4b + 2c + 3d ≤ 7, binary.
// LP relaxation (greedy by value/weight 3.5, 3.33, 3.25, 2.67): c, a and half of b, 23.5.
// The objective is integral on integer points, so z ≤ 23, and {a, b} (weight 7) reaches it.
func testMIPKnapsack(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:  "knapsack",
		sense: model.Maximize,
		c:     vec(10, 13, 7, 8),
		up:    vec(1, 1, 1, 1), lo: vec(0, 0, 0, 0),
		rows: []row{le(7, 3, 4, 2, 3)},
		ints: []int{0, 1, 2, 3},
	}.problem()
	solveOptimal(t, s, cfg, p, 23)
}

// max 21x + 11y s.t. 7x + 4y ≤ 13, x, y ≥ 0 integer. The LP optimum is x = 13/7, y = 0
// (z = 39), and rounding it gives (1, 0), z = 21. Enumerating x: x = 0 allows y ≤ 3
// (z = 33), x = 1 allows y ≤ 1 (z = 32), x ≥ 2 is infeasible; so (0, 3), z = 33, far
// from the LP point.
func testMIPRoundingFarFromLP(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:  "rounding_far_from_lp",
		sense: model.Maximize,
		c:     vec(21, 11),
		rows:  []row{le(13, 7, 4)},
		ints:  []int{0, 1},
	}.problem()
	solveOptimal(t, s, cfg, p, 33)
}

// 2x + 2y = 3 with x, y ∈ {0, …, 5}: the left side is even. The LP relaxation is feasible
// (x = y = 3/4), the MIP is not.
func testMIPInfeasible(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "mip_infeasible",
		c:    vec(1, 1),
		lo:   vec(0, 0), up: vec(5, 5),
		rows: []row{eq(3, 2, 2)},
		ints: []int{0, 1},
	}.problem()
	solveStatus(t, s, cfg, p, solvers.Infeasible)
}

// min 3x − 2y + 10 s.t. x + y ≥ 2.5, x ∈ {−5, …, 5}, y ∈ {−3, …, 2}.
// y ≤ 2 gives −2y ≥ −4 and x ≥ 2.5 − y ≥ 0.5, so integer x ≥ 1 and z ≥ 3 − 4 + 10 = 9,
// reached at (1, 2). The LP relaxation gives x = 0.5, z = 7.5.
func testMIPOffsetNegativeBounds(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:   "mip_offset_negative_bounds",
		offset: 10,
		c:      vec(3, -2),
		lo:     vec(-5, -3), up: vec(5, 2),
		rows: []row{ge(2.5, 1, 1)},
		ints: []int{0, 1},
	}.problem()
	solveOptimal(t, s, cfg, p, 9)
}

// Fixed charge with binaries and continuous flows: min 5u + 7v + x + 2y s.t. x + y ≥ 6,
// x ≤ 4u, y ≤ 10v, u, v binary, x, y ≥ 0. By enumeration of (u, v): (0, 0) and (1, 0)
// cannot carry 6; (0, 1) carries y = 6 at 7 + 12 = 19; (1, 1) carries x = 4, y = 2 at
// 12 + 4 + 4 = 20. Optimum 19 at u = 0, v = 1, x = 0, y = 6. (LP relaxation: about 14.4.)
func testMIPFixedCharge(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "fixed_charge",
		c:    vec(5, 7, 1, 2),
		lo:   vec(0, 0, 0, 0), up: vec(1, 1, inf, inf),
		rows: []row{ge(6, 0, 0, 1, 1), le(0, -4, 0, 1, 0), le(0, 0, -10, 0, 1)},
		ints: []int{0, 1},
	}.problem()
	solveOptimal(t, s, cfg, p, 19)
}
