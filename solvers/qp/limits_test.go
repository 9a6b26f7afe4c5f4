package qp

import (
	"context"
	"testing"
	"time"

	"github.com/coraopt/coraopt/solvers"
)

// TestLimits checks the statuses for stopped solves on an RDS-shaped problem that needs
// hundreds of active-set changes: X is nil and the status says why.
func TestLimits(t *testing.T) {
	p := newRDSInstance(100, 3, 7).problem()
	full := solve(t, p, solvers.Options{})
	if full.Status != solvers.Optimal || full.Iterations < 20 {
		t.Fatalf("reference solve: %v after %d changes; need an optimum after many changes", full.Status, full.Iterations)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()
	tests := []struct {
		name string
		ctx  context.Context
		opt  solvers.Options
		want solvers.Status
	}{
		{"iteration limit", context.Background(), solvers.Options{IterationLimit: full.Iterations / 2}, solvers.IterationLimit},
		{"time limit", context.Background(), solvers.Options{TimeLimit: time.Nanosecond}, solvers.TimeLimit},
		{"deadline passed", expired, solvers.Options{}, solvers.TimeLimit},
		{"cancelled", cancelled, solvers.Options{}, solvers.Other},
		{"iteration limit not reached", context.Background(), solvers.Options{IterationLimit: full.Iterations}, solvers.Optimal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sol, err := New().Solve(tc.ctx, p, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if sol.Status != tc.want {
				t.Fatalf("status %v, want %v", sol.Status, tc.want)
			}
			if tc.want != solvers.Optimal && sol.X != nil {
				t.Error("X set for a stopped solve")
			}
			if tc.want == solvers.IterationLimit && sol.Iterations > tc.opt.IterationLimit {
				t.Errorf("%d changes with a limit of %d", sol.Iterations, tc.opt.IterationLimit)
			}
		})
	}
}

// TestIterationLimitExact checks that a solve never makes more active-set changes than
// the limit, for limits throughout the range (the crash start's batches must not
// overshoot it).
func TestIterationLimitExact(t *testing.T) {
	p := newRDSInstance(30, 3, 3).problem()
	full := solve(t, p, solvers.Options{})
	for limit := 1; limit < full.Iterations; limit += max(1, full.Iterations/17) {
		sol := solve(t, p, solvers.Options{IterationLimit: limit})
		if sol.Iterations > limit {
			t.Errorf("limit %d: %d changes", limit, sol.Iterations)
		}
		if sol.Status != solvers.IterationLimit && sol.Status != solvers.Optimal {
			t.Errorf("limit %d: status %v", limit, sol.Status)
		}
		if sol.Status == solvers.Optimal && !near(sol.Objective, full.Objective, 1e-9) {
			t.Errorf("limit %d: optimal with objective %g, want %g", limit, sol.Objective, full.Objective)
		}
	}
}

// TestWarmStart checks that the working set of a solution, given back as a warm start,
// reproduces the optimum without further changes, that a warm start with statuses at
// infinite bounds and a shorter row list is accepted, and that a wrong (but valid) warm
// start still reaches the same optimum.
func TestWarmStart(t *testing.T) {
	d := dense{h: [][]float64{{2, 0, 0}, {0, 2, 0}, {0, 0, 2}}, c: []float64{-2, -5, 1},
		lo: []float64{0, 0, -inf}, up: []float64{inf, 1, inf},
		a: [][]float64{{1, 1, 0}, {1, 0, 1}}, rlo: []float64{-inf, -inf}, rup: []float64{1.5, 10}}
	p := d.problem()
	cold := solve(t, p, solvers.Options{})
	if cold.Status != solvers.Optimal {
		t.Fatal(cold.Status)
	}
	again := solve(t, p, solvers.Options{WarmStart: cold.Basis})
	if again.Status != solvers.Optimal || again.Iterations != 0 || !near(again.Objective, cold.Objective, 1e-12) {
		t.Errorf("warm start from the optimal working set: %v after %d changes, objective %g vs %g",
			again.Status, again.Iterations, again.Objective, cold.Objective)
	}
	wrong := &solvers.Basis{
		Cols: []solvers.BasisStatus{solvers.AtUpper, solvers.AtLower, solvers.AtLower}, // x0 has no upper bound, x2 no lower
		Rows: []solvers.BasisStatus{solvers.AtUpper},                                   // row 1 omitted
	}
	ws := solve(t, p, solvers.Options{WarmStart: wrong})
	if ws.Status != solvers.Optimal || !near(ws.Objective, cold.Objective, 1e-10) {
		t.Errorf("wrong warm start: %v, objective %g vs %g", ws.Status, ws.Objective, cold.Objective)
	}
	if r := checkKKT(p, ws); r.max() > 1e-9 {
		t.Errorf("KKT after a wrong warm start: %v", r)
	}
}
