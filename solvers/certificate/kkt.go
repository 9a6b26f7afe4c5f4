package certificate

import (
	"math"
	"slices"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// KKT holds the residuals of the first-order optimality conditions of a continuous
// problem's solution, each relative (see CheckKKT). OK when every one is at most Tol.
type KKT struct {
	Primal     float64 // bound and row violations
	Dual       float64 // stationarity with sign conditions, c + Qx − Aᵀy projected on the active bounds
	Complement float64 // multipliers of inactive rows
	Tol        float64
	OK         bool
	Checked    bool // false when the solver gave no duals (only Primal is meaningful)
}

// CheckKKT computes the first-order optimality residuals of a continuous QP/LP solution
// in the convention of package solvers, as three scalars a caller can report and compare
// with one tolerance — the summary form of Primal and Dual. It reads X and RowDual only
// (the reduced costs are recomputed, not trusted, so a backend that returns no
// ReducedCost is still checked): with g = c + Qx the objective gradient, σ = ±1 the sense,
// d = g − Aᵀy and the data scale s = max(1, ‖c‖∞, ‖Qx‖∞),
//
//   - Primal: the largest bound or row violation, relative to max(1, |bound|);
//   - Dual: the largest violation of the sign conditions on σ·d (σ·d_j ≥ 0 at a lower
//     bound, ≤ 0 at an upper bound, = 0 between) and on σ·y (likewise for rows),
//     relative to s;
//   - Complement: the largest |y_i|·(distance of row i from the bound its multiplier's
//     sign selects), relative to max(1, |objective|).
//
// A bound counts as active when the value is within tol·max(1, |bound|) of it.
func CheckKKT(p *model.Problem, sol *solvers.Solution, tol float64) KKT {
	k := KKT{Tol: tol}
	n, m := p.NumCols(), p.NumRows()
	if sol == nil || len(sol.X) != n {
		k.Primal = math.Inf(1)
		return k
	}
	x := sol.X
	scale := func(v float64) float64 { return math.Max(1, math.Abs(v)) }
	act := p.RowActivity(x)
	violation := func(v, lo, up float64) float64 {
		r := 0.0
		if !math.IsInf(lo, -1) {
			r = math.Max(r, (lo-v)/scale(lo))
		}
		if !math.IsInf(up, 1) {
			r = math.Max(r, (v-up)/scale(up))
		}
		if math.IsNaN(v) {
			r = math.Inf(1)
		}
		return r
	}
	for j := range n {
		k.Primal = math.Max(k.Primal, violation(x[j], p.ColLower[j], p.ColUpper[j]))
	}
	for i := range m {
		k.Primal = math.Max(k.Primal, violation(act[i], p.RowLower[i], p.RowUpper[i]))
	}
	k.Primal = math.Max(0, k.Primal)
	if sol.RowDual == nil || len(sol.RowDual) != m {
		k.OK = k.Primal <= tol
		return k
	}
	k.Checked = true
	y := sol.RowDual
	sigma := float64(p.Sense)
	g, qx := Gradient(p, x)
	d := slices.Clone(g)
	for j := range n {
		for q := p.AStart[j]; q < p.AStart[j+1]; q++ {
			d[j] -= p.AValue[q] * y[p.AIndex[q]]
		}
	}
	near := func(v, b float64) bool { return !math.IsInf(b, 0) && math.Abs(v-b) <= tol*scale(b) }
	// signViolation measures how far multiplier λ (already multiplied by σ) is from the
	// cone its activity allows.
	signViolation := func(lam, v, lo, up float64) float64 {
		atLo, atUp := near(v, lo), near(v, up)
		switch {
		case atLo && atUp:
			return 0 // fixed or equality: either sign
		case atLo:
			return math.Max(0, -lam)
		case atUp:
			return math.Max(0, lam)
		}
		return math.Abs(lam)
	}
	// Residuals are relative to the data scale of the problem, max(1, ‖c‖∞, ‖Qx‖∞) —
	// the scale the solvers' own tolerances use.
	ds := 1.0
	for j := range n {
		ds = math.Max(ds, math.Max(math.Abs(p.ColCost[j]), math.Abs(qx[j])))
	}
	for j := range n {
		k.Dual = math.Max(k.Dual, signViolation(sigma*d[j], x[j], p.ColLower[j], p.ColUpper[j])/ds)
	}
	z := p.Objective(x)
	for i := range m {
		lo, up := p.RowLower[i], p.RowUpper[i]
		k.Dual = math.Max(k.Dual, signViolation(sigma*y[i], act[i], lo, up)/ds)
		// Complementarity measured against the bound the sign selects.
		var b float64
		switch s := sigma * y[i]; {
		case s > 0:
			b = lo
		case s < 0:
			b = up
		default:
			continue
		}
		if math.IsInf(b, 0) {
			continue // already a sign violation
		}
		k.Complement = math.Max(k.Complement, math.Abs(y[i])*math.Abs(act[i]-b)/scale(z))
	}
	k.OK = k.Primal <= tol && k.Dual <= tol && k.Complement <= tol
	return k
}
