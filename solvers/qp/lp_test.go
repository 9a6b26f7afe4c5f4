package qp

import (
	"context"
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/gonumlp"
	"pgregory.net/rapid"
)

// TestRandomLPAgainstGonum solves random LPs (Q = 0, the proximal path) and compares the
// status and objective with gonum's simplex, an independent implementation; optima also
// pass the KKT certificate. Unlike randomQP, bounds may be infinite, so unbounded and
// infeasible LPs occur; they must be classified as gonum classifies them.
func TestRandomLPAgainstGonum(t *testing.T) {
	seen := map[solvers.Status]int{}
	defer func() {
		t.Logf("statuses: %v", seen)
		for _, st := range []solvers.Status{solvers.Optimal, solvers.Infeasible, solvers.Unbounded} {
			if seen[st] == 0 && !t.Failed() {
				t.Errorf("the generator produced no %v LP; the comparison is one-sided", st)
			}
		}
	}()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 7).Draw(t, "n")
		m := rapid.IntRange(0, 6).Draw(t, "m")
		small := func(label string) float64 { return float64(rapid.IntRange(-4, 4).Draw(t, label)) }
		d := dense{c: make([]float64, n), lo: make([]float64, n), up: make([]float64, n)}
		for j := range n {
			d.c[j] = small("c")
			switch rapid.IntRange(0, 3).Draw(t, "colkind") {
			case 0:
				d.lo[j], d.up[j] = 0, inf
			case 1:
				d.lo[j], d.up[j] = small("lo"), inf
				d.up[j] = d.lo[j] + float64(rapid.IntRange(0, 5).Draw(t, "width"))
			case 2:
				d.lo[j], d.up[j] = -inf, small("up")
			default:
				d.lo[j], d.up[j] = -inf, inf
			}
		}
		for range m {
			row := make([]float64, n)
			for j := range row {
				row[j] = small("a")
			}
			lo, up := small("rlo"), inf
			switch rapid.IntRange(0, 3).Draw(t, "rowkind") {
			case 1:
				lo, up = -inf, lo
			case 2:
				up = lo
			case 3:
				up = lo + float64(rapid.IntRange(0, 4).Draw(t, "rwidth"))
			}
			d.a = append(d.a, row)
			d.rlo = append(d.rlo, lo)
			d.rup = append(d.rup, up)
		}
		if rapid.Bool().Draw(t, "maximize") {
			d.sense = model.Maximize
		}
		p := d.problem()
		ref, err := gonumlp.New().Solve(context.Background(), p, solvers.Options{})
		if err != nil || ref.Status == solvers.NumericalError || ref.Status == solvers.Other {
			t.Skipf("reference could not decide: %v %v", err, ref)
		}
		sol, err := New().Solve(context.Background(), p, solvers.Options{})
		if err != nil {
			t.Fatalf("Solve: %v\n%s", err, dump(p))
		}
		if sol.Status != ref.Status {
			t.Fatalf("status %v, gonum %v\n%s", sol.Status, ref.Status, dump(p))
		}
		seen[sol.Status]++
		if sol.Status != solvers.Optimal {
			return
		}
		if math.Abs(sol.Objective-ref.Objective) > 1e-7*max(1, math.Abs(ref.Objective)) {
			t.Fatalf("objective %.12g, gonum %.12g\n%s", sol.Objective, ref.Objective, dump(p))
		}
		if r := checkKKT(p, sol); r.max() > 1e-7 {
			t.Fatalf("KKT: %v\n%s", r, dump(p))
		}
	})
}
