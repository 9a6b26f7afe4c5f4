//go:build highs || lpsolve

package lexmax_test

import (
	"context"
	"errors"
	"testing"

	"github.com/coraopt/coraopt/lexmax"
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
