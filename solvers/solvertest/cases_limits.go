package solvertest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Limits, context handling and solver reuse. Wall-clock behaviour is never asserted
// (timing is not deterministic on a shared machine); what is asserted is the Status a
// limit or a context produces, on models a solver cannot finish before looking.
func limitCases() []testCase {
	return []testCase{
		{"context_cancelled", needNothing, testContextCancelled},
		{"context_deadline_passed", needNothing, testContextDeadlinePassed},
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
