//go:build highs

package highs

import (
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/netlib"
)

// TestNetlib solves the Netlib LPs, MIPs and QPs of package netlib and checks them against
// the reference answers. HiGHS finishes every model.
func TestNetlib(t *testing.T) {
	netlib.Run(t, func() solvers.Solver { return New() }, netlib.Config{MIP: true, QP: true, Duals: true})
}
