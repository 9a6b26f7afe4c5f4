package simplex

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// columnStage runs presolve's first stage and the column stage on p.
func columnStage(t *testing.T, p *model.Problem) *colStage {
	t.Helper()
	pre := presolve(p, DefaultPrimalTol)
	if pre.status != presolveReduced {
		t.Fatalf("presolve: status %v", pre.status)
	}
	return reduceColumns(pre.reduced)
}

// checkPresolvedSolve solves p with every presolve stage and checks the answer against
// the solve without presolve: same optimum (want), point and certificate at 1e-9, no
// fallback to the solve without presolve, and an optimal postsolved basis (a warm start
// from it takes no iteration).
func checkPresolvedSolve(t *testing.T, p *model.Problem, want float64) *solvers.Solution {
	t.Helper()
	set := settings{primalTol: DefaultPrimalTol, dualTol: DefaultDualTol, seed: 1, ctx: context.Background()}
	if r := solveLP(p, set, nil, true, true); r.status != solvers.Optimal || r.resolved {
		t.Fatalf("solve %s; solved again without presolve: %v (postsolve's certificate failed)", r.status, r.resolved)
	}
	sol, err := New().Solve(context.Background(), p, solvers.Options{})
	if err != nil || sol.Status != solvers.Optimal {
		t.Fatalf("%v %v", sol.Status, err)
	}
	ref, err := (&Solver{NoPresolve: true}).Solve(context.Background(), p, solvers.Options{})
	if err != nil || math.Abs(sol.Objective-want) > 1e-9 || math.Abs(ref.Objective-want) > 1e-9 {
		t.Fatalf("objective %g, without presolve %g, want %g (%v)", sol.Objective, ref.Objective, want, err)
	}
	tol := solvertest.Tolerances{Obj: 1e-9, Feas: 1e-9, Dual: 1e-9}
	if err := solvertest.CheckPrimal(p, sol, tol); err != nil {
		t.Error(err)
	}
	if err := solvertest.CheckLPCertificate(p, sol, tol); err != nil {
		t.Error(err)
	}
	warm, err := New().Solve(context.Background(), p, solvers.Options{WarmStart: sol.Basis})
	if err != nil || warm.Status != solvers.Optimal || warm.Iterations != 0 {
		t.Errorf("warm start from the postsolved basis %+v: %v, %d iterations, %v", sol.Basis, warm.Status, warm.Iterations, err)
	}
	return sol
}

// TestImpliedFreeColumnSingleton: maros-r7's row shape, x0 + 2·x1 − u + v = −3 with goal
// columns u, v ≥ 0 of cost 1. The row keeps u ≥ 3 whatever x and v are, so u is free in
// effect: it is substituted out with its row, its cost moves onto x0, x1 and v (1, 2, 2),
// and v, left empty at cost 2, is fixed at 0 as dominated; so is x1, now a singleton of
// x0 + x1 ≥ 2 dearer than x0 (whose d ≥ 0 bounds that row's dual by 1). That leaves
// x0 ≥ 2, which implies x0's own bound: x0 is substituted too, the row at its lower
// bound (dual c_0/b = 1 > 0). The first row's dual comes back as c_u/b = −1 and u basic.
func TestImpliedFreeColumnSingleton(t *testing.T) {
	// min u + v s.t. x0 + 2·x1 − u + v = −3, x0 + x1 ≥ 2, all columns ≥ 0.
	p := lp(model.Minimize, []float64{0, 0, 1, 1}, []float64{0, 0, 0, 0}, []float64{inf, inf, inf, inf},
		[][]float64{{1, 2, -1, 1}, {1, 1, 0, 0}}, []float64{-3, 2}, []float64{-3, inf})
	st := columnStage(t, p)
	if st == nil || st.impliedFree != 2 || st.dominated != 2 || st.out.n != 0 || st.out.m != 0 {
		t.Fatalf("column stage %+v, want u substituted with its row, x1 and v fixed, then x0 substituted with x0 ≥ 2", st)
	}
	if last := st.ops[len(st.ops)-1]; last.kind != colOpImpliedFree || last.col != 0 || last.c != 1 || last.r != 2 {
		t.Errorf("last reduction %+v, want x0 (cost 1 after the substitution) substituted with its row at 2", last)
	}
	sol := checkPresolvedSolve(t, p, 5)
	if sol.Basis.Cols[2] != solvers.Basic || math.Abs(sol.RowDual[0]+1) > 1e-12 || math.Abs(sol.X[2]-5) > 1e-9 {
		t.Errorf("u %v (%v), row dual %v: want u = 5 basic and the dual −1", sol.X[2], sol.Basis.Cols[2], sol.RowDual[0])
	}

	// As an inequality, x0 + 2·x1 − u + v ≤ −3 still keeps u ≥ 3: the dual c_u/b = −1 says
	// the row sits at its upper bound, and it is substituted as that equality.
	p.RowLower[0] = -inf
	st = columnStage(t, p)
	if st == nil || st.impliedFree != 2 || st.ops[0].kind != colOpImpliedFree || !st.ops[0].upper || st.ops[0].r != -3 {
		t.Fatalf("column stage %+v, want u substituted with the row at its upper bound −3", st)
	}
	sol = checkPresolvedSolve(t, p, 5)
	if sol.Basis.Cols[2] != solvers.Basic || sol.Basis.Rows[0] != solvers.AtUpper || math.Abs(sol.RowDual[0]+1) > 1e-12 {
		t.Errorf("u %v, row %v, row dual %v: want u basic, the row at its upper bound, the dual −1", sol.Basis.Cols[2], sol.Basis.Rows[0], sol.RowDual[0])
	}
	// As x0 + 2·x1 − u + v ≥ −3 it bounds u only from above: u stays.
	p.RowLower[0], p.RowUpper[0] = -3, inf
	if st := columnStage(t, p); st != nil && st.impliedFree != 0 {
		t.Fatalf("column stage substituted %d singletons; u's lower bound is not implied", st.impliedFree)
	}
	checkPresolvedSolve(t, p, 0)
}

// TestImpliedFreeNotImplied: the same row with right-hand side +3 lets u reach 0 at
// x = 0, so u's bound binds there and it must stay; likewise a singleton whose
// coefficient is tiny against its row's (its dual and the moved costs would be divided by
// it; here u = 1000·(x0 + 2·x1 + 3) + v).
func TestImpliedFreeNotImplied(t *testing.T) {
	p := lp(model.Minimize, []float64{0, 0, 1, 1}, []float64{0, 0, 0, 0}, []float64{inf, inf, inf, inf},
		[][]float64{{1, 2, -1, 1}, {1, 1, 0, 0}}, []float64{3, 2}, []float64{3, inf})
	if st := columnStage(t, p); st != nil && st.impliedFree != 0 {
		t.Fatalf("column stage substituted %d singletons; u's bound is not implied", st.impliedFree)
	}
	checkPresolvedSolve(t, p, 0)
	tiny := lp(model.Minimize, []float64{0, 0, 1, 1}, []float64{0, 0, 0, 0}, []float64{inf, inf, inf, inf},
		[][]float64{{1, 2, -1e-3, 1e-3}, {1, 1, 0, 0}}, []float64{-3, 2}, []float64{-3, inf})
	if st := columnStage(t, tiny); st != nil && st.impliedFree != 0 {
		t.Fatalf("column stage substituted %d singletons with coefficient 1e-3 against 2", st.impliedFree)
	}
	checkPresolvedSolve(t, tiny, 5000)
}

// TestDominatedColumn: in x0 + x1 + 2·x2 − s + t = 3 the goal columns s, t ≥ 0 of cost 1
// bound the row's dual to [−1, 1], so x2's reduced cost 3 − 2·y stays ≥ 1: x2 is 0 at
// every optimum and is fixed there. x0 (cost 1) and x1 (cost −½, at most 4) are not
// dominated, and no singleton is implied free (the row lets s and t reach 0). x0, itself
// a singleton, sets the bound y ≤ 1 that x2's fixing relies on, so it must stay.
func TestDominatedColumn(t *testing.T) {
	p := lp(model.Minimize, []float64{1, -0.5, 3, 1, 1}, []float64{0, 0, 0, 0, 0}, []float64{inf, 4, inf, inf, inf},
		[][]float64{{1, 1, 2, -1, 1}}, []float64{3}, []float64{3})
	st := columnStage(t, p)
	if st == nil || st.impliedFree != 0 || st.dominated != 1 || slices.Contains(st.colMap, 2) {
		t.Fatalf("column stage %+v, want x2 alone fixed", st)
	}
	if !slices.Equal(st.colMap, []int{0, 1, 3, 4}) {
		t.Errorf("columns kept %v, want [0 1 3 4]", st.colMap)
	}
	sol := checkPresolvedSolve(t, p, -1.5)
	if sol.X[2] != 0 || sol.Basis.Cols[2] != solvers.AtLower {
		t.Errorf("x2 = %v (%v), want 0 at its lower bound", sol.X[2], sol.Basis.Cols[2])
	}
	// With x2's cost 1.5 its reduced cost can reach −0.5: not dominated. (Its own d ≥ 0
	// then bounds y by 0.75, which makes x0 and t dominated instead.)
	p.ColCost[2] = 1.5
	if st := columnStage(t, p); st == nil || !slices.Contains(st.colMap, 2) || !slices.Equal(st.colMap, []int{1, 2, 3}) {
		t.Fatalf("column stage %+v: want x2 kept, x0 and t fixed", st)
	}
	checkPresolvedSolve(t, p, -1.5)
}

// TestDominatedUpper: in a maximization, x0 ∈ [0, 3] of profit 3 in a goal row whose
// duals the goal columns bound to [−1, 1] gains at least 2 per unit whatever the duals
// are: it is fixed at its upper bound 3. That leaves −u + v = −1, which implies u ≥ 1:
// the next round substitutes u and fixes v. x2 (cost 2 in minimization form) is
// dominated by x1 (cost 1) in x1 + x2 ≥ 1, and x1, whose dual bound that relied on,
// stays.
func TestDominatedUpper(t *testing.T) {
	// max 3·x0 − x1 − 2·x2 − u − v s.t. x0 − u + v = 2, x1 + x2 ≥ 1; x0 ∈ [0, 3], the
	// others ≥ 0. Columns x0, x1, x2, u, v.
	p := lp(model.Maximize, []float64{3, -1, -2, -1, -1}, []float64{0, 0, 0, 0, 0}, []float64{3, inf, inf, inf, inf},
		[][]float64{{1, 0, 0, -1, 1}, {0, 1, 1, 0, 0}}, []float64{2, 1}, []float64{2, inf})
	st := columnStage(t, p)
	if st == nil {
		t.Fatal("column stage: no reduction")
	}
	type red struct {
		kind  colOpKind
		col   int
		value float64
		upper bool
	}
	var got []red
	for _, op := range st.ops {
		got = append(got, red{op.kind, op.col, op.value, op.upper})
	}
	// Then x1, alone in x1 ≥ 1, is implied free there too.
	want := []red{{colOpDominated, 0, 3, true}, {colOpDominated, 2, 0, false}, {colOpImpliedFree, 1, 0, false}, {colOpImpliedFree, 3, 0, false}, {colOpDominated, 4, 0, false}}
	if !slices.Equal(got, want) || st.out.n != 0 || st.out.m != 0 {
		t.Fatalf("column stage: reductions %v, columns %v, rows %v; want %v and nothing left", got, st.colMap, st.rowMap, want)
	}
	sol := checkPresolvedSolve(t, p, 7)
	if sol.X[0] != 3 || sol.Basis.Cols[0] != solvers.AtUpper || math.Abs(sol.X[3]-1) > 1e-12 {
		t.Errorf("x0 = %v (%v), u = %v: want x0 = 3 at its upper bound, u = 1", sol.X[0], sol.Basis.Cols[0], sol.X[3])
	}
}

// TestForcingAndRedundantRows: x0 − x1 ≤ 7 cannot be violated within x0, x1 ∈ [0, 5]
// (redundant: dual 0, basic); x0 + x1 ≤ 0 is met only at x0 = x1 = 0 (forcing: both are
// fixed and the row goes). Postsolve gives the forcing row the dual −3 that keeps x0's
// reduced cost (−2 − y_2 − y_1 with y_2 = 1) from the wrong sign, and x0 becomes basic.
// In the second LP the forcing row's lower bound is the one met: −x0 + x1 ≥ 5 within
// x0 ∈ [0, 2], x1 ∈ [0, 5] forces x1 = 5, and with nothing left the reduced problem is
// empty.
func TestForcingAndRedundantRows(t *testing.T) {
	// min −2·x0 + x1 + x2 s.t. x0 − x1 ≤ 7, x0 + x1 ≤ 0, x0 + x2 ≥ 1; x0, x1 ∈ [0, 5],
	// x2 ≥ 0.
	p := lp(model.Minimize, []float64{-2, 1, 1}, []float64{0, 0, 0}, []float64{5, 5, inf},
		[][]float64{{1, -1, 0}, {1, 1, 0}, {1, 0, 1}}, []float64{-inf, -inf, 1}, []float64{7, 0, inf})
	st := columnStage(t, p)
	if st == nil || st.redundant != 1 || st.forcing != 1 || len(st.ops) != 3 || st.ops[0].kind != colOpRedundantRow || st.ops[1].kind != colOpForcingRow {
		t.Fatalf("column stage %+v, want row 0 redundant, row 1 forcing (x0, x1 fixed), then x2 ≥ 1 substituting x2", st)
	}
	sol := checkPresolvedSolve(t, p, 1)
	if !slices.Equal(sol.RowDual, []float64{0, -3, 1}) || sol.Basis.Cols[0] != solvers.Basic ||
		sol.Basis.Rows[0] != solvers.Basic || sol.Basis.Rows[1] != solvers.AtUpper {
		t.Errorf("row duals %v, basis %+v: want [0 −3 1], x0 and row 0 basic, row 1 at its upper bound", sol.RowDual, sol.Basis)
	}

	// min x0 + 2·x1 s.t. −x0 + x1 ≥ 5; x0 ∈ [0, 2], x1 ∈ [0, 5]: x1 = 5 costs 10, and
	// the row's dual is 2 (x1 basic).
	q := lp(model.Minimize, []float64{1, 2}, []float64{0, 0}, []float64{2, 5},
		[][]float64{{-1, 1}}, []float64{5}, []float64{inf})
	st = columnStage(t, q)
	if st == nil || st.forcing != 1 || st.out.n != 0 || st.out.m != 0 {
		t.Fatalf("column stage %+v, want the row forcing and nothing left", st)
	}
	sol = checkPresolvedSolve(t, q, 10)
	if sol.RowDual[0] != 2 || sol.Basis.Cols[1] != solvers.Basic || sol.Basis.Rows[0] != solvers.AtLower {
		t.Errorf("row dual %v, basis %+v: want 2, x1 basic, the row at its lower bound", sol.RowDual, sol.Basis)
	}
}

// TestPresolveStagesAlternate: x0 + 2·x1 + x2 = 4 becomes a doubleton equation only after
// the forcing row x2 + x3 ≤ 0 fixes x2 (column stage), so the doubleton stage must run
// again after it; then x0 + x1 ≥ 1 is redundant and x0 dominated, and nothing is left.
func TestPresolveStagesAlternate(t *testing.T) {
	// min −x0 + x1 + x2 + x3 s.t. x0 + 2·x1 + x2 = 4, x2 + x3 ≤ 0, x0 + x1 ≥ 1;
	// x0 ∈ [0, 3], x1 ≥ 0, x2, x3 ∈ [0, 5].
	p := lp(model.Minimize, []float64{-1, 1, 1, 1}, []float64{0, 0, 0, 0}, []float64{3, inf, 5, 5},
		[][]float64{{1, 2, 1, 0}, {0, 0, 1, 1}, {1, 1, 0, 0}}, []float64{4, -inf, 1}, []float64{4, 0, inf})
	var log strings.Builder
	set := settings{primalTol: DefaultPrimalTol, dualTol: DefaultDualTol, seed: 1, ctx: context.Background(), verbose: &log}
	if r := solveLP(p, set, nil, true, true); r.status != solvers.Optimal {
		t.Fatalf("solve %s", r.status)
	}
	if !strings.Contains(log.String(), "doubleton equations: 1 eliminated") || !strings.Contains(log.String(), "forcing rows: 1 removed") {
		t.Errorf("presolve log:\n%s\nwant the forcing row removed, then the doubleton equation it leaves eliminated", log.String())
	}
	checkPresolvedSolve(t, p, -2.5)
}
