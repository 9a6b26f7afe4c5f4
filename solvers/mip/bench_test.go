package mip_test

import (
	"context"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model/mps"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/mip"
)

// benchModels are the check-set MIPs the built-in MIP solves in about a second or less;
// the full set with its 60-s limit is TestCheckSet / TestCheckSetVersus.
var benchModels = []string{"small_mip", "flugpl", "egout", "2171", "gt2"}

// BenchmarkCheckSet times the built-in MIP on benchModels; with -tags highs,lpsolve,
// BenchmarkCheckSetHiGHS and BenchmarkCheckSetLpsolve time the others on the same models
// in the same run, for the ratios.
func BenchmarkCheckSet(b *testing.B) {
	benchSet(b, func() solvers.Solver { return mip.New() })
}

func benchSet(b *testing.B, newSolver func() solvers.Solver) {
	for _, name := range benchModels {
		p, err := mps.ReadFile(testmodels.Path(b, name+".mps"), mps.Options{})
		if err != nil {
			b.Fatal(err)
		}
		var want float64
		for _, c := range mip.CheckSet() {
			if c.Name == name {
				want = c.Objective
			}
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				sol, err := newSolver().Solve(context.Background(), p, solvers.Options{MIPGap: 1e-7})
				if err != nil {
					b.Fatal(err)
				}
				if sol.Status != solvers.Optimal || !closeRel(sol.Objective, want, 1e-6) {
					b.Fatalf("%s: %v %.10g, want optimal %.10g", name, sol.Status, sol.Objective, want)
				}
			}
		})
	}
}
