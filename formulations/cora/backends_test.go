//go:build highs || lpsolve

package cora

import (
	"context"
	"math"
	"testing"

	"github.com/coraopt/coraopt/sched/schedtest"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/all"
	"pgregory.net/rapid"
)

// lpBackends returns every registered backend that solves LPs.
func lpBackends(t *testing.T) []solvers.Solver {
	t.Helper()
	var out []solvers.Solver
	for _, name := range solvers.Names() {
		s, err := solvers.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := s.(solvers.Describer); ok && !d.Capabilities().LP {
			continue
		}
		out = append(out, s)
	}
	if len(out) < 3 {
		t.Fatalf("LP backends %v: want at least gonum and the cgo ones", solvers.Names())
	}
	return out
}

// nonVertex names the backends whose LP optimum need not be a vertex: qp is the
// Goldfarb–Idnani dual active-set method, which can stop inside an optimal face. Lemma 2
// makes the vertices of FINAL integral in x, not every optimal point, so on an LP with
// tied optima these backends may return fractional x legitimately.
var nonVertex = map[string]bool{"qp": true}

// TestBackendsAgree solves FINAL and Linearized-CORA of random small instances with every
// LP backend in this binary. All must find the same optimal objective, integral x, and
// the same cell vector F_X — the invariant of the optimum (eq. (6) orders schedules by it,
// Lemma 1). The completion-time vectors may differ between optima: several allocations
// can have the same F_X, and the test reports how often they did.
func TestBackendsAgree(t *testing.T) {
	backends := lpBackends(t)
	var solved, sameSorted, fractional int
	rapid.Check(t, func(rt *rapid.T) {
		in := schedtest.Instance(rt, smallConfig)
		final, err := BuildFinal(in, Options{})
		if err != nil {
			rt.Fatal(err)
		}
		if !final.Numerics.OK {
			rt.Skipf("weights beyond float64: %s", final.Numerics.Warning)
		}
		lin, err := BuildLinearized(in, Options{})
		if err != nil {
			rt.Fatal(err)
		}
		ref := solveWith(rt, final, backends[0]) // gonum: a vertex method
		refCells := final.CellVector(ref.Decoded.Schedule)
		all := true
		for _, lp := range []*LP{final, lin} {
			for _, s := range backends {
				res, err := lp.Solve(context.Background(), s, solvers.Options{})
				if err != nil || res.Status != solvers.Optimal {
					rt.Fatalf("%s with %s: %v %v", lp.Formulation, s.Name(), err, res)
				}
				if math.Abs(res.Objective-ref.Objective) > 1e-9*math.Max(1, ref.Objective) {
					rt.Fatalf("%s with %s: objective %v; %s with %s: %v", lp.Formulation, s.Name(), res.Objective, final.Formulation, backends[0].Name(), ref.Objective)
				}
				if res.Decoded.Schedule == nil {
					if !nonVertex[s.Name()] {
						rt.Fatalf("%s with %s: fractional x at a vertex (Lemma 2 / Theorem 1 claim integral): %+v", lp.Formulation, s.Name(), res.Decoded.Fractional)
					}
					fractional++
					continue
				}
				if cv := lp.CellVector(res.Decoded.Schedule); CompareCells(cv, refCells) != 0 {
					rt.Fatalf("%s with %s: cell vector %v, reference %v", lp.Formulation, s.Name(), cv, refCells)
				}
				if CompareSortedExact(res.Decoded.Schedule.Sorted, ref.Decoded.Schedule.Sorted) != 0 {
					all = false
				}
			}
		}
		solved++
		if all {
			sameSorted++
		}
	})
	t.Logf("%d instances × %d backends × 2 formulations: same objective everywhere, same cell vector wherever x was integral; same completion-time vector on %d of %d; fractional x (non-vertex optimum, backends %v) in %d solves",
		solved, len(backends), sameSorted, solved, nonVertex, fractional)
}

// CompareSortedExact compares sorted utility vectors without tolerance.
func CompareSortedExact(a, b []float64) int {
	for k := range min(len(a), len(b)) {
		switch {
		case a[k] < b[k]:
			return -1
		case a[k] > b[k]:
			return 1
		}
	}
	return len(a) - len(b)
}
