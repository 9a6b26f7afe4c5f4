package gonumlp_test

import (
	"math"
	"strings"
	"testing"
	"time"

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

// Found by TestAgreesWithVertexEnumeration: x ≥ 0, −10 ≤ x ≤ 10, −4 ≤ −3x ≤ −3, x = 1
// has as many standard-form rows as columns, and lp.Simplex's own square solve called it
// infeasible when rounding left a slack at −1e-16. The only point is x = 1.
func TestSquareStandardForm(t *testing.T) {
	m := model.New("square")
	x := m.Continuous(0, model.Inf, "x")
	m.AddRange(x.E(), -10, 10, "box")
	m.AddRange(x.Mul(-3), -4, -3, "ranged")
	m.AddEq(x.E(), 1, "fix")
	m.Minimize(model.Expr{})
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	sol, err := gonumlp.New().Solve(t.Context(), p, solvers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Status != solvers.Optimal || math.Abs(sol.X[0]-1) > 1e-12 {
		t.Errorf("status %s, x = %v; want optimal at x = 1", sol.Status, sol.X)
	}
	// The same with x = 2 violating the ranged row: infeasible.
	m.SetConstrBounds(m.ConstrAt(2), 2, 2)
	if p, err = m.Compile(); err != nil {
		t.Fatal(err)
	}
	if sol, err := gonumlp.New().Solve(t.Context(), p, solvers.Options{}); err != nil || sol.Status != solvers.Infeasible {
		t.Errorf("with x = 2: %v, %v; want infeasible", sol, err)
	}
}

func TestTimeLimitAndVerbose(t *testing.T) {
	m := model.New("tiny")
	x := m.Continuous(0, 4, "x")
	y := m.Continuous(0, model.Inf, "y")
	m.AddLe(model.Sum(x, y), 5, "cap")
	m.AddGe(x.Mul(2).Plus(y.E()), 3, "need")
	m.Maximize(x.Mul(3).Plus(y.Mul(2)))
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	// A limit already spent by the conversion (a nanosecond) stops before lp.Simplex.
	sol, err := gonumlp.New().Solve(t.Context(), p, solvers.Options{TimeLimit: time.Nanosecond})
	if err != nil || sol.Status != solvers.TimeLimit || sol.X != nil {
		t.Errorf("TimeLimit 1ns: %+v, %v; want time_limit without a point", sol, err)
	}
	var log strings.Builder
	sol, err = gonumlp.New().Solve(t.Context(), p, solvers.Options{TimeLimit: time.Minute, Verbose: &log})
	if err != nil || sol.Status != solvers.Optimal || math.Abs(sol.Objective-14) > 1e-9 {
		t.Errorf("TimeLimit 1min: %+v, %v; want optimal 14 (x = 4, y = 1)", sol, err)
	}
	if !strings.Contains(log.String(), "standard form 3 × 5") {
		t.Errorf("Verbose output %q, want the standard form's size", log.String())
	}
}
