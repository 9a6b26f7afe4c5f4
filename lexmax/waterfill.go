package lexmax

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// dualThreshold is the smallest |dual| of a row u_i ≥ t that counts as nonzero. The duals
// of the free rows sum to 1 (the column of t), so the largest is ≥ 1/n; values below
// 1e-6 are rounding noise of a basic row or weaker evidence than the backend's own dual
// feasibility tolerance (1e-7 by default) can support.
const dualThreshold = 1e-6

// waterfill is the working model of water-filling: the model, a column y_i = u_i per
// outcome, one column t, and one row y_i − t ≥ 0 per outcome (made free once the outcome
// is frozen; the freeze itself is the column bound y_i ≥ level − slack). Every solve of
// the method uses this one lp with changed bounds and costs, so a basis carries over.
type waterfill struct {
	l    *lp
	y    []int
	t    int
	lrow []int
	free []int
}

func (st *state) solveWaterFill() ([]float64, *solvers.Solution, error) {
	sat := st.opt.Saturation
	switch {
	case sat == Duals && st.isMIP:
		st.note("saturation test duals needs an LP; the model has integer variables, so probes were used")
		sat = Probe
	case sat == Duals && st.described && !st.caps.Duals:
		st.note("backend %s reports no duals; saturation test duals fell back to probes", st.solver.Name())
		sat = Probe
	case sat == MILP && st.described && !st.caps.MIP:
		return nil, nil, fmt.Errorf("lexmax: saturation test milp needs a MIP backend; %s solves no MIPs", st.solver.Name())
	}
	st.res.Saturation = sat

	n := len(st.outs)
	w := &waterfill{l: newLP(st.base)}
	w.y = st.addOutcomeCols(w.l)
	w.t = w.l.addCol(-inf, inf, false, "lexmax_t")
	w.lrow = make([]int, n)
	for i := range n {
		w.lrow[i] = w.l.addRow([]int{w.y[i], w.t}, []float64{1, -1}, 0, inf, "lexmax_level["+st.name(i)+"]")
		w.free = append(w.free, i)
	}
	var x []float64
	var last *solvers.Solution
	var relaxLast func(float64) // loosens the newest batch of freezes
	for len(w.free) > 0 {
		l := w.l
		l.lo[w.t], l.hi[w.t] = -inf, inf
		l.setObjective(model.Maximize, []int{w.t}, []float64{1})
		sol, err := st.solveRobust("maxmin", n-len(w.free), l, l.extendBasis(l.basis, nil, nil), relaxLast)
		if err != nil {
			if len(w.free) < n {
				return nil, nil, fmt.Errorf("lexmax: water-filling with %d of %d outcomes frozen: %w", n-len(w.free), n, err)
			}
			return nil, nil, err
		}
		x, last = sol.X, sol
		tstar := inf
		for _, i := range w.free {
			tstar = math.Min(tstar, st.value(i, w.y, x))
		}
		lv := st.newLevel(tstar, w.free)
		if len(w.free) == 1 {
			w.freeze(w.free[0], st.freezeValue(tstar, st.info[w.free[0]].integral))
			break
		}
		saturated, err := st.saturated(w, sat, sol, lv)
		if err != nil {
			return nil, nil, err
		}
		if len(saturated) == 0 {
			// Stall: every free outcome can exceed t* alone, but not all together (a
			// non-convex feasible set, or an LP whose margins are below the tolerances).
			// The lexmax keeps every free outcome ≥ t*; which ones stay at t* decides the
			// rest of the vector, and ordered outcomes decides that exactly.
			st.res.HandedOver = true
			st.res.FrozenAtHandover = n - len(w.free)
			st.note("water-filling stalled at level %.10g with %d outcomes free (each can rise alone, not together); ordered outcomes finished them", tstar, len(w.free))
			fv := st.freezeValue(tstar, lv.integral)
			l.lo[w.t], l.hi[w.t] = fv, fv
			if !st.opt.OutcomesForm && st.oneHotSet(w.free) {
				st.res.Form = "values"
				return st.orderedValues(l, w.free, fv, sol)
			}
			st.res.Form = "outcomes"
			return st.ordered(l, w.y, w.free, 2, sol)
		}
		relaxLast = nil
		if !lv.integral {
			batch, sl := slices.Clone(saturated), st.slack(tstar, 1)
			relaxLast = func(f float64) {
				for _, i := range batch {
					l.lo[w.y[i]] = tstar - f*sl
				}
				st.res.Tol.MaxSlack = math.Max(st.res.Tol.MaxSlack, f*sl)
			}
		}
		for _, i := range saturated {
			w.freeze(i, st.freezeValue(tstar, st.info[i].integral))
		}
	}
	return x, last, nil
}

// level is the tolerance arithmetic of one water-filling level t*.
type level struct {
	t        float64
	integral bool    // every free outcome is integer-valued
	hold     float64 // probes and the MILP hold every free outcome at ≥ hold
	above    float64 // an outcome is raisable when it can exceed above
	eps      float64 // MILP: z_i = 1 forces y_i ≥ hold + eps > above
}

// newLevel sets up the tests at t* for the free outcomes. With τ = max(AbsTol,
// RelTol·|t*|): hold = t* − τ/100, above = t* + τ, ε = max(3τ, 1e-5·max(1,|t*|)).
// When every free outcome is integer-valued: hold = round(t*) − ½, above = round(t*) + ½,
// ε = 1, which decide exactly and stay far from every solver tolerance.
func (st *state) newLevel(tstar float64, free []int) level {
	lv := level{t: tstar, integral: true}
	for _, i := range free {
		lv.integral = lv.integral && st.info[i].integral
	}
	if lv.integral {
		r := math.Round(tstar)
		lv.hold, lv.above, lv.eps = r-0.5, r+0.5, 1
		return lv
	}
	tau := st.slack(tstar, 1)
	lv.hold, lv.above = tstar-tau/100, tstar+tau
	lv.eps = math.Max(3*tau, 1e-5*math.Max(1, math.Abs(tstar)))
	return lv
}

// freezeValue is the value a quantity found optimal at v is held at (≥): v − slack, or
// round(v) − ½ for an integer-valued quantity (exact).
func (st *state) freezeValue(v float64, integral bool) float64 {
	if integral {
		return math.Round(v) - 0.5
	}
	return v - st.slack(v, 1)
}

// freeze fixes outcome i at ≥ level: the bound on y_i, and its level row made free.
func (w *waterfill) freeze(i int, level float64) {
	w.l.lo[w.y[i]] = level
	w.l.rlo[w.lrow[i]] = -inf
	w.free = slices.DeleteFunc(w.free, func(j int) bool { return j == i })
}

// saturated returns the free outcomes that cannot exceed lv.above while every other free
// outcome stays ≥ lv.hold (and the frozen ones at their levels). sol is the max-t
// solution; t* is the smallest free outcome at it, so that point satisfies the holds and
// every probe is feasible. The holds take only 1% of the slack on purpose: an outcome
// coupled to another with factor c can rise by c times the hold's slack, and with the
// full slack would look raisable when it is not (c ≥ 1 is common). Some slack is still
// needed: a hold exactly at t* leaves a feasible set thinner than the MIP solvers'
// presolve tolerances, which then report it infeasible.
//
// Every solution met on the way is a witness (its free outcomes are all ≥ lv.hold): any
// free outcome clearly above lv.above in it is raisable and needs no probe. A probe or
// MILP that fails numerically decides nothing; the outcomes it concerned stay free, which
// is always safe (at worst the level repeats or water-filling hands over).
func (st *state) saturated(w *waterfill, sat Saturation, sol *solvers.Solution, lv level) ([]int, error) {
	l := w.l
	raisable := map[int]bool{}
	// A point proves an outcome raisable only by a margin above what the backend's
	// feasibility tolerance could fake: rows may be violated by up to that tolerance, and
	// an outcome coupled to such a row moves with it.
	lpMargin := math.Max(lv.above, lv.t+5*feasTol(st.sopt.PrimalTol, false))
	mipMargin := math.Max(lv.above, lv.t+5*feasTol(st.sopt.PrimalTol, true))
	witness := func(x []float64, mip bool) {
		bar := lpMargin
		if mip {
			bar = mipMargin
		}
		for _, i := range w.free {
			if st.outs[i].eval(x) > bar && x[w.y[i]] > bar {
				raisable[i] = true
			}
		}
	}
	witness(sol.X, st.isMIP)

	var saturated, undecided []int
	switch sat {
	case Duals:
		pos, unique, ok := st.classifyByDuals(w, sol)
		switch {
		case !ok:
			undecided = w.free
		case unique:
			// A nondegenerate optimal vertex has a unique dual: a zero dual then proves
			// that some optimal point has u_i > t* (strict complementarity).
			return pos, nil
		default:
			st.note("the max-t LP was primal degenerate (its dual is not unique), so zero duals were checked by a group raise and probes")
			saturated = pos
			for _, i := range w.free {
				if !slices.Contains(pos, i) && !raisable[i] {
					undecided = append(undecided, i)
				}
			}
		}
		if len(undecided) > 1 {
			x, err := st.groupRaise(w, lv, undecided)
			var se *StatusError
			switch {
			case errors.As(err, &se):
				st.note("a group raise ended %s; probes decided instead", se.Status)
			case err != nil:
				return nil, err
			default:
				witness(x, false)
			}
		}
	case MILP:
		x, err := st.milpRaise(w, lv)
		var se *StatusError
		switch {
		case errors.As(err, &se):
			st.note("a MILP saturation test ended %s; probes decided instead", se.Status)
		case err != nil:
			return nil, err
		default:
			witness(x, true)
		}
		undecided = w.free
	default:
		undecided = w.free
	}

	// Probes: maximize u_i alone with t fixed at the hold (so every free row holds
	// y_j ≥ lv.hold).
	l.lo[w.t], l.hi[w.t] = lv.hold, lv.hold
	for _, i := range undecided {
		if raisable[i] {
			continue
		}
		l.setObjective(model.Maximize, []int{w.y[i]}, []float64{1})
		p, err := st.solve("probe", i, l, l.extendBasis(l.basis, nil, nil))
		if errors.Is(err, ErrUnbounded) {
			raisable[i] = true // it can rise without limit while the others hold
			continue
		}
		var se *StatusError
		if errors.As(err, &se) || errors.Is(err, ErrInfeasible) {
			st.note("a probe ended without an optimum; its outcome was kept free")
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("lexmax: probing outcome %d (%s) at level %.10g: %w", i, st.name(i), lv.t, err)
		}
		witness(p.X, st.isMIP)
		bound := p.Objective
		if l.hasInteger() && !math.IsNaN(p.BestBound) {
			bound = p.BestBound
		}
		if bound <= lv.above {
			saturated = append(saturated, i)
		} else if !raisable[i] {
			// The bound is above the level but no point shows it (an open MIP gap): keep
			// the outcome free, which is always safe.
			st.note("a probe's MIP gap left an outcome undecided; it was kept free")
		}
	}
	return saturated, nil
}

// feasTol is the feasibility tolerance a backend works to: PrimalTol when set, else the
// usual defaults (1e-7 for LPs, 1e-6 for MIPs, as in HiGHS and lp_solve).
func feasTol(primal float64, mip bool) float64 {
	switch {
	case primal > 0 && mip:
		return math.Max(primal, 1e-6)
	case primal > 0:
		return primal
	case mip:
		return 1e-6
	}
	return 1e-7
}

// classifyByDuals reads the duals of the free rows y_i − t ≥ 0 of the max-t LP.
//
// What a dual proves (exact arithmetic; the max-t LP is max t s.t. u_i(x) ≥ t):
//   - λ_i > 0 in ANY optimal dual ⇒ u_i = t* in EVERY optimal solution (complementary
//     slackness pairs every optimal dual with every optimal primal), i.e. outcome i is
//     saturated. So freezing nonzero-dual outcomes never freezes too much — even under
//     dual degeneracy (several optimal primals), contrary to a common worry.
//   - λ_i = 0 proves nothing in general: when the optimal vertex is primal degenerate the
//     dual is not unique, and a saturated outcome can have λ_i = 0 in the dual the
//     backend returned (see testdata/degenerate_duals.md). Freezing only nonzero duals then
//     freezes too little; that is still correct (the outcome stays free and the next max-t
//     returns the same level), only slower.
//   - Goldman–Tucker: outcome i is saturated ⇔ SOME optimal dual has λ_i > 0. With a
//     nondegenerate optimal basis the dual is unique, so there λ_i = 0 ⇔ raisable.
//
// The duals sum to 1 (t's column); a sum far from 1 means they are not an optimal dual of
// this LP and they are not used. ok is false then, or when there are no duals or none is
// positive; unique reports a nondegenerate optimal vertex.
func (st *state) classifyByDuals(w *waterfill, sol *solvers.Solution) (pos []int, unique, ok bool) {
	if len(sol.RowDual) != w.l.nrows() {
		st.note("the backend returned no duals; saturation was decided by probes")
		return nil, false, false
	}
	thr := dualThreshold
	if st.sopt.DualTol > 0 {
		thr = math.Max(thr, 10*st.sopt.DualTol)
	}
	sum := 0.0
	for _, i := range w.free {
		d := math.Abs(sol.RowDual[w.lrow[i]])
		sum += d
		if d > thr {
			pos = append(pos, i)
		}
	}
	if math.Abs(sum-1) > 1e-6 {
		st.note("the duals of the level rows summed to %.10g, not 1; saturation was decided by probes", sum)
		return nil, false, false
	}
	if len(pos) == 0 {
		return nil, false, false
	}
	return pos, nondegenerate(w.l, sol), true
}

// nondegenerate reports whether sol is a primal nondegenerate vertex of l: every basic
// variable (column or row activity) strictly inside its bounds. Then the optimal dual is
// unique (the basic variables' zero reduced costs determine it). With a basis from the
// backend the test is exact; without one, it counts the variables strictly inside their
// bounds, which must be exactly the number of rows.
func nondegenerate(l *lp, sol *solvers.Solution) bool {
	inside := func(v, lo, hi float64) bool {
		return v > lo+1e-9*(1+math.Abs(lo)) && v < hi-1e-9*(1+math.Abs(hi))
	}
	act := sol.RowActivity
	if len(act) != l.nrows() {
		return false
	}
	if b := sol.Basis; b != nil && len(b.Cols) == l.ncols() && len(b.Rows) == l.nrows() {
		for j, s := range b.Cols {
			if s == solvers.Basic && !inside(sol.X[j], l.lo[j], l.hi[j]) {
				return false
			}
		}
		for i, s := range b.Rows {
			if s == solvers.Basic && !inside(act[i], l.rlo[i], l.rhi[i]) {
				return false
			}
		}
		return true
	}
	count := 0
	for j := range l.ncols() {
		if inside(sol.X[j], l.lo[j], l.hi[j]) {
			count++
		}
	}
	for i := range l.nrows() {
		if inside(act[i], l.rlo[i], l.rhi[i]) {
			count++
		}
	}
	return count == l.nrows()
}

// groupRaise is the LP counterpart of milpRaise, used by the Duals test on LPs where the
// duals leave outcomes undecided: continuous s_i ∈ [0, ε] for the undecided outcomes,
//
//	max Σ s_i  s.t.  y_i ≥ hold + s_i,  every free outcome ≥ hold,
//
// On a convex set this finds every raisable outcome in one LP when ε is small enough:
// the average of the points that raise each one alone raises all of them together, by
// at least (its own margin)/|undecided|, so an optimum puts s_i = ε on all of them. With
// a larger margin needed it still shows many; the rest are probed.
func (st *state) groupRaise(w *waterfill, lv level, undecided []int) ([]float64, error) {
	l := w.l
	nc, nr := l.ncols(), l.nrows()
	saved := l.basis // the basis of l without the s columns, for the next solves
	defer func() { l.truncate(nc, nr); l.basis = saved }()
	l.lo[w.t], l.hi[w.t] = lv.hold, lv.hold
	cols := make([]int, len(undecided))
	ones := make([]float64, len(undecided))
	for q, i := range undecided {
		cols[q] = l.addCol(0, lv.eps, false, "lexmax_s["+st.name(i)+"]")
		ones[q] = 1
		l.addRow([]int{w.y[i], cols[q]}, []float64{1, -1}, lv.hold, inf, "lexmax_group["+st.name(i)+"]")
	}
	l.setObjective(model.Maximize, cols, ones)
	sol, err := st.solve("group", len(st.outs)-len(w.free), l, l.extendBasis(saved, nil, nil))
	if err != nil {
		if errors.Is(err, ErrInfeasible) || errors.Is(err, ErrUnbounded) {
			err = &StatusError{Step: "group", Status: solvers.Infeasible}
		}
		return nil, fmt.Errorf("lexmax: group raise at level %.10g: %w", lv.t, err)
	}
	return slices.Clone(sol.X[:nc]), nil
}

// milpRaise solves Gavel's MILP: binaries z_i for the free outcomes,
//
//	max Σ z_i  s.t.  y_i ≥ hold + ε·z_i  (free i),  frozen outcomes as before,
//
// so z_i = 1 marks outcome i as raised above lv.above in one common point. It returns
// that point; the caller reads the raised outcomes off it (values, not the z's, so a z set
// within the MIP feasibility tolerance proves nothing). ε (see newLevel) keeps a marked
// outcome clear of lv.above and of the backends' MIP feasibility tolerance (1e-6).
func (st *state) milpRaise(w *waterfill, lv level) ([]float64, error) {
	l := w.l
	nc, nr := l.ncols(), l.nrows()
	defer l.truncate(nc, nr)
	st.res.Tol.Epsilon = math.Max(st.res.Tol.Epsilon, lv.eps)
	l.lo[w.t], l.hi[w.t] = lv.hold, lv.hold
	cols := make([]int, len(w.free))
	ones := make([]float64, len(w.free))
	for q, i := range w.free {
		cols[q] = l.addCol(0, 1, true, "lexmax_z["+st.name(i)+"]")
		ones[q] = 1
		l.addRow([]int{w.y[i], cols[q]}, []float64{1, -lv.eps}, lv.hold, inf, "lexmax_raise["+st.name(i)+"]")
	}
	l.setObjective(model.Maximize, cols, ones)
	sol, err := st.solve("milp", len(st.outs)-len(w.free), l, nil)
	if err != nil {
		if errors.Is(err, ErrInfeasible) {
			err = &StatusError{Step: "milp", Status: solvers.Infeasible}
		}
		return nil, fmt.Errorf("lexmax: MILP saturation test at level %.10g: %w", lv.t, err)
	}
	return slices.Clone(sol.X[:nc]), nil
}
