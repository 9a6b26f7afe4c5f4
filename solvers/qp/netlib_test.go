package qp

import (
	"testing"
	"time"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/netlib"
)

// noClock replaces the Netlib runner's default 2-minute limit per model, a pass condition
// that -race on a loaded machine reached on 25fv47 and scrs8 (stopped at 2 min after
// 3,769 and 3,604 iterations; without -race they finish in 6,184 and 5,006 iterations,
// 28 s and 7 s). The backend stops on its own (a status, or its iteration safety caps);
// go test's -timeout is the net for a hang. The runner itself should take an iteration
// bound instead (issue 16, item 4).
const noClock = 1000 * time.Hour

// TestNetlib runs the shared model set (solvers/netlib): HiGHS's QP models and the
// Netlib LPs, feasible, infeasible and unbounded, the LPs through the proximal path with
// Q = 0 and their duals checked. Two large LPs are beyond this backend, for the reasons
// given.
func TestNetlib(t *testing.T) {
	netlib.Run(t, func() solvers.Solver { return New() }, netlib.Config{
		QP:        true,
		Duals:     true,
		TimeLimit: noClock,
		Exclude: map[string]string{
			"80bau3b": "9799 columns and 2262 constrained rows exceed MaxWorkingEntries (the dense working-set matrices would need up to 2.7e7 entries); Solve refuses it with an error",
		},
		MayStop: map[string]string{
			"greenbea": "the proximal LP path (a QP method applied to an LP) did not finish this 2392×5405 model in 20 minutes (measured)",
		},
	})
}
