package qp

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"pgregory.net/rapid"
)

// randomQP draws a feasible convex QP together with a feasible point x0.
//
//   - H is block diagonal over a random partition of the variables, each block BᵀB
//     (+ δI when strict), so both the block machinery and coupling are exercised;
//   - singular (strict false) problems get finite bounds on every variable so that they
//     stay bounded;
//   - row coefficients have magnitudes in [0.1, 2] (see below);
//   - bounds and rows are placed around A·x0 with random kinds (free, ≤, ≥, ranged, =);
//   - a maximization negates the objective.
func randomQP(t *rapid.T, strict bool) (*model.Problem, []float64) {
	n := rapid.IntRange(1, 10).Draw(t, "n")
	m := rapid.IntRange(0, 8).Draw(t, "m")
	f := func(lo, hi float64, label string) float64 { return rapid.Float64Range(lo, hi).Draw(t, label) }
	x0 := make([]float64, n)
	for j := range x0 {
		x0[j] = f(-3, 3, "x0")
	}
	h := make([][]float64, n)
	for i := range h {
		h[i] = make([]float64, n)
	}
	// Random partition into consecutive blocks.
	for s := 0; s < n; {
		size := rapid.IntRange(1, n-s).Draw(t, "block")
		rank := size
		if !strict {
			rank = rapid.IntRange(0, size).Draw(t, "rank")
		}
		b := make([][]float64, rank)
		for k := range b {
			b[k] = make([]float64, size)
			for l := range b[k] {
				b[k][l] = f(-2, 2, "B")
			}
		}
		for i := range size {
			for j := range size {
				for k := range rank {
					h[s+i][s+j] += b[k][i] * b[k][j]
				}
			}
			if strict {
				h[s+i][s+i] += f(0.01, 1, "delta")
			}
		}
		s += size
	}
	d := dense{h: h, c: make([]float64, n), lo: make([]float64, n), up: make([]float64, n)}
	for j := range n {
		d.c[j] = f(-5, 5, "c")
		kind := rapid.IntRange(0, 4).Draw(t, "colkind")
		if !strict && kind < 3 {
			kind = 3
		}
		lo, up := x0[j]-f(0, 2, "dlo"), x0[j]+f(0, 2, "dup")
		switch kind {
		case 0:
			lo, up = -inf, inf
		case 1:
			up = inf
		case 2:
			lo = -inf
		case 4:
			lo, up = x0[j], x0[j]
		}
		d.lo[j], d.up[j] = lo, up
	}
	for range m {
		row := make([]float64, n)
		ax := 0.0
		for j := range n {
			if rapid.IntRange(0, 2).Draw(t, "nz") > 0 {
				// Magnitudes in [0.1, 2]: the solver does not scale, and a row whose
				// coefficients span ten orders of magnitude decides feasibility by rounding.
				row[j] = f(0.1, 2, "a")
				if rapid.Bool().Draw(t, "neg") {
					row[j] = -row[j]
				}
				ax += row[j] * x0[j]
			}
		}
		lo, up := ax-f(0, 1, "rlo"), ax+f(0, 1, "rup")
		switch rapid.IntRange(0, 4).Draw(t, "rowkind") {
		case 0:
			lo = -inf
		case 1:
			up = inf
		case 3:
			lo, up = ax, ax
		case 4:
			// active at x0 on one side: ties and degeneracy
			lo = ax
		}
		d.a = append(d.a, row)
		d.rlo = append(d.rlo, lo)
		d.rup = append(d.rup, up)
	}
	if rapid.Bool().Draw(t, "maximize") {
		d.sense = model.Maximize
		for i := range n {
			d.c[i] = -d.c[i]
			for j := range n {
				d.h[i][j] = -d.h[i][j]
			}
		}
	}
	return d.problem(), x0
}

func checkRandom(t *rapid.T, strict bool) {
	p, x0 := randomQP(t, strict)
	sol, err := New().Solve(context.Background(), p, solvers.Options{})
	if err != nil {
		t.Fatalf("Solve: %v\n%s", err, dump(p))
	}
	if sol.Status != solvers.Optimal {
		t.Fatalf("status %v on a feasible bounded problem\n%s", sol.Status, dump(p))
	}
	if r := checkKKT(p, sol); r.max() > 1e-7 {
		t.Fatalf("KKT violated: %v\n%s\nx=%v\ny=%v\nd=%v", r, dump(p), sol.X, sol.RowDual, sol.ReducedCost)
	}
	// x0 is feasible, so the optimum is at least as good.
	f0 := p.Objective(x0)
	if float64(p.Sense)*(sol.Objective-f0) > 1e-7*max(1, math.Abs(f0)) {
		t.Fatalf("objective %g worse than the feasible point's %g\n%s\nx=%v\nx0=%v\ny=%v\nd=%v\nKKT %v", sol.Objective, f0, dump(p), sol.X, x0, sol.RowDual, sol.ReducedCost, checkKKT(p, sol))
	}
}

func TestRandomStrictlyConvexKKT(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkRandom(t, true) })
}

func TestRandomSingularKKT(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkRandom(t, false) })
}

// dump prints a problem for failure messages.
func dump(p *model.Problem) string {
	return fmt.Sprintf("sense %v\nc %v\nlo %v\nup %v\nrlo %v\nrup %v\nA %v %v %v\nQ %v %v %v",
		p.Sense, p.ColCost, p.ColLower, p.ColUpper, p.RowLower, p.RowUpper, p.AStart, p.AIndex, p.AValue, p.QStart, p.QIndex, p.QValue)
}
