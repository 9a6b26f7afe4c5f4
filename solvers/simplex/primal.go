package simplex

import "math"

// devexReset is the weight beyond which the Devex reference framework is reset.
const devexReset = 1e8

// primal runs the bounded primal simplex method (Devex pricing, Harris two-pass ratio
// test with bound flips of the entering variable) from a primal feasible basis on the
// working costs. It ends at an optimum (outOptimal), an unbounded ray verified on a fresh
// factorization (outUnbounded), lost primal feasibility after a refactorization
// (outPrimalInfeas: the caller continues with the dual) or a limit.
func (s *simplex) primal() outcome {
	s.inPrimal = true
	defer func() { s.inPrimal = false }()
	if len(s.dv) != s.nt {
		s.dv = make([]float64, s.nt)
	}
	for j := range s.dv {
		s.dv[j] = 1
	}
	retries := 0
	for {
		if o := s.checkLimits(); o >= 0 {
			return o
		}
		if s.needRefactor() {
			s.refresh()
			if cnt, _ := s.primalInfeasibility(); cnt > 0 {
				return outPrimalInfeas
			}
		}
		q := s.primalPrice()
		if q < 0 {
			if s.fresh {
				return outOptimal
			}
			s.recompute()
			if cnt, _ := s.primalInfeasibility(); cnt > 0 {
				return outPrimalInfeas
			}
			continue
		}
		switch s.primalIteration(q) {
		case iterDone:
			retries = 0
			if s.cycling {
				// Bar the entering variable until the next factorization.
				s.cycling = false
				s.recent = [64]recentChange{}
				if s.cycleEvents++; s.cycleEvents > 4*maxCycleRecoveries {
					return outNumerical
				}
				s.setTaboo(q)
			}
		case iterRetry:
			retries++
			if retries > maxRetries {
				return outNumerical
			}
			if cnt, _ := s.primalInfeasibility(); cnt > 0 {
				return outPrimalInfeas
			}
		case iterUnbounded:
			return outUnbounded
		}
	}
}

// primalPrice picks the entering variable by Devex: the dual infeasibility e maximizing
// e²/w.
func (s *simplex) primalPrice() int {
	tol := s.set.dualTol
	best, bestM := -1, 0.0
	for j := 0; j < s.nt; j++ {
		if s.pos[j] >= 0 || s.taboo[j] || s.lower[j] == s.upper[j] {
			continue
		}
		dj := s.d[j]
		var e float64
		switch s.move[j] {
		case 1:
			e = -dj
		case -1:
			e = dj
		case moveFree:
			e = math.Abs(dj)
		}
		if e <= tol {
			continue
		}
		if m := e * e / s.dv[j]; m > bestM {
			best, bestM = j, m
		}
	}
	return best
}

func (s *simplex) primalIteration(q int) iterResult {
	s.ftranColumn(q)
	dir := 1.0
	if s.d[q] > 0 {
		dir = -1
	}
	r, theta, flip := s.primalRatio(q, dir)
	if flip {
		rng := s.upper[q] - s.lower[q]
		s.fresh = false
		for _, p := range s.col.idx {
			s.xB[p] -= dir * rng * s.col.val[p]
		}
		if dir > 0 {
			s.x[q], s.move[q] = s.upper[q], -1
		} else {
			s.x[q], s.move[q] = s.lower[q], 1
		}
		s.iters++
		s.primalIters++
		return iterDone
	}
	if r < 0 {
		if s.lu.numUpdates() > 0 {
			s.refresh()
			return iterRetry
		}
		return iterUnbounded
	}
	s.btranUnit(r)
	s.price(&s.row)
	ac, arow := s.col.val[r], s.alpha.val[q]
	if math.Abs(ac-arow) > stabilityTol*math.Max(1, math.Min(math.Abs(ac), math.Abs(arow))) {
		if s.lu.numUpdates() > 0 {
			s.refresh()
			return iterRetry
		}
		if math.Abs(ac-arow) > 1e-3*math.Abs(ac) {
			s.setTaboo(q)
			return iterRetry
		}
	}
	thetaD := s.d[q] / arow
	for _, j := range s.alpha.idx {
		if s.pos[j] < 0 {
			s.d[j] -= thetaD * s.alpha.val[j]
		}
	}
	// Devex reference weights.
	wq := s.dv[q]
	reset := false
	for _, j := range s.alpha.idx {
		if s.pos[j] < 0 && j != q {
			ratio := s.alpha.val[j] / arow
			if nw := ratio * ratio * wq; nw > s.dv[j] {
				s.dv[j] = nw
				if nw > devexReset {
					reset = true
				}
			}
		}
	}
	leave := s.basic[r]
	s.dv[leave] = math.Max(wq/(arow*arow), 1)
	if reset {
		for j := range s.dv {
			s.dv[j] = 1
		}
	}

	for _, p := range s.col.idx {
		s.xB[p] -= dir * theta * s.col.val[p]
	}
	xq := s.x[q] + dir*theta
	xl := s.uB[r]
	if dir*ac > 0 {
		xl = s.lB[r]
	}
	s.basisChange(r, q, xq, xl, -thetaD)
	s.iters++
	s.primalIters++
	return iterDone
}

// primalRatio is Harris's two-pass ratio test. With x_q moving by dir·θ, basic p moves by
// −θ·dir·α_p. It returns the leaving position and the step, or flip=true when the
// entering variable reaches its own opposite bound first; r < 0 without flip means no
// bound blocks (unbounded).
func (s *simplex) primalRatio(q int, dir float64) (int, float64, bool) {
	tol := s.set.primalTol
	rng := s.upper[q] - s.lower[q]
	thMax := math.Inf(1)
	for _, p := range s.col.idx {
		a := dir * s.col.val[p]
		if a > pivotTolerance {
			if lb := s.lB[p]; !math.IsInf(lb, -1) {
				if t := (s.xB[p] - lb + tol*s.pL[p]) / a; t < thMax {
					thMax = t
				}
			}
		} else if a < -pivotTolerance {
			if ub := s.uB[p]; !math.IsInf(ub, 1) {
				if t := (ub - s.xB[p] + tol*s.pU[p]) / -a; t < thMax {
					thMax = t
				}
			}
		}
	}
	if !math.IsInf(rng, 1) && rng <= thMax {
		return -1, rng, true
	}
	if math.IsInf(thMax, 1) {
		return -1, 0, false
	}
	r, bestA, theta := -1, 0.0, 0.0
	for _, p := range s.col.idx {
		a := dir * s.col.val[p]
		var t float64
		if a > pivotTolerance {
			lb := s.lB[p]
			if math.IsInf(lb, -1) {
				continue
			}
			t = (s.xB[p] - lb) / a
		} else if a < -pivotTolerance {
			ub := s.uB[p]
			if math.IsInf(ub, 1) {
				continue
			}
			t = (ub - s.xB[p]) / -a
		} else {
			continue
		}
		if t <= thMax && math.Abs(a) > bestA {
			r, bestA, theta = p, math.Abs(a), t
		}
	}
	return r, math.Max(theta, 0), false
}
