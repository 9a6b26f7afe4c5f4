package tas

import (
	"context"
	"fmt"
	"testing"

	"github.com/coraopt/coraopt/workload"
)

func BenchmarkArrivalsProfile(b *testing.B) {
	for _, n := range []int{2000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			in, err := workload.Arrivals(n, false, 1)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				res, err := OnionPeel(context.Background(), in, Options{NoSchedule: true})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(res.Layers)), "layers")
				b.ReportMetric(float64(res.Stats.Probes), "probes")
			}
		})
	}
}
