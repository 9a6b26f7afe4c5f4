package simplex

import (
	"fmt"
	"math"
)

type iterResult int

const (
	iterDone       iterResult = iota // a basis change (or bound flips) happened
	iterRetry                        // numerical trouble: refactorized, try again
	iterInfeasible                   // dual unbounded ray (verified on a fresh factorization)
	iterUnbounded                    // primal unbounded ray (verified on a fresh factorization)
)

// maxRetries bounds consecutive iterations that only refactorize.
const maxRetries = 25

// refreshDual refactorizes, recomputes everything and restores dual feasibility.
func (s *simplex) refreshDual() {
	s.refresh()
	if s.correctDual() {
		s.computePrimal()
	}
}

// dual runs the bounded dual simplex method with dual steepest-edge pricing and the
// bound-flipping ratio test from a dual feasible basis, on the working bounds and costs,
// until no basic variable is primal infeasible (outOptimal) or the dual is unbounded
// (outInfeasible) or a limit stops it.
func (s *simplex) dual() outcome {
	retries := 0
	start := s.iters
	for {
		if o := s.checkLimits(); o >= 0 {
			return o
		}
		if s.phase1 && s.iters > start && (s.iters-start)%s.phase1Check == 0 && s.dualFeasibleForOriginal() {
			return outOptimal
		}
		if s.needRefactor() {
			s.refreshDual()
		}
		r := s.chuzr()
		if r < 0 {
			if s.fresh {
				return outOptimal
			}
			// Confirm on values recomputed from scratch.
			s.recompute()
			if s.correctDual() {
				s.computePrimal()
			}
			continue
		}
		switch s.dualIteration(r) {
		case iterDone:
			retries = 0
			if s.cycling && !s.recoverFromCycling() {
				return outNumerical
			}
		case iterRetry:
			retries++
			if retries > maxRetries {
				return outNumerical
			}
		case iterInfeasible:
			return outInfeasible
		}
	}
}

// chuzr picks the leaving row: the primal infeasibility δ maximizing δ²/w (dual
// steepest edge). The bounds widened by the tolerance are kept per position (setPos
// computes them, for the tolerance thrTol): the same values the comparisons would
// compute, read from two arrays instead of four, as CHUZR reads every position in every
// iteration.
func (s *simplex) chuzr() int {
	m := s.m
	if tol := s.set.primalTol; tol != s.thrTol {
		s.thrTol = tol
		for p := range m {
			s.setThresholds(p)
		}
	}
	best, bestM := -1, 0.0
	xB := s.xB[:m]
	lB, uB, lo, hi, w := s.lB[:len(xB)], s.uB[:len(xB)], s.loThr[:len(xB)], s.hiThr[:len(xB)], s.w[:len(xB)]
	for p, v := range xB {
		var e float64
		if v < lo[p] {
			e = lB[p] - v
		} else if v > hi[p] {
			e = v - uB[p]
		} else {
			continue
		}
		if m := e * e / w[p]; m > bestM {
			best, bestM = p, m
		}
	}
	if checkIndices {
		s.checkChuzr(best)
	}
	return best
}

// checkChuzr panics unless best is the row a CHUZR computing each widened bound afresh
// picks (the simplexcheck build's test of the kept thresholds).
func (s *simplex) checkChuzr(best int) {
	tol := s.set.primalTol
	want, wantM := -1, 0.0
	for p := 0; p < s.m; p++ {
		v := s.xB[p]
		var e float64
		if lb := s.lB[p]; v < lb-tol*s.pL[p] {
			e = lb - v
		} else if ub := s.uB[p]; v > ub+tol*s.pU[p] {
			e = v - ub
		} else {
			continue
		}
		if m := e * e / s.w[p]; m > wantM {
			want, wantM = p, m
		}
	}
	if want != best {
		panic(fmt.Sprintf("simplex: CHUZR on kept thresholds picked row %d, afresh %d", best, want))
	}
}

// dualIteration performs one iteration with leaving row r.
func (s *simplex) dualIteration(r int) iterResult {
	xr := s.xB[r]
	var dir, target, leaveTol float64
	if xr < s.lB[r] {
		dir, target, leaveTol = -1, s.lB[r], s.set.primalTol*s.pL[r]
	} else {
		dir, target, leaveTol = 1, s.uB[r], s.set.primalTol*s.pU[r]
	}
	s.btranUnit(r)
	wr := 0.0
	for _, i := range s.row.idx {
		ri := *elem(s.row.val, i)
		wr += ri * ri
	}
	s.w[r] = wr
	s.price(&s.row)
	piv := pivotTolerance
	q, nflip := s.dualRatio(dir, math.Abs(xr-target), leaveTol, piv, false)
	if q < 0 {
		if s.lu.numUpdates() > 0 {
			s.refreshDual()
			return iterRetry
		}
		// Before claiming a dual ray, let candidates below the pivot tolerance in (with a
		// wide range, a tiny α can still move the row — a scaling artefact — and the
		// stability check guards the pivot), and, when the row misses its bound by little
		// more than the tolerance, fixed variables: two equality rows that pin the same
		// column agree only within their tolerances, and which one's logical stays basic
		// decides whether the other looks violated.
		piv = tinyPivot
		nearlyFeasible := math.Abs(xr-target) <= 1000*leaveTol
		q, nflip = s.dualRatio(dir, math.Abs(xr-target), leaveTol, piv, nearlyFeasible)
	}
	if q < 0 {
		return iterInfeasible
	}
	s.ftranColumn(q)
	ac, arow := s.col.val[r], s.alpha.val[q]
	if math.Abs(ac-arow) > stabilityTol*math.Max(1, math.Min(math.Abs(ac), math.Abs(arow))) || math.Abs(ac) < piv {
		if s.lu.numUpdates() > 0 {
			s.refreshDual()
			return iterRetry
		}
		if math.Abs(ac) < piv || math.Abs(ac-arow) > 1e-3*math.Abs(ac) {
			s.setTaboo(q)
			return iterRetry
		}
	}

	// Dual step; a reduced cost on the wrong side of zero (within the Harris tolerance)
	// is shifted to zero so that the step never goes backwards.
	thetaD := s.d[q] / arow
	if thetaD*dir < 0 {
		s.cost[q] -= s.d[q]
		s.d[q] = 0
		thetaD = 0
		s.perturbed = true
	}

	if nflip > 0 {
		s.applyFlips(nflip)
	}

	// τ = B⁻¹ρ_r for the steepest-edge update.
	s.tau.clearAll()
	for _, i := range s.row.idx {
		*elem(s.tau.val, i) = *elem(s.row.val, i)
	}
	s.tau.idx = append(s.tau.idx, s.row.idx...)
	s.lu.ftranVec(&s.tau, s.densTau, false)
	s.densTau = updateDensity(s.densTau, len(s.tau.idx), s.m)

	// Primal step.
	thetaP := (s.xB[r] - target) / ac
	for _, p := range s.col.idx {
		*elem(s.xB, p) -= thetaP * *elem(s.col.val, p)
	}
	xq := s.x[q] + thetaP

	// Dual update (basic variables have α ≈ 0 and their d is reset when they leave).
	if thetaD != 0 {
		d, al := s.d, s.alpha.val
		for _, j := range s.alpha.idx {
			*elem(d, j) -= thetaD * *elem(al, j)
		}
	}

	// Dual steepest-edge weights (Forrest & Goldfarb's update with Koberstein's bound).
	for _, p := range s.col.idx {
		if p == r {
			continue
		}
		ratio := *elem(s.col.val, p) / ac
		wp := elem(s.w, p)
		nw := *wp + ratio*(ratio*wr-2**elem(s.tau.val, p))
		*wp = math.Max(nw, ratio*ratio)
	}
	s.w[r] = math.Max(wr/(ac*ac), 1e-8)

	s.basisChange(r, q, xq, target, -thetaD)
	s.iters++
	return iterDone
}

// dualRatio is the bound-flipping ratio test with Harris tolerances (Koberstein,
// Algorithm 7 in spirit). The leaving variable moves to its violated bound: dir = −1 for
// its lower bound, +1 for its upper; slope is its infeasibility, the initial slope of the
// dual objective along the ray. Breakpoints are processed in Harris groups; while the
// slope stays positive after passing a group of boxed variables, they flip bounds and the
// search continues. It returns the entering variable (−1 when the dual is unbounded) and
// the number of flips, which are s.cands[:nflip].
func (s *simplex) dualRatio(dir, slope, leaveTol, pivTol float64, fixed bool) (q, nflip int) {
	tolD := s.set.dualTol
	c := s.cands[:0]
	move, al, d, taboo := s.move, s.alpha.val, s.d, s.taboo
	for _, j := range s.alpha.idx {
		mv := *elem(move, j) // 0 for basic and fixed variables
		if mv == 0 {
			if !fixed || s.pos[j] >= 0 {
				continue
			}
			// A fixed variable as a last resort: it enters at ratio 0 (its reduced cost
			// is then shifted to zero) and cannot flip.
			if a := math.Abs(al[j]); a > pivTol && !s.taboo[j] {
				c = append(c, cand{j: j, ratio: 0, alpha: a})
			}
			continue
		}
		a := dir * *elem(al, j)
		var ratio float64
		switch mv {
		case 1:
			if a <= pivTol {
				continue
			}
			ratio = *elem(d, j) / a
		case -1:
			if a >= -pivTol {
				continue
			}
			ratio = *elem(d, j) / a
		default: // free: blocks in both directions
			if a <= pivTol && a >= -pivTol {
				continue
			}
			ratio = math.Max(*elem(d, j)/a, 0)
			if a < 0 {
				a = -a
			}
		}
		if *elem(taboo, j) {
			continue
		}
		if a < 0 {
			a = -a
		}
		c = append(c, cand{j: j, ratio: ratio, alpha: a})
	}
	s.cands = c
	done := 0
	for done < len(c) {
		thMax := math.Inf(1)
		for k := done; k < len(c); k++ {
			if t := c[k].ratio + tolD/c[k].alpha; t < thMax {
				thMax = t
			}
		}
		g := done
		drop := 0.0
		for k := done; k < len(c); k++ {
			if c[k].ratio <= thMax {
				c[g], c[k] = c[k], c[g]
				j := c[g].j
				if r := s.upper[j] - s.lower[j]; r > 0 {
					drop += c[g].alpha * r
				} else {
					drop = math.Inf(1) // a fixed variable cannot flip
				}
				g++
			}
		}
		// Pass the group only while the slope stays clearly positive; a slope that the
		// flips bring to within the primal tolerance ends the search here (the row can
		// just become feasible, which is not a dual ray).
		if slope-drop > leaveTol {
			slope -= drop
			done = g
			continue
		}
		best := done
		for k := done + 1; k < g; k++ {
			if c[k].alpha > c[best].alpha {
				best = k
			}
		}
		return c[best].j, done
	}
	return -1, 0
}

// applyFlips moves the variables s.cands[:nflip] to their opposite bounds and updates
// the basic values: Δx_B = −B⁻¹ Σ a_j Δx_j.
func (s *simplex) applyFlips(nflip int) {
	s.fresh = false
	f := &s.flip
	f.clearAll()
	a := &s.lp.a
	for _, c := range s.cands[:nflip] {
		j := c.j
		var delta float64
		if s.move[j] == 1 {
			delta = s.upper[j] - s.lower[j]
			s.x[j], s.move[j] = s.upper[j], -1
		} else {
			delta = s.lower[j] - s.upper[j]
			s.x[j], s.move[j] = s.lower[j], 1
		}
		if j >= s.n {
			f.add(j-s.n, delta, s.lu.smark)
			continue
		}
		for p := a.start[j]; p < a.start[j+1]; p++ {
			f.add(a.index[p], a.value[p]*delta, s.lu.smark)
		}
	}
	for _, i := range f.idx {
		s.lu.smark[i] = false
	}
	s.lu.ftranVec(f, s.densFlip, false)
	s.densFlip = updateDensity(s.densFlip, len(f.idx), s.m)
	for _, p := range f.idx {
		s.xB[p] -= f.val[p]
	}
}

// dualPhase1 seeks a dual feasible basis by solving the auxiliary problem of Koberstein
// §4.3 (the "subproblem" approach): every variable gets the box [0,0] (boxed and fixed),
// [0,1] (lower bound only), [−1,0] (upper bound only) or [−1000,1000] (free), and the dual
// simplex minimizes the original costs over Az = 0 in that box, i.e. minimizes the total
// dual infeasibility. At its optimum the basis is dual feasible for the original bounds
// unless the LP is dual infeasible.
func (s *simplex) dualPhase1() outcome {
	for j := 0; j < s.nt; j++ {
		lo, up := s.lp.lower[j], s.lp.upper[j]
		loInf, upInf := math.IsInf(lo, -1), math.IsInf(up, 1)
		switch {
		case loInf && upInf && j >= s.n:
			// A free row's logical stays free (and basic): the row constrains nothing.
			s.lower[j], s.upper[j] = lo, up
		case loInf && upInf:
			s.lower[j], s.upper[j] = -phase1Free, phase1Free
		case loInf:
			s.lower[j], s.upper[j] = -1, 0
		case upInf:
			s.lower[j], s.upper[j] = 0, 1
		default:
			s.lower[j], s.upper[j] = 0, 0
		}
	}
	// The subproblem's bounds are O(1): its feasibility is absolute.
	fL, fU := s.fL, s.fU
	s.fL, s.fU = ones(s.nt), ones(s.nt)
	s.resetBounds()
	s.phase1 = true
	s.phase1Check = max(5, s.nt/1000)
	o := s.dual()
	s.phase1 = false
	s.logf("dual phase 1: outcome %d at iteration %d, objective %g", o, s.iters, s.objective())
	copy(s.lower, s.lp.lower)
	copy(s.upper, s.lp.upper)
	s.fL, s.fU = fL, fU
	s.resetBounds()
	return o
}

// dualFeasibleForOriginal reports whether the reduced costs are dual feasible for the
// LP's own bounds (boxed variables always are: they can sit at either bound). Phase 1
// stops as soon as this holds, even before its subproblem is solved.
func (s *simplex) dualFeasibleForOriginal() bool {
	tol := s.set.dualTol
	for j := 0; j < s.nt; j++ {
		if s.pos[j] >= 0 {
			continue
		}
		lo, up := s.lp.lower[j], s.lp.upper[j]
		loInf, upInf := math.IsInf(lo, -1), math.IsInf(up, 1)
		dj := s.d[j]
		switch {
		case !loInf && !upInf:
		case loInf && upInf:
			if math.Abs(dj) > tol {
				return false
			}
		case loInf:
			if dj > tol {
				return false
			}
		default:
			if dj < -tol {
				return false
			}
		}
	}
	return true
}

// resetBounds re-places the nonbasic variables by their reduced costs after the working
// bounds changed and recomputes the basic values.
func (s *simplex) resetBounds() {
	for j := 0; j < s.nt; j++ {
		if s.pos[j] < 0 {
			s.placeNonbasic(j, s.d[j])
		}
	}
	for p, v := range s.basic {
		s.setPos(p, v)
	}
	s.computePrimal()
}
