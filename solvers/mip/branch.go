package mip

import (
	"cmp"
	"math"
	"slices"

	"github.com/coraopt/coraopt/solvers"
)

// pseudocosts are the average per-unit objective gains of each column's down and up
// branches (Achterberg §5.3).
type pseudocosts struct {
	sum    [2][]float64
	cnt    [2][]int
	totSum [2]float64
	totCnt [2]int
}

func newPseudocosts(n int) pseudocosts {
	var pc pseudocosts
	for d := range 2 {
		pc.sum[d] = make([]float64, n)
		pc.cnt[d] = make([]int, n)
	}
	return pc
}

func dirIndex(up bool) int {
	if up {
		return 1
	}
	return 0
}

func (pc *pseudocosts) update(j int, up bool, gain float64) {
	if math.IsNaN(gain) || math.IsInf(gain, 0) {
		return
	}
	d := dirIndex(up)
	pc.sum[d][j] += gain
	pc.cnt[d][j]++
	pc.totSum[d] += gain
	pc.totCnt[d]++
}

// get is column j's pseudo-cost, or the average over all columns when j has none.
func (pc *pseudocosts) get(j int, up bool) float64 {
	d := dirIndex(up)
	if pc.cnt[d][j] > 0 {
		return pc.sum[d][j] / float64(pc.cnt[d][j])
	}
	if pc.totCnt[d] > 0 {
		return pc.totSum[d] / float64(pc.totCnt[d])
	}
	return 1
}

func (pc *pseudocosts) reliable(j int) bool {
	return pc.cnt[0][j] >= reliability && pc.cnt[1][j] >= reliability
}

func score(down, up float64) float64 { return math.Max(down, scoreEps) * math.Max(up, scoreEps) }

// fixing is the outcome of strong branching that closed one side of a column.
type fixing struct {
	lo, up, bound float64
}

// Sentinels returned by selectBranch instead of a fixing.
var (
	fixInfeasible = &fixing{} // both children of some column are infeasible: close the node
	fixStopped    = &fixing{} // a limit was reached
)

// selectBranch picks the branching column among frac. A non-nil fixing means that strong
// branching proved one child of column j empty (or not better than the incumbent): the
// node continues with j's bounds set to the fixing's.
func (s *search) selectBranch(lo, up []float64, r lpResult, frac []int) (int, *fixing) {
	x := r.x
	if s.sv.Branching == MostFractional {
		best, bj := -1.0, -1
		for _, j := range frac {
			f := x[j] - math.Floor(x[j])
			if v := math.Min(f, 1-f); v > best {
				best, bj = v, j
			}
		}
		return bj, nil
	}
	type cand struct {
		j     int
		score float64
	}
	cands := make([]cand, len(frac))
	for k, j := range frac {
		f := x[j] - math.Floor(x[j])
		cands[k] = cand{j, score(f*s.pc.get(j, false), (1-f)*s.pc.get(j, true))}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.score, a.score) })
	bestJ, bestScore := cands[0].j, -1.0
	for _, c := range cands {
		if s.pc.reliable(c.j) && c.score > bestScore {
			bestJ, bestScore = c.j, c.score
		}
	}
	strong, noGain := 0, 0
	cut := s.cutoff()
	for _, c := range cands {
		if strong >= maxStrong || noGain >= strongLook {
			break
		}
		if s.pc.reliable(c.j) {
			continue
		}
		strong++
		j := c.j
		v := x[j]
		fl := math.Floor(v)
		child := func(clo, cup float64) (float64, bool) {
			l2, u2 := slices.Clone(lo), slices.Clone(up)
			l2[j], u2[j] = math.Max(l2[j], clo), math.Min(u2[j], cup)
			// Every basis of these LPs is dual feasible for the others (same costs and
			// rows), so the session continues from wherever the last child left it
			// rather than refactorizing the node's basis.
			warm := r.basis
			if s.sess != nil {
				warm = nil
			}
			cr := s.solveLP(l2, u2, warm, strongIters)
			switch cr.status {
			case solvers.Optimal:
				return cr.obj, true
			case solvers.Infeasible:
				return math.Inf(1), true
			}
			s.lpStop(cr.status)
			return r.obj, false
		}
		dObj, dOK := child(math.Inf(-1), fl)
		if s.stopped {
			return -1, fixStopped
		}
		uObj, uOK := child(fl+1, math.Inf(1))
		if s.stopped {
			return -1, fixStopped
		}
		dGone, uGone := dOK && dObj >= cut, uOK && uObj >= cut
		switch {
		case dGone && uGone:
			s.prune(math.Min(dObj, uObj))
			return j, fixInfeasible
		case dGone:
			if !math.IsInf(dObj, 1) {
				s.prune(dObj)
			}
			return j, &fixing{lo: fl + 1, up: math.Inf(1), bound: uObj}
		case uGone:
			if !math.IsInf(uObj, 1) {
				s.prune(uObj)
			}
			return j, &fixing{lo: math.Inf(-1), up: fl, bound: dObj}
		}
		f := v - fl
		dg, ug := s.pc.get(j, false)*f, s.pc.get(j, true)*(1-f)
		if dOK {
			dg = math.Max(0, dObj-r.obj)
			s.pc.update(j, false, dg/f)
		}
		if uOK {
			ug = math.Max(0, uObj-r.obj)
			s.pc.update(j, true, ug/(1-f))
		}
		if sc := score(dg, ug); sc > bestScore {
			bestJ, bestScore, noGain = j, sc, 0
		} else {
			noGain++
		}
	}
	return bestJ, nil
}
