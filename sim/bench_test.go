package sim_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/coraopt/coraopt/internal/cputime"
	"github.com/coraopt/coraopt/policies/fifo"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// BenchmarkSimulate replays a generated cora workload (cora.txt §III-C shapes: about
// 100 tasks per job, 40 containers) under FIFO and reports events per second — the
// docs/design.md target is ≥ 1,000,000 on one core for the 100,000-job trace.
func BenchmarkSimulate(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		w, err := workload.CORAWorkload(n, 1)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("fifo/jobs=%d", n), func(b *testing.B) {
			events := 0
			cpu0 := cputime.Process()
			b.ResetTimer()
			for b.Loop() {
				r, err := sim.Run(context.Background(), w, fifo.New(), sim.Options{Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				events += r.Events
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			// On a shared machine the wall clock counts other processes' time too.
			if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
				b.ReportMetric(float64(events)/cpu, "events/cpu-s")
			}
			b.ReportMetric(float64(events)/float64(b.N), "events/op")
		})
	}
}

// BenchmarkBound computes the offline bound (lexmax and sum) of generated cora
// workloads of 10³–10⁵ jobs at 60 s slots, as `coraopt simulate --bound --slot 60`
// does, and reports the relaxation's slots and CPU time per run. The horizon reaches
// the end of a FIFO replay of the same trace (run once per size, outside the timing).
// The growth exponent over the sizes is what internal/bench's scaling report fits.
func BenchmarkBound(b *testing.B) {
	for _, n := range []int{1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000} {
		w, err := workload.CORAWorkload(n, 1)
		if err != nil {
			b.Fatal(err)
		}
		r, err := sim.Run(context.Background(), w, fifo.New(), sim.Options{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("cora/jobs=%d", n), func(b *testing.B) {
			var res *sim.BoundResult
			cpu0 := cputime.Process()
			b.ResetTimer()
			for b.Loop() {
				if res, err = sim.Bound(context.Background(), w, 1, 60, r.Makespan); err != nil {
					b.Fatal(err)
				}
			}
			if cpu := cputime.Process() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
			if !res.Exact {
				b.Fatalf("the lexmax is not proven (%s)", res.Method)
			}
			b.ReportMetric(float64(res.Slots), "slots")
			if res.SumBoundMethod != "transportation" {
				b.ReportMetric(0, "sum-transportation")
			} else {
				b.ReportMetric(1, "sum-transportation")
			}
		})
	}
}
