//go:build lpsolve

package lpsolve

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/backendtest"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// backend is this package's solver for the tests shared with the other C-library
// wrappers (package solvers/backendtest).
var backend = backendtest.Config{New: func() solvers.Solver { return New() }, Name: "lp_solve"}

func TestConstantsMatchHeader(t *testing.T) {
	if err := checkConstants(); err != nil {
		t.Fatal(err)
	}
}

func TestMIPAndQP(t *testing.T) {
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
	sol := backend.Solve(t, p, solvers.Options{})
	// x + y <= 2 with y = -5 → x <= 7, z = x − 1 <= 4 → x <= 5; objective −x + y + 0.5(x−1).
	want := []float64{5, -5, 4}
	if sol.Status != solvers.Optimal {
		t.Fatalf("status %v", sol.Status)
	}
	for j := range want {
		if !backendtest.Near(sol.X[j], want[j], 1e-9) {
			t.Fatalf("x = %v, want %v", sol.X, want)
		}
	}
	if !backendtest.Near(sol.Objective, -5-5+2, 1e-9) {
		t.Fatalf("objective %g, want -8", sol.Objective)
	}
	if !backendtest.Near(sol.RowActivity[0], 0, 1e-9) || !backendtest.Near(sol.RowActivity[1], 9, 1e-9) || !backendtest.Near(sol.RowActivity[2], 1, 1e-9) {
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
	s1 := backend.Solve(t, q, solvers.Options{})
	if s1.Status != solvers.Optimal || !backendtest.Near(s1.Objective, 3, 1e-9) || !backendtest.Near(s1.RowDual[0], 1, 1e-9) {
		t.Fatalf("ranged row at its lower bound: status %v objective %g dual %v, want 3 and dual 1", s1.Status, s1.Objective, s1.RowDual)
	}
	m2.Maximize(model.Dot([]float64{1, 2}, []model.Var{a, b}))
	q, err = m2.Compile()
	if err != nil {
		t.Fatal(err)
	}
	s2 := backend.Solve(t, q, solvers.Options{})
	if s2.Status != solvers.Optimal || !backendtest.Near(s2.Objective, 16, 1e-9) || !backendtest.Near(s2.RowDual[0], 2, 1e-9) {
		t.Fatalf("ranged row at its upper bound (max): status %v objective %g dual %v, want 16 and dual 2", s2.Status, s2.Objective, s2.RowDual)
	}
}

func TestIterationLimit(t *testing.T) {
	sol := backend.Solve(t, solvertest.HardMIP(), solvers.Options{IterationLimit: 50})
	if sol.Status != solvers.IterationLimit {
		t.Fatalf("status %v, want iteration_limit", sol.Status)
	}
}

// TestConcurrentSolves runs solves from many goroutines: the binding serialises them
// (lp_solve is not reentrant), and every answer must still be right.
func TestConcurrentSolves(t *testing.T) {
	p := solvertest.LP2(model.Minimize)
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
				if sol.Status != solvers.Optimal || !backendtest.Near(sol.Objective, 12.5, 1e-9) {
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
	sol, err := New().Solve(ctx, solvertest.LP2(model.Minimize), solvers.Options{})
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
	ps := backendtest.LeakModels(t)[:3] // LP, infeasible LP, MIP
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
			sol = backend.Solve(t, p, solvers.Options{IterationLimit: n})
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
