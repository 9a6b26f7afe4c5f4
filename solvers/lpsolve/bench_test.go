//go:build lpsolve

package lpsolve

import (
	"context"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// BenchmarkSmallLP times one solve of a 2×2 LP: the fixed cost of a lp_solve solve
// (make_lp, load, solve, the dual re-solve, delete_lp).
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
