package qp

import (
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/netlib"
)

// TestNetlib runs the shared model set (solvers/netlib): HiGHS's QP models and the
// Netlib LPs, feasible, infeasible and unbounded, the LPs through the proximal path with
// Q = 0 and their duals checked. Two large LPs are beyond this backend, for the reasons
// given.
func TestNetlib(t *testing.T) {
	netlib.Run(t, func() solvers.Solver { return New() }, netlib.Config{
		QP:    true,
		Duals: true,
		Exclude: map[string]string{
			"80bau3b": "9799 columns and 2262 constrained rows exceed MaxWorkingEntries (the dense working-set matrices would need up to 2.7e7 entries); Solve refuses it with an error",
		},
		MayStop: map[string]string{
			"greenbea": "the proximal LP path (a QP method applied to an LP) did not finish this 2392×5405 model in 20 minutes (measured)",
		},
	})
}
