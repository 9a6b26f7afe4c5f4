package simplex

import (
	"context"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// benchModels are the Netlib models timed against HiGHS and gonum.
var benchModels = []string{"afiro", "adlittle", "blending", "scrs8", "israel", "25fv47", "80bau3b", "greenbea"}

func loadBench(b *testing.B, name string) *model.Problem {
	b.Helper()
	p, err := readMPS(testmodels.Path(b, name+".mps"))
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func benchSolve(b *testing.B, s solvers.Solver, p *model.Problem) {
	b.Helper()
	for b.Loop() {
		sol, err := s.Solve(context.Background(), p, solvers.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if sol.Status != solvers.Optimal {
			b.Fatalf("%s: status %v", p.Name, sol.Status)
		}
	}
}

func BenchmarkNetlib(b *testing.B) {
	for _, name := range benchModels {
		p := loadBench(b, name)
		b.Run(name, func(b *testing.B) { benchSolve(b, &Solver{}, p) })
	}
}
