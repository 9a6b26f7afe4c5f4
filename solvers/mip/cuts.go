package mip

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/simplex"
)

// Cut loop parameters.
const (
	// cutMaxAge: a cut whose row has been slack (its logical basic) at this many root LPs
	// in a row leaves the LP (HiGHS and SCIP age cuts the same way), so that the LP the
	// rounds re-solve stays small.
	cutMaxAge = 3
	// cutMaxParallel: of two cuts of one round whose coefficient vectors have a cosine
	// above this, only the more efficacious is added (Achterberg §8.9's parallelism).
	cutMaxParallel = 0.999
	maxCutRounds   = 100 // sp150x300d's bound still rises after 60 rounds
	minViolation   = 1e-4
	cutStallLimit  = 3 // rounds in a row that move the bound by less than cutProgress
	cutProgress    = 1e-5
)

// cut is a row Σ coef·x ≤ rhs.
type cut struct {
	cols []int
	coef []float64
	rhs  float64
}

// key identifies a cut by its exact bits, for the separators' duplicate check (built
// with strconv rather than fmt: the check runs on every candidate of every round).
func (c cut) key() string {
	b := make([]byte, 0, 24*len(c.cols)+20)
	for k, j := range c.cols {
		b = strconv.AppendInt(b, int64(j), 10)
		b = append(b, ':')
		b = strconv.AppendUint(b, math.Float64bits(c.coef[k]), 16)
		b = append(b, ',')
	}
	b = append(b, "<="...)
	b = strconv.AppendUint(b, math.Float64bits(c.rhs), 16)
	return string(b)
}

// cutRounds separates knapsack covers at the root and re-solves, warm-started, while they
// are violated and move the bound.
func (s *search) cutRounds(root lpResult) lpResult {
	rv := s.rows()
	base := s.w // rv indexes its matrix; cuts go into new ones
	m0 := base.NumRows()
	seen := map[string]bool{}
	vubs := s.findVUBs(base, rv)
	var ages []int // per cut row (row m0 + k): rounds in a row its logical was basic
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
		for _, c := range s.mirCuts(base, rv, vubs, root.x) {
			if k := c.key(); !seen[k] {
				seen[k] = true
				cuts = append(cuts, c)
			}
		}
		if round < gmiRounds {
			for _, c := range s.gomoryCuts(root) {
				if k := c.key(); !seen[k] {
					seen[k] = true
					cuts = append(cuts, c)
				}
			}
		}
		cuts = selectCuts(cuts, root.x)
		if len(cuts) == 0 {
			break
		}
		s.addCuts(cuts)
		ages = append(ages, make([]int, len(cuts))...)
		r := s.solveLP(s.lo, s.up, root.basis, 0)
		if r.status == solvers.Infeasible {
			return r
		}
		if r.status != solvers.Optimal {
			s.lpStop(r.status)
			return root
		}
		s.logf("mip: cut round %d: %d cuts, bound %.10g, %d rows", round, len(cuts), r.obj, s.w.NumRows())
		r, ages = s.ageCuts(r, m0, ages)
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
	return s.dropSlackCuts(root, m0)
}

// ageCuts counts, per cut row, the root LPs in a row at which it was slack, and removes
// the cuts slack cutMaxAge times; it returns r with the basis of the rows kept and the
// ages of the cuts kept.
func (s *search) ageCuts(r lpResult, m0 int, ages []int) (lpResult, []int) {
	if r.basis == nil {
		return r, ages
	}
	for k := range ages {
		if r.basis.Rows[m0+k] == solvers.Basic {
			ages[k]++
		} else {
			ages[k] = 0
		}
	}
	r, newIndex := s.dropCuts(r, m0, func(i int) bool { return ages[i-m0] >= cutMaxAge })
	kept := ages[:0]
	for k, a := range ages {
		if newIndex[m0+k] >= 0 {
			kept = append(kept, a)
		}
	}
	return r, kept
}

// selectCuts orders one round's cuts by efficacy at x (violation over the norm of the
// coefficients) and drops each cut nearly parallel (cosine above cutMaxParallel) to a
// more efficacious one kept.
func selectCuts(cuts []cut, x []float64) []cut {
	type scored struct {
		c    cut
		eff  float64
		norm float64
	}
	sc := make([]scored, 0, len(cuts))
	for _, c := range cuts {
		act, norm := 0.0, 0.0
		for k, j := range c.cols {
			act += c.coef[k] * x[j]
			norm += c.coef[k] * c.coef[k]
		}
		norm = math.Sqrt(norm)
		if norm == 0 {
			continue
		}
		sc = append(sc, scored{c, (act - c.rhs) / norm, norm})
	}
	slices.SortStableFunc(sc, func(a, b scored) int { return cmp.Compare(b.eff, a.eff) })
	var out []cut
	var kept []scored
	dense := map[int]float64{}
	for _, a := range sc {
		clear(dense)
		for k, j := range a.c.cols {
			dense[j] = a.c.coef[k]
		}
		parallel := false
		for _, b := range kept {
			dot := 0.0
			for k, j := range b.c.cols {
				dot += dense[j] * b.c.coef[k]
			}
			if dot/(a.norm*b.norm) > cutMaxParallel {
				parallel = true
				break
			}
		}
		if !parallel {
			kept = append(kept, a)
			out = append(out, a.c)
		}
	}
	return out
}

// dropSlackCuts removes the cuts (rows from m0 on) whose logical is basic in the root
// LP's optimal basis: they do not bind there, and every node LP would carry them. The
// basis minus those rows stays a basis (each removed row takes its basic logical along).
func (s *search) dropSlackCuts(root lpResult, m0 int) lpResult {
	before := s.w.NumRows()
	root, _ = s.dropCuts(root, m0, func(int) bool { return true })
	s.logf("mip: %d of %d cuts kept", s.w.NumRows()-m0, before-m0)
	return root
}

// dropCuts removes the cuts (rows from m0 on) whose logical is basic in root's basis and
// for which drop(i) holds; it returns the LP result with the basis of the rows kept and,
// per old row, its new index (−1 when dropped).
func (s *search) dropCuts(root lpResult, m0 int, drop func(i int) bool) (lpResult, []int) {
	p := s.w
	m := p.NumRows()
	newIndex := make([]int, m)
	if root.status != solvers.Optimal || root.basis == nil {
		for i := range newIndex {
			newIndex[i] = i
		}
		return root, newIndex
	}
	keep := make([]bool, m)
	k := 0
	for i := range m {
		keep[i] = i < m0 || root.basis.Rows[i] != solvers.Basic || !drop(i)
		newIndex[i] = -1
		if keep[i] {
			newIndex[i] = k
			k++
		}
	}
	if k == m {
		return root, newIndex
	}
	q := *p
	q.AStart = make([]int, p.NumCols()+1)
	q.AIndex, q.AValue = nil, nil
	for j := range p.NumCols() {
		for t := p.AStart[j]; t < p.AStart[j+1]; t++ {
			if i := p.AIndex[t]; keep[i] {
				q.AIndex = append(q.AIndex, newIndex[i])
				q.AValue = append(q.AValue, p.AValue[t])
			}
		}
		q.AStart[j+1] = len(q.AIndex)
	}
	q.RowLower, q.RowUpper = nil, nil
	b := &solvers.Basis{Cols: root.basis.Cols}
	for i := range m {
		if keep[i] {
			q.RowLower = append(q.RowLower, p.RowLower[i])
			q.RowUpper = append(q.RowUpper, p.RowUpper[i])
			b.Rows = append(b.Rows, root.basis.Rows[i])
		}
	}
	s.w = &q
	root.basis = b
	return root, newIndex
}

// coverCuts separates a lifted cover inequality from each side of row i that, after
// bounding its non-binary columns by their activity, is a knapsack over binaries.
func (s *search) coverCuts(p *model.Problem, rv rowView, i int, x []float64) []cut {
	var out []cut
	for _, sign := range []float64{1, -1} {
		b := sideBound(p, i, sign)
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
		slices.SortStableFunc(items, func(u, v item) int { return cmp.Compare((1-u.z)/u.a, (1-v.z)/v.a) })
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
		slices.SortStableFunc(cover, func(u, v item) int { return cmp.Compare(u.z, v.z) })
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

// Gomory mixed-integer cut parameters.
const (
	gmiMinFrac     = 0.005 // a basic integer column must be at least this far from an integer
	gmiMaxPerRound = 100
	gmiMaxDynamism = 1e6 // largest / smallest |coefficient| of a kept cut
	gmiMinEfficacy = 1e-5
	gmiRounds      = 20
)

// gomoryCuts derives Gomory mixed-integer cuts (Achterberg §8.3; Cornuéjols' survey of
// the GMI formula) from the optimal tableau of r: for a row x_k + Σ a_j t_j = β of a
// basic integer column with fractional part f₀ of β, where t_j ≥ 0 are the nonbasic
// variables' distances from their bounds (column or row activity), the cut
//
//	Σ_{t_j integer} min(f_j/f₀, (1−f_j)/(1−f₀))·t_j + Σ_{t_j continuous} max(a_j/f₀, −a_j/(1−f₀))·t_j ≥ 1
//
// with f_j the fractional part of a_j, expressed in the columns again.
func (s *search) gomoryCuts(r lpResult) []cut {
	p := *s.w
	p.ColLower, p.ColUpper = s.lo, s.up
	tab, err := simplex.NewTableau(&p, r.basis)
	if err != nil {
		s.logf("mip: no Gomory cuts: %v", err)
		return nil
	}
	n, m := p.NumCols(), p.NumRows()
	rv := s.rows()
	type cand struct {
		pos  int
		frac float64
	}
	var cands []cand
	for k := range m {
		v := tab.Basic(k)
		if v >= n || !s.isInt[v] {
			continue
		}
		f := r.x[v] - math.Floor(r.x[v])
		if f < gmiMinFrac || f > 1-gmiMinFrac {
			continue
		}
		cands = append(cands, cand{k, math.Abs(f - 0.5)})
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(a.frac, b.frac) })
	if len(cands) > gmiMaxPerRound {
		cands = cands[:gmiMaxPerRound]
	}
	alpha, beta := make([]float64, n), make([]float64, m)
	coef := make([]float64, n)
	var out []cut
	for _, c := range cands {
		tab.Row(c.pos, alpha, beta)
		k := tab.Basic(c.pos)
		f0 := r.x[k] - math.Floor(r.x[k])
		clear(coef)
		rhs := 1.0
		ok := true
		// g is the cut coefficient of t for a tableau coefficient a (in x_k + a·t form).
		g := func(a float64, integer bool) float64 {
			if integer {
				fj := a - math.Floor(a)
				if fj <= f0 {
					return fj / f0
				}
				return (1 - fj) / (1 - f0)
			}
			if a >= 0 {
				return a / f0
			}
			return -a / (1 - f0)
		}
		for j := range n {
			if j == k || math.Abs(alpha[j]) < 1e-11 {
				continue
			}
			switch r.basis.Cols[j] {
			case solvers.Basic, solvers.Fixed:
				continue
			case solvers.AtLower:
				gj := g(alpha[j], s.isInt[j])
				coef[j] += gj
				rhs += gj * s.lo[j]
			case solvers.AtUpper:
				gj := g(-alpha[j], s.isInt[j])
				coef[j] -= gj
				rhs -= gj * s.up[j]
			default:
				ok = false
			}
			if !ok {
				break
			}
		}
		for i := 0; ok && i < m; i++ {
			if math.Abs(beta[i]) < 1e-11 {
				continue
			}
			var gi, sign, bound float64
			switch r.basis.Rows[i] {
			case solvers.Basic, solvers.Fixed:
				continue
			case solvers.AtLower:
				gi, sign, bound = g(beta[i], false), 1, p.RowLower[i]
			case solvers.AtUpper:
				gi, sign, bound = g(-beta[i], false), -1, p.RowUpper[i]
			default:
				ok = false
				continue
			}
			if math.IsInf(bound, 0) {
				ok = false
				continue
			}
			for q := rv.start[i]; q < rv.start[i+1]; q++ {
				coef[rv.col[q]] += sign * gi * p.AValue[rv.pos[q]]
			}
			rhs += sign * gi * bound
		}
		if !ok {
			continue
		}
		if ct, good := s.cleanCut(coef, rhs, r.x); good {
			out = append(out, ct)
		}
	}
	return out
}

// cleanCut turns Σ coef·x ≥ rhs into a ≤ cut scaled to a largest coefficient of 1: tiny
// coefficients are relaxed away with the columns' bounds; a cut whose coefficients span
// more than gmiMaxDynamism or that x does not violate by gmiMinEfficacy is rejected.
func (s *search) cleanCut(coef []float64, rhs float64, x []float64) (cut, bool) {
	mx := 0.0
	for _, v := range coef {
		mx = math.Max(mx, math.Abs(v))
	}
	if mx == 0 || math.IsNaN(mx) || math.IsInf(rhs, 0) || math.IsNaN(rhs) {
		return cut{}, false
	}
	mn := math.Inf(1)
	for j, v := range coef {
		if v == 0 {
			continue
		}
		if math.Abs(v) < 1e-9*mx {
			b := s.up[j]
			if v < 0 {
				b = s.lo[j]
			}
			if math.IsInf(b, 0) {
				return cut{}, false
			}
			rhs -= v * b
			continue
		}
		mn = math.Min(mn, math.Abs(v))
	}
	if mx/mn > gmiMaxDynamism {
		return cut{}, false
	}
	var c cut
	act, norm := 0.0, 0.0
	for j, v := range coef {
		if v == 0 || math.Abs(v) < 1e-9*mx {
			continue
		}
		c.cols = append(c.cols, j)
		c.coef = append(c.coef, -v/mx)
		act += v / mx * x[j]
		norm += (v / mx) * (v / mx)
	}
	c.rhs = -rhs / mx
	// Violation of Σ (coef/mx)·x ≥ rhs/mx at x, per unit of the coefficients' norm.
	if (rhs/mx-act)/math.Sqrt(norm) < gmiMinEfficacy {
		return cut{}, false
	}
	return c, true
}
