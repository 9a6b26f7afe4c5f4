package mip

import (
	"cmp"
	"math"
	"slices"

	"github.com/coraopt/coraopt/model"
)

// c-MIR parameters.
const (
	// f₀ of the scaled right-hand side must lie in [mirMinFrac, mirMaxFrac]. A demand d
	// far below the capacity u of the arcs feeding it gives f₀ = d/u on the ≤ side of its
	// row (the flow cover x_a ≤ d·y_a + outflow) and 1 − d/u on the ≥ side (the cut-set
	// inequality Σ_in y ≥ 1 once the inflows sit at their variable upper bounds), so both
	// ends are needed: sp150x300d's demands of 1 unit on arcs of 3049 give 1 − f₀ ≈ 3e-4.
	// Continuous coefficients scale by 1/(1 − f₀) (at most 1e5 here), and cleanCut
	// refuses cuts whose coefficients span too many orders of magnitude.
	mirMinFrac = 1e-4
	mirMaxFrac = 0.99999
	mirMaxInts = 200 // rows with more integer columns are skipped
	// mirMaxAggr is the number of rows path aggregation adds to a starting row (Marchand
	// and Wolsey's maxAggr, 5 as in SCIP and HiGHS's aggregation heuristic).
	mirMaxAggr = 5
	// mirMaxRowLen: rows longer than this are not aggregated (their fill makes weak cuts).
	mirMaxRowLen = 500
)

// vub is a variable upper bound x_j ≤ u·x_y with x_y an integer column of lower bound 0.
type vub struct {
	y int
	u float64
}

// findVUBs returns, per continuous column with lower bound 0, a variable upper bound
// read from a two-entry row a·x − b·y ≤ 0 (or its mirror) with y integer, y ≥ 0 and
// a, b > 0 (a binary y is the usual case; a general integer y, as bell5's capacity
// rows f ≤ 24·g, is as valid a substitution: x = u·y − s with s ≥ 0).
func (s *search) findVUBs(p *model.Problem, rv rowView) map[int]vub {
	out := map[int]vub{}
	for i := range p.NumRows() {
		if rv.start[i+1]-rv.start[i] != 2 {
			continue
		}
		for _, sign := range []float64{1, -1} {
			b := sideBound(p, i, sign)
			if b != 0 {
				continue
			}
			k0, k1 := rv.start[i], rv.start[i]+1
			j0, j1 := rv.col[k0], rv.col[k1]
			a0, a1 := sign*p.AValue[rv.pos[k0]], sign*p.AValue[rv.pos[k1]]
			if s.isInt[j0] {
				j0, j1, a0, a1 = j1, j0, a1, a0
			}
			// j0 continuous with a0 > 0, j1 integer with a1 < 0: x ≤ (−a1/a0)·y.
			if s.isInt[j0] || !s.isInt[j1] || s.lo[j1] != 0 || a0 <= 0 || a1 >= 0 || s.lo[j0] != 0 {
				continue
			}
			if _, dup := out[j0]; !dup {
				out[j0] = vub{y: j1, u: -a1 / a0}
			}
		}
	}
	return out
}

// mirCuts separates complemented mixed-integer rounding cuts (Marchand and Wolsey,
// "Aggregation and mixed integer rounding to solve MIPs", Operations Research 49(3),
// 2001; Achterberg §8.2) at the LP point x, from each side of each row of p and from the
// rows that path aggregation builds from it: while no cut is found, the continuous
// column of the aggregated row that lies farthest from its bounds (measured with its
// variable upper bound, if any) is eliminated by adding a multiple of another row that
// holds it — the tightest at x — up to mirMaxAggr rows. On a network of flow
// conservation rows with capacities on integer columns (bell5's) this follows a path of
// flows, and the cut bounds the capacity the whole path needs.
func (s *search) mirCuts(p *model.Problem, rv rowView, vubs map[int]vub, x []float64) []cut {
	n, m := p.NumCols(), p.NumRows()
	var out []cut
	agg := make([]float64, n)
	work := make([]float64, n)
	act := p.RowActivity(x)
	used := make([]bool, m)
	var usedList []int
	for i := range m {
		if rv.start[i+1]-rv.start[i] > mirMaxRowLen {
			continue
		}
		for _, sign := range []float64{1, -1} {
			b := sideBound(p, i, sign)
			if math.IsInf(b, 0) {
				continue
			}
			clear(agg)
			for k := rv.start[i]; k < rv.start[i+1]; k++ {
				agg[rv.col[k]] += sign * p.AValue[rv.pos[k]]
			}
			for _, r := range usedList {
				used[r] = false
			}
			usedList = append(usedList[:0], i)
			used[i] = true
			for step := 0; ; step++ {
				copy(work, agg)
				if c, ok := s.cmir(work, b, x, vubs); ok {
					out = append(out, c)
				}
				if step == s.maxAggr {
					break
				}
				r, lambda, ok := s.aggregationRow(p, rv, vubs, agg, used, act, x)
				if !ok {
					break
				}
				// agg += λ·row r, on the side that keeps Σ agg·x ≤ b valid.
				for k := rv.start[r]; k < rv.start[r+1]; k++ {
					agg[rv.col[k]] += lambda * p.AValue[rv.pos[k]]
				}
				if lambda > 0 {
					b += lambda * p.RowUpper[r]
				} else {
					b += lambda * p.RowLower[r]
				}
				used[r] = true
				usedList = append(usedList, r)
			}
		}
	}
	return out
}

// aggregationRow picks the row to add to the aggregated row Σ agg·x ≤ b: among the
// continuous columns with a coefficient there, the one farthest from its bounds at x
// (from its variable upper bound too, if it has one) — a column at a bound costs the
// rounding nothing — and among the unused rows holding it, with a side that lets λ·row
// cancel it, the one of least slack at x. It returns the row and λ.
func (s *search) aggregationRow(p *model.Problem, rv rowView, vubs map[int]vub, agg []float64, used []bool, act, x []float64) (int, float64, bool) {
	type cand struct {
		j    int
		dist float64
	}
	var cands []cand
	for j, a := range agg {
		if a == 0 || s.isInt[j] {
			continue
		}
		d := math.Min(x[j]-s.lo[j], s.up[j]-x[j])
		if v, has := vubs[j]; has {
			d = math.Min(d, v.u*x[v.y]-x[j])
		}
		if d > 1e-6 && p.AStart[j+1]-p.AStart[j] > 1 {
			cands = append(cands, cand{j, d})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.dist, a.dist) })
	for _, c := range cands {
		best, bestLambda, bestSlack := -1, 0.0, math.Inf(1)
		for k := p.AStart[c.j]; k < p.AStart[c.j+1]; k++ {
			r := p.AIndex[k]
			if used[r] || rv.start[r+1]-rv.start[r] > mirMaxRowLen || p.AValue[k] == 0 {
				continue
			}
			lambda := -agg[c.j] / p.AValue[k]
			var slack float64
			if lambda > 0 {
				if math.IsInf(p.RowUpper[r], 1) {
					continue
				}
				slack = p.RowUpper[r] - act[r]
			} else {
				if math.IsInf(p.RowLower[r], -1) {
					continue
				}
				slack = act[r] - p.RowLower[r]
			}
			slack /= math.Max(1, math.Abs(p.AValue[k]))
			if slack < bestSlack {
				best, bestLambda, bestSlack = r, lambda, slack
			}
		}
		if best >= 0 {
			return best, bestLambda, true
		}
	}
	return -1, 0, false
}

// cmir separates one complemented MIR cut from the row Σ coef·x ≤ b over the columns
// (coef is overwritten). The row is rewritten over nonnegative variables: a continuous
// column by its distance s from the bound (or variable upper bound) nearest to its
// value, an integer column by its distance t from its nearest bound (complemented when
// nearer the upper one). For a divisor δ among the integer coefficients, with f₀ the
// fractional part of β/δ, the MIR inequality
//
//	Σ (⌊ā_j/δ⌋ + max(0, f_j − f₀)/(1 − f₀))·t_j + Σ_{c_j < 0} c_j/(δ(1 − f₀))·s_j ≤ ⌊β/δ⌋
//
// is valid; the δ with the most efficacious cut is kept, and the cut is written in the
// original columns again.
func (s *search) cmir(coef []float64, b float64, x []float64, vubs map[int]vub) (cut, bool) {
	// Per variable of the transformed row: its kind and how it maps back.
	type term struct {
		j       int     // column
		a       float64 // coefficient in the transformed row
		integer bool
		comp    bool    // t = u − x (integer) or s = bound − x (continuous)
		bound   float64 // the bound subtracted
		vy      int     // ≥ 0: s = u·x_vy − x_j (variable upper bound)
		vu      float64 // u of the variable upper bound
		val     float64 // value at x
		ub      float64 // upper bound of t (integer terms)
	}
	nint := 0
	for j, a := range coef {
		if a != 0 && s.isInt[j] {
			nint++
		}
	}
	// Substitute the continuous columns (a VUB brings its integer column into the row).
	beta := b
	var conts, terms []term
	for j, a := range coef {
		if s.isInt[j] || a == 0 {
			continue
		}
		lo, up := s.lo[j], s.up[j]
		if v, has := vubs[j]; has && x[j] >= v.u*x[v.y]-(x[j]-lo) {
			// x = u·y − s: a·x = a·u·y − a·s.
			if coef[v.y] == 0 {
				nint++
			}
			coef[v.y] += a * v.u
			conts = append(conts, term{j: j, a: -a, comp: true, vy: v.y, vu: v.u, val: v.u*x[v.y] - x[j]})
			coef[j] = 0
			continue
		}
		switch {
		case !math.IsInf(lo, -1) && (math.IsInf(up, 1) || x[j]-lo <= up-x[j]):
			beta -= a * lo
			conts = append(conts, term{j: j, a: a, bound: lo, vy: -1, val: x[j] - lo})
		case !math.IsInf(up, 1):
			beta -= a * up
			conts = append(conts, term{j: j, a: -a, comp: true, bound: up, vy: -1, val: up - x[j]})
		default:
			return cut{}, false
		}
		coef[j] = 0
	}
	if nint == 0 || nint > mirMaxInts {
		return cut{}, false
	}
	// The integer columns, complemented toward their nearest bound.
	for j, a := range coef {
		if a == 0 || !s.isInt[j] {
			continue
		}
		lo, up := s.lo[j], s.up[j]
		if math.IsInf(lo, -1) && math.IsInf(up, 1) {
			return cut{}, false
		}
		if !math.IsInf(lo, -1) && (math.IsInf(up, 1) || x[j]-lo <= up-x[j]) {
			beta -= a * lo
			terms = append(terms, term{j: j, a: a, integer: true, bound: lo, vy: -1, val: x[j] - lo, ub: up - lo})
		} else {
			beta -= a * up
			terms = append(terms, term{j: j, a: -a, integer: true, comp: true, bound: up, vy: -1, val: up - x[j], ub: up - lo})
		}
	}
	if len(terms) == 0 {
		return cut{}, false
	}
	// Try each integer coefficient of a column strictly inside its range as δ.
	bestEff, bestDelta := 0.0, 0.0
	eval := func(delta float64) float64 {
		bd := beta / delta
		f0 := bd - math.Floor(bd)
		if f0 < mirMinFrac || f0 > mirMaxFrac {
			return 0
		}
		lhs, norm := 0.0, 0.0
		for _, t := range terms {
			ad := t.a / delta
			fj := ad - math.Floor(ad)
			g := math.Floor(ad) + math.Max(0, fj-f0)/(1-f0)
			lhs += g * t.val
			norm += g * g
		}
		for _, c := range conts {
			if c.a < 0 {
				g := c.a / delta / (1 - f0)
				lhs += g * c.val
				norm += g * g
			}
		}
		if norm == 0 {
			return 0
		}
		return (lhs - math.Floor(bd)) / math.Sqrt(norm)
	}
	for _, t := range terms {
		if t.val <= s.intTol || t.val >= t.ub-s.intTol || math.Abs(t.a) < 1e-6 {
			continue
		}
		if e := eval(math.Abs(t.a)); e > bestEff {
			bestEff, bestDelta = e, math.Abs(t.a)
		}
	}
	if bestDelta == 0 {
		return cut{}, false
	}
	// Marchand and Wolsey's refinements: δ/2, δ/4, δ/8 of the best δ, then complementing
	// the fractional integer columns one at a time while that helps.
	d0 := bestDelta
	for _, d := range []float64{d0 / 2, d0 / 4, d0 / 8} {
		if e := eval(d); e > bestEff {
			bestEff, bestDelta = e, d
		}
	}
	for k := range terms {
		t := &terms[k]
		if t.val <= s.intTol || t.val >= t.ub-s.intTol || math.IsInf(t.ub, 1) {
			continue
		}
		flip := func() {
			// t = x − lo with coefficient a, or t = up − x with −a: switch sides.
			if t.comp {
				// a·x with a = −t.a: β + a·up − a·lo.
				beta += -t.a*t.bound + t.a*(t.bound-t.ub)
				t.a, t.comp, t.bound = -t.a, false, t.bound-t.ub
			} else {
				// a·x with a = t.a: β + a·lo − a·up.
				beta += t.a*t.bound - t.a*(t.bound+t.ub)
				t.a, t.comp, t.bound = -t.a, true, t.bound+t.ub
			}
			t.val = t.ub - t.val
		}
		flip()
		if e := eval(bestDelta); e > bestEff {
			bestEff = e
		} else {
			flip()
		}
	}
	if bestEff < gmiMinEfficacy {
		return cut{}, false
	}
	// Build the cut Σ g·(transformed) ≤ ⌊β/δ⌋ and write it over the columns as
	// Σ coef·x ≥ rhs for cleanCut (negated).
	delta := bestDelta
	bd := beta / delta
	f0 := bd - math.Floor(bd)
	clear(coef)
	rhs := math.Floor(bd) // ≤ form
	for _, t := range terms {
		ad := t.a / delta
		fj := ad - math.Floor(ad)
		g := math.Floor(ad) + math.Max(0, fj-f0)/(1-f0)
		if t.comp { // t = up − x
			coef[t.j] -= g
			rhs -= g * t.bound
		} else { // t = x − lo
			coef[t.j] += g
			rhs += g * t.bound
		}
	}
	for _, c := range conts {
		if c.a >= 0 {
			continue
		}
		g := c.a / delta / (1 - f0)
		switch {
		case c.vy >= 0: // s = u·y − x
			coef[c.vy] += g * c.vu
			coef[c.j] -= g
		case c.comp: // s = up − x
			coef[c.j] -= g
			rhs -= g * c.bound
		default: // s = x − lo
			coef[c.j] += g
			rhs += g * c.bound
		}
	}
	for j := range coef {
		coef[j] = -coef[j]
	}
	return s.cleanCut(coef, -rhs, x)
}
