//go:build highs

package cora

import (
	"context"
	"sync"
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/highs"
)

// BenchmarkSolveFinal solves FINAL for 100 jobs × 40 slots × 1 resource (cora.txt §III:
// Mosek's simplex took 347 ms on average) with HiGHS; BuildAndCompile is the reference
// measured in the same run. The numerics guard's verdict is logged once.
func BenchmarkSolveFinal(b *testing.B) {
	in := paperInstance(b, 1, 100, 40, 40)
	lp, err := BuildFinal(in, Options{})
	if err != nil {
		b.Fatal(err)
	}
	p, err := lp.Model.Compile()
	if err != nil {
		b.Fatal(err)
	}
	logOnce.Do(func() {
		b.Logf("FINAL %d×%d×%d: %d columns, %d rows; scale %g, k %g; guard OK=%v: %s",
			len(in.Jobs), in.Horizon, len(in.Resources), p.NumCols(), p.NumRows(), lp.Utilities.Scale, lp.K, lp.Numerics.OK, lp.Numerics.Warning)
	})
	b.Run("BuildAndCompile", func(b *testing.B) {
		for b.Loop() {
			lp, err := BuildFinal(in, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := lp.Model.Compile(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("HiGHS", func(b *testing.B) {
		s := highs.New()
		for b.Loop() {
			sol, err := s.Solve(context.Background(), p, solvers.Options{})
			if err != nil || sol.Status != solvers.Optimal {
				b.Fatalf("%v %v", err, sol)
			}
		}
	})
}

var logOnce sync.Once
