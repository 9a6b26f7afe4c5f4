package lexmax_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/lexmax"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

func dualBackends(t *testing.T) []solvers.Solver {
	t.Helper()
	var out []solvers.Solver
	for _, s := range backends(t, false) {
		if s.(solvers.Describer).Capabilities().Duals {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		t.Fatal("no backend with duals registered")
	}
	return out
}

// TestDegenerateDualsMissASaturatedOutcome shows on every backend with duals that
// "saturated ⇔ nonzero dual" is wrong on the degenerate model (the duals of the max-t LP
// leave one of the two saturated outcomes at zero, as every basic dual must), and that
// lexmax's Duals test, which probes zero duals at degenerate vertices, still freezes both
// at the first level and returns the lexmax.
func TestDegenerateDualsMissASaturatedOutcome(t *testing.T) {
	degenerate := degenerateLP()
	want := lpOracle(degenerate)
	if maxDiff(want, []float64{1, 1, 2}) > 1e-9 {
		t.Fatalf("oracle: %v, want [1 1 2]", want)
	}
	for _, s := range dualBackends(t) {
		t.Run(s.Name(), func(t *testing.T) {
			// The max-t LP alone, as a user of duals would write it.
			m, outs := degenerate.build()
			tv := m.Continuous(math.Inf(-1), math.Inf(1), "t")
			var rows []model.Constr
			for _, u := range outs {
				rows = append(rows, m.AddGe(u.Minus(tv.E()), 0, ""))
			}
			m.Maximize(tv.E())
			p, err := m.Compile()
			if err != nil {
				t.Fatal(err)
			}
			sol, err := s.Solve(context.Background(), p, solvers.Options{})
			if err != nil || sol.Status != solvers.Optimal || math.Abs(sol.Objective-1) > 1e-9 {
				t.Fatalf("max-t LP: %v, %+v", err, sol)
			}
			var nonzero []int
			sum := 0.0
			for i, r := range rows {
				d := math.Abs(sol.RowDual[r.Index()])
				sum += d
				if d > 1e-6 {
					nonzero = append(nonzero, i)
				}
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("level-row duals sum to %g, want 1", sum)
			}
			if len(nonzero) != 1 || nonzero[0] > 1 {
				t.Fatalf("nonzero duals on outcomes %v; every basic optimal dual has exactly one of outcomes 0, 1 (see testdata/degenerate_duals.md)", nonzero)
			}
			other := 1 - nonzero[0]
			// "Zero dual ⇒ can rise" says outcome `other` can exceed 1. A probe says no.
			probe, _ := degenerate.build()
			pv := probe.VarAt(other)
			for j := range 3 {
				if j != other {
					probe.AddGe(probe.VarAt(j).E(), 1, "")
				}
			}
			probe.Maximize(pv.E())
			pp, err := probe.Compile()
			if err != nil {
				t.Fatal(err)
			}
			ps, err := s.Solve(context.Background(), pp, solvers.Options{})
			if err != nil || ps.Status != solvers.Optimal || ps.Objective > 1+1e-9 {
				t.Fatalf("probe of outcome %d: %v %+v, want it stuck at 1", other, err, ps)
			}

			// lexmax with the Duals test: right answer, degeneracy noticed, both
			// saturated outcomes frozen at the first level.
			m2, outs2 := degenerate.build()
			res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m2, Outcomes: outs2}, s,
				lexmax.Options{Method: lexmax.WaterFill, Saturation: lexmax.Duals})
			if err != nil {
				t.Fatal(err)
			}
			if d := maxDiff(res.Sorted, want); d > cmpTol {
				t.Errorf("lexmax sorted %v, want %v", res.Sorted, want)
			}
			maxmin, probes := countSteps(res, "maxmin"), countSteps(res, "probe")
			if maxmin != 2 || probes < 1 || probes > 2 {
				t.Errorf("%d max-t solves and %d probes, want 2 and 1..2 (steps %+v)", maxmin, probes, res.Steps)
			}
			if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "degenerate") }) {
				t.Errorf("notes %q do not mention the degenerate vertex", res.Notes)
			}
		})
	}
}

// TestNondegenerateDualsDecideAlone: at a nondegenerate max-t vertex the dual is unique,
// so the Duals test decides every outcome without a probe (one solve per level), where
// Probe needs a probe per outcome the solution does not already show raisable.
func TestNondegenerateDualsDecideAlone(t *testing.T) {
	// x1 + x2 ≤ 2, x ∈ [0, 10]², outcomes x1, x2: t* = 1 at a vertex with x1, x2, t (and
	// lexmax's y1, y2) strictly inside their bounds and every row tight; duals (½, ½).
	d := denseLP{Lo: []float64{0, 0}, Hi: []float64{10, 10}, A: [][]float64{{1, 1}}, B: []float64{2},
		U: [][]float64{{1, 0}, {0, 1}}, C: []float64{0, 0}}
	for _, s := range dualBackends(t) {
		t.Run(s.Name(), func(t *testing.T) {
			m, outs := d.build()
			res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s,
				lexmax.Options{Method: lexmax.WaterFill, Saturation: lexmax.Duals})
			if err != nil {
				t.Fatal(err)
			}
			if maxDiff(res.Sorted, []float64{1, 1}) > cmpTol || res.Solves != 1 {
				t.Errorf("sorted %v in %d solves, want [1 1] in 1 (notes %q)", res.Sorted, res.Solves, res.Notes)
			}
			m, outs = d.build()
			res, err = lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s,
				lexmax.Options{Method: lexmax.WaterFill, Saturation: lexmax.Probe})
			if err != nil {
				t.Fatal(err)
			}
			if maxDiff(res.Sorted, []float64{1, 1}) > cmpTol || res.Solves != 3 {
				t.Errorf("probe: sorted %v in %d solves, want [1 1] in 3", res.Sorted, res.Solves)
			}
		})
	}
}

func countSteps(res *lexmax.Result, kind string) int {
	n := 0
	for _, s := range res.Steps {
		if s.Kind == kind {
			n++
		}
	}
	return n
}
