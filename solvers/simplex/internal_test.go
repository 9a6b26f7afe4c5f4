package simplex

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// TestPerturbationActive: the cost perturbation moves every non-fixed, non-free
// structural cost by a small positive relative amount in the dual-feasible direction.
func TestPerturbationActive(t *testing.T) {
	inf := math.Inf(1)
	p := lp(model.Minimize, []float64{1, -2, 0, 3}, []float64{0, -inf, -1, 2}, []float64{inf, 0, 1, 2},
		[][]float64{{1, 1, 1, 1}}, []float64{-inf}, []float64{10})
	red := identityPresolve(p).reduced
	data, _, _ := buildLP(red, false)
	s := newSimplex(data, settings{primalTol: 1e-7, dualTol: 1e-7, seed: 1, ctx: context.Background()})
	s.setSlackBasis()
	s.perturbCosts()
	for j, c := range data.cost[:4] {
		d := s.cost[j] - c
		switch j {
		case 0: // lower bound only: up
			if !(d > 0 && d < 1e-5) {
				t.Errorf("column 0: perturbation %g", d)
			}
		case 1: // upper bound only: down
			if !(d < 0 && d > -1e-5) {
				t.Errorf("column 1: perturbation %g", d)
			}
		case 2: // boxed at its lower bound: up
			if !(d > 0 && d < 1e-5) {
				t.Errorf("column 2: perturbation %g", d)
			}
		case 3: // fixed: untouched
			if d != 0 {
				t.Errorf("column 3 (fixed): perturbation %g", d)
			}
		}
	}
}

// TestThinFeasibleLP is a regression test: an LP feasible only at one vertex, within
// rounding, which the solve without presolve once reported infeasible (its scaled bounds
// held a row to an absolute 1e-7 at a magnitude of 1.6e5; feasibility is now relative to
// the bound).
func TestThinFeasibleLP(t *testing.T) {
	inf := math.Inf(1)
	p := &model.Problem{Sense: model.Minimize, ColCost: []float64{-10, 0, 0, 0, 0},
		ColLower: []float64{10, 0, 0, 10, 0}, ColUpper: []float64{20, 1, 1, 20, 10},
		RowLower: []float64{-inf, -inf, -inf, -inf, -inf}, RowUpper: []float64{150, 0, -1.9999999826782703e+07, 0, -130},
		AStart: []int{0, 3, 3, 3, 5, 5}, AIndex: []int{0, 2, 4, 2, 4}, AValue: []float64{10, 0.011547819846894583, -10, -1e6, 1}}
	for _, s := range []*Solver{New(), {NoPresolve: true}} {
		sol, err := s.Solve(context.Background(), p, solvers.Options{})
		if err != nil || sol.Status != solvers.Optimal {
			t.Fatalf("%+v: %v %v", *s, sol.Status, err)
		}
		if err := solvertest.CheckPrimal(p, sol, solvertest.Tolerances{Feas: 1e-7}); err != nil {
			t.Errorf("%+v: %v", *s, err)
		}
	}
}

// TestTinyPivotBeforeRay is a regression test: a fixed column with a 1e-6 coefficient
// once shrank a row's scale so far that the scaled α of the only column able to fix the
// row fell below the pivot tolerance, and the solve without presolve claimed a dual ray.
// Two changes address it — fixed columns no longer count in the scaling, and the ratio
// test retries with tiny pivots before it declares a ray — and either alone suffices
// here.
func TestTinyPivotBeforeRay(t *testing.T) {
	inf := math.Inf(1)
	p := &model.Problem{Sense: model.Minimize, ColCost: []float64{0, 1, 0},
		ColLower: []float64{0, -1e-05, -1e-05}, ColUpper: []float64{0, 1.00001, 10.0001},
		RowLower: []float64{110, -inf, -inf, 9.9999, -inf, -inf, -inf, -inf},
		RowUpper: []float64{110, 1e-05, 111.00111, inf, 1.00001e+07, 1e-05, 17.782971928330234, 1.1000000000000001e-05},
		AStart:   []int{0, 4, 8, 12}, AIndex: []int{0, 4, 6, 7, 0, 2, 3, 7, 0, 2, 4, 6},
		AValue: []float64{10, 1e-06, 10, 10, 10, 10, 10, 1e-06, 10, 10, 1e+06, 1.778279410038923}}
	sol, err := (&Solver{NoPresolve: true}).Solve(context.Background(), p, solvers.Options{})
	if err != nil || sol.Status != solvers.Optimal {
		t.Fatalf("%v %v", sol.Status, err)
	}
	if math.Abs(sol.Objective-0.99999) > 1e-9 {
		t.Errorf("objective %.12g, want 0.99999", sol.Objective)
	}
}

// TestFixedVariableEntersBeforeRay: two equality rows pin one column and agree only within
// their tolerances (row 3 through a coefficient of 6e-4 at a magnitude of 3e6, row 4
// exactly). Without presolve the basis first takes x0 from row 3, which leaves row 4
// violated by slightly more than its tolerance with nothing but row 3's fixed logical to
// fix it; the ratio test lets that fixed variable enter before it would claim a dual ray.
func TestFixedVariableEntersBeforeRay(t *testing.T) {
	inf := math.Inf(1)
	p := &model.Problem{Sense: model.Minimize, ColCost: []float64{-10, 0},
		ColLower: []float64{3.162246037391778, 3}, ColUpper: []float64{1.000013162309283e+06, 3},
		RowLower: []float64{-inf, -inf, -inf, 3.0000000017697434e+06, 130.0000001123467},
		RowUpper: []float64{1e-05, -1.622760409444561, -31.62246040944456, 3.0000000017697434e+06, 130.0000001123467},
		AStart:   []int{0, 4, 7}, AIndex: []int{1, 2, 3, 4, 1, 3, 4},
		AValue: []float64{-10, -10, 0.0005596420723998596, 31.622776601683796, 10, 1e+06, 10}}
	for _, s := range []*Solver{New(), {NoPresolve: true}} {
		sol, err := s.Solve(context.Background(), p, solvers.Options{})
		if err != nil || sol.Status != solvers.Optimal {
			t.Fatalf("%+v: %v %v", *s, sol.Status, err)
		}
		if err := solvertest.CheckPrimal(p, sol, solvertest.Tolerances{Feas: 1e-7}); err != nil {
			t.Errorf("%+v: %v", *s, err)
		}
	}
}

// fitLike is an LP shaped like Netlib's fit1d and fit2d: a few ≤ rows and many boxed
// columns whose costs pull them off their lower bounds, so the slack basis is primal
// feasible and dual infeasible on boxed columns only.
func fitLike(rows, cols int, seed uint64) *model.Problem {
	rng := rand.New(rand.NewPCG(seed, 1))
	p := &model.Problem{Name: "fitlike", Sense: model.Minimize, AStart: []int{0}}
	for range cols {
		p.ColCost = append(p.ColCost, -1-9*rng.Float64())
		p.ColLower = append(p.ColLower, 0)
		p.ColUpper = append(p.ColUpper, 1+rng.Float64())
		for i := range rows {
			if rng.Float64() < 0.7 {
				p.AIndex = append(p.AIndex, i)
				p.AValue = append(p.AValue, 1+5*rng.Float64())
			}
		}
		p.AStart = append(p.AStart, len(p.AIndex))
	}
	for range rows {
		p.RowLower = append(p.RowLower, math.Inf(-1))
		p.RowUpper = append(p.RowUpper, float64(cols)/4)
	}
	return p
}

// TestColdStartBoxedGoesDual: a cold start whose slack basis is primal feasible and dual
// infeasible only on boxed columns flips them and runs the dual simplex (HiGHS's
// choice, 192 iterations on fit2d where the primal took 8,443), so the primal simplex does
// at most a cleanup; a warm start with the same shape (a changed objective) still goes
// to the primal. Both optima agree with the other start's.
func TestColdStartBoxedGoesDual(t *testing.T) {
	for seed := range uint64(5) {
		p := fitLike(8, 300, seed)
		set := settings{primalTol: DefaultPrimalTol, dualTol: DefaultDualTol, seed: 1, ctx: context.Background()}
		cold := solveLP(p, set, nil, true, true)
		if cold.status != solvers.Optimal {
			t.Fatalf("seed %d: cold start %s", seed, cold.status)
		}
		if cold.primalIters*4 > cold.iters {
			t.Errorf("seed %d: %d of the cold start's %d iterations were primal, want the dual simplex to do the work", seed, cold.primalIters, cold.iters)
		}
		// A warm start from the slack basis is primal feasible: the primal simplex runs.
		slack := &solvers.Basis{Cols: make([]solvers.BasisStatus, p.NumCols()), Rows: make([]solvers.BasisStatus, p.NumRows())}
		for i := range slack.Rows {
			slack.Rows[i] = solvers.Basic
		}
		warm := solveLP(p, set, slack, true, true)
		if warm.status != solvers.Optimal || warm.primalIters == 0 {
			t.Errorf("seed %d: warm start %s with %d primal iterations, want the primal simplex", seed, warm.status, warm.primalIters)
		}
		if a, b := p.Objective(cold.x), p.Objective(warm.x); math.Abs(a-b) > 1e-7*math.Max(1, math.Abs(a)) {
			t.Errorf("seed %d: cold optimum %.10g, warm %.10g", seed, a, b)
		}
	}
}

// TestDoubletonEquations: presolve's second stage eliminates the doubleton equations of
// a small LP — one whose eliminated column's bound becomes the binding bound of the kept
// column — and the solve's point, duals and basis, returned through both postsolves,
// are optimal for the original problem (certificate at 1e-9; a warm start from the basis
// takes no iteration), with the same optimum as the solve without presolve.
func TestDoubletonEquations(t *testing.T) {
	inf := math.Inf(1)
	// min −x0 − x1 − 2·x2 s.t. x0 + 2·x1 = 4 (doubleton; x1 ∈ [0, 1.5] makes x0 ≥ 1),
	// x1 − x2 = 0 (doubleton), x0 + x2 ≤ 3.5, all x ≥ 0.
	p := lp(model.Minimize, []float64{-1, -1, -2}, []float64{0, 0, 0}, []float64{inf, 1.5, inf},
		[][]float64{{1, 2, 0}, {0, 1, -1}, {1, 0, 1}}, []float64{4, 0, -inf}, []float64{4, 0, 3.5})
	pre := presolve(p, DefaultPrimalTol)
	den := make([]float64, 2*(pre.reduced.n+pre.reduced.m))
	for k := range den {
		den[k] = 1
	}
	st := eliminateDoubletons(pre.reduced, den, DefaultPrimalTol)
	if st == nil || len(st.ops) != 2 || st.out.m != 1 || st.out.n != 1 {
		t.Fatalf("doubleton stage %+v, want both equations and two columns eliminated", st)
	}
	set := settings{primalTol: DefaultPrimalTol, dualTol: DefaultDualTol, seed: 1, ctx: context.Background()}
	if r := solveLP(p, set, nil, true, true); r.status != solvers.Optimal || r.resolved {
		t.Fatalf("solve %s; solved again without presolve: %v (postsolve's certificate failed)", r.status, r.resolved)
	}
	sol, err := New().Solve(context.Background(), p, solvers.Options{})
	if err != nil || sol.Status != solvers.Optimal {
		t.Fatalf("%v %v", sol.Status, err)
	}
	ref, err := (&Solver{NoPresolve: true}).Solve(context.Background(), p, solvers.Options{})
	if err != nil || math.Abs(sol.Objective-ref.Objective) > 1e-9 {
		t.Fatalf("objective %g, without presolve %g (%v)", sol.Objective, ref.Objective, err)
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
		t.Errorf("warm start from the postsolved basis: %v, %d iterations, %v", warm.Status, warm.Iterations, err)
	}
}

// A row or column marked Fixed whose own bounds differ by a few ulps (a presolve stage
// saw an equation after rounding) is settled at the bound its dual or reduced cost
// makes active, so a warm start from the returned basis needs no iteration; a truly
// fixed one stays Fixed.
func TestSettleFixedStatuses(t *testing.T) {
	inf := math.Inf(1)
	p := &model.Problem{Sense: model.Minimize,
		ColCost: []float64{1, -2, 0}, ColLower: []float64{0, 0, 1}, ColUpper: []float64{1e-15, inf, 1},
		RowLower: []float64{7, 7, 3}, RowUpper: []float64{7.000000000000002, 7.000000000000002, 3},
		AStart: []int{0, 1, 2, 3}, AIndex: []int{0, 1, 2}, AValue: []float64{1, 1, 1}}
	x := []float64{0, 7, 1}
	for _, tc := range []struct {
		sense model.Sense
		y     []float64
		rows  []solvers.BasisStatus
		col0  solvers.BasisStatus
	}{
		// Minimization: y > 0 at the lower bound, y < 0 at the upper; column 0's reduced
		// cost 1 − y_0.
		{model.Minimize, []float64{2.5, -1, 4}, []solvers.BasisStatus{solvers.AtLower, solvers.AtUpper, solvers.Fixed}, solvers.AtUpper},
		{model.Minimize, []float64{0, 0, 0}, []solvers.BasisStatus{solvers.AtLower, solvers.AtLower, solvers.Fixed}, solvers.AtLower},
		// Maximization: y is in minimization sense, the costs flip: d_0 = −1 − y_0.
		{model.Maximize, []float64{-3, 1, 0}, []solvers.BasisStatus{solvers.AtUpper, solvers.AtLower, solvers.Fixed}, solvers.AtLower},
	} {
		p.Sense = tc.sense
		b := &solvers.Basis{Cols: []solvers.BasisStatus{solvers.Fixed, solvers.Basic, solvers.Fixed},
			Rows: []solvers.BasisStatus{solvers.Fixed, solvers.Fixed, solvers.Fixed}}
		settleFixedStatuses(p, x, tc.y, b)
		if !slices.Equal(b.Rows, tc.rows) || b.Cols[0] != tc.col0 || b.Cols[1] != solvers.Basic || b.Cols[2] != solvers.Fixed {
			t.Errorf("sense %v, y %v: rows %v (want %v), cols %v (want col 0 %v)", tc.sense, tc.y, b.Rows, tc.rows, b.Cols, tc.col0)
		}
	}
}
