package simplex_test

import (
	"context"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/simplex"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// TestSessionAgreesWithSolve: a Session solving a random LP under a sequence of random
// bound changes (tightening, relaxing, fixing, crossing into infeasibility), warm from
// its last basis or from a given one, gives the status and optimum of a fresh Solve of
// the LP with those bounds, with a feasible point and a valid dual certificate.
func TestSessionAgreesWithSolve(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p, _ := randomBoundedLP(rt)
		ss, err := simplex.NewSession(p, solvers.Options{})
		if err != nil {
			rt.Fatal(err)
		}
		n := p.NumCols()
		var last *solvers.Basis
		for step := range rapid.IntRange(1, 6).Draw(rt, "steps") {
			q := p.Clone()
			if step > 0 {
				for range rapid.IntRange(1, 3).Draw(rt, "changes") {
					j := rapid.IntRange(0, n-1).Draw(rt, "col")
					lo, up := q.ColLower[j], q.ColUpper[j]
					base := 0.0
					if !math.IsInf(lo, 0) {
						base = lo
					} else if !math.IsInf(up, 0) {
						base = up
					}
					a := base + float64(rapid.IntRange(-3, 3).Draw(rt, "a"))
					b := a + float64(rapid.IntRange(0, 3).Draw(rt, "w"))
					q.ColLower[j], q.ColUpper[j] = a, b
				}
			}
			var warm *solvers.Basis
			if last != nil && rapid.Bool().Draw(rt, "givebasis") {
				warm = last
			}
			got, err := ss.Solve(context.Background(), q.ColLower, q.ColUpper, warm, 0)
			if err != nil {
				rt.Fatal(err)
			}
			want, err := simplex.New().Solve(context.Background(), q, solvers.Options{})
			if err != nil {
				rt.Fatal(err)
			}
			if got.Status != want.Status {
				rt.Fatalf("step %d: session %v, fresh solve %v", step, got.Status, want.Status)
			}
			if got.Status != solvers.Optimal {
				continue
			}
			if math.Abs(got.Objective-want.Objective) > 1e-7*math.Max(1, math.Abs(want.Objective)) {
				rt.Fatalf("step %d: session %.12g, fresh solve %.12g", step, got.Objective, want.Objective)
			}
			if err := solvertest.CheckPrimal(q, got, strict); err != nil {
				rt.Fatalf("step %d: %v", step, err)
			}
			if err := solvertest.CheckLPCertificate(q, got, strict); err != nil {
				rt.Fatalf("step %d: %v", step, err)
			}
			last = got.Basis
		}
	})
}
