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
// integral, infeasible on both sides of a column, or no better than the incumbent.
func (s *search) dive(root lpResult) {
	lo, up := slices.Clone(s.lo), slices.Clone(s.up)
	r := root
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
			s.logf("mip: dive ends at the cutoff after %d steps", step)
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
		if nr.status == solvers.Infeasible {
			set(!upFirst)
			nr = s.solveLP(lo, up, r.basis, 0)
		}
		if nr.status != solvers.Optimal {
			s.logf("mip: dive ends %v after %d steps (%d fractional)", nr.status, step, len(frac))
			s.lpStop(nr.status)
			return
		}
		r = nr
	}
}

// Sub-MIP parameters of RENS.
const (
	rensNodes    = 500
	rensMinFixed = 0.3 // the share of integer columns RENS must fix to be worth a sub-MIP
)

// rens is Berthold's relaxation enforced neighborhood search (Achterberg §9.2 lists it
// among the large-neighborhood heuristics): a sub-MIP over the neighborhood of the root
// LP solution, with every integer column that is integral there fixed and every other
// one restricted to its two nearest integers, solved with a node limit.
func (s *search) rens(root lpResult) {
	q := s.orig.Clone()
	fixed, ints := 0, 0
	for j, v := range root.x {
		q.ColLower[j], q.ColUpper[j] = s.lo[j], s.up[j]
		if !s.isInt[j] {
			continue
		}
		ints++
		if math.Abs(v-math.Round(v)) <= s.intTol {
			q.ColLower[j], q.ColUpper[j] = math.Round(v), math.Round(v)
			fixed++
			continue
		}
		q.ColLower[j], q.ColUpper[j] = math.Max(s.lo[j], math.Floor(v)), math.Min(s.up[j], math.Ceil(v))
	}
	if float64(fixed) < rensMinFixed*float64(ints) {
		return
	}
	sv := *s.sv
	sv.NodeLimit, sv.noSubMIP = rensNodes, true
	opt := s.opt
	opt.Verbose = nil
	sub := newSearch(s.ctx, q, &sv, opt)
	if s.incumbent != nil {
		sub.incumbent, sub.incObj = s.incumbent, s.incObj
	}
	sub.run()
	s.iters += sub.iters
	if sub.incumbent != nil && (s.incumbent == nil || sub.incObj < s.incObj) {
		s.tryIncumbent(sub.incumbent)
	}
	s.logf("mip: RENS fixed %d of %d integer columns: %v after %d nodes", fixed, ints, sub.status, sub.nodes)
}
