package qp

import (
	"context"
	"fmt"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

var rdsSizes = []int{10, 100, 1000}

// rdsBenchCase is one benchmark instance: the problem of interval t+1 and the shifted
// working set of interval t's solution (the warm start a controller has).
type rdsBenchCase struct {
	p    *model.Problem
	warm *solvers.Basis
}

func newRDSBenchCase(b *testing.B, jobs, horizon int) rdsBenchCase {
	r := newRDSInstance(jobs, horizon, 1)
	first := solve(b, r.problem(), solvers.Options{})
	if first.Status != solvers.Optimal {
		b.Fatalf("status %v", first.Status)
	}
	r.advance(first.X)
	return rdsBenchCase{p: r.problem(), warm: r.shiftBasis(first.Basis)}
}

// BenchmarkRDSShapedQP times one control-interval solve of the RDS receding-horizon QP
// (rds.txt eq. 3; see rdsInstance) with `jobs` jobs and horizon H = 3: 2·jobs·H
// variables, H capacity rows. "cold" starts from scratch, "warm" from the previous
// interval's shifted working set. The answer is checked against the KKT certificate once
// per sub-benchmark.
func BenchmarkRDSShapedQP(b *testing.B) {
	for _, jobs := range rdsSizes {
		c := newRDSBenchCase(b, jobs, 3)
		for _, mode := range []string{"cold", "warm"} {
			opt := solvers.Options{}
			if mode == "warm" {
				opt.WarmStart = c.warm
			}
			b.Run(fmt.Sprintf("jobs=%d,H=3,%s", jobs, mode), func(b *testing.B) {
				s := New()
				sol, err := s.Solve(context.Background(), c.p, opt)
				if err != nil || sol.Status != solvers.Optimal {
					b.Fatalf("status %v, err %v", sol.Status, err)
				}
				if k := checkKKT(c.p, sol); k.max() > 1e-7 {
					b.Fatalf("KKT: %v", k)
				}
				for b.Loop() {
					if _, err := s.Solve(context.Background(), c.p, opt); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(sol.Iterations), "changes/op")
			})
		}
	}
}
