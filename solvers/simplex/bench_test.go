package simplex_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/mps"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/gonumlp"
	"github.com/coraopt/coraopt/solvers/netlib"
	"github.com/coraopt/coraopt/solvers/simplex"
)

// benchModels are the Netlib models timed against HiGHS (bench_highs_test.go) and gonum.
var benchModels = []string{"afiro", "adlittle", "blending", "israel", "scrs8", "25fv47", "80bau3b", "greenbea"}

// scheduleSizes are the jobs × slots of the scheduling LPs benchmarked.
var scheduleSizes = [][2]int{{100, 40}, {500, 200}}

func newSimplex() solvers.Solver { return simplex.New() }

// BenchmarkNetlib times the built-in simplex on the Netlib models, one sub-benchmark
// each (BenchmarkNetlib/<model>).
func BenchmarkNetlib(b *testing.B) { netlib.Bench(b, newSimplex, benchModels...) }

// BenchmarkSchedule times the time-indexed scheduling LP (jobs × slots) the formulations
// produce: sparse, degenerate, many columns.
func BenchmarkSchedule(b *testing.B) {
	for _, size := range scheduleSizes {
		p := scheduleLP(b, size[0], size[1])
		b.Run(fmt.Sprintf("N=%d,T=%d", size[0], size[1]), func(b *testing.B) { benchSolve(b, simplex.New(), p) })
	}
}

// benchSolve times s on p; every solve must reach the optimum.
func benchSolve(b *testing.B, s solvers.Solver, p *model.Problem) {
	b.Helper()
	iters := 0
	for b.Loop() {
		sol, err := s.Solve(context.Background(), p, solvers.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if sol.Status != solvers.Optimal {
			b.Fatalf("%s on %s: status %v", s.Name(), p.Name, sol.Status)
		}
		iters = sol.Iterations
	}
	b.ReportMetric(float64(iters), "iters")
}

// gonumModels are the models gonum's dense lp.Simplex is timed on: the Netlib models of
// the comparison and the small scheduling LP (the larger ones need a dense tableau of
// hundreds of megabytes).
var gonumModels = []string{"afiro", "adlittle", "blending", "israel", "scrs8", "25fv47"}

// gonumLimit is how long gonum may take on a model before it is left out.
const gonumLimit = 2 * time.Minute

// BenchmarkVsGonum runs the built-in simplex and gonum's lp.Simplex on the same models in
// the same process (BenchmarkVsGonum/<model>/simplex and /gonum), for the speed ratio.
func BenchmarkVsGonum(b *testing.B) {
	type named struct {
		name string
		p    *model.Problem
	}
	var probs []named
	for _, name := range gonumModels {
		p, err := mps.ReadFile(testmodels.Path(b, name+".mps"), mps.Options{})
		if err != nil {
			b.Fatal(err)
		}
		probs = append(probs, named{name, p})
	}
	probs = append(probs, named{"schedule100x40", scheduleLP(b, 100, 40)})
	for _, np := range probs {
		b.Run(np.name+"/simplex", func(b *testing.B) { benchSolve(b, simplex.New(), np.p) })
		b.Run(np.name+"/gonum", func(b *testing.B) {
			// gonum fails on some models (an error or a wrong status) or takes too long:
			// skip those rather than time a failure.
			sol, err := gonumlp.New().Solve(context.Background(), np.p, solvers.Options{TimeLimit: gonumLimit})
			if err != nil || sol.Status != solvers.Optimal {
				b.Skipf("gonum does not solve %s within %v: %v %v", np.name, gonumLimit, sol.Status, err)
			}
			benchSolve(b, gonumlp.New(), np.p)
		})
	}
}
