//go:build highs && lpsolve

package mip_test

import (
	"testing"

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
	runCheckSet(t, []backend{
		{"mip", func() solvers.Solver { return mip.New() }},
		{"highs", func() solvers.Solver { return highs.New() }},
		{"lpsolve", func() solvers.Solver { return lpsolve.New() }},
	})
}

// BenchmarkCheckSetHiGHS is BenchmarkCheckSet with HiGHS.
func BenchmarkCheckSetHiGHS(b *testing.B) {
	benchSet(b, func() solvers.Solver { return highs.New() })
}

// BenchmarkCheckSetLpsolve is BenchmarkCheckSet with lp_solve.
func BenchmarkCheckSetLpsolve(b *testing.B) {
	benchSet(b, func() solvers.Solver { return lpsolve.New() })
}
