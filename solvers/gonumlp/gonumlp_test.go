package gonumlp_test

import (
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"

	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/gonumlp"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

func TestConformance(t *testing.T) {
	solvertest.Run(t, func() solvers.Solver { return gonumlp.New() }, solvertest.Config{
		Exclude: map[string]string{
			"iteration_limit": "lp.Simplex has no iteration limit",
		},
	})
}

func TestRegisteredAsGonum(t *testing.T) {
	s, err := solvers.Get("gonum")
	if err != nil {
		t.Fatalf(`solvers.Get("gonum"): %v`, err)
	}
	d, ok := s.(solvers.Describer)
	if !ok {
		t.Fatal("the gonum backend does not implement solvers.Describer")
	}
	if c := d.Capabilities(); !c.LP || c.MIP || c.QP || c.Duals || c.Basis {
		t.Errorf("Capabilities() = %+v, want LP only", c)
	}
	if v := d.Version(); !strings.HasPrefix(v, "gonum.org/v1/gonum") {
		t.Errorf("Version() = %q", v)
	}
}

func TestRejectsWhatItCannotSolve(t *testing.T) {
	m := model.New("mip")
	x := m.Integer(0, 3, "x")
	m.Maximize(x.E())
	mip, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	m = model.New("qp")
	y := m.Continuous(-1, 1, "y")
	m.Minimize(y.E())
	m.AddQuadObj(y, y, 1)
	qp, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	bad := mip.Clone()
	bad.ColLower[0] = 5 // lower > upper
	for _, p := range []*model.Problem{mip, qp, bad} {
		sol, err := gonumlp.New().Solve(t.Context(), p, solvers.Options{})
		if err == nil {
			t.Errorf("%s: Solve = %+v, want an error", p.Name, sol)
		}
	}
}
