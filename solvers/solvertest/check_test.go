package solvertest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// solution builds the Solution a correct backend would return at x with row duals y.
func solution(p *model.Problem, x, y []float64) *solvers.Solution {
	sol := &solvers.Solution{
		Status: solvers.Optimal, X: x, RowActivity: p.RowActivity(x),
		Objective: p.Objective(x), RowDual: y,
	}
	if y != nil {
		sol.ReducedCost = reducedCosts(p, x, y)
	}
	sol.BestBound = sol.Objective
	return sol
}

func TestCheckPrimal(t *testing.T) {
	p := dietLP().problem() // min 2x + 3y, x + y ≥ 4, x + 3y ≥ 6, x, y ≥ 0
	tests := []struct {
		name    string
		sol     func() *solvers.Solution
		wantErr string // "" for nil
	}{
		{"optimum", func() *solvers.Solution { return solution(p, vec(3, 1), nil) }, ""},
		{"feasible, not optimal: CheckPrimal does not judge optimality",
			func() *solvers.Solution { return solution(p, vec(6, 0), nil) }, ""},
		{"within tolerance", func() *solvers.Solution { return solution(p, vec(3, 1-1e-9), nil) }, ""},
		{"no point", func() *solvers.Solution { return &solvers.Solution{Status: solvers.Optimal} }, "X is nil"},
		{"short X", func() *solvers.Solution { return &solvers.Solution{Status: solvers.Optimal, X: vec(3)} }, "len(X) = 1"},
		{"NaN", func() *solvers.Solution { s := solution(p, vec(3, 1), nil); s.X[1] = nan(); return s }, "not finite"},
		{"bound", func() *solvers.Solution { return solution(p, vec(5, -0.1), nil) }, "below its lower bound"},
		{"row", func() *solvers.Solution { return solution(p, vec(2, 1), nil) }, "row 0: Ax = 3 below"},
		{"stale RowActivity", func() *solvers.Solution {
			s := solution(p, vec(3, 1), nil)
			s.RowActivity[1] = 7
			return s
		}, "RowActivity = 7 but Ax = 6"},
		{"RowActivity length", func() *solvers.Solution {
			s := solution(p, vec(3, 1), nil)
			s.RowActivity = s.RowActivity[:1]
			return s
		}, "len(RowActivity) = 1"},
		{"objective", func() *solvers.Solution {
			s := solution(p, vec(3, 1), nil)
			s.Objective = 8
			return s
		}, "Objective = 8 but p.Objective(X) = 9"},
	}
	for _, tt := range tests {
		err := CheckPrimal(p, tt.sol(), DefaultTolerances())
		checkErr(t, tt.name, err, tt.wantErr)
	}

	q := dense{name: "int", c: vec(1, 1), lo: vec(0, 0), up: vec(5, 5), ints: []int{1}}.problem()
	checkErr(t, "integrality", CheckPrimal(q, solution(q, vec(0.5, 2.5), nil), DefaultTolerances()), "integer variable has x = 2.5")
	checkErr(t, "integral", CheckPrimal(q, solution(q, vec(0.5, 3+1e-9), nil), DefaultTolerances()), "")
}

func TestCheckLPCertificate(t *testing.T) {
	diet := dietLP().problem()
	wyndor := wyndorLP().problem() // a maximization
	ranged := dense{name: "ranged", c: vec(1, 1), rows: []row{rng(2, 6, 1, 2)}}.problem()
	tests := []struct {
		name    string
		p       *model.Problem
		sol     func(p *model.Problem) *solvers.Solution
		wantErr string
	}{
		{"diet certificate", diet, func(p *model.Problem) *solvers.Solution { return solution(p, vec(3, 1), vec(1.5, 0.5)) }, ""},
		{"wyndor certificate (max)", wyndor, func(p *model.Problem) *solvers.Solution { return solution(p, vec(2, 6), vec(0, 1.5, 1)) }, ""},
		{"no duals", diet, func(p *model.Problem) *solvers.Solution { return solution(p, vec(3, 1), nil) }, "no duals"},
		{"dual length", diet, func(p *model.Problem) *solvers.Solution {
			s := solution(p, vec(3, 1), vec(1.5, 0.5))
			s.RowDual = s.RowDual[:1]
			return s
		}, "len(RowDual) = 1"},
		{"wrong sign on a one-sided row (min)", diet,
			func(p *model.Problem) *solvers.Solution { return solution(p, vec(3, 1), vec(-1.5, 0.5)) },
			"row 0: multiplier -1.5 has the sign of an active upper bound, which is infinite"},
		{"min-sense signs in a max", wyndor,
			func(p *model.Problem) *solvers.Solution { return solution(p, vec(2, 6), vec(0, -1.5, -1)) },
			"row 1: multiplier -1.5 has the sign of an active lower bound, which is infinite"},
		{"wrong sign on a ranged row selects the inactive bound", ranged,
			func(p *model.Problem) *solvers.Solution { return solution(p, vec(0, 1), vec(-0.5)) },
			"row 0: multiplier -0.5 but activity 2 is 4 away from the bound 6"},
		{"dual on an inactive row", diet,
			func(p *model.Problem) *solvers.Solution { return solution(p, vec(6, 0), vec(1.5, 0.5)) },
			"row 0: multiplier 1.5 but activity 6 is 2 away from the bound 4"},
		{"reduced cost inconsistent with c − Aᵀy", diet, func(p *model.Problem) *solvers.Solution {
			s := solution(p, vec(3, 1), vec(1.5, 0.5))
			s.ReducedCost[0] = 0.25
			return s
		}, "column 0: ReducedCost = 0.25 but c + Qx − Aᵀy = 0"},
		{"duality gap", diet,
			func(p *model.Problem) *solvers.Solution { return solution(p, vec(3, 1), vec(1, 0.5)) },
			"duality gap: primal objective 9, dual objective"},
		{"NaN dual", diet, func(p *model.Problem) *solvers.Solution {
			s := solution(p, vec(3, 1), vec(1.5, 0.5))
			s.RowDual[0] = nan()
			return s
		}, "RowDual[0] = NaN"},
	}
	for _, tt := range tests {
		checkErr(t, tt.name, CheckLPCertificate(tt.p, tt.sol(tt.p), DefaultTolerances()), tt.wantErr)
	}
}

// CheckLPCertificate reports every violation, capped: a long list ends with a count.
func TestCheckLPCertificateCapsTheList(t *testing.T) {
	const n = 20
	d := dense{name: "many", c: fill(n, 1)}
	for j := range n {
		a := make([]float64, n)
		a[j] = 1
		d.rows = append(d.rows, ge(1, a...))
	}
	p := d.problem()
	err := CheckLPCertificate(p, solution(p, fill(n, 1), fill(n, -1)), DefaultTolerances())
	if err == nil || !strings.Contains(err.Error(), "more") {
		t.Fatalf("error %v, want a capped list", err)
	}
	if lines := strings.Count(err.Error(), "\n") + 1; lines > maxReported+1 {
		t.Errorf("%d lines reported, want at most %d", lines, maxReported+1)
	}
}

func checkErr(t *testing.T, name string, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: unexpected error:\n%v", name, err)
	case want != "" && err == nil:
		t.Errorf("%s: no error, want one containing %q", name, want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Errorf("%s: error\n%v\nwant it to contain %q", name, err, want)
	}
}

func TestToleranceDefaults(t *testing.T) {
	got := Config{FeasTol: 1e-5}.Tolerances()
	want := Tolerances{Obj: 1e-6, Feas: 1e-5, Dual: 1e-7, Int: 1e-6}
	if got != want {
		t.Errorf("Tolerances() = %+v, want %+v", got, want)
	}
}

// Every case's model is a valid problem and every case name appears in exactly one
// topic list, in the order CaseNames reports.
func TestCaseModelsAreValid(t *testing.T) {
	for _, d := range []dense{dietLP(), wyndorLP()} {
		if err := d.problem().Validate(); err != nil {
			t.Errorf("%s: %v", d.name, err)
		}
	}
	p, err := transportationModel().Compile()
	if err != nil || p.NumRows() != 7 || p.NumCols() != 12 {
		t.Errorf("transportation: %v rows/cols %d×%d", err, p.NumRows(), p.NumCols())
	}
	if !slices.Equal(CaseNames()[:3], []string{"lp_min_diet", "lp_max_wyndor", "lp_max_ge_rows"}) {
		t.Errorf("CaseNames() starts %v", CaseNames()[:3])
	}
}

func nan() float64 { var z float64; return z / z }

func ExampleCheckLPCertificate() {
	// max 3x + 5y s.t. x ≤ 4, 2y ≤ 12, 3x + 2y ≤ 18, x, y ≥ 0 (Wyndor).
	m := model.New("wyndor")
	x := m.Continuous(0, model.Inf, "x")
	y := m.Continuous(0, model.Inf, "y")
	m.AddLe(x.E(), 4, "plant1")
	m.AddLe(y.Mul(2), 12, "plant2")
	m.AddLe(x.Mul(3).Plus(y.Mul(2)), 18, "plant3")
	m.Maximize(x.Mul(3).Plus(y.Mul(5)))
	p, _ := m.Compile()

	// A backend's answer: x = (2, 6), duals ∂z*/∂b = (0, 3/2, 1), d = c − Aᵀy = 0.
	sol := &solvers.Solution{
		Status: solvers.Optimal, X: []float64{2, 6}, Objective: 36, BestBound: 36,
		RowDual: []float64{0, 1.5, 1}, ReducedCost: []float64{0, 0},
	}
	fmt.Println(CheckPrimal(p, sol, DefaultTolerances()))
	fmt.Println(CheckLPCertificate(p, sol, DefaultTolerances()))

	// The same duals in the opposite sign convention are rejected.
	sol.RowDual = []float64{0, -1.5, -1}
	sol.ReducedCost = []float64{6, 10} // c − Aᵀy for those y
	fmt.Println(CheckLPCertificate(p, sol, DefaultTolerances()) != nil)
	// Output:
	// <nil>
	// <nil>
	// true
}
