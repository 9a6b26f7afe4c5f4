package solvertest

import (
	"fmt"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Scaling and size: coefficients from 1e-6 to 1e6, and structured LPs built with the
// model package as a formulation would.
func lpLargerCases() []testCase {
	return []testCase{
		{"lp_scaled_coefficients", needNothing, testScaledCoefficients},
		{"lp_transportation", needNothing, testTransportation},
		{"lp_assignment_degenerate", needNothing, testAssignmentDegenerate},
	}
}

// max 1e-3·x + y s.t. 1e6·x ≤ 3e6, 1e-6·y ≤ 2e-6, x + y ≤ 4, x, y ≥ 0.
// The rows say x ≤ 3, y ≤ 2, x + y ≤ 4; y is worth more, so x = (2, 2), z = 2.002.
// Row 1 slack: y1 = 0. Both columns basic: d_x = 1e-3 − y3 = 0 gives y3 = 1e-3, and
// d_y = 1 − 1e-6·y2 − y3 = 0 gives y2 = 999000 (≥ 0, rows at upper in a max). Dual
// objective 2e-6·999000 + 4·1e-3 = 2.002.
func testScaledCoefficients(t testing.TB, s solvers.Solver, cfg Config) {
	p := dense{
		name:  "scaled_coefficients",
		sense: model.Maximize,
		c:     vec(1e-3, 1),
		rows:  []row{le(3e6, 1e6, 0), le(2e-6, 0, 1e-6), le(4, 1, 1)},
	}.problem()
	solveOptimal(t, s, cfg, p, 2.002)
}

// transportationModel: three sources with supply rows Σ_j x_ij ≤ s_i, four sinks with
// demand rows Σ_i x_ij = d_j, cost matrix
//
//	      D1  D2  D3  D4   supply
//	S1     8   6  10   9     20
//	S2     9  12  13   7     30
//	S3    14   9  16   5     30
//	demand 10  25  15  25
//
// Optimum z = 575: S1→D2 20, S2→D1 10, S2→D3 15, S3→D2 5, S3→D4 25 (S2 keeps 5).
// Certificate: supply duals y = (−4, 0, −1) (≤ 0 on rows at their upper bound; 0 on S2,
// which is not full) and demand duals w = (9, 10, 13, 6). The reduced costs
// c_ij − y_i − w_j are zero on the five flows and 3, 1, 7 (S1: D1, D3, D4), 2, 1 (S2: D2,
// D4), 6, 4 (S3: D1, D3) elsewhere, all > 0, so the optimum is unique. Dual objective
// 20·(−4) + 30·(−1) + 10·9 + 25·10 + 15·13 + 25·6 = 575.
func transportationModel() *model.Model {
	cost := [][]float64{{8, 6, 10, 9}, {9, 12, 13, 7}, {14, 9, 16, 5}}
	supply := []float64{20, 30, 30}
	demand := []float64{10, 25, 15, 25}
	m := model.New("transportation")
	x := m.Vars2(len(supply), len(demand), 0, model.Inf, model.Continuous, "x_%d_%d")
	var obj model.Expr
	for i := range supply {
		m.AddLe(model.Sum(x[i]...), supply[i], fmt.Sprintf("supply_%d", i))
		obj.AddExpr(model.Dot(cost[i], x[i]), 1)
	}
	for j := range demand {
		var e model.Expr
		for i := range supply {
			e.AddTerm(x[i][j], 1)
		}
		m.AddEq(e, demand[j], fmt.Sprintf("demand_%d", j))
	}
	m.Minimize(obj)
	return m
}

func testTransportation(t testing.TB, s solvers.Solver, cfg Config) {
	solveOptimal(t, s, cfg, mustCompile(t, transportationModel()), 575)
}

// An n×n assignment LP (n = 20) with cost c_ij = (π(i) − j)² + 1, π(i) = (7i + 3) mod n a
// permutation. Both families of rows are equalities Σ_j x_ij = 1 and Σ_i x_ij = 1, whose
// sum is the same, so A has rank 2n − 1 (one row redundant), and every basis of the
// optimum holds n − 1 zeros (highly degenerate). Optimum x_{i,π(i)} = 1, z = n: with
// y_i = 1 on the agent rows and w_j = 0 on the task rows the reduced costs are
// (π(i) − j)² ≥ 0, zero only on the chosen cells, so the optimum is unique; dual
// objective Σ y_i = n.
func testAssignmentDegenerate(t testing.TB, s solvers.Solver, cfg Config) {
	const n = 20
	m := model.New("assignment_degenerate")
	x := m.Vars2(n, n, 0, model.Inf, model.Continuous, "x_%d_%d")
	var obj model.Expr
	for i := range n {
		pi := (7*i + 3) % n
		for j := range n {
			obj.AddTerm(x[i][j], float64((pi-j)*(pi-j)+1))
		}
		m.AddEq(model.Sum(x[i]...), 1, fmt.Sprintf("agent_%d", i))
	}
	for j := range n {
		var e model.Expr
		for i := range n {
			e.AddTerm(x[i][j], 1)
		}
		m.AddEq(e, 1, fmt.Sprintf("task_%d", j))
	}
	m.Minimize(obj)
	solveOptimal(t, s, cfg, mustCompile(t, m), n)
}
