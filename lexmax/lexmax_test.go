package lexmax_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/lexmax"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/google/go-cmp/cmp"
)

func lpBackend(t *testing.T) solvers.Solver {
	t.Helper()
	ss := backends(t, false)
	if len(ss) == 0 {
		t.Fatal("no LP backend registered")
	}
	return ss[0]
}

func TestSolveRejectsBadInput(t *testing.T) {
	s := lpBackend(t)
	m, outs := degenerateLP().build()
	other := model.New("other")
	foreign := other.Continuous(0, 1, "z")
	tests := []struct {
		name string
		p    lexmax.Problem
		opt  lexmax.Options
		want string
	}{
		{"no model", lexmax.Problem{Outcomes: outs}, lexmax.Options{}, "no model"},
		{"no outcomes", lexmax.Problem{Model: m}, lexmax.Options{}, "no outcomes"},
		{"names", lexmax.Problem{Model: m, Outcomes: outs, Names: []string{"a"}}, lexmax.Options{}, "1 names for 3 outcomes"},
		{"foreign variable", lexmax.Problem{Model: m, Outcomes: []model.Expr{foreign.E()}}, lexmax.Options{}, "does not belong"},
		{"NaN coefficient", lexmax.Problem{Model: m, Outcomes: []model.Expr{m.VarAt(0).Mul(math.NaN())}}, lexmax.Options{}, "not finite"},
		{"negative tolerance", lexmax.Problem{Model: m, Outcomes: outs}, lexmax.Options{AbsTol: -1}, "AbsTol"},
		{"NaN tolerance", lexmax.Problem{Model: m, Outcomes: outs}, lexmax.Options{RelTol: math.NaN()}, "RelTol"},
		{"method", lexmax.Problem{Model: m, Outcomes: outs}, lexmax.Options{Method: 7}, "unknown method"},
		{"saturation", lexmax.Problem{Model: m, Outcomes: outs}, lexmax.Options{Saturation: -1}, "unknown saturation"},
		{"expweights on continuous outcomes", lexmax.Problem{Model: m, Outcomes: outs}, lexmax.Options{Method: lexmax.ExpWeights}, "continuous"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := lexmax.Solve(context.Background(), tc.p, s, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
	if _, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, nil, lexmax.Options{}); err == nil {
		t.Error("nil solver accepted")
	}
}

// degenerateLP is the model of testdata/degenerate_duals.md: 0 ≤ x1, x2 ≤ 1,
// 0 ≤ x3 ≤ 10, x1 + x3 ≤ 3, outcomes x1, x2, x3; lexmax (1, 1, 2).
func degenerateLP() denseLP {
	return denseLP{
		Lo: []float64{0, 0, 0}, Hi: []float64{1, 1, 10},
		A: [][]float64{{1, 0, 1}}, B: []float64{3},
		U: [][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, C: []float64{0, 0, 0},
	}
}

func TestParseRoundTrip(t *testing.T) {
	for _, m := range []lexmax.Method{lexmax.Ordered, lexmax.WaterFill, lexmax.ExpWeights} {
		got, err := lexmax.ParseMethod(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMethod(%q) = %v, %v", m, got, err)
		}
	}
	for _, s := range []lexmax.Saturation{lexmax.Probe, lexmax.Duals, lexmax.MILP} {
		got, err := lexmax.ParseSaturation(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSaturation(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := lexmax.ParseMethod("onion"); err == nil {
		t.Error("ParseMethod accepted onion")
	}
	if _, err := lexmax.ParseSaturation("guess"); err == nil {
		t.Error("ParseSaturation accepted guess")
	}
	if s := lexmax.Method(9).String(); s != "Method(9)" {
		t.Errorf("String of an unknown method = %q", s)
	}
}

// TestModelNotMutated: Solve compiles the caller's Model once and never changes it.
func TestModelNotMutated(t *testing.T) {
	s := lpBackend(t)
	for _, opt := range []lexmax.Options{{Method: lexmax.Ordered}, {Method: lexmax.WaterFill}} {
		m, outs := degenerateLP().build()
		m.Minimize(m.VarAt(0).E())
		before, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		outsBefore := make([]model.Expr, len(outs))
		for i, o := range outs {
			outsBefore[i] = o.Clone()
		}
		if _, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, opt); err != nil {
			t.Fatal(err)
		}
		after, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(before, after); d != "" {
			t.Errorf("%s changed the model (-before +after):\n%s", configName(opt), d)
		}
		if d := cmp.Diff(outsBefore, outs, cmp.Comparer(func(a, b model.Var) bool { return a == b })); d != "" {
			t.Errorf("%s changed the outcomes:\n%s", configName(opt), d)
		}
	}
}

// TestImpliedStepsAreSkipped: four outcomes fixed at their upper bound 1 and two that
// share x1 + x2 ≤ 1. After step 2 (θ_2 = 1) the sorted solution meets the sorted upper
// bounds from position 3 on, so steps 3..6 are implied: 2 solves instead of 6.
func TestImpliedStepsAreSkipped(t *testing.T) {
	d := denseLP{
		Lo: []float64{0, 0, 1, 1, 1, 1}, Hi: []float64{1, 1, 1, 1, 1, 1},
		A: [][]float64{{1, 1, 0, 0, 0, 0}}, B: []float64{1},
		C: make([]float64, 6),
	}
	for i := range 6 {
		row := make([]float64, 6)
		row[i] = 1
		d.U = append(d.U, row)
	}
	for _, s := range backends(t, false) {
		m, outs := d.build()
		res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, lexmax.Options{})
		if err != nil {
			t.Fatalf("%s: %v", s.Name(), err)
		}
		if maxDiff(res.Sorted, []float64{0.5, 0.5, 1, 1, 1, 1}) > cmpTol || res.Solves != 2 {
			t.Errorf("%s: sorted %v in %d solves, want [.5 .5 1 1 1 1] in 2", s.Name(), res.Sorted, res.Solves)
		}
	}
}

func TestInfeasibleAndUnbounded(t *testing.T) {
	for _, s := range backends(t, false) {
		m := model.New("infeasible")
		x := m.Continuous(0, 1, "x")
		m.AddGe(x.E(), 2, "")
		_, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: []model.Expr{x.E()}}, s, lexmax.Options{})
		if !errors.Is(err, lexmax.ErrInfeasible) {
			t.Errorf("%s, infeasible model: err = %v", s.Name(), err)
		}
		m = model.New("unbounded")
		x = m.Continuous(0, math.Inf(1), "x")
		y := m.Continuous(0, 1, "y")
		for _, opt := range []lexmax.Options{{Method: lexmax.Ordered}, {Method: lexmax.WaterFill}} {
			_, err = lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: []model.Expr{x.E(), x.E().Plus(y.E())}}, s, opt)
			if !errors.Is(err, lexmax.ErrUnbounded) {
				t.Errorf("%s %s, unbounded outcomes: err = %v", s.Name(), configName(opt), err)
			}
		}
	}
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, outs := degenerateLP().build()
	_, err := lexmax.Solve(ctx, lexmax.Problem{Model: m, Outcomes: outs}, lpBackend(t), lexmax.Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestToleranceReported(t *testing.T) {
	s := lpBackend(t)
	m, outs := degenerateLP().build()
	res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, lexmax.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Ordered freezes θ_k, a sum of k ≤ 2 outcomes, with slack k·AbsTol.
	if res.Tol.Abs != lexmax.DefaultAbsTol || res.Tol.Rel != lexmax.DefaultRelTol || res.Tol.MaxSlack < lexmax.DefaultAbsTol || res.Tol.MaxSlack > 2*lexmax.DefaultAbsTol {
		t.Errorf("Tol = %+v, want the defaults with MaxSlack in [AbsTol, 2·AbsTol]", res.Tol)
	}
	if res.IntegerColumns != 0 || res.Integrality != 0 || res.Tol.MIPGap != 0 {
		t.Errorf("an LP reported integer columns %d, integrality %g, MIP gap %g", res.IntegerColumns, res.Integrality, res.Tol.MIPGap)
	}
	m, outs = degenerateLP().build()
	res, err = lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, lexmax.Options{AbsTol: 1e-4, RelTol: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	// Freezes of θ_1 = 1 and θ_2 = 2: slack max(k·1e-4, 1e-3·θ_k) ∈ {1e-3, 2e-3}.
	if res.Tol.Abs != 1e-4 || res.Tol.Rel != 1e-3 || math.Abs(res.Tol.MaxSlack-2e-3) > 1e-6 {
		t.Errorf("Tol = %+v", res.Tol)
	}
	if len(res.Levels) != 3 || res.Solution == nil || len(res.Solution.X) != 3 || len(res.Solution.RowActivity) != 1 {
		t.Fatalf("result shape: %+v", res)
	}
	for i, l := range res.Levels {
		if math.Abs(l-res.Solution.X[i]) > 1e-12 {
			t.Errorf("level %d = %g, but u_%d(X) = %g", i, l, i, res.Solution.X[i])
		}
	}
}

// TestMIPOnlyOptionsNeedAMIPBackend: the MILP saturation test and exponential weights
// refuse a backend that reports no MIP support, and a model with integer variables is
// refused outright.
func TestMIPOnlyOptionsNeedAMIPBackend(t *testing.T) {
	for _, s := range backends(t, false) {
		if s.(solvers.Describer).Capabilities().MIP {
			continue
		}
		m, outs := degenerateLP().build()
		_, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, lexmax.Options{Method: lexmax.WaterFill, Saturation: lexmax.MILP})
		if err == nil || !strings.Contains(err.Error(), "MIP backend") {
			t.Errorf("%s milp: err = %v", s.Name(), err)
		}
		d := degenerateLP()
		d.Integer = true
		m, outs = d.build()
		_, err = lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, lexmax.Options{})
		if err == nil || !strings.Contains(err.Error(), "does not solve MIPs") {
			t.Errorf("%s on a MIP: err = %v", s.Name(), err)
		}
	}
}

// TestPlanExpWeights checks the applicability and range rules of exponential weights
// without solving.
func TestPlanExpWeights(t *testing.T) {
	// Integer outcomes 0..r on n outcomes: m = r+1 values, k = n+1.
	intModel := func(n int, r float64) lexmax.Problem {
		m := model.New("int")
		var outs []model.Expr
		for range n {
			outs = append(outs, m.Integer(0, r, "").E())
		}
		return lexmax.Problem{Model: m, Outcomes: outs}
	}
	plan, err := lexmax.PlanExpWeights(intModel(3, 3), lexmax.Options{})
	if err != nil || plan.Base != 4 || plan.Values != 4 || math.Abs(plan.Orders-3*math.Log10(4)) > 1e-12 {
		t.Errorf("3 outcomes in 0..3: %+v, %v", plan, err)
	}
	var wr *lexmax.WeightRangeError
	_, err = lexmax.PlanExpWeights(intModel(10, 100), lexmax.Options{})
	if !errors.As(err, &wr) || !wr.Representable || wr.Values != 101 || math.Abs(wr.Orders-100*math.Log10(11)) > 1e-9 || math.Abs(wr.Resolvable-6) > 1e-9 {
		t.Errorf("10 outcomes in 0..100: %v (%+v)", err, wr)
	} else if !strings.Contains(err.Error(), "98.1 orders short") {
		t.Errorf("message %q does not say by how much", err)
	}
	_, err = lexmax.PlanExpWeights(intModel(10, 1000), lexmax.Options{})
	if !errors.As(err, &wr) || wr.Representable || !strings.Contains(err.Error(), "float64") {
		t.Errorf("10 outcomes in 0..1000: %v", err)
	}
	// A finer resolution widens what fits.
	if _, err := lexmax.PlanExpWeights(intModel(3, 10), lexmax.Options{ExpResolution: 1e-12}); err != nil {
		t.Errorf("resolution 1e-12: %v", err)
	}
	if _, err := lexmax.PlanExpWeights(intModel(3, 3), lexmax.Options{ExpBase: 3}); err == nil || !strings.Contains(err.Error(), "must exceed") {
		t.Errorf("ExpBase 3 for 3 outcomes: %v", err)
	}
	var na *lexmax.NotApplicableError
	m, outs := degenerateLP().build()
	if _, err := lexmax.PlanExpWeights(lexmax.Problem{Model: m, Outcomes: outs, Names: []string{"a", "b", "c"}}, lexmax.Options{}); !errors.As(err, &na) || na.Name != "a" {
		t.Errorf("continuous outcomes: %v", err)
	}
	// Unbounded integer outcome.
	mu := model.New("u")
	xu := mu.Integer(0, math.Inf(1), "x")
	if _, err := lexmax.PlanExpWeights(lexmax.Problem{Model: mu, Outcomes: []model.Expr{xu.E()}}, lexmax.Options{}); !errors.As(err, &na) {
		t.Errorf("unbounded integer outcome: %v", err)
	}
	// One-hot outcomes: only the selectable values count, whatever the coefficients.
	mo := model.New("onehot")
	w := mo.Vars2(2, 3, 0, 1, model.Binary, "w[%d,%d]")
	var oh []model.Expr
	for i := range 2 {
		mo.AddEq(model.Sum(w[i]...), 1, "")
		oh = append(oh, model.Dot([]float64{0.25, 7, 1e6}, w[i]))
	}
	plan, err = lexmax.PlanExpWeights(lexmax.Problem{Model: mo, Outcomes: oh}, lexmax.Options{})
	if err != nil || plan.Values != 3 || plan.Base != 3 {
		t.Errorf("one-hot outcomes: %+v, %v", plan, err)
	}
}

// brokenSolver answers every solve with the same canned solution (or error).
type brokenSolver struct {
	sol func(p *model.Problem) *solvers.Solution
	err error
}

func (brokenSolver) Name() string { return "broken" }
func (b brokenSolver) Solve(_ context.Context, p *model.Problem, _ solvers.Options) (*solvers.Solution, error) {
	if b.err != nil {
		return nil, b.err
	}
	return b.sol(p), nil
}

// TestBrokenBackendsDoNotPanic: a backend that fails, returns short vectors, NaNs or
// limits gives an error or a result, never a panic or an endless loop.
func TestBrokenBackendsDoNotPanic(t *testing.T) {
	nan := math.NaN()
	cases := map[string]brokenSolver{
		"error": {err: errors.New("out of memory")},
		"short X": {sol: func(p *model.Problem) *solvers.Solution {
			return &solvers.Solution{Status: solvers.Optimal, X: []float64{1}}
		}},
		"time limit": {sol: func(p *model.Problem) *solvers.Solution { return &solvers.Solution{Status: solvers.TimeLimit} }},
		"NaN": {sol: func(p *model.Problem) *solvers.Solution {
			x := make([]float64, p.NumCols())
			for j := range x {
				x[j] = nan
			}
			return &solvers.Solution{Status: solvers.Optimal, X: x, RowDual: []float64{nan}, Objective: nan, BestBound: nan}
		}},
		"zeros with short duals": {sol: func(p *model.Problem) *solvers.Solution {
			return &solvers.Solution{Status: solvers.Optimal, X: make([]float64, p.NumCols()), RowDual: []float64{1}, RowActivity: []float64{0}}
		}},
	}
	for name, s := range cases {
		for _, opt := range allConfigs() {
			m, outs := degenerateLP().build()
			res, err := lexmax.Solve(context.Background(), lexmax.Problem{Model: m, Outcomes: outs}, s, opt)
			if err == nil && (res == nil || len(res.Levels) != 3) {
				t.Errorf("%s %s: no error and result %+v", name, configName(opt), res)
			}
		}
	}
}
