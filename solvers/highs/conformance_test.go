//go:build highs

package highs

import (
	"strings"
	"testing"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// qpAccuracy explains the two QP cases that run with a looser dual tolerance.
const qpAccuracy = "HiGHS 1.10 adds 1e-7 to Q's diagonal (see correctQP), so its QP optima are accurate " +
	"to about 1e-7 absolute and a free column's reduced cost c + Qx − Aᵀy is up to 2e-7 away from 0, " +
	"above the default DualTol 1e-7; run by TestConformanceQP with DualTol 1e-6"

// TestConformance runs the shared conformance suite with its default tolerances. HiGHS has
// every capability and tells infeasible from unbounded.
func TestConformance(t *testing.T) {
	solvertest.Run(t, func() solvers.Solver { return New() }, solvertest.Config{
		MIP: true, QP: true, Duals: true, Basis: true,
		Exclude: map[string]string{
			"qp_unconstrained":    qpAccuracy,
			"qp_maximize_concave": qpAccuracy,
		},
	})
}

// TestConformanceQP runs the QP cases with DualTol 1e-6, the accuracy of HiGHS's
// regularized QP solver.
func TestConformanceQP(t *testing.T) {
	exclude := map[string]string{}
	for _, name := range solvertest.CaseNames() {
		if !strings.HasPrefix(name, "qp_") {
			exclude[name] = "not a QP case: TestConformance runs it with the default tolerances"
		}
	}
	solvertest.Run(t, func() solvers.Solver { return New() }, solvertest.Config{
		MIP: true, QP: true, Duals: true, Basis: true, DualTol: 1e-6, Exclude: exclude,
	})
}
