//go:build highs

package rtmr

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/all"
)

// The exact MIP, solved by every MIP-capable backend compiled in (HiGHS at least, which
// this build tag requires), finds the brute-force optimum, and the set it picks is
// feasible by the independent search.
func TestExactMIPMatchesBruteForce(t *testing.T) {
	var names []string
	for _, n := range solvers.Names() {
		sv, err := solvers.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := sv.(solvers.Describer); ok && d.Capabilities().MIP {
			names = append(names, n)
		}
	}
	if !slices.Contains(names, "highs") {
		t.Fatalf("built with tag highs but no MIP-capable highs backend among %v", solvers.Names())
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			sv, err := solvers.Get(name)
			if err != nil {
				t.Fatal(err)
			}
			rapid.Check(t, func(rt *rapid.T) {
				in := exactOf(rt, tinyWorkload(rt))
				res, err := SolveExact(context.Background(), in, sv, solvers.Options{})
				if err != nil {
					rt.Fatal(err)
				}
				if best := bruteMax(in); res.Count != best {
					rt.Fatalf("%s: MIP optimum %d, brute force %d, instance %+v", name, res.Count, best, in)
				}
				if !feasibleSet(in, res.Accepted) {
					rt.Fatalf("%s: the MIP's set %v is infeasible for %+v", name, res.Accepted, in)
				}
			})
		})
	}
}

// TestExactGapMIP scores RTMR against the optimum on 150 seeded instances of up to 10
// jobs on up to 4 map and 3 reduce slots, too large for brute force, solved by HiGHS (run
// with -v for the figures). True runtimes equal the estimates. RTMR never exceeds it.
func TestExactGapMIP(t *testing.T) {
	sv, err := solvers.Get("highs")
	if err != nil {
		t.Fatal(err)
	}
	n := 150
	if testing.Short() {
		n = 20
	}
	z := smallSize{maxL: 4, maxQ: 3, maxJobs: 10, maxGap: 3, maxTasks: 4, maxTime: 4, maxDeadline: 30}
	opts := []SchedulerConfig{{Feedback: true}, {}}
	got := make([]int, len(opts))
	short := make([]int, len(opts))
	best, jobs := 0, 0
	rng := rand.New(rand.NewPCG(20, 10))
	draw := func(lo, hi int, _ string) int { return lo + rng.IntN(hi-lo+1) }
	for range n {
		w := smallFrom(draw, z)
		in := exactOf(t, w)
		res, err := SolveExact(context.Background(), in, sv, solvers.Options{})
		if err != nil {
			t.Fatal(err)
		}
		best += res.Count
		jobs += len(w.Jobs)
		for k, opt := range opts {
			o := drive(t, w, mustNew(t, w.Cluster, opt))
			if o.accepted > res.Count {
				t.Fatalf("RTMR accepted %d > optimum %d on %+v", o.accepted, res.Count, in)
			}
			got[k] += o.accepted
			if o.accepted < res.Count {
				short[k]++
			}
		}
	}
	for k, opt := range opts {
		t.Logf("%s: accepted %d of %d jobs, optimum %d (%.1f%%); below it on %d of %d instances",
			mustNew(t, oneWorker(1, 1), opt).Name(), got[k], jobs, best, 100*float64(got[k])/float64(best), short[k], n)
	}
}
