package gonumlp_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/gonumlp"
)

// assignmentLP is the n×n assignment LP of the conformance suite (cost (π(i) − j)² + 1,
// π(i) = (7i + 3) mod n, optimum n): 2n equality rows of rank 2n − 1, n² columns.
func assignmentLP(b *testing.B, n int) *model.Problem {
	m := model.New(fmt.Sprintf("assignment%d", n))
	x := m.Vars2(n, n, 0, model.Inf, model.Continuous, "")
	var obj model.Expr
	for i := range n {
		pi := (7*i + 3) % n
		for j := range n {
			obj.AddTerm(x[i][j], float64((pi-j)*(pi-j)+1))
		}
		m.AddEq(model.Sum(x[i]...), 1, "")
	}
	for j := range n {
		var e model.Expr
		for i := range n {
			e.AddTerm(x[i][j], 1)
		}
		m.AddEq(e, 1, "")
	}
	m.Minimize(obj)
	p, err := m.Compile()
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkAssignment is the reference point for the built-in simplex (docs/design.md asks
// for ≥ 50× faster than gonum); run both in the same process and compare ratios.
func BenchmarkAssignment(b *testing.B) {
	for _, n := range []int{10, 20, 30} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			p := assignmentLP(b, n)
			s := gonumlp.New()
			for b.Loop() {
				sol, err := s.Solve(b.Context(), p, solvers.Options{})
				if err != nil || sol.Status != solvers.Optimal || math.Abs(sol.Objective-float64(n)) > 1e-6 {
					b.Fatalf("%v, %v", sol, err)
				}
			}
		})
	}
}
