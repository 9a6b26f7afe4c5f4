//go:build highs

package highs

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/backendtest"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// backend is this package's solver for the tests shared with the other C-library
// wrappers (package solvers/backendtest).
var backend = backendtest.Config{New: func() solvers.Solver { return New() }, Name: "HiGHS"}

func TestConstantsMatchHeader(t *testing.T) {
	if err := checkConstants(); err != nil {
		t.Fatal(err)
	}
}

func TestVersion(t *testing.T) {
	if v := Version(); v != "1.10.0" {
		t.Fatalf("Version() = %q, want 1.10.0 (the version install-deps.sh builds)", v)
	}
}

func TestRegistered(t *testing.T) {
	s, err := solvers.Get(Name)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := s.(solvers.Describer)
	if !ok {
		t.Fatal("highs does not implement solvers.Describer")
	}
	if c := d.Capabilities(); !c.LP || !c.MIP || !c.QP || !c.Duals || !c.Basis {
		t.Fatalf("capabilities %+v", c)
	}
}

func TestMapStatus(t *testing.T) {
	deadline := context.DeadlineExceeded
	cancel := context.Canceled
	tests := []struct {
		ms        int
		cause     error
		empty     bool
		want      solvers.Status
		wantError bool
	}{
		{msNotset, nil, true, solvers.Other, false},
		{msLoadError, nil, true, solvers.Other, true},
		{msModelError, nil, true, solvers.Other, true},
		{msPresolveError, nil, true, solvers.NumericalError, false},
		{msSolveError, nil, true, solvers.NumericalError, false},
		{msPostsolveError, nil, true, solvers.NumericalError, false},
		{msModelEmpty, nil, true, solvers.Optimal, false},
		{msModelEmpty, nil, false, solvers.Infeasible, false},
		{msOptimal, nil, true, solvers.Optimal, false},
		{msInfeasible, nil, true, solvers.Infeasible, false},
		{msUnboundedOrInfeasible, nil, true, solvers.InfeasibleOrUnbounded, false},
		{msUnbounded, nil, true, solvers.Unbounded, false},
		{msObjectiveBound, nil, true, solvers.Other, false},
		{msObjectiveTarget, nil, true, solvers.Other, false},
		{msTimeLimit, nil, true, solvers.TimeLimit, false},
		{msIterationLimit, nil, true, solvers.IterationLimit, false},
		{msUnknown, nil, true, solvers.Other, false},
		{msSolutionLimit, nil, true, solvers.Other, false},
		{msInterrupt, deadline, true, solvers.TimeLimit, false},
		{msInterrupt, cancel, true, solvers.Other, false},
		{99, nil, true, solvers.Other, false},
	}
	for _, tc := range tests {
		got, err := mapStatus(tc.ms, tc.cause, tc.empty)
		if got != tc.want || (err != nil) != tc.wantError {
			t.Errorf("mapStatus(%d, %v, %v) = %v, %v; want %v, error %v", tc.ms, tc.cause, tc.empty, got, err, tc.want, tc.wantError)
		}
	}
}

func TestMIPAndQP(t *testing.T) {
	t.Run("qp", func(t *testing.T) {
		// min (x-1)² + (y-2)² = x² + y² − 2x − 4y + 5  s.t. x + y <= 2: optimum (0.5, 1.5).
		m := model.New("qp")
		x := m.Continuous(math.Inf(-1), math.Inf(1), "x")
		y := m.Continuous(math.Inf(-1), math.Inf(1), "y")
		m.AddLe(model.Sum(x, y), 2, "c")
		m.Minimize(model.Dot([]float64{-2, -4}, []model.Var{x, y}).Plus(model.Const(5)))
		m.AddQuadObj(x, x, 1)
		m.AddQuadObj(y, y, 1)
		p, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		sol := backend.Solve(t, p, solvers.Options{})
		if sol.Status != solvers.Optimal || !backendtest.Near(sol.X[0], 0.5, 1e-6) || !backendtest.Near(sol.X[1], 1.5, 1e-6) || !backendtest.Near(sol.Objective, 0.5, 1e-6) {
			t.Fatalf("status %v x %v objective %g, want (0.5, 1.5) and 0.5", sol.Status, sol.X, sol.Objective)
		}
		// ∂z*/∂b for x + y <= b: z*(b) = 2·((3−b)/2)², so −(3−b) = −1 at b = 2.
		if !backendtest.Near(sol.RowDual[0], -1, 1e-6) {
			t.Fatalf("row dual %g, want -1", sol.RowDual[0])
		}
	})
}

func TestEmptyModel(t *testing.T) {
	p := &model.Problem{Sense: model.Minimize, Offset: 3, AStart: []int{0},
		RowLower: []float64{-1}, RowUpper: []float64{1}}
	sol := backend.Solve(t, p, solvers.Options{})
	if sol.Status != solvers.Optimal || sol.Objective != 3 || len(sol.RowActivity) != 1 {
		t.Fatalf("%+v", sol)
	}
	p.RowLower[0] = 1
	if sol := backend.Solve(t, p, solvers.Options{}); sol.Status != solvers.Infeasible {
		t.Fatalf("status %v, want infeasible", sol.Status)
	}
}

func TestInvalidProblemIsError(t *testing.T) {
	p := &model.Problem{Sense: model.Minimize, ColCost: []float64{1}, ColLower: []float64{2}, ColUpper: []float64{1}, AStart: []int{0, 0}}
	if _, err := New().Solve(context.Background(), p, solvers.Options{}); err == nil {
		t.Fatal("no error for lower > upper")
	}
}

func TestWarmStart(t *testing.T) {
	p := solvertest.LP2(model.Minimize)
	first := backend.Solve(t, p, solvers.Options{})
	if first.Basis == nil || first.Iterations == 0 {
		t.Fatalf("first solve: basis %v, %d iterations", first.Basis, first.Iterations)
	}
	again := backend.Solve(t, p, solvers.Options{WarmStart: first.Basis})
	if again.Status != solvers.Optimal || again.Iterations != 0 || !backendtest.Near(again.Objective, first.Objective, 1e-12) {
		t.Fatalf("warm start: status %v, %d iterations, objective %g (cold: %g)", again.Status, again.Iterations, again.Objective, first.Objective)
	}
	// A basis of the wrong size is ignored, not an error.
	if s := backend.Solve(t, p, solvers.Options{WarmStart: &solvers.Basis{Cols: []solvers.BasisStatus{solvers.Basic}}}); s.Status != solvers.Optimal {
		t.Fatalf("mismatched warm start: status %v", s.Status)
	}
}

// TestThreads runs a multi-threaded solve and then single-threaded ones on the same OS
// thread set, concurrently: HiGHS's per-thread scheduler must never refuse a run.
func TestThreads(t *testing.T) {
	p := solvertest.LP2(model.Minimize)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				threads := 1
				if (g+i)%3 == 0 {
					threads = 2
				}
				sol, err := New().Solve(context.Background(), p, solvers.Options{Threads: threads})
				if err != nil {
					errs <- err
					return
				}
				if sol.Status != solvers.Optimal || !backendtest.Near(sol.Objective, 12.5, 1e-9) {
					errs <- errors.New("threads " + string(rune('0'+threads)) + ": status " + sol.Status.String())
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestInterruptAtEveryPoint stops HiGHS at the 1st, 2nd, … call of its interrupt
// callback on an LP, an infeasible LP, a MIP and a QP: every stopped solve must report
// other (a cancel), every finished one its real status, and nothing may crash or leak a
// half-read solution.
func TestInterruptAtEveryPoint(t *testing.T) {
	ps := backendtest.LeakModels(t)
	want := []solvers.Status{solvers.Optimal, solvers.Infeasible, solvers.Optimal, solvers.Optimal}
	for k, p := range ps {
		stopped := 0
		for n := 1; n <= 40; n++ {
			sol, err := (&Solver{interruptAfter: n}).Solve(context.Background(), p, solvers.Options{})
			if err != nil {
				t.Fatal(err)
			}
			switch sol.Status {
			case solvers.Other:
				stopped++
				if sol.X != nil && len(sol.X) != p.NumCols() {
					t.Fatalf("model %d: interrupted solve returned %d values", k, len(sol.X))
				}
			case want[k]:
			default:
				t.Fatalf("model %d, interrupt at call %d: status %v", k, n, sol.Status)
			}
		}
		// HiGHS's presolve proves the second model infeasible before any simplex
		// iteration, and its QP solver has no interrupt callback: only the LP and the MIP
		// must have been stopped.
		if (k == 0 || k == 2) && stopped == 0 {
			t.Errorf("model %d: the interrupt callback never stopped HiGHS", k)
		}
		t.Logf("model %d: %d of 40 solves interrupted", k, stopped)
	}
}

func TestSingleColumnRay(t *testing.T) {
	inf := math.Inf(1)
	base := func() *model.Problem {
		// min x² + c·y, row: a·y in [rlo, rhi], y in [ylo, yhi].
		return &model.Problem{Sense: model.Minimize, ColCost: []float64{0, 1},
			ColLower: []float64{-inf, -inf}, ColUpper: []float64{inf, inf},
			RowLower: []float64{-inf}, RowUpper: []float64{3},
			AStart: []int{0, 0, 1}, AIndex: []int{0}, AValue: []float64{1},
			QStart: []int{0, 1, 1}, QIndex: []int{0}, QValue: []float64{2}}
	}
	tests := []struct {
		name   string
		change func(p *model.Problem)
		want   int
	}{
		{"y down, row open below", func(p *model.Problem) {}, 1},
		{"y bounded below", func(p *model.Problem) { p.ColLower[1] = -5 }, -1},
		{"row closed below", func(p *model.Problem) { p.RowLower[0] = -10 }, -1},
		{"negative coefficient turns the row", func(p *model.Problem) { p.AValue[0] = -1 }, -1},
		{"maximize goes up, row closed above", func(p *model.Problem) { p.Sense = model.Maximize }, -1},
		{"maximize goes up, row open above", func(p *model.Problem) { p.Sense = model.Maximize; p.RowLower[0], p.RowUpper[0] = 0, inf }, 1},
		{"y in Q (off-diagonal)", func(p *model.Problem) { p.QStart, p.QIndex, p.QValue = []int{0, 2, 2}, []int{0, 1}, []float64{2, 1} }, -1},
		{"zero cost", func(p *model.Problem) { p.ColCost[1] = 0 }, -1},
	}
	for _, tc := range tests {
		p := base()
		tc.change(p)
		if got := singleColumnRay(p); got != tc.want {
			t.Errorf("%s: singleColumnRay = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestNonConvexQPIsAnError: HiGHS refuses a non-convex QP before solving; the error
// carries HiGHS's own explanation from its log.
func TestNonConvexQPIsAnError(t *testing.T) {
	m := model.New("nonconvex")
	x := m.Continuous(0, 1, "x")
	m.Minimize(x.E())
	m.AddQuadObj(x, x, -1)
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	var out string
	out = backendtest.CaptureStdout(t, func() {
		_, err = New().Solve(context.Background(), p, solvers.Options{})
	})
	if err == nil {
		t.Fatal("no error for a non-convex QP")
	}
	if !strings.Contains(strings.ToLower(err.Error()), "hessian") {
		t.Fatalf("error %q does not pass on HiGHS's explanation", err)
	}
	if out != "" {
		t.Fatalf("HiGHS wrote to stdout: %q", out)
	}
}
