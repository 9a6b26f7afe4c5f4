//go:build highs

package rtmr

import (
	"context"
	"slices"
	"testing"
	"time"

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
				res, err := SolveExact(context.Background(), in, sv, solvers.Options{TimeLimit: time.Minute})
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
