package mip

import (
	"math"
	"slices"

	"github.com/coraopt/coraopt/solvers"
)

// tryRounding rounds every integer column of an LP solution to its nearest integer and
// keeps the point if it is feasible. With continuous columns the rounded point is only
// worth an LP (polish) when withLP holds, since rounding alone rarely keeps their rows.
func (s *search) tryRounding(x []float64, withLP bool) {
	if s.hasCont && !withLP {
		return
	}
	s.tryIncumbent(x)
}

// dive is fractional diving from the root (Achterberg §9.1): fix the least fractional
// integer column to its nearest integer and re-solve, warm-started, until the LP is
// integral, infeasible (after trying the other side once) or no better than the
// incumbent.
func (s *search) dive(root lpResult) {
	lo, up := slices.Clone(s.lo), slices.Clone(s.up)
	r := root
	backtracked := false
	for step := 0; step < 2*len(lo)+10; step++ {
		if s.limitReached() {
			return
		}
		frac := s.fractional(r.x)
		if len(frac) == 0 {
			s.tryIncumbent(r.x)
			return
		}
		if r.obj >= s.cutoff() {
			return
		}
		bj, bf := -1, 2.0
		for _, j := range frac {
			f := r.x[j] - math.Floor(r.x[j])
			if d := math.Min(f, 1-f); d < bf {
				bj, bf = j, d
			}
		}
		v := r.x[bj]
		oldLo, oldUp := lo[bj], up[bj]
		upFirst := v-math.Floor(v) >= 0.5
		set := func(upSide bool) {
			lo[bj], up[bj] = oldLo, oldUp
			if upSide {
				lo[bj] = math.Ceil(v)
			} else {
				up[bj] = math.Floor(v)
			}
		}
		set(upFirst)
		nr := s.solveLP(lo, up, r.basis, 0)
		if nr.status == solvers.Infeasible && !backtracked {
			backtracked = true
			set(!upFirst)
			nr = s.solveLP(lo, up, r.basis, 0)
		}
		if nr.status != solvers.Optimal {
			s.lpStop(nr.status)
			return
		}
		r = nr
	}
}
