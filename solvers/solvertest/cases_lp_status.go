package solvertest

import (
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Models without an optimum. Each comment gives the proof (a Farkas combination or an
// improving ray).
func lpStatusCases() []testCase {
	return []testCase{
		{"lp_infeasible_bounds", needNothing, testInfeasibleBounds},
		{"lp_infeasible_rows", needNothing, testInfeasibleRows},
		{"lp_infeasible_dependent_equalities", needNothing, testInfeasibleDependentEqualities},
		{"lp_infeasible_and_dual_infeasible", needNothing, testInfeasibleAndDualInfeasible},
		{"lp_unbounded_max", needNothing, testUnboundedMax},
		{"lp_unbounded_free_column", needNothing, testUnboundedFreeColumn},
	}
}

// Infeasible by rows against column bounds: x + y ≥ 5 with x ∈ [0, 1], y ∈ [0, 2]
// (x + y ≤ 3 by the bounds).
func testInfeasibleBounds(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "infeasible_bounds",
		c:    vec(1, 1),
		lo:   vec(0, 0), up: vec(1, 2),
		rows: []row{ge(5, 1, 1)},
	}.problem()
	solveStatus(t, s, cfg, p, solvers.Infeasible)
}

// Infeasible by rows alone, free columns, a max: x + y ≤ 1, x + 2y ≥ 3, y ≤ 1 (a row).
// Row 2 minus row 1 gives y ≥ 2, against row 3.
func testInfeasibleRows(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:  "infeasible_rows",
		sense: model.Maximize,
		c:     vec(1, -1),
		lo:    vec(-inf, -inf), up: vec(inf, inf),
		rows: []row{le(1, 1, 1), ge(3, 1, 2), le(1, 0, 1)},
	}.problem()
	solveStatus(t, s, cfg, p, solvers.Infeasible)
}

// Rank-deficient and inconsistent equality rows: x + y = 1 and 2x + 2y = 3.
func testInfeasibleDependentEqualities(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "infeasible_dependent_equalities",
		c:    vec(1, 2, 0),
		rows: []row{eq(1, 1, 1, 0), eq(3, 2, 2, 0), le(4, 1, 0, 1)},
	}.problem()
	solveStatus(t, s, cfg, p, solvers.Infeasible)
}

// Primal and dual both infeasible: min −x − y s.t. x − y ≥ 1, x − y ≤ −1, x, y ≥ 0.
// The rows contradict each other; the ray (1, 1) would improve the objective forever if
// there were a point. The exact answer is Infeasible.
func testInfeasibleAndDualInfeasible(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "infeasible_and_dual_infeasible",
		c:    vec(-1, -1),
		rows: []row{ge(1, 1, -1), le(-1, 1, -1)},
	}.problem()
	solveStatus(t, s, cfg, p, solvers.Infeasible)
}

// max x + y s.t. x − y ≤ 1, x, y ≥ 0: (0, 0) is feasible and the ray (1, 1) keeps
// x − y = 0 while the objective grows. Unbounded.
func testUnboundedMax(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:  "unbounded_max",
		sense: model.Maximize,
		c:     vec(1, 1),
		rows:  []row{le(1, 1, -1)},
	}.problem()
	solveStatus(t, s, cfg, p, solvers.Unbounded)
}

// min x with x free, s.t. x + y ≤ 3, y ∈ [0, 1]: (0, 0) is feasible, the ray (−1, 0)
// decreases x without bound. Unbounded.
func testUnboundedFreeColumn(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "unbounded_free_column",
		c:    vec(1, 0),
		lo:   vec(-inf, 0), up: vec(inf, 1),
		rows: []row{le(3, 1, 1)},
	}.problem()
	solveStatus(t, s, cfg, p, solvers.Unbounded)
}
