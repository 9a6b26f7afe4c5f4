package qp

import (
	"context"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// TestSolveErrors covers the inputs a Solve must refuse with an error (not a Status).
func TestSolveErrors(t *testing.T) {
	box := func(h [][]float64, sense model.Sense) *model.Problem {
		n := len(h)
		d := dense{sense: sense, h: h, c: make([]float64, n), lo: make([]float64, n), up: make([]float64, n)}
		for j := range n {
			d.c[j] = 1
			d.lo[j], d.up[j] = -1, 1
		}
		return d.problem()
	}
	integer := box([][]float64{{1}}, model.Minimize)
	integer.Integrality = []bool{true}
	bigBlock := func() *model.Problem {
		n := MaxDenseBlock + 1
		p := &model.Problem{Sense: model.Minimize, ColCost: make([]float64, n), ColLower: make([]float64, n), ColUpper: make([]float64, n),
			RowLower: []float64{}, RowUpper: []float64{}, AStart: make([]int, n+1), QStart: make([]int, n+1)}
		// A path graph: one component of n variables, tridiagonal Q.
		for j := range n {
			p.ColUpper[j] = 1
			p.QIndex = append(p.QIndex, j)
			p.QValue = append(p.QValue, 2)
			if j+1 < n {
				p.QIndex = append(p.QIndex, j+1)
				p.QValue = append(p.QValue, -1)
			}
			p.QStart[j+1] = len(p.QIndex)
		}
		return p
	}()
	tests := []struct {
		name string
		p    *model.Problem
		opt  solvers.Options
		want string
	}{
		{"indefinite", box([][]float64{{1, 2}, {2, 1}}, model.Minimize), solvers.Options{}, "not positive semidefinite"},
		{"negative diagonal", box([][]float64{{-1}}, model.Minimize), solvers.Options{}, "not positive semidefinite"},
		{"maximize convex", box([][]float64{{1}}, model.Maximize), solvers.Options{}, "not positive semidefinite"},
		{"integer", integer, solvers.Options{}, "integer"},
		{"invalid", &model.Problem{Sense: model.Minimize, ColCost: []float64{1}}, solvers.Options{}, "invalid problem"},
		{"too large", bigBlock, solvers.Options{}, "5001 variables are coupled"},
		{"warm start columns", box([][]float64{{1}}, model.Minimize), solvers.Options{WarmStart: &solvers.Basis{Cols: make([]solvers.BasisStatus, 2)}}, "warm start has 2 column"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sol, err := New().Solve(context.Background(), tc.p, tc.opt)
			if err == nil {
				t.Fatalf("no error; status %v", sol.Status)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not mention %q", err, tc.want)
			}
		})
	}
	if _, err := New().Solve(context.Background(), nil, solvers.Options{}); err == nil {
		t.Error("nil problem accepted")
	}
}

func TestRegistered(t *testing.T) {
	s, err := solvers.Get("qp")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name() != "qp" {
		t.Errorf("Name() = %q", s.Name())
	}
	d, ok := s.(solvers.Describer)
	if !ok {
		t.Fatal("qp does not implement solvers.Describer")
	}
	if c := d.Capabilities(); !c.QP || c.MIP || !c.Duals {
		t.Errorf("capabilities %+v", c)
	}
	if d.Version() == "" {
		t.Error("empty version")
	}
}
