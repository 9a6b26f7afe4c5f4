//go:build highs

package rtmr

import (
	"context"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/highs"
)

// The exact MIP, solved by HiGHS, finds the brute-force optimum, and the set it picks is
// feasible by the independent search.
func TestExactMIPMatchesBruteForceHiGHS(t *testing.T) {
	sv, err := solvers.Get("highs")
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
			rt.Fatalf("MIP optimum %d, brute force %d, instance %+v", res.Count, best, in)
		}
		if !feasibleSet(in, res.Accepted) {
			rt.Fatalf("the MIP's set %v is infeasible for %+v", res.Accepted, in)
		}
	})
}
