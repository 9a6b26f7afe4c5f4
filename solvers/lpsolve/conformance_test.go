//go:build lpsolve

package lpsolve

import (
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// TestConformance runs the shared conformance suite. lp_solve has no QP solver: the QP
// cases are skipped by capability.
func TestConformance(t *testing.T) {
	solvertest.Run(t, func() solvers.Solver { return New() }, solvertest.Config{MIP: true, Duals: true})
}
