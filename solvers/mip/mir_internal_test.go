package mip

import (
	"context"
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/simplex"
)

// flowPath is a two-node path: flow a1 enters node 1, which keeps 0.5 and passes a2 on to
// node 2, which needs 1.3; a1 is capped by an integer capacity y ∈ [0, 10] (a1 ≤ y,
// a general-integer variable upper bound); y is minimized. The LP optimum is y = 1.8,
// the integer one y = 2. No single row gives a violated MIR cut: node 1's row with the
// capacity substituted yields y ≥ 1, node 2's has no integer column; their sum, −a1 ≤
// −1.8, yields y ≥ 2.
func flowPath() *model.Problem {
	inf := math.Inf(1)
	// Columns a1, a2, y; rows −a1 + a2 ≤ −0.5, −a2 ≤ −1.3, a1 − y ≤ 0.
	return &model.Problem{Name: "flowpath", Sense: model.Minimize,
		ColCost: []float64{0, 0, 1}, ColLower: []float64{0, 0, 0}, ColUpper: []float64{inf, inf, 10},
		Integrality: []bool{false, false, true},
		RowLower:    []float64{-inf, -inf, -inf}, RowUpper: []float64{-0.5, -1.3, 0},
		AStart: []int{0, 2, 4, 5}, AIndex: []int{0, 2, 0, 1, 2}, AValue: []float64{-1, 1, 1, -1, -1}}
}

// capacityRow is one demand row −a1 ≤ −demand with a1 ≤ capacity·y, y ∈ [0, 10] integer:
// the MIR cut y ≥ ⌈demand/capacity⌉ comes from the demand row alone once the
// general-integer variable upper bound is substituted.
func capacityRow(demand, capacity float64) *model.Problem {
	inf := math.Inf(1)
	return &model.Problem{Name: "capacity", Sense: model.Minimize,
		ColCost: []float64{0, 1}, ColLower: []float64{0, 0}, ColUpper: []float64{inf, 10},
		Integrality: []bool{false, true},
		RowLower:    []float64{-inf, -inf}, RowUpper: []float64{-demand, 0},
		AStart: []int{0, 2, 3}, AIndex: []int{0, 1, 1}, AValue: []float64{-1, 1, -capacity}}
}

// separate solves p's LP relaxation and returns the c-MIR cuts at its optimum with
// maxAggr aggregation steps, the search and the LP point.
func separate(t *testing.T, p *model.Problem, maxAggr int) ([]cut, *search, []float64) {
	t.Helper()
	s := newSearch(context.Background(), p, &Solver{}, solvers.Options{})
	s.maxAggr = maxAggr
	r := s.solveLP(s.lo, s.up, nil, 0)
	if r.status != solvers.Optimal {
		t.Fatalf("%s: LP %s", p.Name, r.status)
	}
	rv := s.rows()
	return s.mirCuts(s.w, rv, s.findVUBs(s.w, rv), r.x), s, r.x
}

// violated returns the cuts that x violates by more than 1e-6.
func violated(cs []cut, x []float64) []cut {
	var out []cut
	for _, c := range cs {
		lhs := 0.0
		for k, j := range c.cols {
			lhs += c.coef[k] * x[j]
		}
		if lhs > c.rhs+1e-6 {
			out = append(out, c)
		}
	}
	return out
}

// checkValid checks that no point of p with integral y violates cut c: for each integer
// value of the integer columns in their bounds, the largest lhs − rhs over the continuous
// columns (an LP) is at most 1e-7.
func checkValid(t *testing.T, p *model.Problem, c cut) {
	t.Helper()
	intCol := -1
	for j, isInt := range p.Integrality {
		if isInt {
			intCol = j
		}
	}
	for v := p.ColLower[intCol]; v <= p.ColUpper[intCol]; v++ {
		q := p.Clone()
		q.Integrality = nil
		q.ColLower[intCol], q.ColUpper[intCol] = v, v
		q.Sense = model.Maximize
		clear(q.ColCost)
		for k, j := range c.cols {
			q.ColCost[j] = c.coef[k]
		}
		sol, err := simplex.New().Solve(context.Background(), q, solvers.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if sol.Status == solvers.Optimal && sol.Objective > c.rhs+1e-7 {
			t.Errorf("cut %+v is violated by a feasible point with column %d = %g (lhs %g)", c, intCol, v, sol.Objective)
		}
	}
}

// TestPathAggregatedMIR: on flowPath, single rows give no violated c-MIR cut; path
// aggregation finds one that is valid for every integer point and raises the LP bound
// from 1.8 to the integer optimum 2.
func TestPathAggregatedMIR(t *testing.T) {
	p := flowPath()
	if cs, _, x := separate(t, p, 0); len(violated(cs, x)) > 0 {
		t.Fatalf("single rows gave violated cuts %+v; the model does not test aggregation", violated(cs, x))
	}
	cs, s, x := separate(t, p, mirMaxAggr)
	if math.Abs(x[2]-1.8) > 1e-9 {
		t.Fatalf("LP optimum y = %g, want 1.8", x[2])
	}
	vs := violated(cs, x)
	if len(vs) == 0 {
		t.Fatalf("no violated cut from the aggregated rows (cuts %+v)", cs)
	}
	for _, c := range vs {
		checkValid(t, p, c)
	}
	s.addCuts(vs)
	r := s.solveLP(s.lo, s.up, nil, 0)
	if r.status != solvers.Optimal || math.Abs(r.obj-2) > 1e-7 {
		t.Errorf("bound with the cuts %s %g, want 2", r.status, r.obj)
	}
}

// TestGeneralIntegerVUB: a1 ≤ y with y a general integer is a variable upper bound, and
// substituting it into the demand row gives the cut y ≥ 2 from that row alone.
//
// The second case is a demand far below the capacity (sp150x300d's arcs carry 3049
// units; some nodes need 3): f₀ of β/δ is 1 − 0.005, which a MAXFRAC of 0.99 refused.
func TestGeneralIntegerVUB(t *testing.T) {
	for _, tc := range []struct{ demand, capacity float64 }{{1.8, 1}, {0.5, 100}} {
		p := capacityRow(tc.demand, tc.capacity)
		cs, s, x := separate(t, p, 0)
		rv := s.rows()
		if v, ok := s.findVUBs(s.w, rv)[0]; !ok || v.y != 1 || v.u != tc.capacity {
			t.Fatalf("%+v: variable upper bounds %v, want a1 ≤ %g·y", tc, s.findVUBs(s.w, rv), tc.capacity)
		}
		vs := violated(cs, x)
		if len(vs) == 0 {
			t.Fatalf("%+v: no violated cut at y = %g (cuts %+v)", tc, x[1], cs)
		}
		for _, c := range vs {
			checkValid(t, p, c)
		}
	}
}

// TestSelectCuts: of two parallel cuts (one a multiple of the other, with a weaker right-
// hand side) only the more efficacious is kept, first; a cut in another direction stays.
func TestSelectCuts(t *testing.T) {
	x := []float64{1, 1, 1}
	strong := cut{cols: []int{0, 1}, coef: []float64{1, 1}, rhs: 1}    // violation 1/√2
	weak := cut{cols: []int{0, 1}, coef: []float64{2, 2}, rhs: 3.5}    // same direction, violation 0.5/√8
	other := cut{cols: []int{1, 2}, coef: []float64{1, -1}, rhs: -0.5} // violation 0.5/√2
	got := selectCuts([]cut{weak, other, strong}, x)
	if len(got) != 2 || got[0].rhs != strong.rhs || got[1].rhs != other.rhs {
		t.Errorf("selected %+v, want the strong cut then the other one", got)
	}
}

// TestAgeCuts: a cut whose row is slack at cutMaxAge root LPs in a row leaves the LP
// (with its basic logical, so the basis stays one); a binding cut stays, and so does a
// slack cut younger than that.
func TestAgeCuts(t *testing.T) {
	s := newSearch(context.Background(), flowPath(), &Solver{}, solvers.Options{})
	m0 := s.w.NumRows()
	s.addCuts([]cut{{cols: []int{2}, coef: []float64{-1}, rhs: -2}, {cols: []int{0}, coef: []float64{1}, rhs: 100}})
	r := s.solveLP(s.lo, s.up, nil, 0)
	if r.status != solvers.Optimal || r.basis.Rows[m0] == solvers.Basic || r.basis.Rows[m0+1] != solvers.Basic {
		t.Fatalf("LP %s, basis rows %v: want the first cut binding and the second slack", r.status, r.basis.Rows)
	}
	ages := []int{0, 0}
	for round := 1; round <= cutMaxAge; round++ {
		r, ages = s.ageCuts(r, m0, ages)
		want := 2
		if round == cutMaxAge {
			want = 1
		}
		if got := s.w.NumRows() - m0; got != want || len(ages) != want || len(r.basis.Rows) != m0+want {
			t.Fatalf("round %d: %d cuts, ages %v, %d basis rows; want %d cuts", round, got, ages, len(r.basis.Rows), want)
		}
	}
	if s.w.RowUpper[m0] != -2 {
		t.Errorf("the binding cut did not stay: row bounds %v", s.w.RowUpper)
	}
	again := s.solveLP(s.lo, s.up, r.basis, 0)
	if again.status != solvers.Optimal || math.Abs(again.obj-2) > 1e-9 {
		t.Errorf("re-solve from the trimmed basis: %s %g, want optimal 2", again.status, again.obj)
	}
}

// TestFlowCoverFromMIR: an arc into a node that needs 0.05 and passes the rest on
// (x_a − x_b = 0.05, x_a ≤ 100·y_a, y_a binary). c-MIR on the row's ≤ side with δ = 100
// is the flow cover x_a ≤ 0.05·y_a + x_b, which the LP point (y_a = 0.0005) violates; its
// f₀ = 0.0005 is below the 0.01 the separator once required (sp150x300d's demands of
// 2–3 units on arcs of 3049 give f₀ ≈ 0.001). (The ≥ side's f₀ = 0.9995 is accepted
// since f₀ may reach mirMaxFrac = 0.99999; TestDicutFromMIR covers that side.)
func TestFlowCoverFromMIR(t *testing.T) {
	inf := math.Inf(1)
	p := &model.Problem{Name: "flowcover", Sense: model.Minimize,
		ColCost: []float64{0, 0, 1}, ColLower: []float64{0, 0, 0}, ColUpper: []float64{inf, inf, 1},
		Integrality: []bool{false, false, true},
		RowLower:    []float64{0.05, -inf}, RowUpper: []float64{0.05, 0},
		AStart: []int{0, 2, 3, 4}, AIndex: []int{0, 1, 0, 1}, AValue: []float64{1, 1, -1, -100}}
	cs, _, x := separate(t, p, 0)
	vs := violated(cs, x)
	if len(vs) == 0 {
		t.Fatalf("no violated cut at y = %g (cuts %+v)", x[2], cs)
	}
	for _, c := range vs {
		checkValid(t, p, c)
	}
}

// dicutNode is a node t that needs at least 1 unit beyond the 100 it passes on to a node
// t2 (columns x1, x2 into t, x3 from t to t2, each x ≤ 3049·y with y binary; Σy
// minimized). The LP spreads y thinly (y1 + y2 = 101/3049, y3 = 100/3049); every integer
// point opens an arc into t and the arc to t2, so the optimum is 2.
func dicutNode() *model.Problem {
	inf := math.Inf(1)
	const u = 3049
	// Columns x1, x2, x3, y1, y2, y3; rows t: x1 + x2 − x3 ≥ 1, t2: x3 = 100,
	// x_k − u·y_k ≤ 0.
	return &model.Problem{Name: "dicut", Sense: model.Minimize,
		ColCost:  []float64{0, 0, 0, 1, 1, 1},
		ColLower: []float64{0, 0, 0, 0, 0, 0}, ColUpper: []float64{inf, inf, inf, 1, 1, 1},
		Integrality: []bool{false, false, false, true, true, true},
		RowLower:    []float64{1, 100, -inf, -inf, -inf}, RowUpper: []float64{inf, 100, 0, 0, 0},
		AStart: []int{0, 2, 4, 7, 8, 9, 10},
		AIndex: []int{0, 2, 0, 3, 0, 1, 4, 2, 3, 4},
		AValue: []float64{1, 1, 1, 1, -1, 1, 1, -u, -u, -u}}
}

// TestDicutFromMIR: on dicutNode, once y3 = 1 (t2's row gives that cut), node t's row
// −x1 − x2 + x3 ≤ −1 with x3 at its lower bound, x1 and x2 at their variable upper bounds
// and δ = 3049 gives the cut-set inequality y1 + y2 ≥ 1 (an arc into a node with demand
// must be open). Its f₀ is 1 − 1/3049 ≈ 0.99967, which the separator refused while f₀
// had to stay below 0.999; t's row is an inequality, so there is no other side to read
// the cut from. Single-row c-MIR rounds must reach the optimum 2.
func TestDicutFromMIR(t *testing.T) {
	p := dicutNode()
	s := newSearch(context.Background(), p, &Solver{}, solvers.Options{})
	s.maxAggr = 0
	r := s.solveLP(s.lo, s.up, nil, 0)
	if r.status != solvers.Optimal || math.Abs(r.obj-201.0/3049) > 1e-9 {
		t.Fatalf("LP %s %g, want 201/3049", r.status, r.obj)
	}
	for round := 0; round < 10 && r.obj < 2-1e-7; round++ {
		rv := s.rows()
		vs := violated(s.mirCuts(s.w, rv, s.findVUBs(s.w, rv), r.x), r.x)
		if len(vs) == 0 {
			break
		}
		s.addCuts(vs)
		if r = s.solveLP(s.lo, s.up, nil, 0); r.status != solvers.Optimal {
			t.Fatalf("round %d: LP %s", round, r.status)
		}
	}
	if math.Abs(r.obj-2) > 1e-7 {
		t.Errorf("bound after single-row c-MIR rounds %g, want 2 (y = %v)", r.obj, r.x[3:])
	}
}
