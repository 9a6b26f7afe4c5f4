package simplex_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/simplex"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

func TestConformance(t *testing.T) {
	solvertest.Run(t, func() solvers.Solver { return simplex.New() }, solvertest.Config{Duals: true, Basis: true})
}

func TestConformanceWithoutPresolveAndScaling(t *testing.T) {
	solvertest.Run(t, func() solvers.Solver { return &simplex.Solver{NoPresolve: true, NoScaling: true} }, solvertest.Config{Duals: true, Basis: true})
}

func TestRegistered(t *testing.T) {
	s, err := solvers.Get("simplex")
	if err != nil {
		t.Fatal(err)
	}
	d, ok := s.(solvers.Describer)
	if !ok {
		t.Fatal("simplex does not implement solvers.Describer")
	}
	if c := d.Capabilities(); !c.LP || !c.Duals || !c.Basis || c.MIP || c.QP {
		t.Errorf("Capabilities() = %+v, want LP with duals and basis", c)
	}
	if d.Version() == "" || s.Name() != "simplex" {
		t.Errorf("Name %q, Version %q", s.Name(), d.Version())
	}
}

func compile(t testing.TB, m *model.Model) *model.Problem {
	t.Helper()
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRejectsMIPAndQP(t *testing.T) {
	m := model.New("mip")
	x := m.Integer(0, 3, "x")
	m.Maximize(x.E())
	mip := compile(t, m)
	m = model.New("qp")
	y := m.Continuous(-1, 1, "y")
	m.Minimize(y.E())
	m.AddQuadObj(y, y, 1)
	qp := compile(t, m)
	for _, tc := range []struct {
		p    *model.Problem
		kind string
	}{{mip, "MIP"}, {qp, "QP"}} {
		sol, err := simplex.New().Solve(context.Background(), tc.p, solvers.Options{})
		if err == nil || !errors.Is(err, simplex.ErrNotLP) || !strings.Contains(err.Error(), tc.kind) {
			t.Errorf("%s: got (%v, %v), want an error naming %s and wrapping ErrNotLP", tc.p.Name, sol, err, tc.kind)
		}
	}
	bad := mip.Clone()
	bad.Integrality = nil
	bad.ColLower[0] = 5 // lower > upper
	if _, err := simplex.New().Solve(context.Background(), bad, solvers.Options{}); err == nil {
		t.Error("an invalid problem was accepted")
	}
}

// TestKnownLPs checks primal values, duals, reduced costs and the basis against values
// derived by hand.
func TestKnownLPs(t *testing.T) {
	type want struct {
		obj   float64
		x, y  []float64
		d     []float64
		basis *solvers.Basis
	}
	cases := []struct {
		name  string
		build func(m *model.Model)
		want  want
	}{{
		// min −x − y, x + 2y ≤ 4, 3x + y ≤ 6: vertex (1.6, 1.2); both rows at their upper
		// bound with duals −0.4 and −0.2 (∂z/∂b ≤ 0 for a minimization).
		name: "min two rows",
		build: func(m *model.Model) {
			x, y := m.Continuous(0, model.Inf, "x"), m.Continuous(0, model.Inf, "y")
			m.AddLe(model.Sum(x).Plus(y.Mul(2)), 4, "r1")
			m.AddLe(x.Mul(3).Plus(y.E()), 6, "r2")
			m.Minimize(x.Mul(-1).Plus(y.Mul(-1)))
		},
		want: want{obj: -2.8, x: []float64{1.6, 1.2}, y: []float64{-0.4, -0.2}, d: []float64{0, 0},
			basis: &solvers.Basis{Cols: []solvers.BasisStatus{solvers.Basic, solvers.Basic}, Rows: []solvers.BasisStatus{solvers.AtUpper, solvers.AtUpper}}},
	}, {
		// The same as a maximization: every sign flips.
		name: "max two rows",
		build: func(m *model.Model) {
			x, y := m.Continuous(0, model.Inf, "x"), m.Continuous(0, model.Inf, "y")
			m.AddLe(model.Sum(x).Plus(y.Mul(2)), 4, "r1")
			m.AddLe(x.Mul(3).Plus(y.E()), 6, "r2")
			m.Maximize(x.E().Plus(y.E()))
		},
		want: want{obj: 2.8, x: []float64{1.6, 1.2}, y: []float64{0.4, 0.2}, d: []float64{0, 0}},
	}, {
		// Ranged row 2 ≤ x + y ≤ 3 at its lower bound, x ∈ [0, 1] at its upper with cost 1,
		// y free with cost 2: x = 1, y = 1; y_row = 2, d_x = 1 − 2 = −1 (at upper).
		name: "ranged row free column",
		build: func(m *model.Model) {
			x, y := m.Continuous(0, 1, "x"), m.Continuous(math.Inf(-1), model.Inf, "y")
			m.AddRange(x.E().Plus(y.E()), 2, 3, "r")
			m.Minimize(x.E().Plus(y.Mul(2)))
		},
		want: want{obj: 3, x: []float64{1, 1}, y: []float64{2}, d: []float64{-1, 0},
			basis: &solvers.Basis{Cols: []solvers.BasisStatus{solvers.AtUpper, solvers.Basic}, Rows: []solvers.BasisStatus{solvers.AtLower}}},
	}, {
		// A fixed column and an equality row: x = 2 fixed, x + y = 5 → y = 3; cost 3y + x
		// gives y_row = 3 and d_x = 1 − 3 = −2 (a fixed column may have either sign).
		name: "fixed column equality row",
		build: func(m *model.Model) {
			x, y := m.Continuous(2, 2, "x"), m.Continuous(0, 10, "y")
			m.AddEq(x.E().Plus(y.E()), 5, "r")
			m.Minimize(x.E().Plus(y.Mul(3)))
		},
		want: want{obj: 11, x: []float64{2, 3}, y: []float64{3}, d: []float64{-2, 0}},
	}, {
		// Offset and negative lower bounds: min x + 4 with x ≥ −3 and no rows.
		name: "no rows",
		build: func(m *model.Model) {
			x := m.Continuous(-3, 7, "x")
			m.Minimize(x.E().Plus(model.Const(4)))
		},
		want: want{obj: 1, x: []float64{-3}, y: []float64{}, d: []float64{1}},
	}}
	for _, tc := range cases {
		for _, s := range []*simplex.Solver{simplex.New(), {NoPresolve: true}} {
			t.Run(tc.name, func(t *testing.T) {
				m := model.New(tc.name)
				tc.build(m)
				p := compile(t, m)
				sol, err := s.Solve(context.Background(), p, solvers.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if sol.Status != solvers.Optimal {
					t.Fatalf("status %v", sol.Status)
				}
				near := func(what string, got, want []float64) {
					t.Helper()
					if len(got) != len(want) {
						t.Fatalf("%s: %v, want %v", what, got, want)
					}
					for i := range got {
						if math.Abs(got[i]-want[i]) > 1e-9 {
							t.Errorf("%s = %v, want %v", what, got, want)
							return
						}
					}
				}
				if math.Abs(sol.Objective-tc.want.obj) > 1e-9 {
					t.Errorf("objective %g, want %g", sol.Objective, tc.want.obj)
				}
				near("x", sol.X, tc.want.x)
				near("row duals", sol.RowDual, tc.want.y)
				near("reduced costs", sol.ReducedCost, tc.want.d)
				near("row activity", sol.RowActivity, p.RowActivity(tc.want.x))
				if tc.want.basis != nil {
					if got := sol.Basis; got == nil || !equalStatuses(got.Cols, tc.want.basis.Cols) || !equalStatuses(got.Rows, tc.want.basis.Rows) {
						t.Errorf("basis %+v, want %+v", got, tc.want.basis)
					}
				}
			})
		}
	}
}

func equalStatuses(a, b []solvers.BasisStatus) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// scheduleLP is the time-indexed transportation-like LP of the scheduling formulations:
// jobs × slots, Σ_t x_it = p_i, Σ_i x_it ≤ C_t, x ≥ 0, cost w_i·t. The data is a
// deterministic function of the sizes.
func scheduleLP(t testing.TB, jobs, slots int) *model.Problem {
	t.Helper()
	m := model.New("schedule")
	x := m.Vars2(jobs, slots, 0, model.Inf, model.Continuous, "")
	var obj model.Expr
	total := 0.0
	for i := range jobs {
		p := float64(1 + (7*i+3)%9)
		total += p
		w := float64(1 + (5*i+1)%7)
		for s := range slots {
			obj.AddTerm(x[i][s], w*float64(s+1))
		}
		m.AddEq(model.Sum(x[i]...), p, "")
	}
	capacity := math.Ceil(1.3 * total / float64(slots))
	for s := range slots {
		var e model.Expr
		for i := range jobs {
			e.AddTerm(x[i][s], 1)
		}
		m.AddLe(e, capacity, "")
	}
	m.Minimize(obj)
	return compile(t, m)
}

// TestWarmStartLexmaxPattern follows what lexmax does between solves: the optimal value
// becomes a constraint (a new row), the objective changes, a bound moves. Each warm start
// must reach the cold optimum, and take fewer iterations than the cold solve.
func TestWarmStartLexmaxPattern(t *testing.T) {
	p := scheduleLP(t, 30, 12)
	s := simplex.New()
	first, err := s.Solve(context.Background(), p, solvers.Options{})
	if err != nil || first.Status != solvers.Optimal {
		t.Fatalf("%v %v", first.Status, err)
	}
	// Fix the objective at its optimum (one new dense row), then minimize the work done
	// in the last slots.
	q := addRow(p, p.ColCost, math.Inf(-1), first.Objective*(1+1e-9))
	for j := range q.ColCost {
		q.ColCost[j] = 0
		if slot := j % 12; slot >= 9 {
			q.ColCost[j] = 1
		}
	}
	q.ColUpper[5] = 0.5
	cold, err := s.Solve(context.Background(), q, solvers.Options{})
	if err != nil || cold.Status != solvers.Optimal {
		t.Fatalf("cold: %v %v", cold.Status, err)
	}
	warm, err := s.Solve(context.Background(), q, solvers.Options{WarmStart: first.Basis})
	if err != nil || warm.Status != solvers.Optimal {
		t.Fatalf("warm: %v %v", warm.Status, err)
	}
	if math.Abs(warm.Objective-cold.Objective) > 1e-7*math.Max(1, math.Abs(cold.Objective)) {
		t.Errorf("warm objective %.10g, cold %.10g", warm.Objective, cold.Objective)
	}
	if err := solvertest.CheckLPCertificate(q, warm, strict); err != nil {
		t.Error(err)
	}
	if warm.Iterations >= cold.Iterations {
		t.Errorf("warm start took %d iterations, cold %d", warm.Iterations, cold.Iterations)
	}
	t.Logf("cold %d iterations, warm %d", cold.Iterations, warm.Iterations)
}

// addRow returns p with one more row lo ≤ Σ coef_j x_j ≤ up.
func addRow(p *model.Problem, coef []float64, lo, up float64) *model.Problem {
	q := p.Clone()
	m := p.NumRows()
	q.AIndex, q.AValue = nil, nil
	q.AStart = []int{0}
	for j := range p.NumCols() {
		q.AIndex = append(q.AIndex, p.AIndex[p.AStart[j]:p.AStart[j+1]]...)
		q.AValue = append(q.AValue, p.AValue[p.AStart[j]:p.AStart[j+1]]...)
		if coef[j] != 0 {
			q.AIndex = append(q.AIndex, m)
			q.AValue = append(q.AValue, coef[j])
		}
		q.AStart = append(q.AStart, len(q.AIndex))
	}
	q.RowLower = append(q.RowLower, lo)
	q.RowUpper = append(q.RowUpper, up)
	if q.RowNames != nil {
		q.RowNames = append(q.RowNames, "")
	}
	return q
}

// TestWarmStartBadBases: a basis with too many or too few basic variables, a singular
// one, one with statuses that do not match the bounds and one for another problem all
// still lead to the optimum.
func TestWarmStartBadBases(t *testing.T) {
	p := scheduleLP(t, 8, 5)
	s := simplex.New()
	ref, err := s.Solve(context.Background(), p, solvers.Options{})
	if err != nil || ref.Status != solvers.Optimal {
		t.Fatal(ref.Status, err)
	}
	n, m := p.NumCols(), p.NumRows()
	all := func(k int, st solvers.BasisStatus) []solvers.BasisStatus {
		v := make([]solvers.BasisStatus, k)
		for i := range v {
			v[i] = st
		}
		return v
	}
	bases := map[string]*solvers.Basis{
		"all basic":      {Cols: all(n, solvers.Basic), Rows: all(m, solvers.Basic)},
		"none basic":     {Cols: all(n, solvers.AtLower), Rows: all(m, solvers.AtUpper)},
		"wrong statuses": {Cols: all(n, solvers.AtUpper), Rows: all(m, solvers.AtZero)},
		"rows missing":   {Cols: ref.Basis.Cols, Rows: ref.Basis.Rows[:2]},
		"other problem":  {Cols: all(n+3, solvers.Basic)},
		"singular (one job's slots)": {Cols: func() []solvers.BasisStatus {
			c := all(n, solvers.AtLower)
			for k := 0; k < 5; k++ { // the 5 slot columns of job 0 and job 1: dependent
				c[k] = solvers.Basic
				c[5+k] = solvers.Basic
			}
			return c
		}(), Rows: append(all(m-3, solvers.AtUpper), all(3, solvers.Basic)...)},
	}
	for name, b := range bases {
		t.Run(name, func(t *testing.T) {
			sol, err := s.Solve(context.Background(), p, solvers.Options{WarmStart: b})
			if err != nil || sol.Status != solvers.Optimal {
				t.Fatalf("%v %v", sol.Status, err)
			}
			if math.Abs(sol.Objective-ref.Objective) > 1e-7*math.Max(1, math.Abs(ref.Objective)) {
				t.Errorf("objective %.10g, want %.10g", sol.Objective, ref.Objective)
			}
			if err := solvertest.CheckLPCertificate(p, sol, strict); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestLimitsAndContext(t *testing.T) {
	p := scheduleLP(t, 60, 20)
	s := simplex.New()
	sol, err := s.Solve(context.Background(), p, solvers.Options{IterationLimit: 5})
	if err != nil || sol.Status != solvers.IterationLimit || sol.Iterations > 5 {
		t.Errorf("iteration limit: %v after %d iterations, %v", sol.Status, sol.Iterations, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if sol, err := s.Solve(ctx, p, solvers.Options{}); err != nil || sol.Status != solvers.Other {
		t.Errorf("cancelled context: %v %v", sol.Status, err)
	}
	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if sol, err := s.Solve(ctx, p, solvers.Options{}); err != nil || sol.Status != solvers.TimeLimit {
		t.Errorf("expired deadline: %v %v", sol.Status, err)
	}
	if sol, err := s.Solve(context.Background(), p, solvers.Options{TimeLimit: time.Nanosecond}); err != nil || sol.Status != solvers.TimeLimit {
		t.Errorf("1ns time limit: %v %v", sol.Status, err)
	}
}
