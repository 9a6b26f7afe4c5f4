//go:build highs || lpsolve

package lexmax_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/lexmax"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"pgregory.net/rapid"
)

// TestRandomMIPsAgreeWithEnumeration: on random tiny pure-integer models every method and
// saturation test on every MIP backend returns the lexmax vector that enumerating all
// integer points finds. Water-filling may stall here (ties between integer outcomes); it
// must then hand over and still be right. ExpWeights runs whenever its weights fit.
func TestRandomMIPsAgreeWithEnumeration(t *testing.T) {
	ss := backends(t, true)
	if len(ss) == 0 {
		t.Fatal("no MIP backend registered")
	}
	rapid.Check(t, func(rt *rapid.T) {
		d := genDense(rt, true)
		want := intOracle(d)
		for _, s := range ss {
			for _, opt := range allConfigs() {
				m, outs := d.build()
				res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, opt)
				var wr *lexmax.WeightRangeError
				if opt.Method == lexmax.ExpWeights && errors.As(err, &wr) {
					continue
				}
				if err != nil {
					rt.Fatalf("%s %s on %v: %v", s.Name(), configName(opt), d, err)
				}
				if diff := maxDiff(res.Sorted, want); diff > cmpTol {
					rt.Fatalf("%s %s on %v:\n got %v\nwant %v (notes %q)", s.Name(), configName(opt), d, res.Sorted, want, res.Notes)
				}
				if res.IntegerColumns != len(d.Lo) || res.Integrality > 1e-6 {
					rt.Fatalf("%s %s: integrality report %d columns, max deviation %g", s.Name(), configName(opt), res.IntegerColumns, res.Integrality)
				}
			}
		}
	})
}

// TestRandomTASAgreeWithEnumeration: on random TAS-like time-indexed MIPs (one-hot
// completion slots, utilities with ties) ordered outcomes, water-filling with every
// saturation test, and exponential weights (the one-hot weights of cora.txt eq. 6) agree
// with enumeration of completion slots under the EDF prefix condition.
func TestRandomTASAgreeWithEnumeration(t *testing.T) {
	ss := backends(t, true)
	if len(ss) == 0 {
		t.Fatal("no MIP backend registered")
	}
	stalls := 0
	rapid.Check(t, func(rt *rapid.T) {
		in := genTAS(rt, 4, 4)
		want := tasOracle(in)
		if want == nil {
			rt.Fatalf("generated an infeasible instance %v", in)
		}
		for _, s := range ss {
			for _, opt := range allConfigs() {
				m, outs := buildTAS(in)
				res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, opt)
				if err != nil {
					rt.Fatalf("%s %s on %v: %v", s.Name(), configName(opt), in, err)
				}
				if diff := maxDiff(res.Sorted, want); diff > cmpTol {
					rt.Fatalf("%s %s on %v:\n got %v\nwant %v (notes %q)", s.Name(), configName(opt), in, res.Sorted, want, res.Notes)
				}
				if res.HandedOver {
					stalls++
				}
			}
		}
	})
	t.Logf("water-filling handed over to ordered outcomes %d times", stalls)
}

// TestRandomChoiceModelsAgreeWithEnumeration: one-hot outcomes with a "none" value
// (Σ_s w_is ≤ 1, value 0 when nothing is picked) and negative values, on every method.
func TestRandomChoiceModelsAgreeWithEnumeration(t *testing.T) {
	ss := backends(t, true)
	if len(ss) == 0 {
		t.Fatal("no MIP backend registered")
	}
	rapid.Check(t, func(rt *rapid.T) {
		c := genChoice(rt)
		want := c.oracle()
		for _, s := range ss {
			for _, opt := range allConfigs() {
				m, outs := c.build()
				res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, opt)
				if err != nil {
					rt.Fatalf("%s %s on %v: %v", s.Name(), configName(opt), c, err)
				}
				if diff := maxDiff(res.Sorted, want); diff > cmpTol {
					rt.Fatalf("%s %s on %v:\n got %v\nwant %v (notes %q)", s.Name(), configName(opt), c, res.Sorted, want, res.Notes)
				}
			}
		}
	})
}

// TestWaterFillStallHandsOver: x1, x2 binary with x1 + x2 ≤ 1, outcomes x1, x2, 1 + x1.
// The max-min level is 0 and each of x1, x2 can reach 1 alone but not together, so no
// outcome is saturated: water-filling must not loop or guess. Which of x1, x2 stays at 0
// matters (x1 = 1 gives (0, 1, 2), x2 = 1 gives (0, 1, 1)); ordered outcomes decides it.
func TestWaterFillStallHandsOver(t *testing.T) {
	for _, s := range backends(t, true) {
		for _, sat := range []lexmax.Saturation{lexmax.Probe, lexmax.Duals, lexmax.MILP} {
			m := model.New("stall")
			x1, x2 := m.Binary("x1"), m.Binary("x2")
			m.AddLe(x1.E().Plus(x2.E()), 1, "")
			outs := []model.Expr{x1.E(), x2.E(), x1.E().Plus(model.Const(1))}
			res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s,
				lexmax.Options{Method: lexmax.WaterFill, Saturation: sat})
			if err != nil {
				t.Fatalf("%s %s: %v", s.Name(), sat, err)
			}
			if maxDiff(res.Sorted, []float64{0, 1, 2}) > cmpTol || !res.HandedOver || res.FrozenAtHandover != 0 {
				t.Errorf("%s %s: sorted %v, handed over %v after %d frozen, want [0 1 2] after a handover at 0 (notes %q)",
					s.Name(), sat, res.Sorted, res.HandedOver, res.FrozenAtHandover, res.Notes)
			}
			if !slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, "stalled") }) {
				t.Errorf("%s %s: notes %q do not report the stall", s.Name(), sat, res.Notes)
			}
		}
	}
}

// TestExpWeightsRefusesWideTAS: a 20-job TAS MIP with utilities 0..9 has 10 values; with
// k = 21 the weights span 9·log10(21) ≈ 11.9 orders, beyond the 6 the solver resolves.
func TestExpWeightsRefusesWideTAS(t *testing.T) {
	in := benchTAS(20, 12, 10, 10, 1)
	m, outs := buildTAS(in)
	s := backends(t, true)[0]
	_, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, lexmax.Options{Method: lexmax.ExpWeights})
	var wr *lexmax.WeightRangeError
	if !errors.As(err, &wr) || !wr.Representable || wr.Base != 21 || wr.Values < 8 {
		t.Fatalf("err = %v (%+v)", err, wr)
	}
	if want := float64(wr.Values-1) * math.Log10(21); math.Abs(wr.Orders-want) > 1e-9 {
		t.Errorf("orders %g, want %g", wr.Orders, want)
	}
}

// TestWarmStartGivesTheSameAnswer: on backends that take a basis, warm-started solves
// return the same lexmax as cold ones, and the warm path is actually taken.
func TestWarmStartGivesTheSameAnswer(t *testing.T) {
	for _, s := range backends(t, false) {
		if !s.(solvers.Describer).Capabilities().Basis {
			continue
		}
		for _, opt := range []lexmax.Options{{Method: lexmax.Ordered}, {Method: lexmax.WaterFill, Saturation: lexmax.Probe}, {Method: lexmax.WaterFill, Saturation: lexmax.Duals}} {
			m, outs := benchLP(12, 1)
			warm, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, opt)
			if err != nil {
				t.Fatal(err)
			}
			m, outs = benchLP(12, 1)
			cold := opt
			cold.NoWarmStart = true
			coldRes, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, cold)
			if err != nil {
				t.Fatal(err)
			}
			if d := maxDiff(warm.Sorted, coldRes.Sorted); d > cmpTol {
				t.Errorf("%s %s: warm and cold differ by %g", s.Name(), configName(opt), d)
			}
			nWarm := 0
			for _, st := range warm.Steps {
				if st.Warm {
					nWarm++
				}
			}
			if nWarm == 0 || nWarm >= len(warm.Steps) {
				t.Errorf("%s %s: %d of %d solves warm-started, want all but the first", s.Name(), configName(opt), nWarm, len(warm.Steps))
			}
			for _, st := range coldRes.Steps {
				if st.Warm {
					t.Errorf("%s %s: NoWarmStart still passed a basis", s.Name(), configName(opt))
				}
			}
		}
	}
}

// TestTAS20Agree: on two of the benchmark's 20-job TAS MIPs (too large to enumerate) the
// methods agree with each other: all of them on the coarse one (utilities 0..4, where
// exponential weights fit), ordered and water-filling with probes and the MILP test on
// the light one. (The tight one takes ~13 s per method; see BenchmarkLexmax.)
func TestTAS20Agree(t *testing.T) {
	s, err := solvers.Get("highs")
	if err != nil {
		s = backends(t, true)[0]
	}
	cases := []struct {
		name    string
		in      tasInstance
		configs []lexmax.Options
	}{
		{"coarse", benchTASLevels(20, 12, 10, 4, 0, 1, 1), allConfigs()},
		{"light", benchTAS(20, 12, 10, 4, 1), []lexmax.Options{
			{Method: lexmax.Ordered},
			{Method: lexmax.WaterFill, Saturation: lexmax.Probe},
			{Method: lexmax.WaterFill, Saturation: lexmax.MILP},
		}},
	}
	for _, tc := range cases {
		var ref []float64
		for _, opt := range tc.configs {
			if tc.name == "coarse" && opt.OutcomesForm {
				continue // 9 t/d MIPs; the light case covers the form's agreement elsewhere
			}
			m, outs := buildTAS(tc.in)
			res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, opt)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.name, configName(opt), err)
			}
			if res.Integrality > 1e-6 {
				t.Errorf("%s %s: integrality %g", tc.name, configName(opt), res.Integrality)
			}
			if ref == nil {
				ref = res.Sorted
				continue
			}
			if d := maxDiff(ref, res.Sorted); d > cmpTol {
				t.Errorf("%s %s: sorted %v, ordered gave %v", tc.name, configName(opt), res.Sorted, ref)
			}
		}
	}
}
