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

// BenchmarkNetlib times HiGHS on the Netlib LPs that are not Large (the reference the
// built-in simplex is compared with).
func BenchmarkNetlib(b *testing.B) {
	netlib.Bench(b, func() solvers.Solver { return New() })
}

// TestNetlibFull checks every reference optimum of the whole Netlib LP collection
// against HiGHS (point and dual certificate too), when the collection is there (see
// netlib.RunFull).
func TestNetlibFull(t *testing.T) {
	netlib.RunFull(t, func() solvers.Solver { return New() }, netlib.Config{Duals: true})
}
