//go:build highs

package cora

import (
	"context"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coraopt/coraopt/formulations/tas"
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
		res, err := lp.Solve(context.Background(), highs.New(), solvers.Options{})
		if err != nil || res.Decoded == nil || res.Decoded.Schedule == nil {
			b.Fatalf("solve: %v %+v", err, res)
		}
		ex, err := Exact(context.Background(), in, tas.Options{})
		if err != nil {
			b.Fatal(err)
		}
		c := lp.Compare(res.Decoded.Schedule, ex.Schedule)
		b.Logf("FINAL vs exact CORA: agree=%v; min utility %.4g vs %.4g; sum %.4g vs %.4g; cells %d vs %d; %s",
			c.Agree, res.Decoded.Schedule.Min, ex.Schedule.Min, res.Decoded.Schedule.Sum, ex.Schedule.Sum, c.LPCells, c.ExactCells, c.Detail)
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
		cpu0 := cpuTime()
		for b.Loop() {
			sol, err := s.Solve(context.Background(), p, solvers.Options{})
			if err != nil || sol.Status != solvers.Optimal {
				b.Fatalf("%v %v", err, sol)
			}
		}
		// The machine is shared: CPU time per solve is steadier than wall time.
		b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
	})
}

var logOnce sync.Once

// cpuTime is the process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
