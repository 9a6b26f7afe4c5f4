package gonumlp_test

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/gonumlp"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// bruteForce solves a tiny bounded LP by enumerating vertices: every choice of n
// constraint boundaries (row or column bounds held with equality) whose system has a
// unique solution is a candidate; the best feasible candidate is the optimum. The feasible
// set must be bounded (then it is a polytope, and it has a vertex if it is not empty).
func bruteForce(p *model.Problem) (z float64, feasible bool) {
	n, m := p.NumCols(), p.NumRows()
	dense := make([][]float64, m)
	for i := range dense {
		dense[i] = make([]float64, n)
	}
	for j := range n {
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			dense[p.AIndex[k]][j] = p.AValue[k]
		}
	}
	type plane struct {
		a []float64
		b float64
	}
	var planes []plane
	for i := range m {
		for _, b := range []float64{p.RowLower[i], p.RowUpper[i]} {
			if !math.IsInf(b, 0) {
				planes = append(planes, plane{dense[i], b})
			}
		}
	}
	for j := range n {
		e := make([]float64, n)
		e[j] = 1
		for _, b := range []float64{p.ColLower[j], p.ColUpper[j]} {
			if !math.IsInf(b, 0) {
				planes = append(planes, plane{e, b})
			}
		}
	}
	const tol = 1e-9
	best := math.Inf(1)
	pick := make([]int, n)
	var rec func(k, from int)
	rec = func(k, from int) {
		if k == n {
			a := mat.NewDense(n, n, nil)
			b := mat.NewVecDense(n, nil)
			for r, idx := range pick {
				a.SetRow(r, planes[idx].a)
				b.SetVec(r, planes[idx].b)
			}
			var lu mat.LU
			lu.Factorize(a)
			if lu.Cond() > 1e10 {
				return
			}
			var x mat.VecDense
			if err := lu.SolveVecTo(&x, false, b); err != nil {
				return
			}
			xs := x.RawVector().Data
			for j := range n {
				if xs[j] < p.ColLower[j]-tol || xs[j] > p.ColUpper[j]+tol {
					return
				}
			}
			for i, v := range p.RowActivity(xs) {
				if v < p.RowLower[i]-tol || v > p.RowUpper[i]+tol {
					return
				}
			}
			best = math.Min(best, float64(p.Sense)*p.Objective(xs))
			return
		}
		for idx := from; idx < len(planes); idx++ {
			pick[k] = idx
			rec(k+1, idx+1)
		}
	}
	rec(0, 0)
	if math.IsInf(best, 1) {
		return 0, false
	}
	return float64(p.Sense) * best, true
}

// randomBoundedLP draws an LP with 1–4 columns of every bound type (boxed, lower only,
// upper only, free, fixed), 0–4 rows of every type (≤, ≥, =, ranged, free) with small
// integer coefficients, and a ranged singleton row −10 ≤ x_j ≤ 10 per column, which keeps
// the feasible set bounded whatever the column bounds are.
func randomBoundedLP(t *rapid.T) *model.Problem {
	n := rapid.IntRange(1, 4).Draw(t, "n")
	m := model.New("random")
	sense := rapid.SampledFrom([]model.Sense{model.Minimize, model.Maximize}).Draw(t, "sense")
	small := rapid.IntRange(-3, 3)
	vars := make([]model.Var, n)
	for j := range vars {
		l := float64(rapid.IntRange(-4, 2).Draw(t, "l"))
		u := l + float64(rapid.IntRange(0, 5).Draw(t, "width"))
		switch rapid.IntRange(0, 4).Draw(t, "bound type") {
		case 0: // boxed (fixed when the width is 0)
		case 1:
			u = model.Inf
		case 2:
			l = math.Inf(-1)
		case 3:
			l, u = math.Inf(-1), model.Inf
		case 4:
			u = l
		}
		vars[j] = m.Continuous(l, u, "")
	}
	for j := range vars {
		m.AddRange(vars[j].E(), -10, 10, "")
	}
	rows := rapid.IntRange(0, 4).Draw(t, "rows")
	for range rows {
		var e model.Expr
		for j := range vars {
			e.AddTerm(vars[j], float64(small.Draw(t, "a")))
		}
		b := float64(rapid.IntRange(-6, 6).Draw(t, "b"))
		switch rapid.IntRange(0, 4).Draw(t, "row type") {
		case 0:
			m.AddLe(e, b, "")
		case 1:
			m.AddGe(e, b, "")
		case 2:
			m.AddEq(e, b, "")
		case 3:
			m.AddRange(e, b, b+float64(rapid.IntRange(1, 4).Draw(t, "range")), "")
		case 4:
			m.AddConstr(e, math.Inf(-1), math.Inf(1), "")
		}
	}
	var obj model.Expr
	for j := range vars {
		obj.AddTerm(vars[j], float64(small.Draw(t, "c")))
	}
	obj.AddConst(float64(rapid.IntRange(-5, 5).Draw(t, "offset")))
	m.SetObjective(obj, sense)
	p, err := m.Compile()
	if err != nil {
		t.Fatalf("random model does not compile: %v", err)
	}
	return p
}

// The adapter's answer on random bounded LPs agrees with vertex enumeration: the same
// status (Optimal or Infeasible) and, when optimal, the same objective at a feasible point.
func TestAgreesWithVertexEnumeration(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := randomBoundedLP(t)
		want, feasible := bruteForce(p)
		sol, err := gonumlp.New().Solve(t.Context(), p, solvers.Options{})
		if err != nil {
			t.Fatalf("Solve: %v", err)
		}
		if !feasible {
			if sol.Status != solvers.Infeasible {
				t.Fatalf("status %s, vertex enumeration finds no feasible point", sol.Status)
			}
			return
		}
		if sol.Status != solvers.Optimal {
			t.Fatalf("status %s, vertex enumeration finds optimum %g", sol.Status, want)
		}
		if math.Abs(sol.Objective-want) > 1e-6*math.Max(1, math.Abs(want)) {
			t.Fatalf("objective %.12g, vertex enumeration %.12g", sol.Objective, want)
		}
		if err := solvertest.CheckPrimal(p, sol, solvertest.DefaultTolerances()); err != nil {
			t.Fatalf("point: %v", err)
		}
	})
}

// lp.Simplex needs A of full row rank (it reports ErrSingular otherwise) and the adapter
// removes dependent equality rows for that reason; this pins the gonum behaviour the
// presolve works around, so a gonum upgrade that changes it is noticed.
func TestGonumRejectsRankDeficientA(t *testing.T) {
	a := mat.NewDense(2, 3, []float64{1, 1, 1, 2, 2, 2})
	_, _, err := lp.Simplex([]float64{1, 2, 3}, a, []float64{1, 2}, 0, nil)
	if !errors.Is(err, lp.ErrSingular) {
		t.Errorf("lp.Simplex on a rank-deficient A: error %v, want lp.ErrSingular", err)
	}
}
