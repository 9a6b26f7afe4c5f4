package qp

import (
	"fmt"
	"math"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// kktReport holds the largest relative violation of each optimality condition.
type kktReport struct {
	primal, stationarity, dualSign, complementarity, objective float64
}

// max is the largest violation; NaN anywhere (a broken computation) counts as +Inf so
// that it can never pass a "≤ tol" test.
func (r kktReport) max() float64 {
	m := 0.0
	for _, v := range []float64{r.primal, r.stationarity, r.dualSign, r.complementarity, r.objective} {
		if math.IsNaN(v) {
			return math.Inf(1)
		}
		m = max(m, v)
	}
	return m
}

func (r kktReport) String() string {
	return fmt.Sprintf("primal %.2g, stationarity %.2g, dual sign %.2g, complementarity %.2g, objective %.2g",
		r.primal, r.stationarity, r.dualSign, r.complementarity, r.objective)
}

// checkKKT is the independent optimality certificate for a convex QP: it recomputes
// everything from p, sol.X and sol.RowDual, using nothing from the solver's internals.
//
//   - primal feasibility: bounds and rows, relative to max(1, |bound|);
//   - stationarity: the returned reduced cost must equal c + Qx − Aᵀy;
//   - dual sign (the solvers package convention): for a minimization, a column or row
//     whose lower bound is active has a multiplier ≥ 0, an active upper bound ≤ 0; the
//     signs flip for a maximization;
//   - complementarity: a column strictly inside its bounds has zero reduced cost, a row
//     strictly inside its bounds has zero dual;
//   - objective: sol.Objective equals p.Objective(x).
//
// Dual quantities are compared relative to max(1, ‖c‖∞, ‖Qx‖∞). For a convex problem
// these conditions prove x optimal.
func checkKKT(p *model.Problem, sol *solvers.Solution) kktReport {
	var r kktReport
	n, m := p.NumCols(), p.NumRows()
	x, y := sol.X, sol.RowDual
	sense := float64(p.Sense)
	qx := make([]float64, n)
	for j := 0; p.QStart != nil && j < n; j++ {
		for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
			i, v := p.QIndex[k], p.QValue[k]
			qx[i] += v * x[j]
			if i != j {
				qx[j] += v * x[i]
			}
		}
	}
	scale := 1.0
	for j := range n {
		scale = max(scale, math.Abs(p.ColCost[j]), math.Abs(qx[j]))
	}
	ax := p.RowActivity(x)
	// rel is the violation v of bound b relative to max(1, |b|); an infinite bound is
	// never violated.
	rel := func(v, b float64) float64 {
		if math.IsInf(b, 0) {
			return 0
		}
		return v / max(1, math.Abs(b))
	}
	// active reports whether value v is at bound b (within 1e-7 relative).
	active := func(v, b float64) bool {
		return !math.IsInf(b, 0) && math.Abs(v-b) <= 1e-7*max(1, math.Abs(b))
	}
	for j := range n {
		r.primal = max(r.primal, rel(p.ColLower[j]-x[j], p.ColLower[j]), rel(x[j]-p.ColUpper[j], p.ColUpper[j]))
	}
	for i := range m {
		r.primal = max(r.primal, rel(p.RowLower[i]-ax[i], p.RowLower[i]), rel(ax[i]-p.RowUpper[i], p.RowUpper[i]))
	}
	// d = c + Qx − Aᵀy
	d := make([]float64, n)
	for j := range n {
		d[j] = p.ColCost[j] + qx[j]
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			d[j] -= p.AValue[k] * y[p.AIndex[k]]
		}
		r.stationarity = max(r.stationarity, math.Abs(d[j]-sol.ReducedCost[j])/scale)
	}
	sign := func(v float64, lo, hi bool) (dualSign, compl float64) {
		v *= sense // now in minimization convention
		switch {
		case lo && hi:
			return 0, 0
		case lo:
			return max(0, -v) / scale, 0
		case hi:
			return max(0, v) / scale, 0
		}
		return 0, math.Abs(v) / scale
	}
	for j := range n {
		ds, c := sign(d[j], active(x[j], p.ColLower[j]), active(x[j], p.ColUpper[j]))
		r.dualSign, r.complementarity = max(r.dualSign, ds), max(r.complementarity, c)
	}
	for i := range m {
		ds, c := sign(y[i], active(ax[i], p.RowLower[i]), active(ax[i], p.RowUpper[i]))
		r.dualSign, r.complementarity = max(r.dualSign, ds), max(r.complementarity, c)
	}
	obj := p.Objective(x)
	r.objective = math.Abs(obj-sol.Objective) / max(1, math.Abs(obj))
	return r
}
