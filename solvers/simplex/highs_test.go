//go:build highs

package simplex_test

import (
	"context"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/highs"
	"github.com/coraopt/coraopt/solvers/simplex"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// TestPropertyAgainstHiGHS: on random feasible bounded LPs the simplex objective equals
// HiGHS's to 1e-7 (relative to max(1, |z|)), and x satisfies every row and bound within
// 1e-7.
func TestPropertyAgainstHiGHS(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p, _ := randomBoundedLP(t)
		ref, err := highs.New().Solve(context.Background(), p, solvers.Options{})
		if err != nil || ref.Status != solvers.Optimal {
			t.Fatalf("HiGHS: %v %v", ref.Status, err)
		}
		sol, err := simplex.New().Solve(context.Background(), p, solvers.Options{IterationLimit: 10000})
		if err != nil || sol.Status != solvers.Optimal {
			t.Fatalf("simplex: %v %v", sol.Status, err)
		}
		if err := solvertest.CheckPrimal(p, sol, strict); err != nil {
			t.Fatal(err)
		}
		if math.Abs(sol.Objective-ref.Objective) > 1e-7*math.Max(1, math.Abs(ref.Objective)) {
			t.Fatalf("objective %.12g, HiGHS %.12g", sol.Objective, ref.Objective)
		}
	})
}
