package qp

import "math"

// This file is the dual method proper (Goldfarb and Idnani 1983, steps 1–3): choosing a
// violated constraint, the primal and dual step directions, partial and full steps, and
// the bookkeeping around them. engine.go holds the working-set factorizations it uses.

// dropNegatives repeats: solve the working set's equality problem, release every
// inequality whose multiplier is negative, until none is. The working set shrinks each
// round, so this ends; what remains is a dual-feasible starting point for the dual method.
func (e *engine) dropNegatives() error {
	for {
		e.eqp()
		tol := e.tolD * max(1, e.cMax)
		if e.iterLimit > 0 {
			drops := 0
			for j := range e.n {
				if (e.st[j] == atLower || e.st[j] == atUpper) && e.uB[j] < -tol {
					drops++
				}
			}
			for k := range e.wRow {
				if !e.wEq[k] && e.uR[k] < -tol {
					drops++
				}
			}
			if drops > 0 && e.iters+drops > e.iterLimit {
				return errIterLimit
			}
		}
		changed := false
		for j := range e.n {
			if (e.st[j] == atLower || e.st[j] == atUpper) && e.uB[j] < -tol {
				e.st[j] = free
				e.uB[j] = 0
				e.iters++
				changed = true
			}
		}
		for k := 0; k < len(e.wRow); k++ {
			if !e.wEq[k] && e.uR[k] < -tol {
				e.rowPos[e.wRow[k]] = -1
				e.wRow = append(e.wRow[:k], e.wRow[k+1:]...)
				e.wSign = append(e.wSign[:k], e.wSign[k+1:]...)
				e.wEq = append(e.wEq[:k], e.wEq[k+1:]...)
				e.uR = append(e.uR[:k], e.uR[k+1:]...)
				for i := k; i < len(e.wRow); i++ {
					e.rowPos[e.wRow[i]] = i
				}
				k--
				e.iters++
				changed = true
			}
		}
		if !changed {
			return nil
		}
		if err := e.refactor(); err != nil {
			return err
		}
	}
}

// mostViolated returns the inactive constraint with the largest normalized violation
// above tolerance, and its violation b_p − n_pᵀx (> 0).
func (e *engine) mostViolated() (constraint, float64, bool) {
	var best constraint
	bestScore, bestViol := 0.0, 0.0
	for j := range e.n {
		if e.st[j] != free || e.skipCol[j] {
			continue
		}
		xj := e.x[j]
		if v := e.lo[j] - xj; v > e.tolP*max(1, math.Abs(e.lo[j])) && v > bestScore {
			best, bestScore, bestViol = constraint{idx: j, sign: 1}, v, v
		} else if v := xj - e.up[j]; v > e.tolP*max(1, math.Abs(e.up[j])) && v > bestScore {
			best, bestScore, bestViol = constraint{idx: j, sign: -1}, v, v
		}
	}
	for i := range e.m {
		if e.rowPos[i] >= 0 || e.rowNorm[i] == 0 || e.skipRow[i] {
			continue
		}
		a := e.ax[i]
		eq := e.rlo[i] == e.rup[i]
		if v := e.rlo[i] - a; v > e.tolP*max(1, math.Abs(e.rlo[i])) {
			if s := v / e.rowNorm[i]; s > bestScore {
				best, bestScore, bestViol = constraint{row: true, idx: i, sign: 1, eq: eq}, s, v
			}
		} else if v := a - e.rup[i]; v > e.tolP*max(1, math.Abs(e.rup[i])) {
			if s := v / e.rowNorm[i]; s > bestScore {
				best, bestScore, bestViol = constraint{row: true, idx: i, sign: -1, eq: eq}, s, v
			}
		}
	}
	return best, bestViol, bestScore > 0
}

// violation is b_p − n_pᵀx for constraint p.
func (e *engine) violation(p constraint) float64 {
	if !p.row {
		if p.sign > 0 {
			return e.lo[p.idx] - e.x[p.idx]
		}
		return e.x[p.idx] - e.up[p.idx]
	}
	if p.sign > 0 {
		return e.rlo[p.idx] - e.ax[p.idx]
	}
	return e.ax[p.idx] - e.rup[p.idx]
}

// giStatus is the outcome of the dual method.
type giStatus int

const (
	giOptimal giStatus = iota
	giInfeasible
	giStopped // e.check asked to stop (limit or cancellation)
	giNumerical
	giDependent // p cannot be added (no primal step, nothing to release) but is violated only within infeasTol
)

// infeasTol is the violation above which a constraint that cannot be added proves
// infeasibility. Below it the violation is rounding at a degenerate vertex (the
// constraint is a combination of the working set, which pins x to about the accuracy of
// the factorization), and the constraint is accepted as satisfied within tolerance.
func (e *engine) infeasTol(p constraint) float64 {
	var b float64
	switch {
	case !p.row && p.sign > 0:
		b = e.lo[p.idx]
	case !p.row:
		b = e.up[p.idx]
	default:
		b = e.rowBound(p.idx, p.sign)
	}
	return 100 * e.tolP * max(1, math.Abs(b))
}

// run is the Goldfarb–Idnani loop from the current dual-feasible working set.
func (e *engine) run(maxIters int) (giStatus, error) {
	refreshes := 0
	retries := 0
	for {
		p, _, ok := e.mostViolated()
		if !ok {
			if e.nskip > 0 && e.skippedTooFar() {
				// A constraint set aside as "violated within tolerance" has drifted
				// beyond it: consider it again.
				e.clearSkips()
				if refreshes++; refreshes > 6 {
					return giNumerical, nil
				}
				continue
			}
			if e.updates == 0 || refreshes >= 3 {
				return giOptimal, nil
			}
			// Recompute the point from fresh factors before declaring optimality, so that
			// drift from many low-rank updates cannot leave a slightly wrong answer.
			refreshes++
			if err := e.refactor(); err != nil {
				return giNumerical, err
			}
			if err := e.dropNegatives(); err != nil {
				return giNumerical, err
			}
			continue
		}
		if e.check != nil && e.check() {
			return giStopped, nil
		}
		if e.iters > maxIters {
			return giNumerical, nil
		}
		viol := e.violation(p)
		st, err := e.addConstraint(p, maxIters)
		if err == nil && (st == giInfeasible || st == giDependent) && retries < 3 && e.updates > 0 &&
			viol <= 10*e.infeasTol(p) {
			// Before concluding, recompute the point from fresh factors: a violation this
			// small may be drift from the low-rank updates. (A large one is not, and
			// retrying it would only replay the same additions.)
			retries++
			if err := e.refactor(); err != nil {
				return giNumerical, err
			}
			if err := e.dropNegatives(); err != nil {
				return giNumerical, err
			}
			continue
		}
		if st == giDependent {
			e.skip(p)
			if e.updates > 0 {
				// Partial steps may have moved the multipliers with p's own (now dropped)
				// multiplier in play: re-solve the working set and release negatives to
				// restore a dual-feasible start.
				if err := e.refactor(); err != nil {
					return giNumerical, err
				}
				if err := e.dropNegatives(); err != nil {
					return giNumerical, err
				}
			}
			continue
		}
		if err != nil || st != giOptimal {
			return st, err
		}
		if e.updates > 200 {
			if err := e.refactor(); err != nil {
				return giNumerical, err
			}
			if err := e.dropNegatives(); err != nil {
				return giNumerical, err
			}
		}
	}
}

// addConstraint performs steps 2 of the dual method for the violated constraint p:
// partial steps (dropping blocking constraints) until p can be added with a full step.
// It returns giInfeasible when p cannot be satisfied together with the equality part of
// the working set and the remaining inequalities (no blocking constraint and no primal
// direction).
func (e *engine) addConstraint(p constraint, maxIters int) (giStatus, error) {
	up := 0.0 // p's multiplier so far
	for {
		if e.check != nil && e.check() {
			return giStopped, nil
		}
		if e.iters > maxIters {
			return giNumerical, nil
		}
		q := len(e.wRow)
		e.growRowScratch()
		nv := e.y // n_pF scratch
		sigma := e.normalSolve(p, nv, e.w)
		// v = Tᵀn_pF, r = S⁻¹v.
		r := e.r[:q]
		for k := range q {
			r[k] = e.dotNormal(p, e.t[k])
		}
		e.s.solve(r)
		// z = w − T r on F.
		z := e.z
		for j := range e.n {
			if e.st[j] == free {
				s := e.w[j]
				for k := range q {
					s -= r[k] * e.t[k][j]
				}
				z[j] = s
			} else {
				z[j] = 0
			}
		}
		delta2 := e.dotNormal(p, z)
		e.clearTouched(nv, e.w)
		// r_B = s_j (n_p,j − (Hz)_j − (N_R r)_j) for variables at a bound.
		e.boundDirection(p, r)
		// Partial step length t1 over the droppable working set.
		t1, drop := math.Inf(1), constraint{}
		// Entries of r below epsR are rounding noise of an exact zero; the scale is that
		// of the droppable constraints only (equality multipliers may be huge when an
		// equality is nearly dependent, and must not swamp the rest).
		rmax := 0.0
		for k := range q {
			if !e.wEq[k] {
				rmax = max(rmax, math.Abs(r[k]))
			}
		}
		for j := range e.n {
			if e.st[j] == atLower || e.st[j] == atUpper {
				rmax = max(rmax, math.Abs(e.rB[j]))
			}
		}
		// r_k is a coefficient of n_p in terms of n_k (exactly so when p is dependent),
		// for normals of comparable size; below 1e-11 it is noise, and dividing a
		// multiplier by it gives absurd partial steps.
		epsR := max(1e-13*max(1, rmax), 1e-11)
		for j := range e.n {
			if (e.st[j] == atLower || e.st[j] == atUpper) && e.rB[j] > epsR {
				if t := max(e.uB[j], 0) / e.rB[j]; t < t1 {
					t1, drop = t, constraint{idx: j}
				}
			}
		}
		for k := range q {
			if !e.wEq[k] && r[k] > epsR {
				if t := max(e.uR[k], 0) / r[k]; t < t1 {
					t1, drop = t, constraint{row: true, idx: k}
				}
			}
		}
		// Full step length t2.
		t2 := math.Inf(1)
		if delta2 > e.tolDep*sigma && sigma > 0 {
			t2 = max(e.violation(p), 0) / delta2
		}
		if math.IsInf(t1, 1) && math.IsInf(t2, 1) {
			if e.violation(p) <= e.infeasTol(p) {
				return giDependent, nil
			}
			return giInfeasible, nil
		}
		t := min(t1, t2)
		// Multipliers.
		for j := range e.n {
			if e.st[j] != free {
				e.uB[j] -= t * e.rB[j]
			}
		}
		for k := range q {
			e.uR[k] -= t * r[k]
		}
		up += t
		if !math.IsInf(t2, 1) {
			e.step(t, z)
		}
		e.iters++
		if t2 <= t1 {
			return giOptimal, e.commit(p, up)
		}
		if err := e.dropConstraint(drop); err != nil {
			return giNumerical, err
		}
	}
}

// boundDirection fills e.rB for variables at a bound (see addConstraint).
func (e *engine) boundDirection(p constraint, r []float64) {
	y := e.rB
	for j := range e.n {
		y[j] = 0
	}
	// −(N_R r)_j
	for k, i := range e.wRow {
		f := e.wSign[k] * r[k]
		if f == 0 {
			continue
		}
		for kk := e.rStart[i]; kk < e.rStart[i+1]; kk++ {
			if j := e.rIndex[kk]; e.st[j] != free {
				y[j] -= f * e.rValue[kk]
			}
		}
	}
	if p.row {
		for kk := e.rStart[p.idx]; kk < e.rStart[p.idx+1]; kk++ {
			if j := e.rIndex[kk]; e.st[j] != free {
				y[j] += p.sign * e.rValue[kk]
			}
		}
	}
	z := e.z
	for j := range e.n {
		if e.st[j] == free {
			continue
		}
		s := y[j]
		for k := e.hStart[j]; k < e.hStart[j+1]; k++ {
			s -= e.hValue[k] * z[e.hIndex[k]]
		}
		if e.st[j] == atUpper {
			s = -s
		}
		y[j] = s
	}
}

// step moves x by t·z and keeps Ax in step.
func (e *engine) step(t float64, z []float64) {
	for j := range e.n {
		zj := z[j]
		if zj == 0 {
			continue
		}
		e.x[j] += t * zj
		tz := t * zj
		for k := e.aStart[j]; k < e.aStart[j+1]; k++ {
			e.ax[e.aIndex[k]] += e.aValue[k] * tz
		}
	}
}

// commit adds p to the working set with multiplier u.
func (e *engine) commit(p constraint, u float64) error {
	if !p.row {
		j := p.idx
		st := atLower
		if p.sign < 0 {
			st = atUpper
		}
		if err := e.fixVar(j, st); err != nil {
			return err
		}
		// Snap to the bound exactly.
		if d := e.boundValue(j) - e.x[j]; d != 0 {
			e.x[j] += d
			for k := e.aStart[j]; k < e.aStart[j+1]; k++ {
				e.ax[e.aIndex[k]] += e.aValue[k] * d
			}
		}
		e.uB[j] = u
		return nil
	}
	sigma := e.normalSolve(p, e.y, e.w)
	// The full step was taken because δ² = n_pᵀz passed tolDep; accept the same
	// pivot here with some slack for the different rounding of σ − ‖L⁻¹v‖².
	ok := e.appendRowToS(p, e.w, sigma, 0.01*e.tolDep)
	e.clearTouched(e.y, e.w)
	if !ok {
		return errNumerical
	}
	e.uR[len(e.uR)-1] = u
	e.updates++
	return nil
}

// dropConstraint removes a blocking constraint found by the partial step.
func (e *engine) dropConstraint(d constraint) error {
	if d.row {
		e.removeRow(d.idx)
		return nil
	}
	return e.freeVar(d.idx)
}

// skip sets p aside: it is violated by less than infeasTol and cannot be added.
func (e *engine) skip(p constraint) {
	if p.row {
		e.skipRow[p.idx] = true
	} else {
		e.skipCol[p.idx] = true
	}
	e.skipped = append(e.skipped, p)
	e.nskip++
}

func (e *engine) clearSkips() {
	for _, p := range e.skipped {
		if p.row {
			e.skipRow[p.idx] = false
		} else {
			e.skipCol[p.idx] = false
		}
	}
	e.skipped = e.skipped[:0]
	e.nskip = 0
}

// skippedTooFar reports whether a set-aside constraint is now violated beyond infeasTol.
func (e *engine) skippedTooFar() bool {
	for _, p := range e.skipped {
		if p.row && e.rowPos[p.idx] >= 0 || !p.row && e.st[p.idx] != free {
			continue
		}
		if e.violation(p) > e.infeasTol(p) {
			return true
		}
	}
	return false
}
