package simplex

import (
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/solvers/netlib/models"
)

// factorizeModels are the Netlib models whose solves spend the most in the factorization
// (the first four) and three whose bases are sparser, with the iterations between the
// bases taken from their solves (about ten bases each).
var factorizeModels = []struct {
	name  string
	every int
}{{"fit2p", 600}, {"pilot87", 1000}, {"dfl001", 2000}, {"maros-r7", 300},
	{"d2q06c", 500}, {"degen3", 200}, {"greenbea", 300}}

// BenchmarkFactorize times the elimination (pivot search, L, U, repair; not build, which
// both share) on the bases met along solves of factorizeModels: /old is the code before
// the entries' twin links (oldLUFactor), /new the current one, for the ratio in one run
// (go test -bench Factorize -count N interleaves them). One op factorizes every basis of
// the model once. The solves that collect the bases, and a check that both factorize
// each of them identically (sameFactors), run before the timing.
func BenchmarkFactorize(b *testing.B) {
	dir, err := models.FullDir()
	if err != nil {
		b.Skip(err)
	}
	for _, fm := range factorizeModels {
		b.Run(fm.name, func(b *testing.B) {
			p, err := models.ReadModel(filepath.Join(dir, fm.name+".mps.gz"))
			if err != nil {
				b.Fatal(err)
			}
			bases := solveBases(b, fm.name, p, fm.every, 40)
			// A faster factorization that pivots differently is no faster one.
			var f luFactor
			for _, in := range bases {
				if d := sameFactors(&f, in); d != "" {
					b.Fatalf("%s: %s", in.name, d)
				}
			}
			b.Run("old", func(b *testing.B) {
				var f oldLUFactor
				for b.Loop() {
					for _, in := range bases {
						f.factorize(in.m, in.n, in.a, in.basic)
					}
				}
				b.ReportMetric(float64(len(bases)), "bases/op")
			})
			b.Run("new", func(b *testing.B) {
				var f luFactor
				for b.Loop() {
					for _, in := range bases {
						f.eliminateAll(in.m, in.n, in.a, in.basic)
					}
				}
				b.ReportMetric(float64(len(bases)), "bases/op")
			})
		})
	}
}
