package simplex_test

import (
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/simplex"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

func TestConformance(t *testing.T) {
	solvertest.Run(t, func() solvers.Solver { return simplex.New() }, solvertest.Config{Duals: true})
}
