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
