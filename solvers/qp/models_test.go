package qp

import (
	"math"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/netlib"
)

// highsQPModels are HiGHS's QP test models (check/instances in the HiGHS source) with
// their outcomes derived by hand: TestHandDerived transcribes the same models and
// derives each optimum from its KKT system; qjh.lp states x = (0.5, 5, 1.5), −5.25.
// With -tags highs, TestHiGHSQPModelsAgainstHiGHS confirms them with HiGHS.
var highsQPModels = []struct {
	file   string
	status solvers.Status
	obj    float64
}{
	{"qjh.mps", solvers.Optimal, -5.25},
	{"qjh_quadobj.mps", solvers.Optimal, -5.25},
	{"qjh_qmatrix.mps", solvers.Optimal, -5.25},
	{"qjh_uncon.mps", solvers.Optimal, -5.5},
	{"qptestnw.lp", solvers.Optimal, -6.45},
	{"qpinfeasible.lp", solvers.Infeasible, 0},
	{"qpunbounded.lp", solvers.Unbounded, 0},
}

// readModel reads a model from the test-model cache (skipping in a plain build without
// it) with coraopt's readers.
func readModel(t testing.TB, name string) *model.Problem {
	t.Helper()
	p, err := netlib.ReadModel(testmodels.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHiGHSQPModels holds qp to a stricter standard than the netlib set on the QP models:
// the hand-derived objective to 1e-9 and the KKT certificate to 1e-9.
func TestHiGHSQPModels(t *testing.T) {
	for _, m := range highsQPModels {
		t.Run(m.file, func(t *testing.T) {
			p := readModel(t, m.file)
			sol := solve(t, p, solvers.Options{})
			if sol.Status != m.status {
				t.Fatalf("status %v, want %v", sol.Status, m.status)
			}
			if m.status != solvers.Optimal {
				return
			}
			if math.Abs(sol.Objective-m.obj) > 1e-9*max(1, math.Abs(m.obj)) {
				t.Errorf("objective %.12g, want %.12g", sol.Objective, m.obj)
			}
			if r := checkKKT(p, sol); r.max() > 1e-9 {
				t.Errorf("KKT: %v", r)
			}
		})
	}
}
