package lexmax_test

import (
	"context"
	"errors"
	"testing"

	"github.com/coraopt/coraopt/lexmax"
	"github.com/coraopt/coraopt/solvers"
	"pgregory.net/rapid"
)

// cmpTol is how close two lexmax vectors must be. Freezes use AbsTol = 1e-6 and a
// frozen slack can move later levels by a multiple of it (coefficients here are ≤ 3),
// so 1e-4 separates a real disagreement from tolerance effects by two orders.
const cmpTol = 1e-4

// TestRandomLPsAgreeWithVertexEnumeration: on random tiny LPs every method and every
// saturation test returns the lexmax vector that vertex enumeration finds, on every LP
// backend compiled in. ExpWeights refuses outcomes over continuous variables with a
// NotApplicableError (it runs when they happen to be constant), and the MIP-only tests
// refuse backends without MIP.
func TestRandomLPsAgreeWithVertexEnumeration(t *testing.T) {
	ss := backends(t, false)
	if len(ss) == 0 {
		t.Fatal("no LP backend registered")
	}
	rapid.Check(t, func(rt *rapid.T) {
		d := genDense(rt, false)
		want := lpOracle(d)
		if want == nil {
			rt.Fatalf("oracle found no vertex for %v", d)
		}
		for _, s := range ss {
			caps := s.(solvers.Describer).Capabilities()
			for _, opt := range allConfigs() {
				m, outs := d.build()
				res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, opt)
				var na *lexmax.NotApplicableError
				switch {
				case opt.Method == lexmax.ExpWeights && errors.As(err, &na):
					continue // continuous outcomes (constant ones are integer-valued and run)
				case (opt.Method == lexmax.ExpWeights || opt.Saturation == lexmax.MILP && opt.Method == lexmax.WaterFill) && !caps.MIP:
					if err == nil {
						rt.Fatalf("%s %s: no error from a backend without MIP", s.Name(), configName(opt))
					}
					continue
				case err != nil:
					rt.Fatalf("%s %s on %v: %v", s.Name(), configName(opt), d, err)
				}
				if diff := maxDiff(res.Sorted, want); diff > cmpTol {
					rt.Fatalf("%s %s on %v:\n got %v\nwant %v (solves %d, notes %q)", s.Name(), configName(opt), d, res.Sorted, want, res.Solves, res.Notes)
				}
				if opt.Method == lexmax.WaterFill && res.HandedOver {
					rt.Fatalf("%s %s: water-filling stalled on an LP: %q", s.Name(), configName(opt), res.Notes)
				}
			}
		}
	})
}

// TestMediumLPsAgree: on 20-outcome max-min fair allocation LPs (too large to enumerate)
// every LP method agrees across methods and across backends (gonum's dense lp.Simplex is
// left out: ordered outcomes' 400-column LPs take it minutes).
func TestMediumLPsAgree(t *testing.T) {
	var ref []float64
	for seed := uint64(1); seed <= 2; seed++ {
		ref = nil
		for _, s := range backends(t, false) {
			if s.Name() == "gonum" {
				continue
			}
			for _, opt := range allConfigs() {
				if opt.Method == lexmax.ExpWeights || opt.Saturation == lexmax.MILP && !s.(solvers.Describer).Capabilities().MIP {
					continue
				}
				m, outs := benchLP(20, seed)
				res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, opt)
				if err != nil {
					t.Fatalf("seed %d %s %s: %v", seed, s.Name(), configName(opt), err)
				}
				if ref == nil {
					ref = res.Sorted
					continue
				}
				if d := maxDiff(ref, res.Sorted); d > cmpTol {
					t.Errorf("seed %d %s %s: differs from the first answer by %g", seed, s.Name(), configName(opt), d)
				}
			}
		}
	}
}
