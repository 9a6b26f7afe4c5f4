//go:build highs

package highs

import (
	"bytes"
	"context"
	"errors"
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
			if sol.Basis == nil || sol.Basis.Cols[0] != solvers.AtUpper {
				t.Fatalf("basis %+v, want x at upper", sol.Basis)
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
		sol := solve(t, p, solvers.Options{})
		if sol.Status != solvers.Optimal || !near(sol.X[0], 0.5, 1e-6) || !near(sol.X[1], 1.5, 1e-6) || !near(sol.Objective, 0.5, 1e-6) {
			t.Fatalf("status %v x %v objective %g, want (0.5, 1.5) and 0.5", sol.Status, sol.X, sol.Objective)
		}
		// ∂z*/∂b for x + y <= b: z*(b) = 2·((3−b)/2)², so −(3−b) = −1 at b = 2.
		if !near(sol.RowDual[0], -1, 1e-6) {
			t.Fatalf("row dual %g, want -1", sol.RowDual[0])
		}
	})
}

func TestEmptyModel(t *testing.T) {
	p := &model.Problem{Sense: model.Minimize, Offset: 3, AStart: []int{0},
		RowLower: []float64{-1}, RowUpper: []float64{1}}
	sol := solve(t, p, solvers.Options{})
	if sol.Status != solvers.Optimal || sol.Objective != 3 || len(sol.RowActivity) != 1 {
		t.Fatalf("%+v", sol)
	}
	p.RowLower[0] = 1
	if sol := solve(t, p, solvers.Options{}); sol.Status != solvers.Infeasible {
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
	p := lp2(t, model.Minimize)
	first := solve(t, p, solvers.Options{})
	if first.Basis == nil || first.Iterations == 0 {
		t.Fatalf("first solve: basis %v, %d iterations", first.Basis, first.Iterations)
	}
	again := solve(t, p, solvers.Options{WarmStart: first.Basis})
	if again.Status != solvers.Optimal || again.Iterations != 0 || !near(again.Objective, first.Objective, 1e-12) {
		t.Fatalf("warm start: status %v, %d iterations, objective %g (cold: %g)", again.Status, again.Iterations, again.Objective, first.Objective)
	}
	// A basis of the wrong size is ignored, not an error.
	if s := solve(t, p, solvers.Options{WarmStart: &solvers.Basis{Cols: []solvers.BasisStatus{solvers.Basic}}}); s.Status != solvers.Optimal {
		t.Fatalf("mismatched warm start: status %v", s.Status)
	}
}

// hardMIP is a MIP that HiGHS cannot finish in well under a second: a market-split-like
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
			t.Fatalf("HiGHS finished the hard MIP (status %v) before the cancel: the test model is too easy", sol.Status)
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
	if !strings.Contains(buf.String(), "HiGHS") {
		t.Fatalf("verbose writer got no HiGHS log: %q", buf.String())
	}
	if out != "" {
		t.Fatalf("HiGHS wrote to stdout: %q", out)
	}
}

// TestThreads runs a multi-threaded solve and then single-threaded ones on the same OS
// thread set, concurrently: HiGHS's per-thread scheduler must never refuse a run.
func TestThreads(t *testing.T) {
	p := lp2(t, model.Minimize)
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
				if sol.Status != solvers.Optimal || !near(sol.Objective, 12.5, 1e-9) {
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
	ps := leakModels(t)
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
	out = captureStdout(t, func() {
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
