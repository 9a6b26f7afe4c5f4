package solvertest

import (
	"errors"
	"fmt"
	"math"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Tolerances for the checkers. Each is relative: a quantity of magnitude v may be off by
// tol·max(1, |v|).
type Tolerances struct {
	Obj  float64 // objective values, duality gap, complementary slackness products
	Feas float64 // bounds and rows
	Dual float64 // dual signs and reduced costs
	Int  float64 // distance of an integer variable from the nearest integer
}

// DefaultTolerances are the ones Run uses for Config fields left zero.
func DefaultTolerances() Tolerances {
	return Tolerances{Obj: 1e-6, Feas: 1e-7, Dual: 1e-7, Int: 1e-6}
}

func (t Tolerances) withDefaults() Tolerances {
	d := DefaultTolerances()
	if t.Obj <= 0 {
		t.Obj = d.Obj
	}
	if t.Feas <= 0 {
		t.Feas = d.Feas
	}
	if t.Dual <= 0 {
		t.Dual = d.Dual
	}
	if t.Int <= 0 {
		t.Int = d.Int
	}
	return t
}

// maxReported caps how many violations one check lists; the rest are counted.
const maxReported = 8

type violations struct {
	errs    []error
	dropped int
}

func (v *violations) add(format string, args ...any) {
	if len(v.errs) < maxReported {
		v.errs = append(v.errs, fmt.Errorf(format, args...))
		return
	}
	v.dropped++
}

func (v *violations) err() error {
	if v.dropped > 0 {
		v.errs = append(v.errs, fmt.Errorf("… and %d more", v.dropped))
	}
	return errors.Join(v.errs...)
}

func scale(v float64) float64 { return math.Max(1, math.Abs(v)) }

// CheckPrimal checks that sol carries a point of p's feasible set: one finite value per
// column within its bounds, Ax (recomputed from X, never taken from the Solution) within
// every row's bounds, integrality of integer columns, RowActivity (when not nil) equal to
// the recomputed Ax, and Objective equal to p.Objective(X). It returns every violation
// joined, or nil.
func CheckPrimal(p *model.Problem, sol *solvers.Solution, tol Tolerances) error {
	tol = tol.withDefaults()
	var v violations
	if sol == nil || sol.X == nil {
		return errors.New("no primal point (X is nil)")
	}
	n, m := p.NumCols(), p.NumRows()
	if len(sol.X) != n {
		return fmt.Errorf("len(X) = %d, want %d columns", len(sol.X), n)
	}
	for j, x := range sol.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("X[%d] = %g is not finite", j, x)
		}
	}
	x := sol.X
	for j := range n {
		lo, up := p.ColLower[j], p.ColUpper[j]
		if x[j] < lo-tol.Feas*scale(lo) {
			v.add("column %d: x = %.10g below its lower bound %.10g", j, x[j], lo)
		}
		if x[j] > up+tol.Feas*scale(up) {
			v.add("column %d: x = %.10g above its upper bound %.10g", j, x[j], up)
		}
		if p.Integrality != nil && p.Integrality[j] {
			if d := math.Abs(x[j] - math.Round(x[j])); d > tol.Int*scale(x[j]) {
				v.add("column %d: integer variable has x = %.10g", j, x[j])
			}
		}
	}
	ax := p.RowActivity(x)
	for i := range m {
		lo, up := p.RowLower[i], p.RowUpper[i]
		if ax[i] < lo-tol.Feas*scale(lo) {
			v.add("row %d: Ax = %.10g below its lower bound %.10g", i, ax[i], lo)
		}
		if ax[i] > up+tol.Feas*scale(up) {
			v.add("row %d: Ax = %.10g above its upper bound %.10g", i, ax[i], up)
		}
	}
	if sol.RowActivity != nil {
		if len(sol.RowActivity) != m {
			v.add("len(RowActivity) = %d, want %d rows", len(sol.RowActivity), m)
		} else {
			for i := range m {
				if d := math.Abs(sol.RowActivity[i] - ax[i]); !(d <= tol.Feas*scale(ax[i])) {
					v.add("row %d: RowActivity = %.10g but Ax = %.10g", i, sol.RowActivity[i], ax[i])
				}
			}
		}
	}
	if z := p.Objective(x); !(math.Abs(sol.Objective-z) <= tol.Obj*scale(z)) {
		v.add("Objective = %.10g but p.Objective(X) = %.10g", sol.Objective, z)
	}
	return v.err()
}

// CheckLPCertificate checks the dual half of an optimality certificate for a continuous
// problem (LP, or convex QP in the problem's own sense), in the convention of package
// solvers: y = RowDual is ∂z*/∂b and d = ReducedCost is the objective gradient minus Aᵀy,
// c + Qx − Aᵀy (c − Aᵀy for an LP). With σ = +1 for minimization and −1 for maximization:
//
//   - d equals c + Qx − Aᵀy recomputed here;
//   - dual feasibility and complementary slackness: σ·y_i > 0 only on a row whose finite
//     lower bound is active, σ·y_i < 0 only where the finite upper bound is active, and
//     likewise σ·d_j for column bounds (a basic or inactive row or column has y, d ≈ 0);
//   - strong duality: the objective at X equals the dual objective
//     Offset + Σ_i y_i·b_i + Σ_j d_j·β_j − ½xᵀQx, with b_i, β_j the bounds the signs select.
//
// Together with CheckPrimal this proves the point optimal within the tolerances.
// Tolerances: a multiplier may have the wrong sign by Dual·max(1, ‖c + Qx‖∞); the reduced
// cost may differ from the recomputed one by Dual·max(1, Σ|terms|); complementary
// slackness is measured as |multiplier|·(distance of the activity from the bound its sign
// selects), that row's or column's share of the duality gap, against Obj·max(1, |z|); the
// gap itself may be Obj·max(1, |z|) + Dual·Σ|selected bounds|.
func CheckLPCertificate(p *model.Problem, sol *solvers.Solution, tol Tolerances) error {
	tol = tol.withDefaults()
	if sol == nil || sol.X == nil {
		return errors.New("no primal point (X is nil)")
	}
	n, m := p.NumCols(), p.NumRows()
	if len(sol.X) != n {
		return fmt.Errorf("len(X) = %d, want %d columns", len(sol.X), n)
	}
	if sol.RowDual == nil || sol.ReducedCost == nil {
		return fmt.Errorf("no duals: RowDual nil = %t, ReducedCost nil = %t", sol.RowDual == nil, sol.ReducedCost == nil)
	}
	if len(sol.RowDual) != m || len(sol.ReducedCost) != n {
		return fmt.Errorf("len(RowDual) = %d, len(ReducedCost) = %d, want %d rows and %d columns",
			len(sol.RowDual), len(sol.ReducedCost), m, n)
	}
	for i, y := range sol.RowDual {
		if math.IsNaN(y) || math.IsInf(y, 0) {
			return fmt.Errorf("RowDual[%d] = %g is not finite", i, y)
		}
	}
	for j, d := range sol.ReducedCost {
		if math.IsNaN(d) || math.IsInf(d, 0) {
			return fmt.Errorf("ReducedCost[%d] = %g is not finite", j, d)
		}
	}
	x, y, d := sol.X, sol.RowDual, sol.ReducedCost
	sigma := float64(p.Sense)
	var v violations

	grad, qx := gradient(p, x)
	gmax := 0.0 // duals scale with the objective's gradient (c for an LP)
	for _, g := range grad {
		gmax = math.Max(gmax, math.Abs(g))
	}
	for j := range n {
		// d_j = grad_j − Σ_i a_ij y_i, with the magnitude of the terms as the scale.
		want, mag := grad[j], math.Abs(grad[j])
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			t := p.AValue[k] * y[p.AIndex[k]]
			want -= t
			mag += math.Abs(t)
		}
		if !(math.Abs(d[j]-want) <= tol.Dual*scale(mag)) {
			v.add("column %d: ReducedCost = %.10g but c + Qx − Aᵀy = %.10g", j, d[j], want)
		}
	}

	z := p.Objective(x)
	signTol := tol.Dual * scale(gmax)
	csTol := tol.Obj * scale(z)
	dualObj := p.Offset
	boundMag := 0.0 // Σ|b| over the bounds the multipliers select
	// side checks one multiplier λ (a row dual or a reduced cost) against the bounds
	// [lo, up] of the quantity act (a row activity or a column value) and returns the
	// bound it selects (0 when λ is treated as zero).
	side := func(what string, k int, lam, act, lo, up float64) float64 {
		s := sigma * lam
		var b float64
		switch {
		case s > 0:
			b = lo
		case s < 0:
			b = up
		default:
			return 0
		}
		if math.IsInf(b, 0) {
			if math.Abs(lam) > signTol {
				dir := "lower"
				if s < 0 {
					dir = "upper"
				}
				v.add("%s %d: multiplier %.10g has the sign of an active %s bound, which is infinite (wrong sign for a %s)",
					what, k, lam, dir, p.Sense)
			}
			return 0
		}
		if gap := math.Abs(act - b); math.Abs(lam)*gap > csTol {
			v.add("%s %d: multiplier %.10g but activity %.10g is %.3g away from the bound %.10g its sign selects (complementary slackness)",
				what, k, lam, act, gap, b)
		}
		return b
	}
	ax := p.RowActivity(x)
	for i := range m {
		b := side("row", i, y[i], ax[i], p.RowLower[i], p.RowUpper[i])
		dualObj += y[i] * b
		boundMag += math.Abs(b)
	}
	for j := range n {
		b := side("column", j, d[j], x[j], p.ColLower[j], p.ColUpper[j])
		dualObj += d[j] * b
		boundMag += math.Abs(b)
	}
	xqx := 0.0
	for j := range n {
		xqx += x[j] * qx[j]
	}
	dualObj -= 0.5 * xqx
	// Each multiplier may be off by Dual, which moves the dual objective by Dual·|b|.
	if gap := math.Abs(z - dualObj); !(gap <= tol.Obj*scale(z)+tol.Dual*boundMag) {
		v.add("duality gap: primal objective %.10g, dual objective %.10g (difference %.3g)", z, dualObj, gap)
	}
	return v.err()
}

// gradient returns c + Qx and Qx for the symmetric Q whose lower triangle p stores.
func gradient(p *model.Problem, x []float64) (grad, qx []float64) {
	n := p.NumCols()
	qx = make([]float64, n)
	if p.QStart != nil {
		for j := range n {
			for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
				i, q := p.QIndex[k], p.QValue[k]
				qx[i] += q * x[j]
				if i != j {
					qx[j] += q * x[i]
				}
			}
		}
	}
	grad = make([]float64, n)
	for j := range n {
		grad[j] = p.ColCost[j] + qx[j]
	}
	return grad, qx
}
