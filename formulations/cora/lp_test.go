package cora

import (
	"context"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sched/schedtest"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/gonumlp"
	"pgregory.net/rapid"
)

// smallConfig draws instances the brute force enumerates in milliseconds, with integer
// utilities (table, 0–9) so that the weights k^{-u} stay well inside float64.
var smallConfig = schedtest.Config{MaxJobs: 3, MaxSlots: 4, MaxCapacity: 3, MaxResources: 2,
	Utilities: []string{"table"}, VaryingCapacity: true}

// fataler is what the helpers need of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// solveOK solves lp with the pure-Go gonum backend and requires an optimal, integral
// solution.
func solveOK(t fataler, lp *LP) *Result {
	t.Helper()
	return solveWith(t, lp, gonumlp.New())
}

func solveWith(t fataler, lp *LP, s solvers.Solver) *Result {
	t.Helper()
	res, err := lp.Solve(context.Background(), s, solvers.Options{})
	if err != nil {
		t.Fatalf("%s with %s: %v", lp.Formulation, s.Name(), err)
	}
	if res.Status != solvers.Optimal {
		t.Fatalf("%s with %s: status %v", lp.Formulation, s.Name(), res.Status)
	}
	if res.Decoded.Schedule == nil {
		t.Fatalf("%s with %s: fractional x (Lemma 2 / Theorem 1 claim integral): %+v", lp.Formulation, s.Name(), res.Decoded.Fractional)
	}
	return res
}

// TestFinalSolvesRCORA checks Theorem 1 from the side of R-CORA: the LP optimum of FINAL
// is the minimum of eq. (6) over all integral allocations (found by enumeration), its x is
// integral, and its cell vector F_X is R-CORA's lexmax.
func TestFinalSolvesRCORA(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		in := schedtest.Instance(rt, smallConfig)
		for _, f := range []func(*sched.Instance, Options) (*LP, error){BuildFinal, BuildLinearized} {
			lp, err := f(in, Options{})
			if err != nil {
				rt.Fatal(err)
			}
			if !lp.Numerics.OK {
				rt.Skipf("weights beyond float64: %s", lp.Numerics.Warning)
			}
			bf, ok := bruteForce(in, lp.Utilities, 100000)
			if !ok {
				rt.Skip("too many allocations to enumerate")
			}
			res := solveOK(rt, lp)
			s := res.Decoded.Schedule
			best := lp.Cost(bf.cellsAlloc)
			if math.Abs(res.Objective-best) > 1e-9*math.Max(1, best) {
				rt.Fatalf("%s: LP optimum %v, minimum of eq. (6) over integral allocations %v", lp.Formulation, res.Objective, best)
			}
			if got := lp.Cost(s); math.Abs(got-res.Objective) > 1e-9*math.Max(1, best) {
				rt.Fatalf("%s: eq. (6) at the decoded schedule %v, LP objective %v", lp.Formulation, got, res.Objective)
			}
			if cv := lp.CellVector(s); CompareCells(cv, bf.cells) != 0 {
				rt.Fatalf("%s: cell vector %v, R-CORA's lexmax %v", lp.Formulation, cv, bf.cells)
			}
		}
	})
}

// TestLemma3 checks Lemma 3 numerically: the λ-representation with the full point set
// D = {0..C} (Linearized-CORA), with FINAL's {0, 1, C} and with any D' ⊇ {0, 1, C}
// gives the same LP optimum, because the cell cost k^{-u·I(x)} is linear (constant) on
// [1, C]. A point set without 1 breaks the lemma's condition and can only cost more.
func TestLemma3(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		in := schedtest.Instance(rt, smallConfig)
		full, err := BuildLinearized(in, Options{})
		if err != nil {
			rt.Fatal(err)
		}
		if !full.Numerics.OK {
			rt.Skipf("weights beyond float64: %s", full.Numerics.Warning)
		}
		final, err := BuildFinal(in, Options{})
		if err != nil {
			rt.Fatal(err)
		}
		// A random D' with 0, 1 and C and any subset of the points between.
		keep := rapid.SliceOfN(rapid.Bool(), 8, 8).Draw(rt, "keep")
		reduced, err := build(in, Options{}, "reduced", func(c int) []int {
			pts := []int{0}
			for j := 1; j <= c; j++ {
				if j == 1 || j == c || keep[j%len(keep)] {
					pts = append(pts, j)
				}
			}
			return pts
		}, func(_, j int) string { return "lam" + strconv.Itoa(j) })
		if err != nil {
			rt.Fatal(err)
		}
		noOne, err := build(in, Options{}, "no-1", func(c int) []int {
			if c <= 1 {
				return []int{0, c}[:min(c+1, 2)]
			}
			return []int{0, c}
		}, func(_, j int) string { return "lam" + strconv.Itoa(j) })
		if err != nil {
			rt.Fatal(err)
		}
		zf := solveOK(rt, full).Objective
		for _, lp := range []*LP{final, reduced} {
			if z := solveOK(rt, lp).Objective; math.Abs(z-zf) > 1e-9*math.Max(1, zf) {
				rt.Fatalf("%s optimum %v, Linearized-CORA (full D) %v", lp.Formulation, z, zf)
			}
		}
		res, err := noOne.Solve(context.Background(), gonumlp.New(), solvers.Options{})
		if err != nil || res.Status != solvers.Optimal {
			rt.Fatalf("D' = {0, C}: %v %v", err, res)
		}
		if res.Objective < zf-1e-9*math.Max(1, zf) {
			rt.Fatalf("D' = {0, C} optimum %v below the full D's %v: the representation cannot underestimate a convex cost", res.Objective, zf)
		}
	})
}

// TestLemma3Condition: without the point 1 the reduced set violates Lemma 3's condition
// (the cost is not linear on [0, C]) and the optimum changes. One job, demand 1,
// capacity 3, one slot: x = 1 costs k^{-u} with D ∋ 1, but with D' = {0, 3} the
// representation is λ^0 = 2/3, λ^3 = 1/3: cost 2/3 + k^{-u}/3.
func TestLemma3Condition(t *testing.T) {
	in := parse(t, `{"horizon": 1, "resources": [{"name": "c", "capacity": 3}],
	  "jobs": [{"id": "a", "demand": {"c": 1}, "utility": {"type": "constant", "value": 2}}]}`)
	final, err := BuildFinal(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	noOne, err := build(in, Options{}, "no-1", func(c int) []int { return []int{0, c} },
		func(_, j int) string { return "lam" + strconv.Itoa(j) })
	if err != nil {
		t.Fatal(err)
	}
	k := final.K // 2: N·T·R = 1
	w := math.Pow(k, -2)
	if z := solveOK(t, final).Objective; math.Abs(z-w) > 1e-12 {
		t.Errorf("FINAL: %v, want k^-u = %v", z, w)
	}
	want := 2.0/3 + w/3
	if z := solveOK(t, noOne).Objective; math.Abs(z-want) > 1e-12 {
		t.Errorf("D' = {0, C}: %v, want 2/3 + k^-u/3 = %v", z, want)
	}
}

func TestDecode(t *testing.T) {
	in := parse(t, twoJobs)
	lp, err := BuildFinal(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, lp.Model.NumVars())
	set := func(i, t int, v float64) { x[lp.X[i][0][t-1].Index()] = v }
	// a: 2 + 1 (1e-12 off an integer is read as the integer); b: 2 in slot 2.
	set(0, 1, 2+1e-12)
	set(0, 2, 1-1e-12)
	set(1, 2, 2)
	d, err := lp.Decode(x)
	if err != nil {
		t.Fatal(err)
	}
	if d.Schedule == nil || len(d.Fractional) != 0 {
		t.Fatalf("near-integral x: schedule %v, fractional %v", d.Schedule, d.Fractional)
	}
	if got := [][]int{d.Schedule.Jobs[0].Alloc[0], d.Schedule.Jobs[1].Alloc[0]}; !slices.Equal(got[0], []int{2, 1}) || !slices.Equal(got[1], []int{0, 2}) {
		t.Errorf("allocation %v", got)
	}
	if c := []int{d.Schedule.Jobs[0].Completion, d.Schedule.Jobs[1].Completion}; !slices.Equal(c, []int{2, 2}) {
		t.Errorf("completions %v, want [2 2] (the last slot with x > 0)", c)
	}
	if !slices.Equal(d.Schedule.Sorted, []float64{1, 3}) {
		t.Errorf("sorted utilities %v, want [1 3]", d.Schedule.Sorted)
	}
	set(0, 1, 2.5)
	set(0, 2, 0.5)
	d, err = lp.Decode(x)
	if err != nil {
		t.Fatal(err)
	}
	want := []Fractional{{"a", "containers", 1, 2.5}, {"a", "containers", 2, 0.5}}
	if d.Schedule != nil || !slices.Equal(d.Fractional, want) || d.MaxFractionality != 0.5 {
		t.Errorf("fractional x: schedule %v, fractional %v (max %v), want nil and %v", d.Schedule, d.Fractional, d.MaxFractionality, want)
	}
	// Rounded half away from zero: 2.5 → 3, 0.5 → 1.
	if d.Rounded == nil || !slices.Equal(d.Rounded.Jobs[0].Alloc[0], []int{3, 1}) || d.Rounded.Jobs[0].Completion != 2 {
		t.Errorf("rounded for display: %+v", d.Rounded)
	}
	if _, err := lp.Decode(x[:3]); err == nil {
		t.Error("a short vector decoded without error")
	}
	x[lp.X[0][0][0].Index()] = math.NaN()
	if _, err := lp.Decode(x); err == nil {
		t.Error("NaN decoded without error")
	}
}
