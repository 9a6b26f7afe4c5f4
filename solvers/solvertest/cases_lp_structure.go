package solvertest

import (
	"testing"

	"github.com/coraopt/coraopt/solvers"
)

// Structural oddities a presolve or a standard-form conversion must get right: no rows,
// empty rows, empty columns, free rows, redundant rows.
func lpStructureCases() []testCase {
	return []testCase{
		{"lp_no_rows", needNothing, testNoRows},
		{"lp_empty_rows", needNothing, testEmptyRows},
		{"lp_empty_row_infeasible", needNothing, testEmptyRowInfeasible},
		{"lp_empty_columns", needNothing, testEmptyColumns},
		{"lp_empty_column_unbounded", needNothing, testEmptyColumnUnbounded},
		{"lp_empty_column_unbounded_infeasible_rows", needNothing, testEmptyColumnUnboundedInfeasibleRows},
		{"lp_free_row", needNothing, testFreeRow},
		{"lp_redundant_rows", needNothing, testRedundantRows},
	}
}

// No rows at all: min x − y + 0·z, x ∈ [1, 3], y ∈ [−2, 4], z free.
// Each column goes to the bound its cost points at: x = 1, y = 4, any z (d_z = 0 forces
// nothing): z* = −3. d = c = (1, −1, 0): x at lower with d ≥ 0, y at upper with d ≤ 0;
// dual objective 1·1 + (−1)·4 = −3.
func testNoRows(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "no_rows",
		c:    vec(1, -1, 0),
		lo:   vec(1, -2, -inf), up: vec(3, 4, inf),
	}.problem()
	solveOptimal(t, s, cfg, p, -3)
}

// Wyndor with three rows that have no entries, bounds [−1, 1], [0, 0] and (−Inf, 5]: each
// holds at Ax = 0, so the optimum stays x = (2, 6), z = 36 with y = 0 on the empty rows.
func testEmptyRows(t testing.TB, s solvers.Solver, cfg Config) {
	d := wyndorLP()
	d.name = "empty_rows"
	d.rows = append([]row{rng(-1, 1)}, d.rows...)
	d.rows = append(d.rows, eq(0), le(5, 0, 0))
	solveOptimal(t, s, cfg, d.problem(), 36)
}

// Diet with an empty row whose bounds [1, 2] exclude its only activity 0: infeasible.
func testEmptyRowInfeasible(t testing.TB, s solvers.Solver, cfg Config) {
	d := dietLP()
	d.name = "empty_row_infeasible"
	d.rows = append(d.rows, rng(1, 2))
	solveStatus(t, s, cfg, d.problem(), solvers.Infeasible)
}

// Diet plus three columns that appear in no row: cost 2 on [−1, 5] (goes to −1, adds −2),
// cost −1 on [0, 4] (goes to 4, adds −4), cost 0 and free (any value). z* = 9 − 2 − 4 = 3,
// with d equal to the cost on each empty column (2 ≥ 0 at lower, −1 ≤ 0 at upper, 0).
func testEmptyColumns(t testing.TB, s solvers.Solver, cfg Config) {
	d := dietLP()
	d.name = "empty_columns"
	d.c = vec(2, 3, 2, -1, 0)
	d.lo = vec(0, 0, -1, 0, -inf)
	d.up = vec(inf, inf, 5, 4, inf)
	solveOptimal(t, s, cfg, d.problem(), 3)
}

// Diet plus an empty column with cost −1 and no upper bound: the rows are feasible and
// that column alone drives the objective to −Inf. Unbounded.
func testEmptyColumnUnbounded(t testing.TB, s solvers.Solver, cfg Config) {
	d := dietLP()
	d.name = "empty_column_unbounded"
	d.c = vec(2, 3, -1)
	solveStatus(t, s, cfg, d.problem(), solvers.Unbounded)
}

// The trap in the case above: the same unbounded empty column next to rows that admit no
// point (x + y ≤ 1 and x + y ≥ 2). Unboundedness needs a feasible point, so the answer
// is Infeasible, not Unbounded.
func testEmptyColumnUnboundedInfeasibleRows(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "empty_column_unbounded_infeasible_rows",
		c:    vec(1, 1, -1),
		rows: []row{le(1, 1, 1), ge(2, 1, 1)},
	}.problem()
	solveStatus(t, s, cfg, p, solvers.Infeasible)
}

// A free row (both bounds infinite) constrains nothing: diet plus x − 100y ∈ (−Inf, Inf)
// keeps x = (3, 1), z = 9, with y = 0 on the free row.
func testFreeRow(t testing.TB, s solvers.Solver, cfg Config) {
	d := dietLP()
	d.name = "free_row"
	d.rows = append([]row{free(1, -100)}, d.rows...)
	solveOptimal(t, s, cfg, d.problem(), 9)
}

// Linearly dependent rows: x + y = 2 three times over (once scaled by 2), a row x + y ≤ 10
// that never binds and x ≤ 1.5; min 2x + y. On x + y = 2 the cost is 2 + x, so
// x = (0, 2), z = 2. Duals are not unique (the equality rows share y with total 1):
// y = (1, 0, 0, 0, 0) gives d = (2 − 1, 1 − 1) = (1, 0), x at lower with d ≥ 0; dual
// objective 2·1 = 2.
func testRedundantRows(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "redundant_rows",
		c:    vec(2, 1),
		rows: []row{eq(2, 1, 1), eq(4, 2, 2), eq(2, 1, 1), le(10, 1, 1), le(1.5, 1, 0)},
	}.problem()
	solveOptimal(t, s, cfg, p, 2)
}
