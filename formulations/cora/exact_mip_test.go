//go:build highs || lpsolve

package cora

import (
	"context"
	"math"
	"testing"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/lexmax"
	"github.com/coraopt/coraopt/sched/schedtest"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/all"
	"pgregory.net/rapid"
)

// TestExactMatchesMIP cross-checks Exact (onion peeling) against the TAS time-indexed MIP
// (tas.BuildMIP) solved lexicographically by package lexmax with every MIP backend
// compiled in, on small instances with two resources, varying capacity, release,
// max_parallel and all utility families. The MIP asks Σ_t x ≥ η; its schedule trimmed
// to Σ_t x = R must be feasible for CORA and have the same sorted utilities.
func TestExactMatchesMIP(t *testing.T) {
	cfg := schedtest.Config{MaxJobs: 4, MaxSlots: 5, MaxCapacity: 3, MaxResources: 2, VaryingCapacity: true,
		Release: true, MaxParallel: true, Utilities: []string{"table", "sigmoid", "linear", "step", "piecewise"}}
	ran := 0
	for _, name := range []string{"highs", "lpsolve"} {
		sv, err := solvers.Get(name)
		if err != nil {
			continue // built with the other tag only
		}
		ran++
		t.Run(name, func(t *testing.T) {
			solves, instances, withinSlack := 0, 0, 0
			defer func() {
				t.Logf("%d instances, %d MIP solves; %d differed from onion peeling within lexmax's resolution", instances, solves, withinSlack)
			}()
			rapid.Check(t, func(rt *rapid.T) {
				in := schedtest.Instance(rt, cfg)
				ex, err := Exact(context.Background(), in, tas.Options{})
				if err != nil {
					rt.Fatal(err)
				}
				checkDemandEquality(rt, in, ex.Schedule)
				mip, err := tas.BuildMIP(in)
				if err != nil {
					rt.Fatal(err)
				}
				res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: mip.Model, Outcomes: mip.Outcomes}, sv, lexmax.Options{})
				if err != nil {
					rt.Fatal(err)
				}
				solves += res.Solves
				instances++
				s, err := mip.Decode(res.Solution.X)
				if err != nil {
					rt.Fatal(err)
				}
				if _, err := trimToDemand(in, s); err != nil {
					rt.Fatalf("MIP schedule: %v", err)
				}
				s.Finalize(in)
				checkDemandEquality(rt, in, s)
				// The MIP's schedule is a real CORA schedule, so it cannot beat the exact
				// lexmax. lexmax resolves values to its tolerance (Result.Tol), so the MIP's
				// vector may fall below the optimum by that much at its first difference
				// (and then rise after it), never by more.
				switch k := firstDiff(s.Sorted, ex.Schedule.Sorted); {
				case k < 0:
				case s.Sorted[k] > ex.Schedule.Sorted[k]:
					rt.Fatalf("MIP by lexmax with %s: %v beats onion peeling's %v (exact %v)", name, s.Sorted, ex.Schedule.Sorted, ex.Schedule.Exact)
				case ex.Schedule.Sorted[k]-s.Sorted[k] > lexmaxResolution(res, ex.Schedule.Sorted[k], len(s.Sorted)):
					rt.Fatalf("MIP by lexmax with %s: %v, onion peeling %v: below by more than lexmax's resolution %g", name, s.Sorted, ex.Schedule.Sorted,
						lexmaxResolution(res, ex.Schedule.Sorted[k], len(s.Sorted)))
				default:
					withinSlack++
				}
			})
		})
	}
	if ran == 0 {
		t.Fatal("no MIP backend compiled in")
	}
}

// lexmaxResolution is how far below the optimum lexmax may leave an outcome at v: the
// freeze slack summed over n prefix steps, or the tolerance within which the
// ordered-values form ranks two values as one.
func lexmaxResolution(res *lexmax.Result, v float64, n int) float64 {
	return max(float64(n)*res.Tol.MaxSlack, res.Tol.Abs+res.Tol.Rel*math.Abs(v)) + 1e-12
}

// firstDiff is the first index where a and b (of equal length) differ, or -1.
func firstDiff(a, b []float64) int {
	for k := range min(len(a), len(b)) {
		if a[k] != b[k] {
			return k
		}
	}
	return -1
}
