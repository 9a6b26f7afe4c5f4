package mip

import (
	"math"

	"github.com/coraopt/coraopt/model"
)

// c-MIR parameters.
const (
	mirMinFrac = 0.01 // f₀ of the scaled right-hand side must lie in [mirMinFrac, 1 − mirMinFrac]
	mirMaxInts = 200  // rows with more integer columns are skipped
)

// vub is a variable upper bound x_j ≤ u·x_y with x_y binary.
type vub struct {
	y int
	u float64
}

// findVUBs returns, per continuous column with lower bound 0, a variable upper bound
// read from a two-entry row a·x − b·y ≤ 0 (or its mirror) with y binary and a, b > 0.
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
			// j0 continuous with a0 > 0, j1 binary with a1 < 0: x ≤ (−a1/a0)·y.
			if s.isInt[j0] || !s.isInt[j1] || s.lo[j1] != 0 || s.up[j1] != 1 || a0 <= 0 || a1 >= 0 || s.lo[j0] != 0 {
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
// "Aggregation and mixed integer rounding to solve MIPs", 2001; Achterberg §8.2) from
// single rows of p at the LP point x. Each side of a row, as Σ a_j x_j ≤ b, is rewritten
// over nonnegative variables: a continuous column by its distance s from the bound (or
// variable upper bound) nearest to its value, an integer column by its distance t from
// its nearest bound (complemented when nearer the upper one). For a divisor δ among the
// integer coefficients, with f₀ the fractional part of β/δ, the MIR inequality
//
//	Σ (⌊ā_j/δ⌋ + max(0, f_j − f₀)/(1 − f₀))·t_j + Σ_{c_j < 0} c_j/(δ(1 − f₀))·s_j ≤ ⌊β/δ⌋
//
// is valid; the δ with the most efficacious cut is kept, and the cut is written in the
// original columns again.
func (s *search) mirCuts(p *model.Problem, rv rowView, vubs map[int]vub, x []float64) []cut {
	n := p.NumCols()
	var out []cut
	coef := make([]float64, n) // the row, accumulated over original columns
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
	var terms []term
	for i := range p.NumRows() {
		nint := 0
		for k := rv.start[i]; k < rv.start[i+1]; k++ {
			if s.isInt[rv.col[k]] {
				nint++
			}
		}
		if nint == 0 || nint > mirMaxInts {
			continue
		}
		for _, sign := range []float64{1, -1} {
			b := sideBound(p, i, sign)
			if math.IsInf(b, 0) {
				continue
			}
			clear(coef)
			ok := true
			for k := rv.start[i]; k < rv.start[i+1]; k++ {
				coef[rv.col[k]] += sign * p.AValue[rv.pos[k]]
			}
			// Substitute the continuous columns (a VUB brings its binary into the row).
			beta := b
			terms = terms[:0]
			var conts []term
			for k := rv.start[i]; k < rv.start[i+1] && ok; k++ {
				j := rv.col[k]
				a := coef[j]
				if s.isInt[j] || a == 0 {
					continue
				}
				lo, up := s.lo[j], s.up[j]
				if v, has := vubs[j]; has && x[j] >= v.u*x[v.y]-(x[j]-lo) {
					// x = u·y − s: a·x = a·u·y − a·s.
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
					ok = false
				}
				coef[j] = 0
			}
			if !ok {
				continue
			}
			// The integer columns, complemented toward their nearest bound.
			for j, a := range coef {
				if a == 0 || !s.isInt[j] {
					continue
				}
				lo, up := s.lo[j], s.up[j]
				if math.IsInf(lo, -1) && math.IsInf(up, 1) {
					ok = false
					break
				}
				if !math.IsInf(lo, -1) && (math.IsInf(up, 1) || x[j]-lo <= up-x[j]) {
					beta -= a * lo
					terms = append(terms, term{j: j, a: a, integer: true, bound: lo, vy: -1, val: x[j] - lo, ub: up - lo})
				} else {
					beta -= a * up
					terms = append(terms, term{j: j, a: -a, integer: true, comp: true, bound: up, vy: -1, val: up - x[j], ub: up - lo})
				}
			}
			if !ok || len(terms) == 0 {
				continue
			}
			// Try each integer coefficient of a column strictly inside its range as δ.
			bestEff, bestDelta := 0.0, 0.0
			eval := func(delta float64) float64 {
				bd := beta / delta
				f0 := bd - math.Floor(bd)
				if f0 < mirMinFrac || f0 > 1-mirMinFrac {
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
				for _, d := range []float64{math.Abs(t.a), math.Abs(t.a) / 2, math.Abs(t.a) / 4} {
					if e := eval(d); e > bestEff {
						bestEff, bestDelta = e, d
					}
				}
			}
			if bestEff < gmiMinEfficacy {
				continue
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
			if ct, good := s.cleanCut(coef, -rhs, x); good {
				out = append(out, ct)
			}
		}
	}
	return out
}
