package mip

import (
	"math"

	"github.com/coraopt/coraopt/model"
)

// rowView is a row-wise index of the working problem's matrix: the entries of row i are
// at AValue[pos[k]] for k in start[i]:start[i+1], in column col[k].
type rowView struct {
	start, col, pos []int
}

func (s *search) rows() rowView {
	p := s.w
	m := p.NumRows()
	v := rowView{start: make([]int, m+1), col: make([]int, len(p.AIndex)), pos: make([]int, len(p.AIndex))}
	for _, i := range p.AIndex {
		v.start[i+1]++
	}
	for i := range m {
		v.start[i+1] += v.start[i]
	}
	next := append([]int(nil), v.start[:m]...)
	for j := range p.NumCols() {
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			i := p.AIndex[k]
			v.col[next[i]], v.pos[next[i]] = j, k
			next[i]++
		}
	}
	return v
}

// activity is the range of a row's activity over the bounds: finite parts and the
// number of infinite contributions.
type activity struct {
	min, max       float64
	minInf, maxInf int
}

func (s *search) activity(rv rowView, i int, lo, up []float64) activity {
	var a activity
	for k := rv.start[i]; k < rv.start[i+1]; k++ {
		j, c := rv.col[k], s.w.AValue[rv.pos[k]]
		l, u := lo[j], up[j]
		if c < 0 {
			l, u = u, l
		}
		if math.IsInf(l, 0) {
			a.minInf++
		} else {
			a.min += c * l
		}
		if math.IsInf(u, 0) {
			a.maxInf++
		} else {
			a.max += c * u
		}
	}
	return a
}

// sideBound is the right-hand side of row i as sign·(row) ≤ b: its upper bound for sign
// +1, its negated lower bound for −1.
func sideBound(p *model.Problem, i int, sign float64) float64 {
	if sign < 0 {
		return -p.RowLower[i]
	}
	return p.RowUpper[i]
}

// bigBound: derived bounds beyond this magnitude are not used (rounding would dominate).
const bigBound = 1e9

// presolve tightens integer bounds and strengthens coefficients; false means the problem
// is infeasible.
func (s *search) presolve() bool {
	rv := s.rows()
	for pass := 0; pass < 20; pass++ {
		changed, ok := s.propagate(rv, s.lo, s.up)
		if !ok {
			return false
		}
		if !changed {
			break
		}
	}
	if n := s.strengthen(rv); n > 0 {
		s.logf("mip: presolve strengthened %d coefficients", n)
		if _, ok := s.propagate(rv, s.lo, s.up); !ok {
			return false
		}
	}
	return true
}

// propagate derives bounds of integer columns from row activities (one pass over the
// rows). It reports whether a bound changed and false when a row or column is empty.
func (s *search) propagate(rv rowView, lo, up []float64) (changed, ok bool) {
	p := s.w
	for i := range p.NumRows() {
		rl, ru := p.RowLower[i], p.RowUpper[i]
		a := s.activity(rv, i, lo, up)
		if a.minInf == 0 && a.min > ru+1e-6*math.Max(1, math.Abs(ru)) {
			return changed, false
		}
		if a.maxInf == 0 && a.max < rl-1e-6*math.Max(1, math.Abs(rl)) {
			return changed, false
		}
		for k := rv.start[i]; k < rv.start[i+1]; k++ {
			j, c := rv.col[k], p.AValue[rv.pos[k]]
			if !s.isInt[j] {
				continue
			}
			// The residual activity ranges without j.
			resMin, resMax := math.Inf(-1), math.Inf(1)
			jl, ju := lo[j], up[j]
			if c < 0 {
				jl, ju = ju, jl
			}
			switch {
			case a.minInf == 0:
				resMin = a.min - c*jl
			case a.minInf == 1 && math.IsInf(jl, 0):
				resMin = a.min
			}
			switch {
			case a.maxInf == 0:
				resMax = a.max - c*ju
			case a.maxInf == 1 && math.IsInf(ju, 0):
				resMax = a.max
			}
			nl, nu := math.Inf(-1), math.Inf(1)
			if c > 0 {
				if !math.IsInf(ru, 1) && !math.IsInf(resMin, -1) {
					nu = (ru - resMin) / c
				}
				if !math.IsInf(rl, -1) && !math.IsInf(resMax, 1) {
					nl = (rl - resMax) / c
				}
			} else {
				if !math.IsInf(ru, 1) && !math.IsInf(resMin, -1) {
					nl = (ru - resMin) / c
				}
				if !math.IsInf(rl, -1) && !math.IsInf(resMax, 1) {
					nu = (rl - resMax) / c
				}
			}
			tight := false
			if math.Abs(nu) < bigBound {
				if v := math.Floor(nu + 1e-6*math.Max(1, math.Abs(nu))); v < up[j] {
					up[j], tight = v, true
				}
			}
			if math.Abs(nl) < bigBound {
				if v := math.Ceil(nl - 1e-6*math.Max(1, math.Abs(nl))); v > lo[j] {
					lo[j], tight = v, true
				}
			}
			if tight {
				if lo[j] > up[j] {
					return changed, false
				}
				changed = true
				a = s.activity(rv, i, lo, up)
			}
		}
	}
	return changed, true
}

// strengthen applies coefficient reduction to binary columns of one-sided rows: in
// a·x ≤ b with maximal activity M > b, if x_k = 0 (a_k > 0) leaves the row redundant with
// slack d = b − (M − a_k) > 0, then a_k and b both drop by d; if x_k = 1 (a_k < 0) does,
// with d = b − (M + a_k), a_k rises by d. Every integer point keeps its feasibility.
func (s *search) strengthen(rv rowView) int {
	p := s.w
	count := 0
	for i := range p.NumRows() {
		var sign float64
		switch {
		case math.IsInf(p.RowLower[i], -1) && !math.IsInf(p.RowUpper[i], 1):
			sign = 1
		case math.IsInf(p.RowUpper[i], 1) && !math.IsInf(p.RowLower[i], -1):
			sign = -1
		default:
			continue
		}
		b := sideBound(p, i, sign)
		// M: the maximal activity of sign·row.
		M := 0.0
		finite := true
		for k := rv.start[i]; k < rv.start[i+1]; k++ {
			j, c := rv.col[k], sign*p.AValue[rv.pos[k]]
			u := s.up[j]
			if c < 0 {
				u = s.lo[j]
			}
			if math.IsInf(u, 0) {
				finite = false
				break
			}
			M += c * u
		}
		if !finite {
			continue
		}
		for k := rv.start[i]; k < rv.start[i+1]; k++ {
			if M <= b+1e-9*math.Max(1, math.Abs(b)) {
				break // redundant row
			}
			j := rv.col[k]
			if !s.isInt[j] || s.lo[j] != 0 || s.up[j] != 1 {
				continue
			}
			c := sign * p.AValue[rv.pos[k]]
			tol := 1e-7 * math.Max(1, math.Abs(c))
			if c > 0 {
				d := b - (M - c)
				if d > tol && c-d > tol {
					c -= d
					b -= d
					M -= d
					p.AValue[rv.pos[k]] = sign * c
					count++
				}
			} else {
				d := b - (M + c)
				if d > tol && -(c+d) > tol {
					p.AValue[rv.pos[k]] = sign * (c + d)
					count++
				}
			}
		}
		if sign > 0 {
			p.RowUpper[i] = b
		} else {
			p.RowLower[i] = -b
		}
	}
	return count
}
