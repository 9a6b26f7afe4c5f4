package certificate

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

var inf = math.Inf(1)

// lp is   min −2x − y   s.t. x + y ≤ 4,  0 ≤ x ≤ 3,  y ≥ 0.
// Its optimum is x = 3, y = 1, z = −7, with row dual −1 (∂z*/∂b) and reduced costs
// d = c − Aᵀy = (−1, 0): x sits at its upper bound, y is basic.
func lp() *model.Problem {
	return &model.Problem{
		Sense:    model.Minimize,
		ColCost:  []float64{-2, -1},
		ColLower: []float64{0, 0},
		ColUpper: []float64{3, inf},
		RowLower: []float64{-inf},
		RowUpper: []float64{4},
		AStart:   []int{0, 1, 2},
		AIndex:   []int{0, 0},
		AValue:   []float64{1, 1},
	}
}

func lpOptimum() *solvers.Solution {
	return &solvers.Solution{Status: solvers.Optimal, X: []float64{3, 1}, RowActivity: []float64{4},
		RowDual: []float64{-1}, ReducedCost: []float64{-1, 0}, Objective: -7}
}

// qp is   min x² + y² − 2x − 4y   s.t. x + y ≤ 1, x and y free: the projection of (1, 2)
// onto the half-plane, (0, 1), z = −3, row dual −2, reduced costs 0.
func qp() *model.Problem {
	p := lp()
	p.ColCost = []float64{-2, -4}
	p.ColLower = []float64{-inf, -inf}
	p.ColUpper = []float64{inf, inf}
	p.RowUpper = []float64{1}
	p.QStart, p.QIndex, p.QValue = []int{0, 1, 2}, []int{0, 1}, []float64{2, 2}
	return p
}

func qpOptimum() *solvers.Solution {
	return &solvers.Solution{Status: solvers.Optimal, X: []float64{0, 1}, RowActivity: []float64{1},
		RowDual: []float64{-2}, ReducedCost: []float64{0, 0}, Objective: -3}
}

// failing returns the names of the measures that failed.
func failing(r *Result) []string {
	var out []string
	for _, m := range r.Measures {
		if !m.OK() {
			out = append(out, m.Name)
		}
	}
	return out
}

func TestPrimal(t *testing.T) {
	mip := lp()
	mip.Integrality = []bool{true, true}
	tests := []struct {
		name string
		p    *model.Problem
		edit func(s *solvers.Solution)
		want []string // measures that must fail; nil: all pass
	}{
		{"optimum", lp(), nil, nil},
		{"bound", lp(), func(s *solvers.Solution) {
			s.X = []float64{3.5, 0.5}
			s.Objective = -7.5
			s.RowActivity = []float64{4}
		}, []string{Bounds}},
		{"negative", lp(), func(s *solvers.Solution) {
			s.X = []float64{3, -0.25}
			s.Objective = -5.75
			s.RowActivity = []float64{2.75}
		}, []string{Bounds}},
		{"row", lp(), func(s *solvers.Solution) {
			s.X = []float64{3, 2}
			s.Objective = -8
			s.RowActivity = []float64{5}
		}, []string{Rows}},
		{"row activity not Ax", lp(), func(s *solvers.Solution) { s.RowActivity = []float64{3} }, []string{RowActivity}},
		{"objective not recomputed", lp(), func(s *solvers.Solution) { s.Objective = -6 }, []string{Objective}},
		{"integral", mip, nil, nil},
		{"integrality", mip, func(s *solvers.Solution) {
			s.X = []float64{2.5, 1.5}
			s.Objective = -6.5
		}, []string{Integrality}},
		{"within tolerance", lp(), func(s *solvers.Solution) {
			s.X = []float64{3 + 1e-9, 1}
			s.Objective = -7 - 2e-9
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := lpOptimum()
			if tc.edit != nil {
				tc.edit(s)
			}
			r := Primal(tc.p, s, Tolerances{})
			if r.Structural != nil {
				t.Fatalf("structural: %v", r.Structural)
			}
			if got := failing(r); !slices.Equal(got, tc.want) {
				t.Fatalf("failing measures %v, want %v (err: %v)", got, tc.want, r.Err())
			}
			if r.OK() != (tc.want == nil) || (r.Err() == nil) != (tc.want == nil) {
				t.Errorf("OK %t, Err %v", r.OK(), r.Err())
			}
			for _, name := range tc.want {
				if m := r.Measure(name); m.Max <= 0 || m.Worst == "" {
					t.Errorf("%s: Max %g, Worst %q", name, m.Max, m.Worst)
				}
			}
		})
	}
}

func TestPrimalStructural(t *testing.T) {
	for name, s := range map[string]*solvers.Solution{
		"nil":        nil,
		"no X":       {},
		"short X":    {X: []float64{1}},
		"NaN":        {X: []float64{math.NaN(), 0}},
		"infinite X": {X: []float64{inf, 0}},
	} {
		if r := Primal(lp(), s, Tolerances{}); r.Structural == nil || r.OK() || r.Err() == nil {
			t.Errorf("%s: structural %v, OK %t", name, r.Structural, r.OK())
		}
	}
}

func TestDual(t *testing.T) {
	tests := []struct {
		name string
		p    func() *model.Problem
		sol  func() *solvers.Solution
		edit func(s *solvers.Solution)
		want []string
	}{
		{"lp optimum", lp, lpOptimum, nil, nil},
		{"lp maximize", func() *model.Problem {
			p := lp()
			p.Sense = model.Maximize
			p.ColCost = []float64{2, 1}
			return p
		}, lpOptimum, func(s *solvers.Solution) {
			// max 2x + y: ∂z*/∂b = +1, d = c − Aᵀy = (1, 0).
			s.RowDual, s.ReducedCost, s.Objective = []float64{1}, []float64{1, 0}, 7
		}, nil},
		{"reduced cost not c − Aᵀy", lp, lpOptimum, func(s *solvers.Solution) {
			// d_y = 0.5 also selects y's lower bound 0, where y = 1 is not.
			s.ReducedCost = []float64{-1, 0.5}
		}, []string{ReducedCosts, Complementarity}},
		{"dual sign", lp, lpOptimum, func(s *solvers.Solution) {
			// y = +1 selects the row's lower bound, which is −∞; d = c − Aᵀy = (−3, −2)
			// and d_y < 0 selects y's upper bound, +∞.
			s.RowDual, s.ReducedCost = []float64{1}, []float64{-3, -2}
		}, []string{DualFeasibility, DualityGap}},
		{"complementary slackness", lp, lpOptimum, func(s *solvers.Solution) {
			// A feasible point that is not optimal, with the optimum's duals: the row
			// is slack (3 < 4) and x is off its upper bound.
			s.X, s.RowActivity, s.Objective = []float64{2, 1}, []float64{3}, -5
		}, []string{Complementarity, DualityGap}},
		{"gap with every sign right", lp, lpOptimum, func(s *solvers.Solution) {
			// Duals of a different, feasible-dual point: y = −2, d = (0, 1): d_y > 0
			// selects y's lower bound 0, but y = 1.
			s.RowDual, s.ReducedCost = []float64{-2}, []float64{0, 1}
		}, []string{Complementarity, DualityGap}},
		{"qp optimum", qp, qpOptimum, nil, nil},
		{"qp not stationary", qp, qpOptimum, func(s *solvers.Solution) {
			// Feasible (0.5 + 0.5 ≤ 1), gradient (−1, −3): with y = −2 the free columns
			// need d = (1, −1), which a free column may not have.
			s.X, s.Objective = []float64{0.5, 0.5}, 0.5-1-2
			// The dual objective, which drops the infinite bounds, happens to equal z
			// here: only the signs give the point away.
			s.ReducedCost = []float64{1, -1}
		}, []string{DualFeasibility}},
		{"qp reduced costs inconsistent", qp, qpOptimum, func(s *solvers.Solution) {
			s.X, s.Objective = []float64{0.5, 0.5}, 0.5-1-2
		}, []string{ReducedCosts}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.sol()
			if tc.edit != nil {
				tc.edit(s)
			}
			p := tc.p()
			r := Dual(p, s, Tolerances{})
			if r.Structural != nil {
				t.Fatalf("structural: %v", r.Structural)
			}
			if got := failing(r); !slices.Equal(got, tc.want) {
				t.Fatalf("failing measures %v, want %v (err: %v)", got, tc.want, r.Err())
			}
			if tc.want == nil {
				if pr := Primal(p, s, Tolerances{}); !pr.OK() {
					t.Fatalf("the reference point is not feasible: %v", pr.Err())
				}
			}
		})
	}
}

func TestDualStructural(t *testing.T) {
	for name, edit := range map[string]func(*solvers.Solution){
		"no duals":       func(s *solvers.Solution) { s.RowDual = nil },
		"short duals":    func(s *solvers.Solution) { s.ReducedCost = []float64{1} },
		"NaN dual":       func(s *solvers.Solution) { s.RowDual = []float64{math.NaN()} },
		"infinite cost":  func(s *solvers.Solution) { s.ReducedCost = []float64{inf, 0} },
		"no primal":      func(s *solvers.Solution) { s.X = nil },
		"infinite point": func(s *solvers.Solution) { s.X = []float64{math.Inf(-1), 0} },
	} {
		s := lpOptimum()
		edit(s)
		if r := Dual(lp(), s, Tolerances{}); r.Structural == nil || r.OK() {
			t.Errorf("%s: structural %v", name, r.Structural)
		}
	}
}

// TestErrCapsTheList: Err lists 8 violations and counts the rest.
func TestErrCapsTheList(t *testing.T) {
	const n = 20
	p := &model.Problem{Sense: model.Minimize, ColCost: make([]float64, n), ColLower: make([]float64, n),
		ColUpper: make([]float64, n), AStart: make([]int, n+1)}
	x := make([]float64, n)
	for j := range x {
		x[j] = 1 // every column above its upper bound 0
	}
	r := Primal(p, &solvers.Solution{X: x}, Tolerances{})
	m := r.Measure(Bounds)
	if m.Violations != n || m.Checked != n {
		t.Fatalf("bounds: %d violations of %d checked, want %d", m.Violations, m.Checked, n)
	}
	msg := r.Err().Error()
	if got := strings.Count(msg, "above its upper bound"); got != maxReported {
		t.Errorf("Err lists %d violations, want %d", got, maxReported)
	}
	if !strings.Contains(msg, "and 12 more") {
		t.Errorf("Err does not count the rest: %s", msg)
	}
}

func TestWithDefaults(t *testing.T) {
	got := Tolerances{Obj: 1e-3, Int: -1}.WithDefaults()
	d := DefaultTolerances()
	if got != (Tolerances{Obj: 1e-3, Feas: d.Feas, Dual: d.Dual, Int: d.Int}) {
		t.Errorf("WithDefaults = %+v", got)
	}
}
