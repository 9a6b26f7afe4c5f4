//go:build highs

package highs

import (
	"context"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// BenchmarkSmallLP times one solve of a 2×2 LP: the fixed cost of a HiGHS solve
// (create, pass, options, run, read, destroy).
func BenchmarkSmallLP(b *testing.B) {
	p := solvertest.LP2(model.Minimize)
	s := New()
	for b.Loop() {
		sol, err := s.Solve(context.Background(), p, solvers.Options{})
		if err != nil || sol.Status != solvers.Optimal {
			b.Fatal(err, sol.Status)
		}
	}
}
