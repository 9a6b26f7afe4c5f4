package lexmax

import (
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/google/go-cmp/cmp"
)

func smallModel(t *testing.T) *model.Problem {
	t.Helper()
	m := model.New("small")
	x := m.Continuous(0, 4, "x")
	y := m.Integer(-1, 3, "y")
	m.AddLe(x.E().Plus(y.Mul(2)), 5, "r0")
	m.AddGe(x.Mul(3).Minus(y.E()), -2, "r1")
	m.Maximize(x.E())
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLPRoundTrip: newLP(p).problem() is p without its objective, appended columns and
// rows compile to a valid CSC, and truncate restores the original.
func TestLPRoundTrip(t *testing.T) {
	p := smallModel(t)
	l := newLP(p)
	want := p.Clone()
	want.Sense = model.Maximize
	clear(want.ColCost)
	if d := cmp.Diff(want, l.problem()); d != "" {
		t.Fatalf("newLP(p).problem() differs from p (-want +got):\n%s", d)
	}
	nc, nr := l.ncols(), l.nrows()
	z := l.addCol(0, 1, true, "z")
	l.addRow([]int{z, 0}, []float64{1, 0}, -inf, 1, "zero dropped")
	l.addRow([]int{1, z}, []float64{-1, 2}, 0, 0, "eq")
	l.setObjective(model.Minimize, []int{z, 0, z}, []float64{1, 2, 3})
	q := l.problem()
	if err := q.Validate(); err != nil {
		t.Fatalf("grown problem invalid: %v", err)
	}
	if q.NumCols() != 3 || q.NumRows() != 4 || q.NumNonzeros() != p.NumNonzeros()+3 || q.ColCost[z] != 4 || q.ColCost[0] != 2 || q.Integrality == nil || !q.Integrality[z] {
		t.Errorf("grown problem: %+v", q)
	}
	if got := q.RowActivity([]float64{1, 2, 1})[3]; got != 0 {
		t.Errorf("row eq at (1,2,1) = %g, want -2+2 = 0", got)
	}
	l.truncate(nc, nr)
	l.setObjective(model.Maximize, nil, nil)
	if d := cmp.Diff(want, l.problem()); d != "" {
		t.Errorf("after truncate (-want +got):\n%s", d)
	}
}

func TestFitStatus(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		s      solvers.BasisStatus
		lo, hi float64
		want   solvers.BasisStatus
	}{
		{solvers.Basic, 0, 1, solvers.Basic},
		{solvers.AtLower, 0, 1, solvers.AtLower},
		{solvers.AtUpper, 0, 1, solvers.AtUpper},
		{solvers.AtUpper, 0, inf, solvers.AtLower},
		{solvers.AtLower, -inf, 3, solvers.AtUpper},
		{solvers.AtLower, -inf, inf, solvers.AtZero},
		{solvers.AtZero, 0, inf, solvers.AtLower},
		{solvers.AtZero, -inf, inf, solvers.AtZero},
		{solvers.AtLower, 2, 2, solvers.Fixed},
		{solvers.Fixed, 0, 1, solvers.AtLower},
	}
	for _, tc := range tests {
		if got := fitStatus(tc.s, tc.lo, tc.hi); got != tc.want {
			t.Errorf("fitStatus(%v, %g, %g) = %v, want %v", tc.s, tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestExtendBasis(t *testing.T) {
	l := newLP(smallModel(t))
	b := &solvers.Basis{Cols: []solvers.BasisStatus{solvers.Basic, solvers.AtUpper}, Rows: []solvers.BasisStatus{solvers.AtUpper, solvers.Basic}}
	l.addCol(-inf, inf, false, "t")
	l.addCol(0, inf, false, "d")
	l.addRow([]int{2, 3}, []float64{1, 1}, 0, inf, "new1")
	l.addRow([]int{2, 3}, []float64{1, -1}, 0, inf, "new2")
	l.hi[1] = inf // y lost its upper bound: AtUpper must move to AtLower
	got := l.extendBasis(b, []solvers.BasisStatus{solvers.Basic}, []solvers.BasisStatus{solvers.AtLower})
	want := &solvers.Basis{
		Cols: []solvers.BasisStatus{solvers.Basic, solvers.AtLower, solvers.Basic, solvers.AtLower},
		Rows: []solvers.BasisStatus{solvers.AtUpper, solvers.Basic, solvers.AtLower, solvers.Basic},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("extendBasis (-want +got):\n%s", d)
	}
	if l.extendBasis(nil, nil, nil) != nil {
		t.Error("nil basis extended")
	}
	long := &solvers.Basis{Cols: make([]solvers.BasisStatus, 9)}
	if l.extendBasis(long, nil, nil) != nil {
		t.Error("a basis with more columns than the lp was extended")
	}
}

// TestNondegenerate: the unique optimum of max x + y s.t. x + y ≤ 2, x − y ≤ 0, x, y ∈
// [0, 5] is (1, 1) with both rows tight and both columns strictly inside: nondegenerate.
// Adding x ≤ 1 as a third tight row makes it degenerate.
func TestNondegenerate(t *testing.T) {
	m := model.New("v")
	x, y := m.Continuous(0, 5, "x"), m.Continuous(0, 5, "y")
	m.AddLe(x.E().Plus(y.E()), 2, "")
	m.AddLe(x.E().Minus(y.E()), 0, "")
	p, _ := m.Compile()
	l := newLP(p)
	sol := &solvers.Solution{X: []float64{1, 1}, RowActivity: []float64{2, 0}}
	if !nondegenerate(l, sol) {
		t.Error("counting: nondegenerate vertex reported degenerate")
	}
	sol.Basis = &solvers.Basis{Cols: []solvers.BasisStatus{solvers.Basic, solvers.Basic}, Rows: []solvers.BasisStatus{solvers.AtUpper, solvers.AtUpper}}
	if !nondegenerate(l, sol) {
		t.Error("with basis: nondegenerate vertex reported degenerate")
	}
	l.addRow([]int{0}, []float64{1}, -inf, 1, "")
	sol = &solvers.Solution{X: []float64{1, 1}, RowActivity: []float64{2, 0, 1}}
	if nondegenerate(l, sol) {
		t.Error("counting: degenerate vertex reported nondegenerate")
	}
	sol.Basis = &solvers.Basis{Cols: []solvers.BasisStatus{solvers.Basic, solvers.Basic}, Rows: []solvers.BasisStatus{solvers.AtUpper, solvers.AtUpper, solvers.Basic}}
	if nondegenerate(l, sol) {
		t.Error("with basis: a basic row at its bound reported nondegenerate")
	}
}

// TestAnalyzeOutcome covers one-hot detection and the upper bounds used to skip steps.
func TestAnalyzeOutcome(t *testing.T) {
	m := model.New("a")
	w := m.Vars1(3, 0, 1, model.Binary, "w%d")
	v := m.Vars1(2, 0, 1, model.Binary, "v%d")
	z := m.Integer(0, 7, "z")
	c := m.Continuous(0, 2, "c")
	m.AddEq(model.Sum(w...), 1, "exactly")        // exactly one of w
	m.AddLe(model.Sum(append(v, w[0])...), 1, "") // at most one of v0, v1, w0 (not all of w)
	m.SetBounds(w[2], 0, 0)                       // w2 cannot be 1
	base, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	rs, ri, rv := base.Transpose()
	info := func(e model.Expr) outcomeInfo {
		outs, err := compileOutcomes(Problem{Model: m, Outcomes: []model.Expr{e}}, base.NumCols())
		if err != nil {
			t.Fatal(err)
		}
		return analyzeOutcome(base, rs, ri, rv, outs[0])
	}
	// Exactly one of w with values 5, 9, 20 — but w2 is fixed at 0.
	e := model.Dot([]float64{5, 9, 20}, w)
	if got := info(e); got.oneHot == nil || got.oneHot.none || got.ub != 9 || !got.integral {
		t.Errorf("exactly-one outcome: %+v (one-hot %+v)", got, got.oneHot)
	}
	// Two of the w: the row covers a third column, so "none of them" (value 1) is possible.
	e = model.Dot([]float64{5, 9}, w[:2])
	e.AddConst(1)
	if got := info(e); got.oneHot == nil || !got.oneHot.none || got.ub != 10 {
		t.Errorf("subset of an exactly-one row: %+v", got)
	}
	// v0 − 3·v1 under an at-most-one row: values 0, 1, −3.
	if got := info(model.Dot([]float64{1, -3}, v)); got.oneHot == nil || !got.oneHot.none || got.ub != 1 {
		t.Errorf("at-most-one outcome: %+v", got)
	}
	// v0 + w1: no row covers both: not one-hot; interval bound 2.
	if got := info(v[0].E().Plus(w[1].E())); got.oneHot != nil || got.ub != 2 || !got.intOK || got.lo != 0 || got.hi != 2 {
		t.Errorf("uncovered binaries: %+v", got)
	}
	// 2z − 1: integer on [−1, 13].
	if got := info(z.Mul(2).Plus(model.Const(-1))); !got.intOK || got.lo != -1 || got.hi != 13 || !got.integral {
		t.Errorf("integer outcome: %+v", got)
	}
	// z/2 and c: not integer-valued.
	if got := info(z.Mul(0.5)); got.intOK || got.integral || got.why == "" {
		t.Errorf("half-integer outcome: %+v", got)
	}
	if got := info(c.E()); got.intOK || got.integral || got.ub != 2 {
		t.Errorf("continuous outcome: %+v", got)
	}
}

func TestRankMapGroupsWithinTolerance(t *testing.T) {
	st := &state{res: &Result{Tol: Tolerance{Abs: 1e-6, Rel: 1e-9}}}
	rm := st.newRankMapOf([]float64{3, 1, 1 + 1e-9, 2, 3 - 1e-8, 0.5})
	if d := cmp.Diff([]float64{0.5, 1, 2, 3 - 1e-8}, rm.starts); d != "" {
		t.Errorf("starts (-want +got):\n%s", d)
	}
	for v, want := range map[float64]int{0.5: 0, 1 + 1e-9: 1, 2: 2, 3: 3, 2.5: 2, 0: -1} {
		if got := rm.rank(v); got != want {
			t.Errorf("rank(%g) = %d, want %d", v, got, want)
		}
	}
}

func TestSalvageable(t *testing.T) {
	m := model.New("s")
	x := m.Integer(0, 3, "x")
	m.AddLe(x.E(), 2, "")
	m.Maximize(x.E())
	p, _ := m.Compile()
	ok := &solvers.Solution{Status: solvers.InfeasibleOrUnbounded, X: []float64{2}, Objective: 2, BestBound: 2}
	if !salvageable(p, ok, 1e-9) {
		t.Error("a checked-feasible point at zero gap was not accepted")
	}
	for name, s := range map[string]*solvers.Solution{
		"gap open":    {Status: solvers.InfeasibleOrUnbounded, X: []float64{2}, Objective: 2, BestBound: 3},
		"row broken":  {Status: solvers.Infeasible, X: []float64{3}, Objective: 3, BestBound: 3},
		"fractional":  {Status: solvers.Infeasible, X: []float64{1.5}, Objective: 1.5, BestBound: 1.5},
		"no point":    {Status: solvers.Infeasible, Objective: 2, BestBound: 2},
		"limit":       {Status: solvers.TimeLimit, X: []float64{2}, Objective: 2, BestBound: 2},
		"wrong value": {Status: solvers.Infeasible, X: []float64{1}, Objective: 2, BestBound: 2},
	} {
		if salvageable(p, s, 1e-9) {
			t.Errorf("%s: accepted", name)
		}
	}
}
