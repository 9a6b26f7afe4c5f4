//go:build highs

package qp

import (
	"context"
	"flag"
	"fmt"
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/highs"
)

// highsLarge adds the 1000-job model to BenchmarkRDSShapedQPHiGHS: HiGHS 1.10 needed
// about 4 minutes for one solve of it (10,614 QP iterations), too long for `make bench`.
var highsLarge = flag.Bool("highs-large", false, "also time HiGHS on the 1000-job RDS-shaped QP (minutes per solve)")

// BenchmarkRDSShapedQPHiGHS is BenchmarkRDSShapedQP's reference: HiGHS (its QP solver)
// on the same models, cold (HiGHS takes no warm start for QPs through the basis). The
// 1000-job model only with -highs-large.
func BenchmarkRDSShapedQPHiGHS(b *testing.B) {
	for _, jobs := range rdsSizes {
		if jobs >= 1000 && !*highsLarge {
			continue
		}
		c := newRDSBenchCase(b, jobs, 3)
		b.Run(fmt.Sprintf("jobs=%d,H=3,cold", jobs), func(b *testing.B) {
			s := highs.New()
			sol, err := s.Solve(context.Background(), c.p, solvers.Options{})
			if err != nil || sol.Status != solvers.Optimal {
				b.Fatalf("status %v, err %v", sol.Status, err)
			}
			for b.Loop() {
				if _, err := s.Solve(context.Background(), c.p, solvers.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(sol.Iterations), "iterations/op")
		})
	}
}
