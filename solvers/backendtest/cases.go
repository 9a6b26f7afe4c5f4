package backendtest

import (
	"context"
	"math"
	"strconv"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Config describes the backend under test.
type Config struct {
	// New returns a fresh solver of the backend.
	New func() solvers.Solver
	// Name is the library's name in messages ("HiGHS", "lp_solve").
	Name string
}

// Solve solves p with a fresh solver and fails the test when the solve could not run.
func (c Config) Solve(t testing.TB, p *model.Problem, opt solvers.Options) *solvers.Solution {
	t.Helper()
	sol, err := c.New().Solve(context.Background(), p, opt)
	if err != nil {
		t.Fatal(err)
	}
	return sol
}

// Near reports whether a is within tol of b, relative to 1 + |b|.
func Near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*(1+math.Abs(b)) }

// LeakModels are the small problems NoLeaks cycles through: an LP, an infeasible
// LP, a MIP and a QP.
func LeakModels(t testing.TB) []*model.Problem {
	t.Helper()
	var ps []*model.Problem
	for k := range 4 {
		m := model.New("leak")
		xs := m.Vars1(8, 0, 10, model.Continuous, "x%d")
		if k == 2 {
			xs = m.Vars1(8, 0, 10, model.Integer, "y%d")
		}
		for i := range 6 {
			coef := make([]float64, len(xs))
			for j := range coef {
				coef[j] = float64((i*7+j*3)%5 + 1)
			}
			m.AddLe(model.Dot(coef, xs), float64(20+i), "c"+strconv.Itoa(i))
		}
		if k == 1 {
			m.AddGe(model.Sum(xs...), 1000, "impossible")
		}
		cost := make([]float64, len(xs))
		for j := range cost {
			cost[j] = -float64(j%3 + 1)
		}
		m.Minimize(model.Dot(cost, xs))
		if k == 3 {
			for _, x := range xs {
				m.AddQuadObj(x, x, 1)
			}
		}
		p, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}
