package qp

import "math"

type result int

const (
	resOptimal result = iota
	resInfeasible
	resUnbounded
	resStopped
	resNumerical
)

// Proximal-point parameters for a singular (positive semidefinite) Hessian; see doc.go.
const (
	proxRho0      = 1e-1 // first ρ, times max(1, max |H_jj|)
	proxRhoMin    = 1e-7 // smallest ρ, same scale
	proxShrink    = 0.1  // ρ ← max(ρ·proxShrink, ρ_min) after every outer iteration
	proxMaxOuter  = 300  // outer iterations before giving up with NumericalError
	rayTol        = 1e-9 // relative tolerance of the recession-direction test
	singularPivot = 1e-8 // see strictlyConvex
	crashRounds   = 8    // batch rounds of the crash start; see begin
	crashMaxBlock = 32   // crash only when every Hessian block is at most this large
)

// safetyIters caps the active-set changes of one dual-method run: the method is finite
// in exact arithmetic, so this only stops numerical cycling.
func (e *engine) safetyIters() int { return e.iters + 20*(e.n+e.m) + 1000 }

func (e *engine) solve() (result, error) {
	for i := range e.m {
		if e.rowNorm[i] == 0 && (e.rlo[i] > e.tolP*max(1, math.Abs(e.rlo[i])) || e.rup[i] < -e.tolP*max(1, math.Abs(e.rup[i]))) {
			return resInfeasible, nil
		}
	}
	strict, err := e.strictlyConvex()
	if err != nil {
		return resNumerical, err
	}
	if strict {
		return e.solveStrict()
	}
	e.proximal = true
	return e.solveProximal()
}

// strictlyConvex decides between the dual method and the proximal fallback. A negative
// diagonal entry proves H indefinite (errNotConvex). Otherwise H is factored on every
// non-fixed variable: a squared pivot, or an estimate of the smallest eigenvalue
// (chol.maxInvDiag), below tau = singularPivot·max(1, max|H_jj|) means H is singular or so
// ill-conditioned that the dual method, whose steps scale with H⁻¹, would decide linear
// dependence and feasibility by rounding; the proximal fallback handles both. A failed
// factorization is not taken as proof of indefiniteness here — after a tiny accepted
// pivot the rest of it is rounding — that test belongs to the factorization of H + ρI
// (ρ ≥ 1e-7·scale) in the proximal path.
func (e *engine) strictlyConvex() (bool, error) {
	strict := true
	tau := singularPivot * max(1, e.hMax)
	for b := range e.blocks {
		blk := &e.blocks[b]
		nb := len(blk.vars)
		idx := make([]int, 0, nb)
		for l, j := range blk.vars {
			if e.st[j] != fixed {
				if blk.h[l*nb+l] < 0 {
					return false, errNotConvex
				}
				idx = append(idx, l)
			}
		}
		if !strict {
			continue // still scanning diagonals
		}
		ok, piv := blk.f.factor(len(idx), func(i, j int) float64 { return blk.h[idx[i]*nb+idx[j]] }, tau, e.check)
		if math.IsNaN(piv) {
			return false, errStopped
		}
		if !ok || blk.f.maxInvDiag()*tau > 1 {
			strict = false
		}
	}
	return strict, nil
}

// begin installs the initial working set and makes it dual feasible. With crash set it
// then runs up to crashRounds batch rounds: every constraint the current point violates
// joins the working set at once (rows only when linearly independent of it), and
// dropNegatives releases inequalities with negative multipliers until none is left. This
// is a primal-dual active-set heuristic; it is not guaranteed to converge, which is why
// the rounds are capped, but each round ends dual feasible — a valid start for the dual
// method, which then finishes exactly. On the RDS problem it replaces thousands of
// one-at-a-time additions (each costing O(n), since the capacity rows' multipliers move
// every allocation) by a few batch solves.
func (e *engine) begin(crash bool) error {
	if err := e.refactor(); err != nil {
		return err
	}
	if err := e.dropNegatives(); err != nil {
		return err
	}
	if !crash {
		return nil
	}
	var batch []constraint
	var snap workingSet
	for range crashRounds {
		if e.check != nil && e.check() {
			return nil
		}
		batch = batch[:0]
		for j := range e.n {
			if e.st[j] != free {
				continue
			}
			if e.x[j] < e.lo[j]-e.tolP*max(1, math.Abs(e.lo[j])) {
				batch = append(batch, constraint{idx: j, sign: 1})
			} else if e.x[j] > e.up[j]+e.tolP*max(1, math.Abs(e.up[j])) {
				batch = append(batch, constraint{idx: j, sign: -1})
			}
		}
		for i := range e.m {
			if e.rowPos[i] >= 0 || e.rowNorm[i] == 0 {
				continue
			}
			if e.ax[i] < e.rlo[i]-e.tolP*max(1, math.Abs(e.rlo[i])) {
				batch = append(batch, constraint{row: true, idx: i, sign: 1, eq: e.rlo[i] == e.rup[i]})
			} else if e.ax[i] > e.rup[i]+e.tolP*max(1, math.Abs(e.rup[i])) {
				batch = append(batch, constraint{row: true, idx: i, sign: -1, eq: e.rlo[i] == e.rup[i]})
			}
		}
		if len(batch) == 0 || e.iterLimit > 0 && e.iters+len(batch) > e.iterLimit {
			// Nothing violated, or the batch would exceed Options.IterationLimit: the dual
			// method goes on one change at a time.
			return nil
		}
		snap.save(e)
		before := e.dualValue()
		for _, p := range batch {
			switch {
			case p.row:
				e.rowPos[p.idx] = len(e.wRow) // refactor re-derives positions
				e.wRow = append(e.wRow, p.idx)
				e.wSign = append(e.wSign, p.sign)
				e.wEq = append(e.wEq, p.eq)
				e.uR = append(e.uR, 0)
			case p.sign > 0:
				e.st[p.idx] = atLower
			default:
				e.st[p.idx] = atUpper
			}
		}
		e.iters += len(batch)
		e.nCrash++
		if err := e.refactor(); err != nil {
			return err
		}
		if err := e.dropNegatives(); err != nil {
			return err
		}
		if after := e.dualValue(); !(after > before+1e-12*max(1, math.Abs(before))) {
			// No progress in the dual objective, which the dual method increases
			// monotonically: the rounds are cycling. Go back to the better working set.
			snap.restore(e)
			if err := e.refactor(); err != nil {
				return err
			}
			return e.dropNegatives()
		}
	}
	return nil
}

// dualValue is the objective ½xᵀ(H+ρI)x + cᵀx of the current point. After dropNegatives
// the point is optimal for its working set with nonnegative multipliers, so this is the
// value of a dual-feasible point: a lower bound on the optimum, which the dual method
// increases monotonically.
func (e *engine) dualValue() float64 {
	f := 0.0
	for j := range e.n {
		hx := (e.hDiag[j] + e.rho) * e.x[j]
		for k := e.hStart[j]; k < e.hStart[j+1]; k++ {
			hx += e.hValue[k] * e.x[e.hIndex[k]]
		}
		f += e.x[j] * (0.5*hx + e.c[j])
	}
	return f
}

// workingSet is a copy of the working set (variable states and active rows), for undoing
// a crash round.
type workingSet struct {
	st    []int8
	rows  []int
	signs []float64
	eqs   []bool
	us    []float64
}

func (w *workingSet) save(e *engine) {
	w.st = append(w.st[:0], e.st...)
	w.rows = append(w.rows[:0], e.wRow...)
	w.signs = append(w.signs[:0], e.wSign...)
	w.eqs = append(w.eqs[:0], e.wEq...)
	w.us = append(w.us[:0], e.uR...)
}

func (w *workingSet) restore(e *engine) {
	copy(e.st, w.st)
	for _, i := range e.wRow {
		e.rowPos[i] = -1
	}
	e.wRow = append(e.wRow[:0], w.rows...)
	e.wSign = append(e.wSign[:0], w.signs...)
	e.wEq = append(e.wEq[:0], w.eqs...)
	e.uR = append(e.uR[:0], w.us...)
	for k, i := range e.wRow {
		e.rowPos[i] = k
	}
}

func (e *engine) runMapped() (result, error) {
	st, err := e.run(e.safetyIters())
	if err != nil {
		return resNumerical, err // errIterLimit is mapped by Solve
	}
	switch st {
	case giOptimal:
		return resOptimal, nil
	case giInfeasible:
		return resInfeasible, nil
	case giStopped:
		return resStopped, nil
	}
	return resNumerical, nil
}

func (e *engine) solveStrict() (result, error) {
	e.rho = 0
	if err := e.begin(e.crash); err != nil {
		return resNumerical, err
	}
	return e.runMapped()
}

// solveProximal is the fallback for a singular H: proximal-point iterations
//
//	x_{k+1} = argmin ½xᵀHx + cᵀx + ½ρ_k‖x − x_k‖²  over the feasible set,
//
// each a strictly convex QP solved by the dual method, warm-started from the previous
// working set. See doc.go for the stopping rule and the unboundedness test.
func (e *engine) solveProximal() (result, error) {
	scale := max(1, e.hMax)
	rho, rhoMin := proxRho0*scale, proxRhoMin*scale
	xk := make([]float64, e.n)
	for j := range e.n {
		xk[j] = min(max(0, e.lo[j]), e.up[j])
	}
	d := make([]float64, e.n)
	e.rho = rho
	e.setProxCost(xk)
	if err := e.begin(e.crash); err != nil {
		return resNumerical, err
	}
	for outer := 0; ; outer++ {
		res, err := e.runMapped()
		if err != nil || res != resOptimal {
			return res, err
		}
		dn := 0.0
		for j := range e.n {
			d[j] = e.x[j] - xk[j]
			dn = max(dn, math.Abs(d[j]))
		}
		if rho*dn <= e.tolD*e.dualScale() {
			return resOptimal, nil
		}
		if e.isRay(d, dn) {
			return resUnbounded, nil
		}
		if outer >= proxMaxOuter {
			return resNumerical, nil
		}
		if e.check != nil && e.check() {
			return resStopped, nil
		}
		copy(xk, e.x)
		e.extrapolate(xk, d, dn)
		newRho := max(rho*proxShrink, rhoMin)
		e.setProxCostRho(xk, newRho)
		if newRho != rho {
			rho = newRho
			e.rho = rho
			if err := e.refactor(); err != nil {
				return resNumerical, err
			}
		}
		if err := e.dropNegatives(); err != nil {
			return resNumerical, err
		}
	}
}

func (e *engine) setProxCost(xk []float64) { e.setProxCostRho(xk, e.rho) }

func (e *engine) setProxCostRho(xk []float64, rho float64) {
	for j := range e.n {
		e.c[j] = e.problem.c[j] - rho*xk[j]
	}
}

// dualScale is max(1, ‖c‖∞, ‖Hx‖∞), the scale of the stationarity residual.
func (e *engine) dualScale() float64 {
	s := max(1, e.cMax)
	for j := range e.n {
		hx := e.hDiag[j] * e.x[j]
		for k := e.hStart[j]; k < e.hStart[j+1]; k++ {
			hx += e.hValue[k] * e.x[e.hIndex[k]]
		}
		s = max(s, math.Abs(hx))
	}
	return s
}

// isRay reports whether d (with ‖d‖∞ = dn > 0) is, within rayTol, a direction of
// recession along which the objective decreases without bound: Hd = 0, cᵀd < 0, and
// every finite bound and row side stays satisfied when moving along d. Together with the
// feasible current point this certifies unboundedness.
func (e *engine) isRay(d []float64, dn float64) bool {
	if dn == 0 {
		return false
	}
	cd := 0.0
	for j := range e.n {
		cd += e.problem.c[j] * d[j]
	}
	if !(cd < -rayTol*max(1, e.cMax)*dn) {
		return false
	}
	ht := rayTol * max(1, e.hMax) * dn
	for j := range e.n {
		hd := e.hDiag[j] * d[j]
		for k := e.hStart[j]; k < e.hStart[j+1]; k++ {
			hd += e.hValue[k] * d[e.hIndex[k]]
		}
		if math.Abs(hd) > ht {
			return false
		}
		if !math.IsInf(e.lo[j], -1) && d[j] < -rayTol*dn {
			return false
		}
		if !math.IsInf(e.up[j], 1) && d[j] > rayTol*dn {
			return false
		}
	}
	ad := make([]float64, e.m)
	for j := range e.n {
		for k := e.aStart[j]; k < e.aStart[j+1]; k++ {
			ad[e.aIndex[k]] += e.aValue[k] * d[j]
		}
	}
	for i, v := range ad {
		t := rayTol * e.rowNorm[i] * dn
		if !math.IsInf(e.rlo[i], -1) && v < -t {
			return false
		}
		if !math.IsInf(e.rup[i], 1) && v > t {
			return false
		}
	}
	return true
}

// extrapolate moves the next proximal centre xk (the current iterate, feasible) further
// along the last proximal step d while the objective keeps decreasing: to the minimizer
// of f along the line, or to the first constraint in the way, whichever comes first.
// Without it a variable with no curvature and a small cost gradient g moves only by
// about g/ρ per outer iteration. Any centre is valid for the proximal method; the
// stopping rule certifies the final point, so this changes speed, not the answer.
func (e *engine) extrapolate(xk, d []float64, dn float64) {
	slope, curv := 0.0, 0.0 // φ'(0) = (Hx + c)ᵀd, φ'' = dᵀHd
	for j := range e.n {
		hx, hd := e.hDiag[j]*xk[j], e.hDiag[j]*d[j]
		for k := e.hStart[j]; k < e.hStart[j+1]; k++ {
			i := e.hIndex[k]
			hx += e.hValue[k] * xk[i]
			hd += e.hValue[k] * d[i]
		}
		slope += (hx + e.problem.c[j]) * d[j]
		curv += hd * d[j]
	}
	if !(slope < 0) {
		return
	}
	alpha := math.Inf(1)
	if curv > 0 {
		alpha = -slope / curv
	}
	small := 1e-12 * dn
	for j := range e.n {
		switch dj := d[j]; {
		case dj < -small && !math.IsInf(e.lo[j], -1):
			alpha = min(alpha, max(0, (e.lo[j]-xk[j])/dj))
		case dj > small && !math.IsInf(e.up[j], 1):
			alpha = min(alpha, max(0, (e.up[j]-xk[j])/dj))
		}
	}
	ax := e.ax
	for i := range e.m {
		ad := 0.0
		for k := e.rStart[i]; k < e.rStart[i+1]; k++ {
			ad += e.rValue[k] * d[e.rIndex[k]]
		}
		switch {
		case ad < -small*e.rowNorm[i] && !math.IsInf(e.rlo[i], -1):
			alpha = min(alpha, max(0, (e.rlo[i]-ax[i])/ad))
		case ad > small*e.rowNorm[i] && !math.IsInf(e.rup[i], 1):
			alpha = min(alpha, max(0, (e.rup[i]-ax[i])/ad))
		}
	}
	if math.IsInf(alpha, 1) || alpha <= 1 {
		return
	}
	for j := range e.n {
		xk[j] = min(max(xk[j]+alpha*d[j], e.lo[j]), e.up[j])
	}
}
