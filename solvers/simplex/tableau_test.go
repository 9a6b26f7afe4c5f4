package simplex_test

import (
	"context"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/simplex"
)

// TestTableauRows: for the optimal basis of random bounded LPs, every tableau row has
// coefficient 1 on its basic variable and 0 on the other basic ones, and holds at the
// optimum (Σ α_j x_j + Σ β_i (Ax)_i = 0).
func TestTableauRows(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		p, _ := randomBoundedLP(rt)
		sol, err := simplex.New().Solve(context.Background(), p, solvers.Options{})
		if err != nil || sol.Status != solvers.Optimal {
			rt.Fatalf("solve: %v %v", sol.Status, err)
		}
		tab, err := simplex.NewTableau(p, sol.Basis)
		if err != nil {
			rt.Fatal(err)
		}
		n, m := p.NumCols(), p.NumRows()
		basic := map[int]bool{}
		for r := range m {
			basic[tab.Basic(r)] = true
		}
		for j, st := range sol.Basis.Cols {
			if (st == solvers.Basic) != basic[j] {
				rt.Fatalf("column %d: basis status %v, tableau basic %v", j, st, basic[j])
			}
		}
		act := p.RowActivity(sol.X)
		alpha, beta := make([]float64, n), make([]float64, m)
		for r := range m {
			tab.Row(r, alpha, beta)
			coef := func(v int) float64 {
				if v < n {
					return alpha[v]
				}
				return beta[v-n]
			}
			for v := range basic {
				want := 0.0
				if v == tab.Basic(r) {
					want = 1
				}
				if math.Abs(coef(v)-want) > 1e-9 {
					rt.Fatalf("row %d: coefficient of basic variable %d is %g, want %g", r, v, coef(v), want)
				}
			}
			sum, mag := 0.0, 0.0
			for j := range n {
				sum += alpha[j] * sol.X[j]
				mag += math.Abs(alpha[j] * sol.X[j])
			}
			for i := range m {
				sum += beta[i] * act[i]
				mag += math.Abs(beta[i] * act[i])
			}
			if math.Abs(sum) > 1e-9*math.Max(1, mag) {
				rt.Fatalf("row %d does not hold at the optimum: residual %g", r, sum)
			}
		}
	})
}

// TestTableauRejectsBadBasis: a basis for another problem or with the wrong number of
// basic variables is an error, not a panic.
func TestTableauRejectsBadBasis(t *testing.T) {
	p := &model.Problem{Name: "t", Sense: model.Minimize, ColCost: []float64{1, 1}, ColLower: []float64{0, 0},
		ColUpper: []float64{1, 1}, RowLower: []float64{1}, RowUpper: []float64{2}, AStart: []int{0, 1, 2}, AIndex: []int{0, 0}, AValue: []float64{1, 1}}
	if _, err := simplex.NewTableau(p, &solvers.Basis{Cols: make([]solvers.BasisStatus, 1)}); err == nil {
		t.Error("a basis with the wrong number of columns was accepted")
	}
	b := &solvers.Basis{Cols: make([]solvers.BasisStatus, p.NumCols()), Rows: make([]solvers.BasisStatus, p.NumRows())}
	if _, err := simplex.NewTableau(p, b); err == nil {
		t.Error("a basis without basic variables was accepted")
	}
}
