package solvertest

import (
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// LPs with a known optimum, one feature each: sense, row type, variable bound type.
// Every comment names the optimal point and a dual certificate (y per row, d = c − Aᵀy per
// column) in the convention of package solvers; CheckLPCertificate accepts any valid one.
func lpKnownCases() []testCase {
	return []testCase{
		{"lp_min_diet", needNothing, testMinDiet},
		{"lp_max_wyndor", needNothing, testMaxWyndor},
		{"lp_max_ge_rows", needNothing, testMaxGeRows},
		{"lp_equality_rows", needNothing, testEqualityRows},
		{"lp_free_variables", needNothing, testFreeVariables},
		{"lp_upper_bounded_only", needNothing, testUpperBoundedOnly},
		{"lp_negative_box", needNothing, testNegativeBox},
		{"lp_fixed_variable", needNothing, testFixedVariable},
		{"lp_column_at_upper", needNothing, testColumnAtUpper},
		{"lp_ranged_row_at_upper", needNothing, testRangedRowAtUpper},
		{"lp_ranged_row_at_lower", needNothing, testRangedRowAtLower},
		{"lp_objective_offset", needNothing, testObjectiveOffset},
		{"lp_zero_objective", needNothing, testZeroObjective},
	}
}

// dietLP: min 2x + 3y s.t. x + y ≥ 4, x + 3y ≥ 6, x, y ≥ 0.
// Optimum x = (3, 1), z = 9: both rows active, y = (3/2, 1/2) solves y1 + y2 = 2,
// y1 + 3y2 = 3; both ≥ 0 (rows at lower, min); dual objective 4·3/2 + 6·1/2 = 9.
func dietLP() dense {
	return dense{
		name: "diet",
		c:    vec(2, 3),
		rows: []row{ge(4, 1, 1), ge(6, 1, 3)},
	}
}

func testMinDiet(t testing.TB, s solvers.Solver, cfg Config) {
	solveOptimal(t, s, cfg, dietLP().problem(), 9)
}

// wyndorLP (Hillier–Lieberman): max 3x + 5y s.t. x ≤ 4, 2y ≤ 12, 3x + 2y ≤ 18, x, y ≥ 0.
// Optimum x = (2, 6), z = 36. Rows 2 and 3 active, y = (0, 3/2, 1): Aᵀy = (3, 5) = c, so
// d = 0; y ≥ 0 on rows at upper is right for a max; dual objective 12·3/2 + 18 = 36.
func wyndorLP() dense {
	return dense{
		name:  "wyndor",
		sense: model.Maximize,
		c:     vec(3, 5),
		rows:  []row{le(4, 1, 0), le(12, 0, 2), le(18, 3, 2)},
	}
}

func testMaxWyndor(t testing.TB, s solvers.Solver, cfg Config) {
	solveOptimal(t, s, cfg, wyndorLP().problem(), 36)
}

// max −x − 2y s.t. x + y ≥ 3, x ≥ 1 (a row), x, y ≥ 0.
// Optimum x = (3, 0), z = −3. Row 1 active, row 2 slack (x = 3 > 1) so y2 = 0; x basic
// gives d_x = −1 − y1 = 0, y1 = −1 ≤ 0 (row at lower in a max); d_y = −2 + 1 = −1 ≤ 0
// (column at lower in a max). Dual objective 3·(−1) = −3.
func testMaxGeRows(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:  "max_ge_rows",
		sense: model.Maximize,
		c:     vec(-1, -2),
		rows:  []row{ge(3, 1, 1), ge(1, 1, 0)},
	}.problem()
	solveOptimal(t, s, cfg, p, -3)
}

// min x + 2y + 3z s.t. x + y + z = 6, x − y = 1, x, y, z ≥ 0.
// With x = 1 + y the rows leave 2y + z = 5 and the cost 16 − 3y, so y = 5/2, z = 0:
// x = (7/2, 5/2, 0), z* = 17/2. Duals y = (3/2, −1/2) from y1 + y2 = 1, y1 − y2 = 2 (free
// signs on equality rows); d_z = 3 − 3/2 = 3/2 ≥ 0 at its lower bound. Dual objective
// 6·3/2 − 1/2 = 17/2.
func testEqualityRows(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "equality_rows",
		c:    vec(1, 2, 3),
		rows: []row{eq(6, 1, 1, 1), eq(1, 1, -1)},
	}.problem()
	solveOptimal(t, s, cfg, p, 8.5)
}

// min x + y, both free, s.t. x + 2y ≥ −4, 2x + y ≥ −5.
// Both rows active: x = (−2, −1), z = −3. y = (1/3, 1/3) solves y1 + 2y2 = 1,
// 2y1 + y2 = 1 (so d = 0, as free columns need), both ≥ 0; dual objective −4/3 − 5/3 = −3.
func testFreeVariables(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "free_variables",
		c:    vec(1, 1),
		lo:   vec(-inf, -inf), up: vec(inf, inf),
		rows: []row{ge(-4, 1, 2), ge(-5, 2, 1)},
	}.problem()
	solveOptimal(t, s, cfg, p, -3)
}

// Columns with lower −Inf and a finite upper bound: max x + y s.t. 2x + y ≤ 0,
// x ≤ −1, y ≤ 3. On the row x + y = −x, so push x down to −1.5 where y reaches its
// bound 3: x = (−3/2, 3), z = 3/2. x basic: d_x = 1 − 2y1 = 0, y1 = 1/2 ≥ 0 (row at upper,
// max); d_y = 1 − 1/2 = 1/2 ≥ 0 (column at upper, max). Dual objective 0·1/2 + 3·1/2.
func testUpperBoundedOnly(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:  "upper_bounded_only",
		sense: model.Maximize,
		c:     vec(1, 1),
		lo:    vec(-inf, -inf), up: vec(-1, 3),
		rows: []row{le(0, 2, 1)},
	}.problem()
	solveOptimal(t, s, cfg, p, 1.5)
}

// Negative boxes: min x − y s.t. x + y ≥ −5, x ∈ [−5, −2], y ∈ [−3, −1].
// x ≥ −5 − y gives z ≥ −5 − 2y ≥ −3 at y = −1: x = (−4, −1), z = −3. x basic:
// d_x = 1 − y1 = 0, y1 = 1 ≥ 0 (row at lower); d_y = −1 − 1 = −2 ≤ 0 (y at upper).
// Dual objective −5·1 + (−2)·(−1) = −3.
func testNegativeBox(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "negative_box",
		c:    vec(1, -1),
		lo:   vec(-5, -3), up: vec(-2, -1),
		rows: []row{ge(-5, 1, 1)},
	}.problem()
	solveOptimal(t, s, cfg, p, -3)
}

// A fixed column: min −x + y s.t. x + y ≥ 5, x ∈ [2, 2], y ∈ [0, 10].
// y = 3: x = (2, 3), z = 1. y basic: d_y = 1 − y1 = 0, y1 = 1 ≥ 0; d_x = −1 − 1 = −2, any
// sign on a fixed column. Dual objective 5·1 + (−2)·2 = 1.
func testFixedVariable(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "fixed_variable",
		c:    vec(-1, 1),
		lo:   vec(2, 0), up: vec(2, 10),
		rows: []row{ge(5, 1, 1)},
	}.problem()
	solveOptimal(t, s, cfg, p, 1)
}

// A column nonbasic at its upper bound: min −2x − y s.t. x + y ≤ 5, x ∈ [0, 3], y ≥ 0.
// x = (3, 2), z = −8. y basic: d_y = −1 − y1 = 0, y1 = −1 ≤ 0 (row at upper, min);
// d_x = −2 + 1 = −1 ≤ 0 (column at upper, min). Dual objective 5·(−1) + 3·(−1) = −8.
func testColumnAtUpper(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "column_at_upper",
		c:    vec(-2, -1),
		lo:   vec(0, 0), up: vec(3, inf),
		rows: []row{le(5, 1, 1)},
	}.problem()
	solveOptimal(t, s, cfg, p, -8)
}

// Optimum at a ranged row's upper bound: max x + y s.t. 1 ≤ x + 2y ≤ 4, x ∈ [0, 2], y ≥ 0.
// x = (2, 1), z = 3. y basic: d_y = 1 − 2y1 = 0, y1 = 1/2 ≥ 0 (row at upper, max);
// d_x = 1/2 ≥ 0 (column at upper, max). Dual objective 4·1/2 + 2·1/2 = 3.
func testRangedRowAtUpper(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:  "ranged_row_at_upper",
		sense: model.Maximize,
		c:     vec(1, 1),
		lo:    vec(0, 0), up: vec(2, inf),
		rows: []row{rng(1, 4, 1, 2)},
	}.problem()
	solveOptimal(t, s, cfg, p, 3)
}

// Optimum at a ranged row's lower bound: min x + y s.t. 2 ≤ x + 2y ≤ 6, x, y ≥ 0.
// x = (0, 1), z = 1. y basic: y1 = 1/2 ≥ 0 (row at lower); d_x = 1/2 ≥ 0 (x at lower).
// Dual objective 2·1/2 = 1.
func testRangedRowAtLower(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name: "ranged_row_at_lower",
		c:    vec(1, 1),
		rows: []row{rng(2, 6, 1, 2)},
	}.problem()
	solveOptimal(t, s, cfg, p, 1)
}

// The objective offset is part of Objective, in both senses: diet + 100 = 109 and
// wyndor − 50 = −14 (same points and duals as without the offset).
func testObjectiveOffset(t testing.TB, s solvers.Solver, cfg Config) {
	d := dietLP()
	d.name, d.offset = "diet_offset", 100
	solveOptimal(t, s, cfg, d.problem(), 109)
	w := wyndorLP()
	w.name, w.offset = "wyndor_offset", -50
	solveOptimal(t, s, cfg, w.problem(), -14)
}

// A feasibility problem: c = 0, so every feasible point is optimal with z = Offset = 7;
// y = 0, d = 0 certify it.
func testZeroObjective(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:   "zero_objective",
		offset: 7,
		c:      vec(0, 0, 0),
		lo:     vec(-1, -inf, 0), up: vec(1, inf, 2),
		rows: []row{eq(3, 1, 1, 1), rng(-2, 2, 1, -1, 0)},
	}.problem()
	solveOptimal(t, s, cfg, p, 7)
}
