package certificate

import (
	"errors"
	"fmt"
	"math"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Tolerances for the checks. Each is relative: a quantity of magnitude v may be off by
// tol·max(1, |v|).
type Tolerances struct {
	Obj  float64 // objective values, duality gap, complementary slackness products
	Feas float64 // bounds and rows
	Dual float64 // dual signs and reduced costs
	Int  float64 // distance of an integer variable from the nearest integer
}

// DefaultTolerances are used for fields left zero.
func DefaultTolerances() Tolerances {
	return Tolerances{Obj: 1e-6, Feas: 1e-7, Dual: 1e-7, Int: 1e-6}
}

// WithDefaults returns t with every zero or negative field replaced by its default.
func (t Tolerances) WithDefaults() Tolerances {
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

// Names of the measures Primal and Dual report.
const (
	Bounds          = "bounds"                  // column bounds
	Rows            = "rows"                    // row bounds, Ax recomputed from X
	Integrality     = "integrality"             // |x − round(x)| of integer columns
	RowActivity     = "row-activity"            // the Solution's RowActivity against Ax
	Objective       = "objective"               // the Solution's Objective against p.Objective(X)
	ReducedCosts    = "reduced-costs"           // d against c + Qx − Aᵀy (KKT stationarity)
	DualFeasibility = "dual-feasibility"        // multipliers whose sign selects an infinite bound
	Complementarity = "complementary-slackness" // |multiplier| × distance from its bound
	DualityGap      = "duality-gap"             // |primal objective − dual objective|
)

// Measure is one quantity a certificate checks.
type Measure struct {
	Name string
	// Checked counts the items examined (columns, rows, multipliers; 1 for a scalar).
	Checked int
	// Violations counts the items beyond their tolerance; Max is the largest violation
	// found, in the quantity's own units, whether or not it exceeds its tolerance (0
	// when everything holds exactly).
	Violations int
	Max        float64
	// Worst describes the largest violation beyond tolerance ("" when there is none).
	Worst string
}

// OK reports whether no item exceeded its tolerance.
func (m *Measure) OK() bool { return m.Violations == 0 }

// Result is what Primal or Dual found.
type Result struct {
	// Structural is set when the Solution cannot be checked at all (no X, no duals,
	// vectors of the wrong length, values that are not finite); Measures is then empty.
	Structural error
	Measures   []Measure
	msgs       []error
	dropped    int
	worst      []float64 // per measure: amount of the violation Worst describes
}

// maxReported caps how many violations Err lists; the rest are counted.
const maxReported = 8

// OK reports whether the certificate holds: no structural problem, no violation.
func (r *Result) OK() bool {
	if r.Structural != nil {
		return false
	}
	for i := range r.Measures {
		if !r.Measures[i].OK() {
			return false
		}
	}
	return true
}

// Measure returns the named measure, or nil.
func (r *Result) Measure(name string) *Measure {
	for i := range r.Measures {
		if r.Measures[i].Name == name {
			return &r.Measures[i]
		}
	}
	return nil
}

// Err returns every violation joined (at most 8, then a count of the rest), or nil.
func (r *Result) Err() error {
	if r.Structural != nil {
		return r.Structural
	}
	errs := r.msgs
	if r.dropped > 0 {
		errs = append(errs[:len(errs):len(errs)], fmt.Errorf("… and %d more", r.dropped))
	}
	return errors.Join(errs...)
}

func (r *Result) add(name string) int {
	r.Measures = append(r.Measures, Measure{Name: name})
	r.worst = append(r.worst, 0)
	return len(r.Measures) - 1
}

// observe records an item of measure k whose violation is amount; bad says whether it
// exceeds its tolerance, and then the message is recorded.
func (r *Result) observe(k int, amount float64, bad bool, format string, args ...any) {
	m := &r.Measures[k]
	m.Checked++
	if !(amount <= m.Max) { // NaN counts as a violation
		m.Max = amount
	}
	if !bad {
		return
	}
	m.Violations++
	msg := fmt.Errorf(format, args...)
	if m.Worst == "" || !(amount <= r.worst[k]) {
		m.Worst, r.worst[k] = msg.Error(), amount
	}
	if len(r.msgs) < maxReported {
		r.msgs = append(r.msgs, msg)
		return
	}
	r.dropped++
}

func scale(v float64) float64 { return math.Max(1, math.Abs(v)) }

// structural checks that sol has a finite X of p's width.
func structural(p *model.Problem, sol *solvers.Solution) error {
	if sol == nil || sol.X == nil {
		return errors.New("no primal point (X is nil)")
	}
	if n := p.NumCols(); len(sol.X) != n {
		return fmt.Errorf("len(X) = %d, want %d columns", len(sol.X), n)
	}
	for j, x := range sol.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("X[%d] = %g is not finite", j, x)
		}
	}
	return nil
}

// Primal checks that sol carries a point of p's feasible set: one finite value per
// column within its bounds, Ax (recomputed from X, never taken from the Solution) within
// every row's bounds, integrality of integer columns, RowActivity (when not nil) equal to
// the recomputed Ax, and Objective equal to p.Objective(X). It does not judge optimality.
//
// Measures: Bounds, Integrality (only when p has integer columns), Rows, RowActivity
// (only when sol.RowActivity is not nil), Objective.
func Primal(p *model.Problem, sol *solvers.Solution, tol Tolerances) *Result {
	tol = tol.WithDefaults()
	r := &Result{}
	if err := structural(p, sol); err != nil {
		r.Structural = err
		return r
	}
	n, m := p.NumCols(), p.NumRows()
	x := sol.X
	kb := r.add(Bounds)
	ki := -1
	if p.Integrality != nil {
		ki = r.add(Integrality)
	}
	for j := range n {
		lo, up := p.ColLower[j], p.ColUpper[j]
		below, above := lo-x[j], x[j]-up
		switch {
		case below > tol.Feas*scale(lo):
			r.observe(kb, below, true, "column %d: x = %.10g below its lower bound %.10g", j, x[j], lo)
		case above > tol.Feas*scale(up):
			r.observe(kb, above, true, "column %d: x = %.10g above its upper bound %.10g", j, x[j], up)
		default:
			r.observe(kb, math.Max(0, math.Max(below, above)), false, "")
		}
		if ki >= 0 && p.Integrality[j] {
			d := math.Abs(x[j] - math.Round(x[j]))
			r.observe(ki, d, d > tol.Int*scale(x[j]), "column %d: integer variable has x = %.10g", j, x[j])
		}
	}
	ax := p.RowActivity(x)
	kr := r.add(Rows)
	for i := range m {
		lo, up := p.RowLower[i], p.RowUpper[i]
		below, above := lo-ax[i], ax[i]-up
		switch {
		case below > tol.Feas*scale(lo):
			r.observe(kr, below, true, "row %d: Ax = %.10g below its lower bound %.10g", i, ax[i], lo)
		case above > tol.Feas*scale(up):
			r.observe(kr, above, true, "row %d: Ax = %.10g above its upper bound %.10g", i, ax[i], up)
		default:
			r.observe(kr, math.Max(0, math.Max(below, above)), false, "")
		}
	}
	if sol.RowActivity != nil {
		ka := r.add(RowActivity)
		if len(sol.RowActivity) != m {
			r.observe(ka, math.Inf(1), true, "len(RowActivity) = %d, want %d rows", len(sol.RowActivity), m)
		} else {
			for i := range m {
				d := math.Abs(sol.RowActivity[i] - ax[i])
				r.observe(ka, d, !(d <= tol.Feas*scale(ax[i])), "row %d: RowActivity = %.10g but Ax = %.10g", i, sol.RowActivity[i], ax[i])
			}
		}
	}
	ko := r.add(Objective)
	z := p.Objective(x)
	d := math.Abs(sol.Objective - z)
	r.observe(ko, d, !(d <= tol.Obj*scale(z)), "Objective = %.10g but p.Objective(X) = %.10g", sol.Objective, z)
	return r
}

// Dual checks the dual half of an optimality certificate for a continuous problem (LP,
// or convex QP in the problem's own sense), in the convention of package solvers:
// y = RowDual is ∂z*/∂b and d = ReducedCost is the objective gradient minus Aᵀy,
// c + Qx − Aᵀy (c − Aᵀy for an LP). With σ = +1 for minimization and −1 for maximization:
//
//   - ReducedCosts: d equals c + Qx − Aᵀy recomputed here (KKT stationarity for a QP);
//   - DualFeasibility: σ·y_i > 0 only on a row with a finite lower bound, σ·y_i < 0 only
//     with a finite upper bound, and likewise σ·d_j for column bounds;
//   - Complementarity: a multiplier is nonzero only where the bound its sign selects is
//     active (a basic or inactive row or column has y, d ≈ 0);
//   - DualityGap: the objective at X equals the dual objective
//     Offset + Σ_i y_i·b_i + Σ_j d_j·β_j − ½xᵀQx, with b_i, β_j the bounds the signs select.
//
// Together with Primal this proves the point optimal within the tolerances.
// Tolerances: a multiplier may have the wrong sign by Dual·max(1, ‖c + Qx‖∞); the reduced
// cost may differ from the recomputed one by Dual·max(1, Σ|terms|); complementary
// slackness is measured as |multiplier|·(distance of the activity from the bound its sign
// selects), that row's or column's share of the duality gap, against Obj·max(1, |z|); the
// gap itself may be Obj·max(1, |z|) + Dual·Σ|selected bounds|.
func Dual(p *model.Problem, sol *solvers.Solution, tol Tolerances) *Result {
	tol = tol.WithDefaults()
	r := &Result{}
	if err := dualStructural(p, sol); err != nil {
		r.Structural = err
		return r
	}
	n, m := p.NumCols(), p.NumRows()
	x, y, d := sol.X, sol.RowDual, sol.ReducedCost
	sigma := float64(p.Sense)

	kd := r.add(ReducedCosts)
	grad, qx := Gradient(p, x)
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
		diff := math.Abs(d[j] - want)
		r.observe(kd, diff, !(diff <= tol.Dual*scale(mag)), "column %d: ReducedCost = %.10g but c + Qx − Aᵀy = %.10g", j, d[j], want)
	}

	kf := r.add(DualFeasibility)
	kc := r.add(Complementarity)
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
			r.observe(kf, 0, false, "")
			r.observe(kc, 0, false, "")
			return 0
		}
		if math.IsInf(b, 0) {
			dir := "lower"
			if s < 0 {
				dir = "upper"
			}
			r.observe(kf, math.Abs(lam), math.Abs(lam) > signTol,
				"%s %d: multiplier %.10g has the sign of an active %s bound, which is infinite (wrong sign for a %s)",
				what, k, lam, dir, p.Sense)
			return 0
		}
		r.observe(kf, 0, false, "")
		gap := math.Abs(act - b)
		r.observe(kc, math.Abs(lam)*gap, math.Abs(lam)*gap > csTol,
			"%s %d: multiplier %.10g but activity %.10g is %.3g away from the bound %.10g its sign selects (complementary slackness)",
			what, k, lam, act, gap, b)
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
	kg := r.add(DualityGap)
	gap := math.Abs(z - dualObj)
	r.observe(kg, gap, !(gap <= tol.Obj*scale(z)+tol.Dual*boundMag),
		"duality gap: primal objective %.10g, dual objective %.10g (difference %.3g)", z, dualObj, gap)
	return r
}

func dualStructural(p *model.Problem, sol *solvers.Solution) error {
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
	for j, x := range sol.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("X[%d] = %g is not finite", j, x)
		}
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
	return nil
}

// Gradient returns c + Qx and Qx at x for the symmetric Q whose lower triangle p stores.
func Gradient(p *model.Problem, x []float64) (grad, qx []float64) {
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
