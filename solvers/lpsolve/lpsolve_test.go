//go:build lpsolve

package lpsolve

import (
	"bytes"
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

func TestConstantsMatchHeader(t *testing.T) {
	if err := checkConstants(); err != nil {
		t.Fatal(err)
	}
}

// lp2 is  opt  c·x  s.t.  r1: x + y >= 2,  r2: x - y <= 1,  0 <= x <= 3,  y >= 0, with the
// optimum at the vertex r1 ∩ r2 = (1.5, 0.5) for c = (1, 2) (min) and c = (-1, -2) (max).
func lp2(t *testing.T, sense model.Sense) *model.Problem {
	t.Helper()
	m := model.New("lp2")
	x := m.Continuous(0, 3, "x")
	y := m.Continuous(0, math.Inf(1), "y")
	m.AddGe(model.Sum(x, y), 2, "r1")
	m.AddLe(x.E().Minus(y.E()), 1, "r2")
	c := 1.0
	if sense == model.Maximize {
		c = -1
	}
	m.SetObjective(model.Dot([]float64{c, 2 * c}, []model.Var{x, y}).Plus(model.Const(10)), sense)
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func solve(t *testing.T, p *model.Problem, opt solvers.Options) *solvers.Solution {
	t.Helper()
	sol, err := New().Solve(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	return sol
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*(1+math.Abs(b)) }

// TestDualsAreSensitivities checks the dual sign convention of package solvers
// independently of HiGHS: each row dual must equal the finite-difference derivative of
// the optimal value with respect to the row's active bound, for min and max.
func TestDualsAreSensitivities(t *testing.T) {
	for _, sense := range []model.Sense{model.Minimize, model.Maximize} {
		t.Run(sense.String(), func(t *testing.T) {
			p := lp2(t, sense)
			sol := solve(t, p, solvers.Options{})
			if sol.Status != solvers.Optimal {
				t.Fatalf("status %v", sol.Status)
			}
			want := 10 + 2.5
			if sense == model.Maximize {
				want = 10 - 2.5
			}
			if !near(sol.Objective, want, 1e-9) {
				t.Fatalf("objective %g, want %g (offset included)", sol.Objective, want)
			}
			const h = 1e-3
			for i := range p.NumRows() {
				q := p.Clone()
				if !math.IsInf(q.RowLower[i], -1) {
					q.RowLower[i] += h
				}
				if !math.IsInf(q.RowUpper[i], 1) {
					q.RowUpper[i] += h
				}
				s2 := solve(t, q, solvers.Options{})
				fd := (s2.Objective - sol.Objective) / h
				if !near(sol.RowDual[i], fd, 1e-6) {
					t.Errorf("row %d: dual %g, finite difference %g", i, sol.RowDual[i], fd)
				}
			}
			// Reduced costs are c − Aᵀy.
			for j := range p.NumCols() {
				d := p.ColCost[j]
				for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
					d -= p.AValue[k] * sol.RowDual[p.AIndex[k]]
				}
				if !near(sol.ReducedCost[j], d, 1e-9) {
					t.Errorf("column %d: reduced cost %g, c − Aᵀy = %g", j, sol.ReducedCost[j], d)
				}
			}
		})
	}
}

// TestReducedCostAtBound checks the sign of a reduced cost of a column at its upper bound,
// by finite differences on that bound.
func TestReducedCostAtBound(t *testing.T) {
	for _, sense := range []model.Sense{model.Minimize, model.Maximize} {
		t.Run(sense.String(), func(t *testing.T) {
			m := model.New("rc")
			x := m.Continuous(0, 1, "x")
			y := m.Continuous(0, math.Inf(1), "y")
			m.AddGe(model.Sum(x, y), 2, "r")
			s := float64(sense)
			m.SetObjective(model.Dot([]float64{s * 1, s * 2}, []model.Var{x, y}), sense)
			p, err := m.Compile()
			if err != nil {
				t.Fatal(err)
			}
			sol := solve(t, p, solvers.Options{})
			q := p.Clone()
			q.ColUpper[0] += 1e-3
			fd := (solve(t, q, solvers.Options{}).Objective - sol.Objective) / 1e-3
			if !near(sol.ReducedCost[0], fd, 1e-6) || !near(sol.ReducedCost[0], -s, 1e-9) {
				t.Fatalf("reduced cost of x at its upper bound: %g, finite difference %g, want %g", sol.ReducedCost[0], fd, -s)
			}
		})
	}
}

func TestStatuses(t *testing.T) {
	inf := math.Inf(1)
	build := func(f func(m *model.Model)) *model.Problem {
		m := model.New("s")
		f(m)
		p, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		p    *model.Problem
		want []solvers.Status
	}{
		{"infeasible", build(func(m *model.Model) {
			x := m.Continuous(0, inf, "x")
			y := m.Continuous(0, inf, "y")
			m.AddLe(model.Sum(x, y), 1, "a")
			m.AddGe(model.Sum(x, y), 2, "b")
			m.Minimize(x.E())
		}), []solvers.Status{solvers.Infeasible}},
		{"unbounded", build(func(m *model.Model) {
			x := m.Continuous(0, inf, "x")
			y := m.Continuous(0, inf, "y")
			m.AddGe(x.E().Minus(y.E()), 1, "a")
			m.Maximize(model.Sum(x, y))
		}), []solvers.Status{solvers.Unbounded, solvers.InfeasibleOrUnbounded}},
		{"mip-infeasible", build(func(m *model.Model) {
			x := m.Integer(0, 10, "x")
			m.AddEq(x.Mul(2), 3, "odd")
			m.Minimize(x.E())
		}), []solvers.Status{solvers.Infeasible}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sol := solve(t, tc.p, solvers.Options{})
			ok := false
			for _, w := range tc.want {
				ok = ok || sol.Status == w
			}
			if !ok {
				t.Fatalf("status %v, want one of %v", sol.Status, tc.want)
			}
			if sol.Status == solvers.Infeasible && sol.X != nil {
				t.Fatalf("infeasible solution carries X = %v", sol.X)
			}
		})
	}
}

func TestMIPAndQP(t *testing.T) {
	t.Run("knapsack", func(t *testing.T) {
		m := model.New("knap")
		w := []float64{5, 4, 3, 2}
		v := []float64{10, 7, 5, 3}
		xs := m.Vars1(4, 0, 1, model.Binary, "x%d")
		m.AddLe(model.Dot(w, xs), 9, "cap")
		m.Maximize(model.Dot(v, xs))
		p, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		sol := solve(t, p, solvers.Options{})
		// Best of all 16 subsets by enumeration.
		best := 0.0
		for mask := range 16 {
			tw, tv := 0.0, 0.0
			for i := range 4 {
				if mask&(1<<i) != 0 {
					tw += w[i]
					tv += v[i]
				}
			}
			if tw <= 9 {
				best = max(best, tv)
			}
		}
		if sol.Status != solvers.Optimal || !near(sol.Objective, best, 1e-9) || !near(sol.BestBound, best, 1e-6) {
			t.Fatalf("status %v objective %g bound %g, want %g", sol.Status, sol.Objective, sol.BestBound, best)
		}
		if sol.RowDual != nil {
			t.Fatalf("MIP solution has duals")
		}
	})
	t.Run("qp-is-error", func(t *testing.T) {
		m := model.New("qp")
		x := m.Continuous(0, 1, "x")
		m.Minimize(x.E())
		m.AddQuadObj(x, x, 1)
		p, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := New().Solve(context.Background(), p, solvers.Options{}); err == nil {
			t.Fatal("no error for a QP")
		}
	})
}

func TestInvalidProblemIsError(t *testing.T) {
	p := &model.Problem{Sense: model.Minimize, ColCost: []float64{1}, ColLower: []float64{2}, ColUpper: []float64{1}, AStart: []int{0, 0}}
	if _, err := New().Solve(context.Background(), p, solvers.Options{}); err == nil {
		t.Fatal("no error for lower > upper")
	}
}

// hardMIP is a MIP that lp_solve cannot finish in well under a second: a market-split-like
// equality knapsack system, infeasible or nearly so, on which branch and bound thrashes.
func hardMIP(t testing.TB) *model.Problem {
	t.Helper()
	m := model.New("hard")
	const n, rows = 40, 4
	xs := m.Vars1(n, 0, 1, model.Binary, "x%d")
	seed := uint64(12345)
	next := func() float64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return float64(seed>>33%97 + 1)
	}
	for r := range rows {
		coef := make([]float64, n)
		sum := 0.0
		for j := range coef {
			coef[j] = next()
			sum += coef[j]
		}
		m.AddEq(model.Dot(coef, xs), math.Floor(sum/2)+0.0, "r"+string(rune('a'+r)))
	}
	m.Minimize(model.Sum(xs...))
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCancellation(t *testing.T) {
	p := hardMIP(t)
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		sol, err := New().Solve(ctx, p, solvers.Options{TimeLimit: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if ctx.Err() == nil {
			t.Fatalf("lp_solve finished the hard MIP (status %v) before the cancel: the test model is too easy", sol.Status)
		}
		if sol.Status != solvers.Other {
			t.Fatalf("status %v after cancel, want other", sol.Status)
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("solve ignored the cancel (%v)", time.Since(start))
		}
	})
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		sol, err := New().Solve(ctx, p, solvers.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if sol.Status != solvers.TimeLimit {
			t.Fatalf("status %v at the deadline, want time_limit", sol.Status)
		}
	})
	t.Run("already-cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		sol, err := New().Solve(ctx, lp2(t, model.Minimize), solvers.Options{})
		if err != nil || sol.Status != solvers.Other {
			t.Fatalf("status %v, err %v", sol.Status, err)
		}
	})
	t.Run("time-limit", func(t *testing.T) {
		sol := solve(t, p, solvers.Options{TimeLimit: 100 * time.Millisecond})
		if sol.Status != solvers.TimeLimit {
			t.Fatalf("status %v, want time_limit", sol.Status)
		}
	})
}

func TestVerboseGoesToWriter(t *testing.T) {
	var buf bytes.Buffer
	out := captureStdout(t, func() {
		solve(t, lp2(t, model.Minimize), solvers.Options{Verbose: &buf})
		solve(t, lp2(t, model.Minimize), solvers.Options{})
	})
	if buf.Len() == 0 {
		t.Fatal("verbose writer got no lp_solve log")
	}
	if out != "" {
		t.Fatalf("lp_solve wrote to stdout: %q", out)
	}
}

func TestVersionAndRegistration(t *testing.T) {
	if v := Version(); !strings.HasPrefix(v, "5.5.") {
		t.Fatalf("Version() = %q, want 5.5.x", v)
	}
	s, err := solvers.Get(Name)
	if err != nil {
		t.Fatal(err)
	}
	c := s.(solvers.Describer).Capabilities()
	if !c.LP || !c.MIP || c.QP || !c.Duals {
		t.Fatalf("capabilities %+v", c)
	}
}

func TestMapStatus(t *testing.T) {
	tests := []struct {
		ret       int
		why       stopReason
		want      solvers.Status
		wantError bool
	}{
		{retUnknownError, notStopped, solvers.Other, false},
		{retDataIgnored, notStopped, solvers.Other, true},
		{retNoBFP, notStopped, solvers.Other, true},
		{retNoMemory, notStopped, solvers.Other, true},
		{retNotRun, notStopped, solvers.Other, false},
		{retOptimal, notStopped, solvers.Optimal, false},
		{retSubOptimal, notStopped, solvers.Other, false},
		{retSubOptimal, stoppedDeadline, solvers.TimeLimit, false},
		{retSubOptimal, stoppedCancel, solvers.Other, false},
		{retInfeasible, notStopped, solvers.Infeasible, false},
		{retUnbounded, notStopped, solvers.Unbounded, false},
		{retDegenerate, notStopped, solvers.Other, false},
		{retNumFailure, notStopped, solvers.NumericalError, false},
		{retUserAbort, stoppedCancel, solvers.Other, false},
		{retUserAbort, stoppedDeadline, solvers.TimeLimit, false},
		{retUserAbort, stoppedIteration, solvers.IterationLimit, false},
		{retTimeout, notStopped, solvers.TimeLimit, false},
		{retRunning, notStopped, solvers.Other, false},
		{retPresolved, notStopped, solvers.Other, false},
		{retProcFail, notStopped, solvers.NumericalError, false},
		{retProcBreak, notStopped, solvers.Other, false},
		{retFeasFound, notStopped, solvers.Other, false},
		{retNoFeasFound, notStopped, solvers.Infeasible, false},
		{retFathomed, notStopped, solvers.Other, false},
		{retAccuracyError, notStopped, solvers.NumericalError, false},
		{99, notStopped, solvers.Other, false},
	}
	for _, tc := range tests {
		got, err := mapStatus(tc.ret, tc.why)
		if got != tc.want || (err != nil) != tc.wantError {
			t.Errorf("mapStatus(%d, %d) = %v, %v; want %v, error %v", tc.ret, tc.why, got, err, tc.want, tc.wantError)
		}
	}
}

// TestBoundsAndRowTypes covers what lp_solve does differently from the Problem: a default
// lower bound of 0, free and negative columns, ranged, free and equality rows.
func TestBoundsAndRowTypes(t *testing.T) {
	inf := math.Inf(1)
	m := model.New("rows")
	x := m.Continuous(-inf, inf, "free")
	y := m.Continuous(-5, -1, "neg")
	z := m.Continuous(-inf, 4, "upper-only")
	m.AddRange(model.Sum(x, y), -3, 2, "range")     // -3 <= x+y <= 2
	m.AddConstr(model.Sum(x, z), -inf, inf, "free") // no bound at all
	m.AddEq(x.E().Minus(z.E()), 1, "eq")            // x = z + 1
	// min −x + y + 0.5z: x wants up (range caps x+y at 2), y wants down (-5), z = x−1.
	m.Minimize(model.Dot([]float64{-1, 1, 0.5}, []model.Var{x, y, z}))
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	sol := solve(t, p, solvers.Options{})
	// x + y <= 2 with y = -5 → x <= 7, z = x − 1 <= 4 → x <= 5; objective −x + y + 0.5(x−1).
	want := []float64{5, -5, 4}
	if sol.Status != solvers.Optimal {
		t.Fatalf("status %v", sol.Status)
	}
	for j := range want {
		if !near(sol.X[j], want[j], 1e-9) {
			t.Fatalf("x = %v, want %v", sol.X, want)
		}
	}
	if !near(sol.Objective, -5-5+2, 1e-9) {
		t.Fatalf("objective %g, want -8", sol.Objective)
	}
	if !near(sol.RowActivity[0], 0, 1e-9) || !near(sol.RowActivity[1], 9, 1e-9) || !near(sol.RowActivity[2], 1, 1e-9) {
		t.Fatalf("row activities %v, want [0 9 1]", sol.RowActivity)
	}
	// A ranged row active at its lower bound (min) and at its upper bound (max): the
	// duals are the objective's change per unit of the active bound.
	m2 := model.New("range-lower")
	a := m2.Continuous(0, 10, "a")
	b := m2.Continuous(0, 10, "b")
	m2.AddRange(model.Sum(a, b), 3, 8, "r")
	m2.Minimize(model.Dot([]float64{1, 2}, []model.Var{a, b}))
	q, err := m2.Compile()
	if err != nil {
		t.Fatal(err)
	}
	s1 := solve(t, q, solvers.Options{})
	if s1.Status != solvers.Optimal || !near(s1.Objective, 3, 1e-9) || !near(s1.RowDual[0], 1, 1e-9) {
		t.Fatalf("ranged row at its lower bound: status %v objective %g dual %v, want 3 and dual 1", s1.Status, s1.Objective, s1.RowDual)
	}
	m2.Maximize(model.Dot([]float64{1, 2}, []model.Var{a, b}))
	q, err = m2.Compile()
	if err != nil {
		t.Fatal(err)
	}
	s2 := solve(t, q, solvers.Options{})
	if s2.Status != solvers.Optimal || !near(s2.Objective, 16, 1e-9) || !near(s2.RowDual[0], 2, 1e-9) {
		t.Fatalf("ranged row at its upper bound (max): status %v objective %g dual %v, want 16 and dual 2", s2.Status, s2.Objective, s2.RowDual)
	}
}

func TestIterationLimit(t *testing.T) {
	sol := solve(t, hardMIP(t), solvers.Options{IterationLimit: 50})
	if sol.Status != solvers.IterationLimit {
		t.Fatalf("status %v, want iteration_limit", sol.Status)
	}
}

// TestConcurrentSolves runs solves from many goroutines: the binding serialises them
// (lp_solve is not reentrant), and every answer must still be right.
func TestConcurrentSolves(t *testing.T) {
	p := lp2(t, model.Minimize)
	errs := make(chan string, 64)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 25 {
				sol, err := New().Solve(context.Background(), p, solvers.Options{})
				if err != nil {
					errs <- err.Error()
					return
				}
				if sol.Status != solvers.Optimal || !near(sol.Objective, 12.5, 1e-9) {
					errs <- "status " + sol.Status.String()
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestWaitingForTurnHonoursContext holds lp_solve's turn and checks that a Solve waiting
// for it returns when its context is done.
func TestWaitingForTurnHonoursContext(t *testing.T) {
	turn <- struct{}{}
	defer func() { <-turn }()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	sol, err := New().Solve(ctx, lp2(t, model.Minimize), solvers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Status != solvers.TimeLimit || sol.X != nil {
		t.Fatalf("status %v, x %v; want time_limit and no point", sol.Status, sol.X)
	}
}

// TestAbortAtEveryPoint stops solves at the 1st, 2nd, … call of the abort function, and
// after 1, 2, … simplex iterations. lp_solve 5.5.2.5 dereferences an invalid
// factorization when a solve with sensitivity analysis is aborted (stopping the
// infeasible model at the third poll crashed the process); the binding must never run
// such a solve. Every stopped solve must say why it stopped, every finished one its real
// status.
func TestAbortAtEveryPoint(t *testing.T) {
	ps := leakModels(t)[:3] // LP, infeasible LP, MIP
	want := []solvers.Status{solvers.Optimal, solvers.Infeasible, solvers.Optimal}
	for k, p := range ps {
		for n := 1; n <= 40; n++ {
			sol, err := (&Solver{abortAfter: n}).Solve(context.Background(), p, solvers.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if sol.Status != solvers.Other && sol.Status != want[k] {
				t.Fatalf("model %d, abort at call %d: status %v", k, n, sol.Status)
			}
			sol = solve(t, p, solvers.Options{IterationLimit: n})
			if sol.Status != solvers.IterationLimit && sol.Status != want[k] {
				t.Fatalf("model %d, iteration limit %d: status %v", k, n, sol.Status)
			}
			if sol.Status == solvers.IterationLimit && sol.Iterations < n {
				t.Fatalf("model %d: stopped after %d iterations with limit %d", k, sol.Iterations, n)
			}
		}
	}
}

func TestEmptyColumnRay(t *testing.T) {
	const inf = 1e30
	tests := []struct {
		c, lo, hi float64
		v         float64
		ray       bool
	}{
		{-1, 0, inf, 0, true},    // improves upwards, open: hold at the lower bound
		{-1, -inf, inf, 0, true}, // free: hold at 0
		{1, -inf, 4, 4, true},    // improves downwards, open: hold at the upper bound
		{1, 0, inf, 0, false},    // improves towards a finite bound
		{-1, 0, 5, 0, false},
		{0, -inf, inf, 0, false}, // no cost
	}
	for _, tc := range tests {
		v, ray := emptyColumnRay(tc.c, tc.lo, tc.hi, inf)
		if ray != tc.ray || (ray && v != tc.v) {
			t.Errorf("emptyColumnRay(%g, %g, %g) = %g, %v; want %g, %v", tc.c, tc.lo, tc.hi, v, ray, tc.v, tc.ray)
		}
	}
}
