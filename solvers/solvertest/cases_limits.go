package solvertest

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Limits, context handling and solver reuse. Wall-clock behaviour is never asserted
// (timing is not deterministic on a shared machine, least of all under -race); what is
// asserted is the Status a limit or a context produces, on models a solver cannot finish
// before looking. A context is never cancelled by a timer: the cases that stop a running
// solve use doneOnStart, which turns done when the backend first asks.
func limitCases() []testCase {
	return []testCase{
		{"context_cancelled", needNothing, testContextCancelled},
		{"context_deadline_passed", needNothing, testContextDeadlinePassed},
		{"cancel_during_solve", needNothing, testCancelDuringSolve},
		{"deadline_during_solve", needNothing, testDeadlineDuringSolve},
		{"time_limit_option", needNothing, testTimeLimitOption},
		{"iteration_limit", needNothing, testIterationLimit},
		{"solver_reuse", needNothing, testSolverReuse},
	}
}

// An already-cancelled context: the package solvers contract is Status Other (the caller
// sees ctx.Err()); an error wrapping context.Canceled is accepted too. Never Optimal.
func testContextCancelled(t testing.TB, s solvers.Solver, cfg Config) {
	p := mustCompile(t, transportationModel())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	expectContextStatus(ctx, t, s, p, solvers.Other, context.Canceled)
}

// A context whose deadline has passed: Status TimeLimit (or an error wrapping
// context.DeadlineExceeded). Never Optimal.
func testContextDeadlinePassed(t testing.TB, s solvers.Solver, cfg Config) {
	p := mustCompile(t, transportationModel())
	ctx, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel()
	expectContextStatus(ctx, t, s, p, solvers.TimeLimit, context.DeadlineExceeded)
}

func expectContextStatus(ctx context.Context, t testing.TB, s solvers.Solver, p *model.Problem, want solvers.Status, wantErr error) {
	t.Helper()
	before := p.Clone()
	sol, err := s.Solve(ctx, p, solvers.Options{})
	checkUnchanged(t, before, p)
	if err != nil {
		if !errors.Is(err, wantErr) {
			t.Errorf("Solve with a done context returned error %v; want Status %s or an error wrapping %v", err, want, wantErr)
		}
		return
	}
	if sol == nil {
		t.Fatalf("Solve returned a nil Solution and no error")
	}
	if sol.Status != want {
		t.Errorf("Solve with a done context (%v): status %s, want %s", ctx.Err(), sol.Status, want)
	}
	if sol.Backend != s.Name() {
		t.Errorf("Solution.Backend = %q, want %q", sol.Backend, s.Name())
	}
}

// IterationLimit 1 on the transportation LP. Its optimal vertex has five positive flows
// that are all basic in any optimal basis, so no method that exchanges one basic variable
// per iteration, starting from slacks or artificials, reaches it in one iteration (and
// an interior-point method does not converge in one). Status IterationLimit.
func testIterationLimit(t testing.TB, s solvers.Solver, cfg Config) {
	p := mustCompile(t, transportationModel())
	sol := solve(t, s, p, solvers.Options{IterationLimit: 1})
	if sol.Status != solvers.IterationLimit {
		t.Errorf("IterationLimit 1: status %s, want iteration_limit", sol.Status)
	}
}

// One Solver instance, several solves in a row with different shapes and outcomes: a
// backend must not carry state from one solve into the next.
func testSolverReuse(t testing.TB, s solvers.Solver, cfg Config) {
	solveOptimal(t, s, cfg, wyndorLP().problem(), 36)
	solveOptimal(t, s, cfg, mustCompile(t, transportationModel()), 575)
	d := dietLP()
	d.name = "diet_infeasible"
	d.lo, d.up = vec(0, 0), vec(1, 1)
	solveStatus(t, s, cfg, d.problem(), solvers.Infeasible)
	solveOptimal(t, s, cfg, dietLP().problem(), 9)
	solveOptimal(t, s, cfg, wyndorLP().problem(), 36)
}

// doneOnStart is a context that is live for its first Err call — the check a backend
// makes before it starts — and done with err from then on, its Done channel closed at
// that first call. A backend that polls Err while it works (every k iterations) sees the
// context done at its next poll; one that waits on Done (context.AfterFunc, a select)
// sees it at once and interrupts the library it runs. So the solve is stopped from inside
// at a point fixed by the backend's own counting, never by a clock. Deadline reports no
// deadline: the context carries no time at all.
type doneOnStart struct {
	context.Context
	err   error
	mu    sync.Mutex
	calls int
	done  chan struct{}
}

func newDoneOnStart(parent context.Context, err error) *doneOnStart {
	return &doneOnStart{Context: parent, err: err, done: make(chan struct{})}
}

func (c *doneOnStart) Deadline() (time.Time, bool) { return time.Time{}, false }

func (c *doneOnStart) Done() <-chan struct{} { return c.done }

func (c *doneOnStart) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if c.calls == 1 {
		close(c.done)
		return nil
	}
	return c.err
}

// busyModel returns a problem that no backend finishes before it first polls its context
// or clock: for a MIP backend HardMIP, which branch and bound cannot close in any
// reasonable time; otherwise busyLP, whose optimum has busyN basic structural columns,
// so that any method exchanging one basic variable per iteration from a slack start
// needs at least busyN iterations.
func busyModel(cfg Config) *model.Problem {
	if cfg.MIP {
		return HardMIP()
	}
	return busyLP()
}

const busyN = 120

// busyLP: min Σx  s.t.  (I + E)x ≥ 1, x ≥ 0, with E a fixed pseudo-random matrix of
// entries in [0, 0.05]. Its optimum (measured with the built-in simplex, with and
// without presolve: 120 iterations) has all busyN columns positive and every row
// active, so a method that exchanges one basic variable per iteration from a slack basis
// needs at least busyN iterations, and a backend polling every few iterations looks at
// its context or clock several times before it could finish.
func busyLP() *model.Problem {
	rows := make([]row, busyN)
	seed := uint64(2718281828)
	for i := range rows {
		a := make([]float64, busyN)
		for j := range a {
			seed = seed*6364136223846793005 + 1442695040888963407
			a[j] = float64(seed>>33%51) / 1000
		}
		a[i] = 1
		rows[i] = ge(1, a...)
	}
	return dense{name: "busy_lp", c: fill(busyN, 1), rows: rows}.problem()
}

// HardMIP is a MIP that branch and bound does not finish in any reasonable time: a
// market-split-like system of four equality knapsacks over 40 binaries, each right-hand
// side half its row's sum (infeasible or nearly so: HiGHS 1.10 reached a 20 s time limit
// after 14,217 nodes, measured). Backend tests use it to exercise the paths
// that stop a MIP solve.
func HardMIP() *model.Problem {
	const n, rows = 40, 4
	d := dense{name: "hard_mip", c: fill(n, 1), lo: fill(n, 0), up: fill(n, 1)}
	seed := uint64(12345)
	for range rows {
		a := make([]float64, n)
		sum := 0.0
		for j := range a {
			seed = seed*6364136223846793005 + 1442695040888963407
			a[j] = float64(seed>>33%97 + 1)
			sum += a[j]
		}
		d.rows = append(d.rows, eq(math.Floor(sum/2), a...))
	}
	for j := range n {
		d.ints = append(d.ints, j)
	}
	return d.problem()
}

// A context cancelled after the backend started (doneOnStart): Status Other, as for a
// context cancelled before the call — never an optimum the solve did not reach.
func testCancelDuringSolve(t testing.TB, s solvers.Solver, cfg Config) {
	p := busyModel(cfg)
	expectStoppedStatus(t, newDoneOnStart(t.Context(), context.Canceled), s, p, solvers.Options{}, solvers.Other, context.Canceled)
}

// A context whose deadline passes after the backend started: Status TimeLimit.
func testDeadlineDuringSolve(t testing.TB, s solvers.Solver, cfg Config) {
	p := busyModel(cfg)
	expectStoppedStatus(t, newDoneOnStart(t.Context(), context.DeadlineExceeded), s, p, solvers.Options{}, solvers.TimeLimit, context.DeadlineExceeded)
}

// Options.TimeLimit of one nanosecond, which has passed by the backend's first look at
// its clock: Status TimeLimit.
func testTimeLimitOption(t testing.TB, s solvers.Solver, cfg Config) {
	p := busyModel(cfg)
	expectStoppedStatus(t, t.Context(), s, p, solvers.Options{TimeLimit: time.Nanosecond}, solvers.TimeLimit, nil)
}

// expectStoppedStatus solves p under ctx and opt and wants the status want, or an error
// wrapping wantErr when wantErr is not nil. An Optimal answer means the backend finished
// the busy model without looking at its context or clock.
func expectStoppedStatus(t testing.TB, ctx context.Context, s solvers.Solver, p *model.Problem, opt solvers.Options, want solvers.Status, wantErr error) {
	t.Helper()
	before := p.Clone()
	sol, err := s.Solve(ctx, p, opt)
	checkUnchanged(t, before, p)
	if err != nil {
		if wantErr == nil || !errors.Is(err, wantErr) {
			t.Errorf("Solve(%s) returned error %v; want Status %s", p.Name, err, want)
		}
		return
	}
	if sol == nil {
		t.Fatalf("Solve(%s) returned a nil Solution and no error", p.Name)
	}
	if sol.Status == solvers.Optimal || sol.Status == solvers.Infeasible {
		t.Errorf("Solve(%s) finished (status %s after %d iterations, %d nodes) although it was to be stopped: the backend did not look at its context or clock while it worked", p.Name, sol.Status, sol.Iterations, sol.Nodes)
		return
	}
	if sol.Status != want {
		t.Errorf("Solve(%s) stopped with status %s, want %s", p.Name, sol.Status, want)
	}
	if sol.Backend != s.Name() {
		t.Errorf("Solution.Backend = %q, want %q", sol.Backend, s.Name())
	}
}
