//go:build highs && lpsolve

package mip_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/highs"
	"github.com/coraopt/coraopt/solvers/lpsolve"
	"github.com/coraopt/coraopt/solvers/mip"
)

// TestCheckSetVersus runs the check set (CORAOPT_MIP_CHECKSET, see EnvCheckSet) with the
// built-in MIP, HiGHS and lp_solve back to back per model, each with the same time limit,
// and reports every run and the shifted geometric means (10 ms shift; a run that is not
// solved to the reference optimum counts as the time limit). A wrong answer from any
// backend fails the test.
//
//	CORAOPT_MIP_CHECKSET=1 go test -tags highs,lpsolve -run TestCheckSetVersus -v -timeout 2h ./solvers/mip/
func TestCheckSetVersus(t *testing.T) {
	models := checkModels(t)
	limit := checkLimit(t)
	backends := []struct {
		name string
		new  func() solvers.Solver
	}{
		{"mip", func() solvers.Solver { return mip.New() }},
		{"highs", func() solvers.Solver { return highs.New() }},
		{"lpsolve", func() solvers.Solver { return lpsolve.New() }},
	}
	var runs []checkRun
	times := map[string][]time.Duration{}
	solved := map[string]int{}
	for _, c := range models {
		for _, b := range backends {
			r := solveCheck(t, b.new(), c, limit)
			runs = append(runs, r)
			d := r.wall
			if r.verdict != "solved" {
				d = limit
			} else {
				solved[b.name]++
			}
			times[b.name] = append(times[b.name], d)
			t.Logf("%s", formatRuns(runs[len(runs)-1:]))
		}
	}
	summary := fmt.Sprintf("\n%s\nshifted geometric means (10 ms shift, unsolved counted as %v) over %d models:\n", formatRuns(runs), limit, len(models))
	g := map[string]float64{}
	for _, b := range backends {
		g[b.name] = shiftedGeoMean(times[b.name], 10*time.Millisecond)
		summary += fmt.Sprintf("  %-8s %8.4f s  (%d solved)\n", b.name, g[b.name], solved[b.name])
	}
	summary += fmt.Sprintf("  mip/lpsolve %.3f, mip/highs %.3f", g["mip"]/g["lpsolve"], g["mip"]/g["highs"])
	t.Log(summary)
}

// BenchmarkCheckSetHiGHS is BenchmarkCheckSet with HiGHS.
func BenchmarkCheckSetHiGHS(b *testing.B) {
	benchSet(b, func() solvers.Solver { return highs.New() })
}

// BenchmarkCheckSetLpsolve is BenchmarkCheckSet with lp_solve.
func BenchmarkCheckSetLpsolve(b *testing.B) {
	benchSet(b, func() solvers.Solver { return lpsolve.New() })
}
