package simplex

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// aggregatorLP: min −x0 − 2·x1 + ½·x2 + x3 s.t. x0 + x1 − x2 = 0, x2 + x3 ≥ 1.5,
// x2 − x3 ≤ 0.5, x0 + x1 ≤ 1.5, x0, x1 ∈ [0, 1], x2 ∈ [0, 5], x3 ∈ [0, 4]. The equation
// keeps x2 in [0, 2] ⊂ [0, 5]: x2 is implied free, and with three entries in the
// equation neither the doubleton nor the column stage takes it. Substituted, the problem
// is min −½·x0 − 1.5·x1 + x3 with x0 + x1 + x3 ≥ 1.5, x0 + x1 − x3 ≤ 0.5, whose optimum
// is x1 = 1, x3 = 0.5, x0 = 0 (x0 would save ½ but push x3 up by 1): −1.
func aggregatorLP() *model.Problem {
	return lp(model.Minimize, []float64{-1, -2, 0.5, 1}, []float64{0, 0, 0, 0}, []float64{1, 1, 5, 4},
		[][]float64{{1, 1, -1, 0}, {0, 0, 1, 1}, {0, 0, 1, -1}, {1, 1, 0, 0}},
		[]float64{0, 1.5, -inf, -inf}, []float64{0, inf, 0.5, 1.5})
}

// TestAggregatorSubstitutesImpliedFree: the stage removes x2 with its equation, moves its
// cost onto x0 and x1 and its entries into rows 1 and 2; the full solve uses it and its
// postsolve returns the optimal point, a dual certificate and an optimal basis (x2 basic,
// the equation nonbasic with dual c_2 − Σ a_l2·y_l over the other rows).
func TestAggregatorSubstitutesImpliedFree(t *testing.T) {
	p := aggregatorLP()
	pre := presolve(p, DefaultPrimalTol)
	st := aggregate(pre.reduced, presolveDen(pre.reduced))
	if st == nil || len(st.ops) != 1 || st.ops[0].k != 2 || st.ops[0].i != 0 {
		t.Fatalf("aggregator %+v, want x2 substituted with row 0", st)
	}
	out := st.out
	if out.m != 3 || out.n != 3 || out.cost[0] != -0.5 || out.cost[1] != -1.5 || out.cost[2] != 1 {
		t.Fatalf("reduced problem %+v, want 3 rows, columns x0, x1, x3 with costs −½, −1.5, 1", out)
	}
	// x0's column now has rows 0 (x2 + x3 ≥ 1.5 → x0 + x1 + x3), 1 and 2 (x0 + x1 ≤ 1.5).
	if got := out.a.start[1] - out.a.start[0]; got != 3 {
		t.Errorf("x0 has %d entries after the substitution, want 3", got)
	}

	var log bytes.Buffer
	set := settings{primalTol: DefaultPrimalTol, dualTol: DefaultDualTol, seed: 1, ctx: context.Background(), verbose: &log}
	if r := solveLP(p, set, nil, true, true); r.status != solvers.Optimal || !strings.Contains(log.String(), "aggregator: 1 ") {
		t.Fatalf("solve %v, log %q: want the aggregator to substitute x2", r.status, log.String())
	}
	sol := checkPresolvedSolve(t, p, -1)
	if sol.Basis.Cols[2] != solvers.Basic || sol.Basis.Rows[0] != solvers.Fixed || math.Abs(sol.X[2]-1) > 1e-12 {
		t.Errorf("x2 = %v (%v), equation %v: want x2 = 1 basic and the equation fixed", sol.X[2], sol.Basis.Cols[2], sol.Basis.Rows[0])
	}
	// d_2 = ½ + y_0 − y_1 − y_2 = 0 defines the equation's dual.
	if d2 := 0.5 + sol.RowDual[0] - sol.RowDual[1] - sol.RowDual[2]; math.Abs(d2) > 1e-12 {
		t.Errorf("x2's reduced cost %v with duals %v, want 0", d2, sol.RowDual)
	}
}

// TestAggregatorImpliedByAnotherRow: with x0 unbounded above, the equation no longer
// bounds x2 from above, but x2 − x3 ≤ 0.5 with x3 ≤ 4 does (x2 ≤ 4.5 < 5): x2 is still
// implied free and substituted.
func TestAggregatorImpliedByAnotherRow(t *testing.T) {
	p := aggregatorLP()
	p.ColUpper[0] = inf
	if st := aggregate(presolve(p, DefaultPrimalTol).reduced, presolveDen(presolve(p, DefaultPrimalTol).reduced)); st == nil || len(st.ops) != 1 || st.ops[0].k != 2 {
		t.Fatalf("aggregator %+v, want x2 substituted (bounded by row 2)", st)
	}
	checkPresolvedSolve(t, p, -1)
	// With x3 ≤ 5, row 2 allows x2 up to 5.5: not implied, x2 stays.
	p.ColUpper[3] = 5
	if st := aggregate(presolve(p, DefaultPrimalTol).reduced, presolveDen(presolve(p, DefaultPrimalTol).reduced)); st != nil && st.ops[0].k == 2 {
		t.Fatalf("aggregator substituted x2 (ops %+v); nothing keeps it ≤ 5", st.ops)
	}
	checkPresolvedSolve(t, p, -1)
}

// TestAggregatorNotImplied: with x2 ≤ 1.5 the equation can push x2 to 2, past its own
// bound, which then binds: x2 must stay, and so must the equation.
func TestAggregatorNotImplied(t *testing.T) {
	p := aggregatorLP()
	p.ColUpper[2] = 1.5
	pre := presolve(p, DefaultPrimalTol)
	if st := aggregate(pre.reduced, presolveDen(pre.reduced)); st != nil {
		for _, op := range st.ops {
			if op.k == 2 {
				t.Fatalf("aggregator substituted x2 (ops %+v); its bound 1.5 is not implied", st.ops)
			}
		}
	}
	checkPresolvedSolve(t, p, -1)
}

// TestAggregatorEquationSlack: in x0 + x1 + s = 4 with s ∈ [0, 1] a cost-free singleton,
// s is not implied free (the row lets it reach −16) but acts as the row's slack: the row
// becomes x0 + x1 ∈ [3, 4]. min x0 + 2·x1 then puts x0 = 3, x1 = 0, the range at its
// lower bound with dual 1, so s = 1 sits at its upper bound with d = 0 − 1 = −1.
func TestAggregatorEquationSlack(t *testing.T) {
	// min x0 + 2·x1 s.t. x0 + x1 + s = 4, x0 − x1 ≥ −1; x0, x1 ∈ [0, 10], s ∈ [0, 1].
	p := lp(model.Minimize, []float64{1, 2, 0}, []float64{0, 0, 0}, []float64{10, 10, 1},
		[][]float64{{1, 1, 1}, {1, -1, 0}}, []float64{4, -1}, []float64{4, inf})
	st := aggregate(presolve(p, DefaultPrimalTol).reduced, presolveDen(presolve(p, DefaultPrimalTol).reduced))
	if st == nil || st.slacks != 1 || st.substituted != 0 || !st.ops[0].slack || st.ops[0].k != 2 {
		t.Fatalf("aggregator %+v, want s taken as the equation's slack", st)
	}
	if out := st.out; out.rowLower[0] != 3 || out.rowUpper[0] != 4 || out.cost[0] != 1 || out.cost[1] != 2 {
		t.Fatalf("reduced problem %+v, want row 0 in [3, 4] and costs 1, 2", out)
	}
	sol := checkPresolvedSolve(t, p, 3)
	if sol.Basis.Cols[2] != solvers.AtUpper || sol.Basis.Rows[0] != solvers.Fixed || math.Abs(sol.RowDual[0]-1) > 1e-12 || sol.X[2] != 1 {
		t.Errorf("s = %v (%v), equation %v with dual %v: want s = 1 at its upper bound, the equation fixed, dual 1",
			sol.X[2], sol.Basis.Cols[2], sol.Basis.Rows[0], sol.RowDual[0])
	}
	// Maximizing x0 + 2·x1 instead fills the row (x1 = 2.5 and x0 = 1.5, held by
	// x0 − x1 ≥ −1): the range at its upper bound, s = 0 at its lower.
	p.Sense = model.Maximize
	sol = checkPresolvedSolve(t, p, 6.5)
	if sol.Basis.Cols[2] != solvers.AtLower || sol.X[2] != 0 {
		t.Errorf("s = %v (%v), want 0 at its lower bound", sol.X[2], sol.Basis.Cols[2])
	}
	// A singleton with a cost is left alone: moving its cost onto the row's columns made
	// dfl001 take 83,168 iterations instead of 16,805 and greenbeb 8,065 instead of 4,009.
	p.Sense = model.Minimize
	p.ColCost[2] = 3
	if st := aggregate(presolve(p, DefaultPrimalTol).reduced, presolveDen(presolve(p, DefaultPrimalTol).reduced)); st != nil && st.slacks != 0 {
		t.Fatalf("aggregator took a singleton of cost 3 as a slack: %+v", st.ops)
	}
	checkPresolvedSolve(t, p, 4)
}

// presolveDen is the tolerance magnitudes max(1, |bound|) of r's column bounds, as solveLP
// passes them to the aggregator when no earlier stage changed them.
func presolveDen(r *reducedLP) []float64 {
	den := make([]float64, 2*(r.n+r.m))
	for j := range r.n {
		den[2*j], den[2*j+1] = 1, 1
		if !math.IsInf(r.lower[j], 0) {
			den[2*j] = math.Max(1, math.Abs(r.lower[j]))
		}
		if !math.IsInf(r.upper[j], 0) {
			den[2*j+1] = math.Max(1, math.Abs(r.upper[j]))
		}
	}
	return den
}
