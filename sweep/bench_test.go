package sweep

import (
	"fmt"
	"testing"
)

// BenchmarkSweepWorkers runs the same 24-cell grid (cora 12 jobs and rush 8 jobs, three
// baselines, four seeds) on 1 and 2 workers; cells/s is the throughput, and the ratio
// of the two is the pool's scaling (the cells share nothing).
func BenchmarkSweepWorkers(b *testing.B) {
	s := loadTiny(b, "")
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("W=%d", w), func(b *testing.B) {
			cells := 0
			for b.Loop() {
				err := s.Run(b.Context(), RunOptions{Workers: w}, func(*Record) error { cells++; return nil })
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cells)/b.Elapsed().Seconds(), "cells/s")
		})
	}
}
