package backendtest

import (
	"context"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Config describes the backend under test.
type Config struct {
	// New returns a fresh solver of the backend.
	New func() solvers.Solver
	// Name is the library's name in messages ("HiGHS", "lp_solve").
	Name string
	// Basis: the backend returns a basis, so a column at its upper bound must be
	// reported AtUpper.
	Basis bool
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

// LP2 is  opt  c·x + 10  s.t.  r1: x + y >= 2,  r2: x - y <= 1,  0 <= x <= 3,  y >= 0,
// with the optimum at the vertex r1 ∩ r2 = (1.5, 0.5) for c = (1, 2) (min) and
// c = (-1, -2) (max).
func LP2(t testing.TB, sense model.Sense) *model.Problem {
	t.Helper()
	m := model.New("lp2")
	x := m.Continuous(0, 3, "x")
	y := m.Continuous(0, math.Inf(1), "y")
	m.AddGe(model.Sum(x, y), 2, "r1")
	m.AddLe(x.E().Minus(y.E()), 1, "r2")
	c := 1.0
	if sense == model.Maximize {
		c = -1
	}
	m.SetObjective(model.Dot([]float64{c, 2 * c}, []model.Var{x, y}).Plus(model.Const(10)), sense)
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// DualsAreSensitivities checks the dual sign convention of package solvers
// independently of the backend: each row dual must equal the finite-difference
// derivative of the optimal value with respect to the row's active bound, for min and
// max, and reduced costs must be c − Aᵀy.
func DualsAreSensitivities(t *testing.T, c Config) {
	for _, sense := range []model.Sense{model.Minimize, model.Maximize} {
		t.Run(sense.String(), func(t *testing.T) {
			p := LP2(t, sense)
			sol := c.Solve(t, p, solvers.Options{})
			if sol.Status != solvers.Optimal {
				t.Fatalf("status %v", sol.Status)
			}
			want := 10 + 2.5
			if sense == model.Maximize {
				want = 10 - 2.5
			}
			if !Near(sol.Objective, want, 1e-9) {
				t.Fatalf("objective %g, want %g (offset included)", sol.Objective, want)
			}
			const h = 1e-3
			for i := range p.NumRows() {
				q := p.Clone()
				if !math.IsInf(q.RowLower[i], -1) {
					q.RowLower[i] += h
				}
				if !math.IsInf(q.RowUpper[i], 1) {
					q.RowUpper[i] += h
				}
				s2 := c.Solve(t, q, solvers.Options{})
				fd := (s2.Objective - sol.Objective) / h
				if !Near(sol.RowDual[i], fd, 1e-6) {
					t.Errorf("row %d: dual %g, finite difference %g", i, sol.RowDual[i], fd)
				}
			}
			for j := range p.NumCols() {
				d := p.ColCost[j]
				for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
					d -= p.AValue[k] * sol.RowDual[p.AIndex[k]]
				}
				if !Near(sol.ReducedCost[j], d, 1e-9) {
					t.Errorf("column %d: reduced cost %g, c − Aᵀy = %g", j, sol.ReducedCost[j], d)
				}
			}
		})
	}
}

// ReducedCostAtBound checks the sign of a reduced cost of a column at its upper bound,
// by finite differences on that bound (and, with Config.Basis, its basis status).
func ReducedCostAtBound(t *testing.T, c Config) {
	for _, sense := range []model.Sense{model.Minimize, model.Maximize} {
		t.Run(sense.String(), func(t *testing.T) {
			m := model.New("rc")
			x := m.Continuous(0, 1, "x")
			y := m.Continuous(0, math.Inf(1), "y")
			m.AddGe(model.Sum(x, y), 2, "r")
			s := float64(sense)
			m.SetObjective(model.Dot([]float64{s * 1, s * 2}, []model.Var{x, y}), sense)
			p, err := m.Compile()
			if err != nil {
				t.Fatal(err)
			}
			sol := c.Solve(t, p, solvers.Options{})
			q := p.Clone()
			q.ColUpper[0] += 1e-3
			fd := (c.Solve(t, q, solvers.Options{}).Objective - sol.Objective) / 1e-3
			if !Near(sol.ReducedCost[0], fd, 1e-6) || !Near(sol.ReducedCost[0], -s, 1e-9) {
				t.Fatalf("reduced cost of x at its upper bound: %g, finite difference %g, want %g", sol.ReducedCost[0], fd, -s)
			}
			if c.Basis && (sol.Basis == nil || sol.Basis.Cols[0] != solvers.AtUpper) {
				t.Fatalf("basis %+v, want x at upper", sol.Basis)
			}
		})
	}
}

// Statuses checks an infeasible LP, an unbounded LP and an infeasible MIP, and that an
// infeasible answer carries no point.
func Statuses(t *testing.T, c Config) {
	inf := math.Inf(1)
	build := func(f func(m *model.Model)) *model.Problem {
		m := model.New("s")
		f(m)
		p, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		p    *model.Problem
		want []solvers.Status
	}{
		{"infeasible", build(func(m *model.Model) {
			x := m.Continuous(0, inf, "x")
			y := m.Continuous(0, inf, "y")
			m.AddLe(model.Sum(x, y), 1, "a")
			m.AddGe(model.Sum(x, y), 2, "b")
			m.Minimize(x.E())
		}), []solvers.Status{solvers.Infeasible}},
		{"unbounded", build(func(m *model.Model) {
			x := m.Continuous(0, inf, "x")
			y := m.Continuous(0, inf, "y")
			m.AddGe(x.E().Minus(y.E()), 1, "a")
			m.Maximize(model.Sum(x, y))
		}), []solvers.Status{solvers.Unbounded, solvers.InfeasibleOrUnbounded}},
		{"mip-infeasible", build(func(m *model.Model) {
			x := m.Integer(0, 10, "x")
			m.AddEq(x.Mul(2), 3, "odd")
			m.Minimize(x.E())
		}), []solvers.Status{solvers.Infeasible}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sol := c.Solve(t, tc.p, solvers.Options{})
			ok := false
			for _, w := range tc.want {
				ok = ok || sol.Status == w
			}
			if !ok {
				t.Fatalf("status %v, want one of %v", sol.Status, tc.want)
			}
			if sol.Status == solvers.Infeasible && sol.X != nil {
				t.Fatalf("infeasible solution carries X = %v", sol.X)
			}
		})
	}
}

// Knapsack solves a 4-item 0/1 knapsack and compares objective and bound with the best
// of all 16 subsets; a MIP answer carries no duals.
func Knapsack(t *testing.T, c Config) {
	m := model.New("knap")
	w := []float64{5, 4, 3, 2}
	v := []float64{10, 7, 5, 3}
	xs := m.Vars1(4, 0, 1, model.Binary, "x%d")
	m.AddLe(model.Dot(w, xs), 9, "cap")
	m.Maximize(model.Dot(v, xs))
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	sol := c.Solve(t, p, solvers.Options{})
	best := 0.0
	for mask := range 16 {
		tw, tv := 0.0, 0.0
		for i := range 4 {
			if mask&(1<<i) != 0 {
				tw += w[i]
				tv += v[i]
			}
		}
		if tw <= 9 {
			best = max(best, tv)
		}
	}
	if sol.Status != solvers.Optimal || !Near(sol.Objective, best, 1e-9) || !Near(sol.BestBound, best, 1e-6) {
		t.Fatalf("status %v objective %g bound %g, want %g", sol.Status, sol.Objective, sol.BestBound, best)
	}
	if sol.RowDual != nil {
		t.Fatalf("MIP solution has duals")
	}
}

// HardMIP is a MIP that branch and bound cannot finish in well under a second: a
// market-split-like equality knapsack system, infeasible or nearly so.
func HardMIP(t testing.TB) *model.Problem {
	t.Helper()
	m := model.New("hard")
	const n, rows = 40, 4
	xs := m.Vars1(n, 0, 1, model.Binary, "x%d")
	seed := uint64(12345)
	next := func() float64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return float64(seed>>33%97 + 1)
	}
	for r := range rows {
		coef := make([]float64, n)
		sum := 0.0
		for j := range coef {
			coef[j] = next()
			sum += coef[j]
		}
		m.AddEq(model.Dot(coef, xs), math.Floor(sum/2)+0.0, "r"+string(rune('a'+r)))
	}
	m.Minimize(model.Sum(xs...))
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Cancellation stops HardMIP by cancelling its context (status other), by a context
// deadline and by Options.TimeLimit (time_limit), and starts nothing under a context
// cancelled before the call.
func Cancellation(t *testing.T, c Config) {
	p := HardMIP(t)
	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		sol, err := c.New().Solve(ctx, p, solvers.Options{TimeLimit: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		if ctx.Err() == nil {
			t.Fatalf("%s finished the hard MIP (status %v) before the cancel: the test model is too easy", c.Name, sol.Status)
		}
		if sol.Status != solvers.Other {
			t.Fatalf("status %v after cancel, want other", sol.Status)
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("solve ignored the cancel (%v)", time.Since(start))
		}
	})
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		sol, err := c.New().Solve(ctx, p, solvers.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if sol.Status != solvers.TimeLimit {
			t.Fatalf("status %v at the deadline, want time_limit", sol.Status)
		}
	})
	t.Run("already-cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		sol, err := c.New().Solve(ctx, LP2(t, model.Minimize), solvers.Options{})
		if err != nil || sol.Status != solvers.Other {
			t.Fatalf("status %v, err %v", sol.Status, err)
		}
	})
	t.Run("time-limit", func(t *testing.T) {
		sol := c.Solve(t, p, solvers.Options{TimeLimit: 100 * time.Millisecond})
		if sol.Status != solvers.TimeLimit {
			t.Fatalf("status %v, want time_limit", sol.Status)
		}
	})
}

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
