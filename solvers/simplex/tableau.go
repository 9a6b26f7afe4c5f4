package simplex

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Tableau is the factorized basis of an LP, for reading rows of its simplex tableau
// (package mip derives Gomory mixed-integer cuts from them). It works in the problem's
// own units: no presolve, no scaling.
//
// Row r is the equation Σ_j α_j·x_j + Σ_i β_i·r_i = 0 over the columns x and the row
// activities r = Ax, in which the variable basic at position r has coefficient 1 and
// every other basic variable 0: it expresses that basic variable through the nonbasic
// ones.
type Tableau struct {
	s *simplex
}

// NewTableau factorizes the basis b (Solution.Basis of a solve of p, whose integrality is
// ignored). It fails when b does not fit p or is singular.
func NewTableau(p *model.Problem, b *solvers.Basis) (*Tableau, error) {
	if b == nil || len(b.Cols) != p.NumCols() || len(b.Rows) != p.NumRows() {
		return nil, fmt.Errorf("simplex: tableau: the basis does not fit the problem")
	}
	nb := 0
	for _, st := range b.Cols {
		if st == solvers.Basic {
			nb++
		}
	}
	for _, st := range b.Rows {
		if st == solvers.Basic {
			nb++
		}
	}
	if nb != p.NumRows() {
		return nil, fmt.Errorf("simplex: tableau: %d basic variables for %d rows", nb, p.NumRows())
	}
	lp, _, _ := buildLP(identityPresolve(p).reduced, false)
	s := newSimplex(lp, settings{primalTol: DefaultPrimalTol, dualTol: DefaultDualTol, ctx: context.Background(), seed: 1})
	s.setWarmBasis(b)
	if s.invert() > 0 {
		return nil, fmt.Errorf("simplex: tableau: the basis is singular")
	}
	return &Tableau{s: s}, nil
}

// Basic returns the variable basic at position r: a column j < NumCols, or NumCols+i for
// row i's activity.
func (t *Tableau) Basic(r int) int { return t.s.basic[r] }

// Row writes row r of the tableau into alpha (one entry per column) and beta (one per
// row); both are overwritten.
func (t *Tableau) Row(r int, alpha, beta []float64) {
	s := t.s
	s.btranUnit(r)
	rho := s.row.val
	// ρᵀ[A I]z = 0 with z = (x, −Ax): the activity's coefficient is −ρ_i.
	sign := 1.0
	if s.basic[r] >= s.n {
		sign = -1 // the basic logical is −r_i: normalize r_i's coefficient to 1
	}
	a := &s.lp.a
	for j := 0; j < s.n; j++ {
		v := 0.0
		for k := a.start[j]; k < a.start[j+1]; k++ {
			v += a.value[k] * rho[a.index[k]]
		}
		alpha[j] = sign * v
	}
	for i := 0; i < s.m; i++ {
		beta[i] = -sign * rho[i]
	}
}
