package tas

import (
	"context"
	"fmt"
	"testing"

	"github.com/coraopt/coraopt/internal/cputime"
	"github.com/coraopt/coraopt/workload"
)

// BenchmarkOnionPeelArrivals times OnionPeel (deadlines, levels, layers; no schedule) on
// issue 23's release-time family, workload.Arrivals: sigmoid utilities, releases
// U{1..T/2}, T = max(200, n/10), C = n/20, without and with max_parallel. Besides ns/op
// (wall time, inflated when other processes share the cores) it reports cpu-ns/op, the
// layers and the engine's work.
func BenchmarkOnionPeelArrivals(b *testing.B) {
	cases := []struct {
		n      int
		capped bool
	}{
		{1000, false}, {10000, false}, {100000, false},
		{1000, true}, {10000, true}, {100000, true},
	}
	for _, c := range cases {
		name := fmt.Sprintf("release/N=%d", c.n)
		if c.capped {
			name = fmt.Sprintf("release-maxpar/N=%d", c.n)
		}
		b.Run(name, func(b *testing.B) {
			in, err := workload.Arrivals(c.n, c.capped, 1)
			if err != nil {
				b.Fatal(err)
			}
			var res *Result
			cpu0 := cputime.Process()
			for b.Loop() {
				if res, err = OnionPeel(context.Background(), in, Options{NoSchedule: true}); err != nil {
					b.Fatal(err)
				}
			}
			cpu := cputime.Process() - cpu0
			if res.Stats.Engine == "layers" {
				b.Fatalf("the layered engine ran (%s)", res.Stats.HandOver)
			}
			if cpu > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
			b.ReportMetric(float64(len(res.Layers)), "layers")
			b.ReportMetric(float64(res.Stats.BlockingSlots), "deciding-slots")
			b.ReportMetric(float64(res.Stats.Evaluations), "evals")
			b.ReportMetric(float64(res.Stats.Rollbacks), "rollbacks")
		})
	}
}

// BenchmarkLayeredArrivals times the layered engine, the reference, on the same family
// at sizes it finishes in seconds: the ratio to BenchmarkOnionPeelArrivals in the same
// run is what the fast engines buy.
func BenchmarkLayeredArrivals(b *testing.B) {
	for _, c := range []struct {
		n      int
		capped bool
	}{{1000, false}, {200, true}} {
		name := fmt.Sprintf("release/N=%d", c.n)
		if c.capped {
			name = fmt.Sprintf("release-maxpar/N=%d", c.n)
		}
		b.Run(name, func(b *testing.B) {
			in, err := workload.Arrivals(c.n, c.capped, 1)
			if err != nil {
				b.Fatal(err)
			}
			cpu0 := cputime.Process()
			for b.Loop() {
				if _, err := OnionPeel(context.Background(), in, Options{NoSchedule: true, Layered: true}); err != nil {
					b.Fatal(err)
				}
			}
			if cpu := cputime.Process() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
