package mip_test

import (
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/mip"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// TestConformance runs the shared conformance suite: the MIP cases through branch and
// bound, the LP cases through the simplex the backend hands them to (with duals).
func TestConformance(t *testing.T) {
	solvertest.Run(t, func() solvers.Solver { return mip.New() }, solvertest.Config{MIP: true, Duals: true})
}

// TestConformanceBare runs the suite with presolve, cuts and heuristics off and
// most-fractional branching: the plain branch and bound must be right on its own.
func TestConformanceBare(t *testing.T) {
	solvertest.Run(t, func() solvers.Solver {
		return &mip.Solver{NoPresolve: true, NoCuts: true, NoHeuristics: true, Branching: mip.MostFractional}
	}, solvertest.Config{MIP: true, Duals: true})
}
