package simplex_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/mps"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/gonumlp"
	"github.com/coraopt/coraopt/solvers/simplex"
)

// benchModels are the Netlib models timed against HiGHS and gonum (the task's list, plus
// greenbea as the largest).
var benchModels = []string{"afiro", "adlittle", "blending", "israel", "scrs8", "25fv47", "80bau3b", "greenbea"}

func loadNetlib(b *testing.B, name string) *model.Problem {
	b.Helper()
	p, err := mps.ReadFile(testmodels.Path(b, name+".mps"), mps.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return p
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

// BenchmarkNetlib times the built-in simplex on the Netlib models.
func BenchmarkNetlib(b *testing.B) {
	for _, name := range benchModels {
		p := loadNetlib(b, name)
		b.Run(name, func(b *testing.B) { benchSolve(b, simplex.New(), p) })
	}
}

// gonumModels are the models gonum's dense lp.Simplex is timed on: the small Netlib ones
// and the small scheduling LP (it needs a dense m×n tableau and minutes for the rest).
var gonumModels = []string{"afiro", "adlittle", "blending", "israel", "scrs8"}

// BenchmarkVsGonum runs both solvers on the same models in the same process, for the
// speed ratio (the target is ≥ 50×).
func BenchmarkVsGonum(b *testing.B) {
	probs := map[string]*model.Problem{}
	var names []string
	for _, name := range gonumModels {
		probs[name] = loadNetlib(b, name)
		names = append(names, name)
	}
	sched := scheduleLP(b, 100, 40)
	probs["schedule100x40"] = sched
	names = append(names, "schedule100x40")
	for _, name := range names {
		p := probs[name]
		b.Run(name+"/simplex", func(b *testing.B) { benchSolve(b, simplex.New(), p) })
		b.Run(name+"/gonum", func(b *testing.B) {
			// gonum fails on some models (its adapter reports an error or a wrong status):
			// skip those instead of timing a failure.
			sol, err := gonumlp.New().Solve(context.Background(), p, solvers.Options{})
			if err != nil || sol.Status != solvers.Optimal {
				b.Skipf("gonum does not solve %s: %v %v", name, sol, err)
			}
			benchSolve(b, gonumlp.New(), p)
		})
	}
}

// BenchmarkSchedule times the time-indexed scheduling LP (jobs × slots) the formulations
// produce: sparse, degenerate, many columns.
func BenchmarkSchedule(b *testing.B) {
	for _, size := range [][2]int{{100, 40}, {500, 200}} {
		p := scheduleLP(b, size[0], size[1])
		b.Run(fmt.Sprintf("N=%d,T=%d", size[0], size[1]), func(b *testing.B) { benchSolve(b, simplex.New(), p) })
	}
}
