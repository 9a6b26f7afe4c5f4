//go:build highs

package simplex_test

import (
	"fmt"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model/mps"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/highs"
	"github.com/coraopt/coraopt/solvers/netlib"
	"github.com/coraopt/coraopt/solvers/simplex"
)

func newHiGHS() solvers.Solver { return highs.New() }

// BenchmarkNetlibHiGHS times HiGHS (through coraopt's cgo binding, presolve on, its
// defaults) on the models of BenchmarkNetlib: run both in one `go test -bench` for the
// ratios.
func BenchmarkNetlibHiGHS(b *testing.B) { netlib.Bench(b, newHiGHS, benchModels...) }

// BenchmarkScheduleHiGHS is BenchmarkSchedule with HiGHS.
func BenchmarkScheduleHiGHS(b *testing.B) {
	for _, size := range scheduleSizes {
		p := scheduleLP(b, size[0], size[1])
		b.Run(fmt.Sprintf("N=%d,T=%d", size[0], size[1]), func(b *testing.B) { benchSolve(b, highs.New(), p) })
	}
}

// BenchmarkVsHiGHS runs the built-in simplex and HiGHS back to back on each model
// (BenchmarkVsHiGHS/<model>/simplex and /highs), so that the two times of a ratio are
// measured minutes apart at most on a shared machine.
func BenchmarkVsHiGHS(b *testing.B) {
	for _, name := range benchModels {
		p, err := mps.ReadFile(testmodels.Path(b, name+".mps"), mps.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/simplex", func(b *testing.B) { benchSolve(b, simplex.New(), p) })
		b.Run(name+"/highs", func(b *testing.B) { benchSolve(b, highs.New(), p) })
	}
	for _, size := range scheduleSizes {
		p := scheduleLP(b, size[0], size[1])
		name := fmt.Sprintf("schedule%dx%d", size[0], size[1])
		b.Run(name+"/simplex", func(b *testing.B) { benchSolve(b, simplex.New(), p) })
		b.Run(name+"/highs", func(b *testing.B) { benchSolve(b, highs.New(), p) })
	}
}
