package qp

import (
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// TestConformance runs the shared conformance suite: every LP and QP case (LPs through
// the proximal fallback, H = 0), with duals.
func TestConformance(t *testing.T) {
	solvertest.Run(t, func() solvers.Solver { return New() }, solvertest.Config{
		QP:    true,
		Duals: true,
		Basis: true,
	})
}
