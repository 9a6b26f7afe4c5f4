//go:build highs

package cora

import (
	"context"
	"fmt"
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/highs"
)

// BenchmarkSolveFinalSizes times HiGHS on FINAL at several sizes around the paper's
// (cora.txt §III: 100 jobs × 40 slots, Mosek 347 ms; docs/design.md's target ≤ 300 ms with
// HiGHS), jobs=n,slots=T, on paperInstance (capacity 40, seed 1), so that the growth
// with jobs and slots is visible next to BenchmarkSolveFinal/HiGHS. The model is built
// and compiled once per size; each iteration is one solve, which must be optimal.
func BenchmarkSolveFinalSizes(b *testing.B) {
	for _, size := range []struct{ n, T int }{{25, 40}, {50, 40}, {100, 40}, {200, 40}, {100, 80}} {
		b.Run(fmt.Sprintf("jobs=%d,slots=%d", size.n, size.T), func(b *testing.B) {
			in := paperInstance(b, 1, size.n, size.T, 40)
			lp, err := BuildFinal(in, Options{})
			if err != nil {
				b.Fatal(err)
			}
			p, err := lp.Model.Compile()
			if err != nil {
				b.Fatal(err)
			}
			s := highs.New()
			cpu0 := cpuTime()
			iters := 0
			for b.Loop() {
				sol, err := s.Solve(context.Background(), p, solvers.Options{})
				if err != nil || sol.Status != solvers.Optimal {
					b.Fatalf("%v %v", err, sol)
				}
				iters = sol.Iterations
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(p.NumCols()), "columns")
			b.ReportMetric(float64(iters), "iters")
		})
	}
}
