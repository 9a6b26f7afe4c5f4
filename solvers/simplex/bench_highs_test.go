//go:build highs

package simplex_test

import (
	"fmt"
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/highs"
	"github.com/coraopt/coraopt/solvers/netlib"
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
