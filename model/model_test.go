package model

import (
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompileSmallLP(t *testing.T) {
	m := New("small")
	x := m.Continuous(0, 4, "x")
	y := m.Continuous(math.Inf(-1), Inf, "y")
	z := m.Integer(-2, 3, "z")
	// Duplicates and zeros: x + 2y - x + 0z + 3x  ==  3x + 2y.
	e := Expr{}
	e.AddTerm(x, 1).AddTerm(y, 2).AddTerm(x, -1).AddTerm(z, 0).AddTerm(x, 3)
	m.AddLe(e, 10, "c1")
	m.AddRange(Sum(y, z).Plus(Const(1)), -1, 5, "c2") // constant moves to the bounds
	m.AddEq(z.E(), 1, "c3")
	obj := x.Mul(2).Plus(y.Mul(-1))
	obj.AddConst(7)
	m.Maximize(obj)
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	want := &Problem{
		Name: "small", Sense: Maximize, Offset: 7,
		ColCost:     []float64{2, -1, 0},
		ColLower:    []float64{0, math.Inf(-1), -2},
		ColUpper:    []float64{4, math.Inf(1), 3},
		RowLower:    []float64{math.Inf(-1), -2, 1},
		RowUpper:    []float64{10, 4, 1},
		AStart:      []int{0, 1, 3, 5},
		AIndex:      []int{0, 0, 1, 1, 2},
		AValue:      []float64{3, 2, 1, 1, 1},
		Integrality: []bool{false, false, true},
		ColNames:    []string{"x", "y", "z"},
		RowNames:    []string{"c1", "c2", "c3"},
	}
	if d := cmp.Diff(want, p); d != "" {
		t.Errorf("Compile mismatch (-want +got):\n%s", d)
	}
	if got := p.Objective([]float64{1, 2, 1}); got != 7+2-2 {
		t.Errorf("Objective = %g, want 7", got)
	}
	if d := cmp.Diff([]float64{7, 3, 1}, p.RowActivity([]float64{1, 2, 1})); d != "" {
		t.Errorf("RowActivity (-want +got):\n%s", d)
	}
}

func TestCompileQuadratic(t *testing.T) {
	m := New("qp")
	x := m.Continuous(0, Inf, "x")
	y := m.Continuous(0, Inf, "y")
	m.Minimize(x.E())
	m.AddQuadObj(x, x, 1)   // x²      → Q_xx = 2
	m.AddQuadObj(x, y, 3)   // 3xy     → Q_yx = 3
	m.AddQuadObj(y, x, -3)  // cancels → dropped
	m.AddQuadObj(y, y, 0.5) // ½y²     → Q_yy = 1
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]int{0, 1, 2}, p.QStart); d != "" {
		t.Errorf("QStart: %s", d)
	}
	if d := cmp.Diff([]float64{2, 1}, p.QValue); d != "" {
		t.Errorf("QValue: %s", d)
	}
	// x=1, y=2: x + x² + ½·(2)²·... = 1 + 1 + 0.5·4 = 4
	if got := p.Objective([]float64{1, 2}); got != 4 {
		t.Errorf("Objective = %g, want 4", got)
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name  string
		build func(m *Model)
		want  string
	}{
		{"empty", func(m *Model) {}, "no variables"},
		{"lb>ub", func(m *Model) { m.Continuous(2, 1, "v") }, `variable "v": lower bound 2 > upper bound 1`},
		{"nan bound", func(m *Model) { m.Continuous(math.NaN(), 1, "v") }, "NaN bound"},
		{"nan coef", func(m *Model) {
			v := m.Continuous(0, 1, "v")
			m.AddLe(v.Mul(math.NaN()), 1, "row")
		}, `constraint "row": coefficient NaN of v is not finite`},
		{"inf cost", func(m *Model) {
			v := m.Continuous(0, 1, "v")
			m.Minimize(v.Mul(math.Inf(1)))
		}, "objective: coefficient +Inf"},
		{"foreign var", func(m *Model) {
			other := New("other")
			w := other.Continuous(0, 1, "w")
			m.Continuous(0, 1, "v")
			m.AddLe(w.E(), 1, "row")
		}, `variable w belongs to model "other"`},
		{"zero var", func(m *Model) {
			m.Continuous(0, 1, "v")
			m.AddLe(Var{}.E(), 1, "row")
		}, "belongs to no model"},
		{"row lo>hi", func(m *Model) {
			v := m.Continuous(0, 1, "v")
			m.AddRange(v.E(), 3, 2, "r")
		}, `constraint "r": lower bound 3 > upper bound 2`},
		{"binary out of range", func(m *Model) { m.AddVar(2, 3, Binary, "b") }, "exclude 0 and 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := New("m")
			tc.build(m)
			_, err := m.Compile()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Compile error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestCloneIsIndependent(t *testing.T) {
	m := New("m")
	x := m.Continuous(0, 1, "x")
	m.AddLe(x.E(), 1, "c")
	m.Minimize(x.E())
	c := m.Clone()
	c.AddGe(c.VarAt(0).E(), 0.5, "extra")
	if m.NumConstrs() != 1 || c.NumConstrs() != 2 {
		t.Fatalf("constraints: original %d, clone %d", m.NumConstrs(), c.NumConstrs())
	}
	if _, err := c.Compile(); err != nil {
		t.Fatalf("clone does not compile: %v", err)
	}
}

func TestVars2Names(t *testing.T) {
	m := New("m")
	x := m.Vars2(2, 3, 0, 5, Integer, "x[%d,%d]")
	if x[1][2].Name() != "x[1,2]" || x[1][2].Index() != 5 {
		t.Fatalf("x[1][2] = %s (index %d)", x[1][2].Name(), x[1][2].Index())
	}
}
