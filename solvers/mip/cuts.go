package mip

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Cut loop parameters.
const (
	maxCutRounds  = 20
	minViolation  = 1e-4
	cutStallLimit = 3 // rounds in a row that move the bound by less than cutProgress
	cutProgress   = 1e-5
)

// cut is a row Σ coef·x ≤ rhs.
type cut struct {
	cols []int
	coef []float64
	rhs  float64
}

func (c cut) key() string {
	var b strings.Builder
	for k, j := range c.cols {
		fmt.Fprintf(&b, "%d:%g,", j, c.coef[k])
	}
	fmt.Fprintf(&b, "<=%g", c.rhs)
	return b.String()
}

// cutRounds separates knapsack covers at the root and re-solves, warm-started, while they
// are violated and move the bound.
func (s *search) cutRounds(root lpResult) lpResult {
	rv := s.rows()
	base := s.w // rv indexes its matrix; cuts go into new ones
	m0 := base.NumRows()
	seen := map[string]bool{}
	stall := 0
	for round := 0; round < maxCutRounds; round++ {
		if s.limitReached() {
			return root
		}
		var cuts []cut
		for i := range m0 {
			for _, c := range s.coverCuts(base, rv, i, root.x) {
				if k := c.key(); !seen[k] {
					seen[k] = true
					cuts = append(cuts, c)
				}
			}
		}
		if len(cuts) == 0 {
			break
		}
		s.addCuts(cuts)
		r := s.solveLP(s.lo, s.up, root.basis, 0)
		if r.status == solvers.Infeasible {
			return r
		}
		if r.status != solvers.Optimal {
			s.lpStop(r.status)
			return root
		}
		s.logf("mip: cut round %d: %d covers, bound %.10g", round, len(cuts), r.obj)
		if r.obj-root.obj < cutProgress*math.Max(1, math.Abs(root.obj)) {
			stall++
		} else {
			stall = 0
		}
		root = r
		if stall >= cutStallLimit {
			break
		}
	}
	return root
}

// coverCuts separates a lifted cover inequality from each side of row i that, after
// bounding its non-binary columns by their activity, is a knapsack over binaries.
func (s *search) coverCuts(p *model.Problem, rv rowView, i int, x []float64) []cut {
	var out []cut
	for _, sign := range []float64{1, -1} {
		b := p.RowUpper[i]
		if sign < 0 {
			b = -p.RowLower[i]
		}
		if math.IsInf(b, 0) {
			continue
		}
		type item struct {
			j    int
			a    float64 // > 0
			z    float64 // value of the (possibly complemented) binary
			comp bool
		}
		var items []item
		ok := true
		for k := rv.start[i]; k < rv.start[i+1]; k++ {
			j, a := rv.col[k], sign*p.AValue[rv.pos[k]]
			lo, up := s.lo[j], s.up[j]
			switch {
			case lo == up:
				b -= a * lo
			case s.isInt[j] && lo == 0 && up == 1:
				if a > 0 {
					items = append(items, item{j, a, x[j], false})
				} else {
					items = append(items, item{j, -a, 1 - x[j], true})
					b -= a
				}
			default:
				// Bound the column by its smallest contribution.
				v := lo
				if a < 0 {
					v = up
				}
				if math.IsInf(v, 0) {
					ok = false
				} else {
					b -= a * v
				}
			}
			if !ok {
				break
			}
		}
		if !ok || len(items) < 2 || b < 0 {
			continue
		}
		total := 0.0
		for _, it := range items {
			total += it.a
		}
		eps := 1e-9 * math.Max(1, math.Abs(b))
		if total <= b+eps {
			continue
		}
		// Greedy cover: least (1 − z)/a first.
		slices.SortStableFunc(items, func(u, v item) int {
			ru, rv := (1-u.z)/u.a, (1-v.z)/v.a
			switch {
			case ru < rv:
				return -1
			case ru > rv:
				return 1
			}
			return 0
		})
		weight, nc := 0.0, 0
		for nc < len(items) && weight <= b+eps {
			weight += items[nc].a
			nc++
		}
		if weight <= b+eps {
			continue
		}
		cover := slices.Clone(items[:nc])
		rest := items[nc:]
		// Make the cover minimal, dropping the items with the least z first.
		slices.SortStableFunc(cover, func(u, v item) int {
			switch {
			case u.z < v.z:
				return -1
			case u.z > v.z:
				return 1
			}
			return 0
		})
		for k := 0; k < len(cover); {
			if weight-cover[k].a > b+eps {
				weight -= cover[k].a
				cover = slices.Delete(cover, k, k+1)
				continue
			}
			k++
		}
		lhs, amax := 0.0, 0.0
		for _, it := range cover {
			lhs += it.z
			amax = math.Max(amax, it.a)
		}
		size := float64(len(cover))
		// Extended cover: items at least as heavy as the cover's heaviest join it.
		ext := cover
		for _, it := range rest {
			if it.a >= amax {
				ext = append(ext, it)
				lhs += it.z
			}
		}
		if lhs <= size-1+minViolation {
			continue
		}
		c := cut{rhs: size - 1}
		for _, it := range ext {
			c.cols = append(c.cols, it.j)
			if it.comp {
				c.coef = append(c.coef, -1)
				c.rhs--
			} else {
				c.coef = append(c.coef, 1)
			}
		}
		out = append(out, c)
	}
	return out
}

// addCuts appends the cuts as rows of the working problem (a new matrix; the old one may
// be shared with bases and node problems).
func (s *search) addCuts(cuts []cut) {
	p := s.w
	n, m := p.NumCols(), p.NumRows()
	extra := make([][]int, n) // per column: indices into cuts
	coefs := make([][]float64, n)
	for r, c := range cuts {
		for k, j := range c.cols {
			extra[j] = append(extra[j], m+r)
			coefs[j] = append(coefs[j], c.coef[k])
		}
	}
	q := *p
	q.AStart = make([]int, n+1)
	nnz := len(p.AIndex)
	for _, c := range cuts {
		nnz += len(c.cols)
	}
	q.AIndex = make([]int, 0, nnz)
	q.AValue = make([]float64, 0, nnz)
	for j := range n {
		q.AIndex = append(q.AIndex, p.AIndex[p.AStart[j]:p.AStart[j+1]]...)
		q.AValue = append(q.AValue, p.AValue[p.AStart[j]:p.AStart[j+1]]...)
		// Cut rows come after every original row; sort them among themselves.
		idx := extra[j]
		order := make([]int, len(idx))
		for k := range order {
			order[k] = k
		}
		slices.SortFunc(order, func(a, b int) int { return idx[a] - idx[b] })
		for _, k := range order {
			q.AIndex = append(q.AIndex, idx[k])
			q.AValue = append(q.AValue, coefs[j][k])
		}
		q.AStart[j+1] = len(q.AIndex)
	}
	q.RowLower = slices.Clone(p.RowLower)
	q.RowUpper = slices.Clone(p.RowUpper)
	for _, c := range cuts {
		q.RowLower = append(q.RowLower, math.Inf(-1))
		q.RowUpper = append(q.RowUpper, c.rhs)
	}
	s.w = &q
}
