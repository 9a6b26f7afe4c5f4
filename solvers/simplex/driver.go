package simplex

// maxRounds bounds the alternation between the dual and the primal simplex (perturbation
// removal, cleanup, numerical recovery).
const maxRounds = 12

// run solves the LP from the current basis. The strategy (after HiGHS and Koberstein):
//
//   - a dual feasible basis (after flipping boxed variables) goes to the dual simplex
//     with perturbed costs; afterwards the perturbation is removed and any dual
//     infeasibility left is cleaned up by the primal simplex;
//   - a primal feasible but dual infeasible basis (typical of warm starts after an
//     objective change) goes to the primal simplex — except a cold start's slack basis
//     whose dual infeasibilities are all on boxed columns: flipping them to their other
//     bound makes it dual feasible, and the dual simplex, as HiGHS runs it, takes far
//     fewer iterations there (fit2d: 192 instead of the primal's 8,443);
//   - otherwise the dual phase 1 subproblem restores dual feasibility; if it cannot, the
//     LP is dual infeasible, and a dual simplex on zero (perturbed) costs decides between
//     primal infeasible and, after a primal simplex on the true costs, unbounded.
func (s *simplex) run() outcome {
	if s.keepFactor {
		// The factorization is that of the current basis (a Session continuing from its
		// last solve): recompute the values, refactorizing only if updates piled up.
		s.keepFactor = false
		s.recompute()
	} else {
		s.refresh()
	}
	perturbedOnce := false
	for round := 0; round < maxRounds; round++ {
		if !s.fresh {
			s.recompute()
		}
		pcnt, _ := s.primalInfeasibility()
		boxed, other, _ := s.dualInfeasibility()
		s.logf("round %d: iter %d, primal infeasibilities %d, dual infeasibilities %d+%d, perturbed %v", round, s.iters, pcnt, boxed, other, s.perturbed)
		if pcnt == 0 && boxed+other == 0 {
			if !s.perturbed {
				return outOptimal
			}
			s.restoreCosts()
			s.computeDual()
			continue
		}
		if pcnt == 0 && (other > 0 || !(s.coldStart && round == 0)) {
			if s.perturbed {
				s.restoreCosts()
				s.computeDual()
			}
			switch o := s.primal(); o {
			case outOptimal, outPrimalInfeas:
				continue
			default:
				return o
			}
		}
		if other > 0 {
			if !perturbedOnce {
				perturbedOnce = true
				s.perturbCosts()
				s.computeDual()
			}
			if o := s.dualPhase1(); o != outOptimal && o != outInfeasible {
				return o
			}
			if _, other, _ = s.dualInfeasibility(); other > 0 && s.perturbed {
				// Judge on the true costs: what is left may be the perturbation's doing.
				s.restoreCosts()
				s.computeDual()
				perturbedOnce = false
				_, other, _ = s.dualInfeasibility()
			}
			if other > 0 {
				o := s.decideInfeasibleOrUnbounded()
				if o == outOptimal {
					continue
				}
				return o
			}
		}
		if !perturbedOnce {
			perturbedOnce = true
			s.perturbCosts()
			s.computeDual()
		}
		if s.correctDual() || s.flipToDualFeasible() {
			s.computePrimal()
		}
		switch o := s.dual(); o {
		case outOptimal:
			if s.perturbed {
				s.restoreCosts()
				s.computeDual()
			}
		default:
			return o
		}
	}
	return outNumerical
}

// decideInfeasibleOrUnbounded is called when the LP is dual infeasible. A dual simplex on
// zero costs (perturbed, so that it does not stall) finds a feasible point or proves
// there is none; from a feasible point the primal simplex on the true costs finds the
// unbounded ray. If it finds an optimum instead (the dual infeasibility was numerical),
// outOptimal asks the caller to continue.
func (s *simplex) decideInfeasibleOrUnbounded() outcome {
	s.logf("dual infeasible at iteration %d: deciding feasibility", s.iters)
	clear(s.cost)
	s.perturbed = true
	s.computeDual()
	for j := 0; j < s.nt; j++ {
		if s.pos[j] < 0 {
			s.placeNonbasic(j, s.d[j])
		}
	}
	s.perturbCosts()
	s.computeDual()
	s.correctDual()
	s.computePrimal()
	switch o := s.dual(); o {
	case outOptimal:
	case outInfeasible:
		return outInfeasible
	default:
		return o
	}
	s.restoreCosts()
	s.recompute()
	switch o := s.primal(); o {
	case outOptimal, outPrimalInfeas:
		return outOptimal
	default:
		return o
	}
}
