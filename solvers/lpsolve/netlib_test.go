//go:build lpsolve

package lpsolve

import (
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/netlib"
)

// lpsolveCannotFinish lists the MIPs lp_solve 5.5.2.5's default branch and bound does not
// finish in a minute on this machine (measured with lp_solve's own MPS reader and
// set_timeout(60)): each runs for netlib.Config.StopAfter and must stop with a feasible
// incumbent no better than the optimum.
var lpsolveCannotFinish = map[string]string{
	"p0548":      "lp_solve's branch and bound: 1.9 million nodes in 60 s, incumbent 10623 (optimum 8691)",
	"sp150x300d": "lp_solve's branch and bound: 1.1 million nodes in 60 s, optimum 69 found but not proved",
	"bell5":      "lp_solve's branch and bound: 6.2 million nodes in 60 s, incumbent 9125525.29 (optimum 8966406.49)",
	"gesa2":      "lp_solve's branch and bound: 0.27 million nodes in 60 s, incumbent 25782507.28 (optimum 25779856.37)",
}

// TestNetlib solves the Netlib LPs and MIPs of package netlib and checks them against the
// reference answers. lp_solve has no QP solver. Its optimum of greenbea violates two rows
// whose bound is 0 by 2e-7 and 3e-7 (lp_solve's tolerances apply to its scaled model;
// no scaling mode or improve setting does better than 1.2e-7), so the feasibility
// tolerance is 1e-6 instead of solvertest's 1e-7; every other model meets 1e-7.
func TestNetlib(t *testing.T) {
	netlib.Run(t, func() solvers.Solver { return New() }, netlib.Config{
		MIP: true, Duals: true, FeasTol: 1e-6, MayStop: lpsolveCannotFinish,
	})
}

// BenchmarkNetlib times lp_solve on the Netlib LPs that are not Large.
func BenchmarkNetlib(b *testing.B) {
	netlib.Bench(b, func() solvers.Solver { return New() })
}
