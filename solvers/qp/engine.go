package qp

import (
	"errors"
	"math"
)

// Variable states in the working set.
const (
	free    int8 = 0
	atLower int8 = 1
	atUpper int8 = -1
	fixed   int8 = 2 // lo == up: always in the working set, multiplier of either sign
)

// errNotConvex is returned when a Cholesky factorization meets a negative pivot.
var errNotConvex = errors.New("qp: the Hessian is not positive semidefinite (the objective is not convex)")

// errIterLimit stops a batch operation that would take more active-set changes than
// Options.IterationLimit allows.
var errIterLimit = errors.New("qp: iteration limit")

// errNumerical marks a factorization that broke down for numerical reasons.
var errNumerical = errors.New("qp: numerical breakdown in the working-set factorization")

// block is one connected component of H's sparsity graph with a dense Cholesky factor of
// (H + ρI) restricted to its free variables, in the order they became free.
type block struct {
	vars []int     // global indices, increasing
	h    []float64 // dense H on vars, row-major
	ord  []int     // local indices of the free variables, in factor order
	pos  []int     // local index → position in ord, or −1 when the variable is at a bound
	f    *chol
	buf  []float64
}

// constraint identifies one side of a bound or row: its normal is sign·e_j or sign·a_i and
// it reads sign·(x_j or a_iᵀx) ≥ sign·bound, with sign +1 for the lower side and −1 for
// the upper side. eq marks lo == up: never dropped, multiplier of either sign.
type constraint struct {
	row  bool
	idx  int
	sign float64
	eq   bool
}

// engine is the Goldfarb–Idnani dual active-set method for
//
//	minimize ½xᵀ(H+ρI)x + cᵀx  s.t.  rlo ≤ Ax ≤ rup,  lo ≤ x ≤ up
//
// with H + ρI positive definite. Active bounds are handled by fixing the variable (it
// leaves the free set F); active rows enter a Schur complement S = N_Fᵀ(H+ρI)_FF⁻¹N_F,
// kept as a Cholesky factor, together with T = (H+ρI)_FF⁻¹N_F (one column per active
// row). Every working-set change is a low-rank update of the block factors, S and T.
type engine struct {
	*problem
	rho float64
	c   []float64 // current linear cost (c0 − ρ·x_k in the proximal loop)

	blocks []block
	blkOf  []int
	locOf  []int

	x  []float64
	ax []float64
	st []int8
	uB []float64 // multiplier of the active bound of a variable (st ≠ free)

	wRow   []int
	wSign  []float64
	wEq    []bool
	uR     []float64
	rowPos []int // row → position in wRow, or −1
	s      *chol
	t      [][]float64 // t[k] = (H+ρI)_FF⁻¹ n_k on F, zero elsewhere
	tPool  [][]float64

	// scratch
	w, z, y, rB []float64
	v, r, tmp   []float64
	stamp       []int
	stampGen    int
	touched     []int

	tolP, tolD float64
	tolDep     float64
	iters      int
	updates    int  // low-rank updates since the last refactorization
	crash      bool // start by activating every bound the unconstrained minimizer violates
	iterLimit  int  // Options.IterationLimit (0: none)
	nRefactor  int  // statistics for Options.Verbose
	nEQP       int
	nCrash     int
	skipCol    []bool
	skipRow    []bool
	nskip      int
	skipped    []constraint
	proximal   bool // the proximal fallback ran (H singular)
	check      func() bool
}

func newEngine(q *problem, comps [][]int) *engine {
	e := &engine{
		problem: q,
		c:       make([]float64, q.n),
		blkOf:   make([]int, q.n),
		locOf:   make([]int, q.n),
		x:       make([]float64, q.n),
		ax:      make([]float64, q.m),
		st:      make([]int8, q.n),
		uB:      make([]float64, q.n),
		rowPos:  make([]int, q.m),
		s:       newChol(4),
		w:       make([]float64, q.n),
		z:       make([]float64, q.n),
		y:       make([]float64, q.n),
		rB:      make([]float64, q.n),
		tolP:    1e-9,
		tolD:    1e-9,
		tolDep:  1e-12,
		crash:   true,
		skipCol: make([]bool, q.n),
		skipRow: make([]bool, q.m),
	}
	copy(e.c, q.c)
	for i := range e.rowPos {
		e.rowPos[i] = -1
	}
	e.blocks = make([]block, len(comps))
	e.stamp = make([]int, len(comps))
	// One slab per element type for all blocks: thousands of small blocks (RDS has one
	// per job) would otherwise cost thousands of allocations per solve.
	sq, lin := 0, 0
	for _, vars := range comps {
		sq += len(vars) * len(vars)
		lin += len(vars)
	}
	fslab := make([]float64, 2*sq+2*lin)
	islab := make([]int, 2*lin)
	chols := make([]chol, len(comps))
	for b, vars := range comps {
		nb := len(vars)
		blk := &e.blocks[b]
		blk.vars = vars
		take := func(k int) []float64 {
			v := fslab[:k:k]
			fslab = fslab[k:]
			return v
		}
		blk.h = take(nb * nb)
		blk.f = &chols[b]
		blk.f.cap, blk.f.l, blk.f.work = nb, take(nb*nb), take(nb)
		blk.buf = take(nb)
		blk.pos = islab[:nb:nb]
		blk.ord = islab[nb : nb : 2*nb]
		islab = islab[2*nb:]
		for l, j := range vars {
			e.blkOf[j] = b
			e.locOf[j] = l
		}
		for l, j := range vars {
			blk.h[l*nb+l] = q.hDiag[j]
			for k := q.hStart[j]; k < q.hStart[j+1]; k++ {
				blk.h[e.locOf[q.hIndex[k]]*nb+l] = q.hValue[k]
			}
		}
	}
	// A crash round refactors every block (O(Σ b³)); with small blocks that costs about
	// as much as a few single changes and saves hundreds, with large dense blocks it
	// costs hundreds of single changes and the dual method alone is faster.
	for _, vars := range comps {
		if len(vars) > crashMaxBlock {
			e.crash = false
		}
	}
	for j := range q.n {
		if q.lo[j] == q.up[j] {
			e.st[j] = fixed
			e.x[j] = q.lo[j]
		}
	}
	return e
}

// boundValue is the value of variable j's active bound.
func (e *engine) boundValue(j int) float64 {
	if e.st[j] == atUpper {
		return e.up[j]
	}
	return e.lo[j]
}

func (e *engine) rowBound(i int, sign float64) float64 {
	if sign > 0 {
		return e.rlo[i]
	}
	return e.rup[i]
}

// factorBlocks factors every block's free part. It reports errNotConvex for a negative
// pivot and errNumerical for a (numerically) singular one.
func (e *engine) factorBlocks() error {
	minPiv2 := e.breakdownPivot()
	for b := range e.blocks {
		blk := &e.blocks[b]
		nb := len(blk.vars)
		blk.ord = blk.ord[:0]
		for l, j := range blk.vars {
			if e.st[j] == free {
				blk.pos[l] = len(blk.ord)
				blk.ord = append(blk.ord, l)
			} else {
				blk.pos[l] = -1
			}
		}
		// Load (H + ρI) on the free variables into the factor's storage and factor in place.
		f, nf := blk.f, len(blk.ord)
		f.n = 0
		for cj, lj := range blk.ord {
			col := f.l[cj*f.cap : cj*f.cap+nf]
			for ci := cj; ci < nf; ci++ {
				col[ci] = blk.h[blk.ord[ci]*nb+lj]
			}
			col[cj] += e.rho
		}
		if ok, piv := f.factorInPlace(nf, minPiv2, e.check); !ok {
			if math.IsNaN(piv) {
				return errStopped
			}
			if piv < -1e-8*max(1, e.hMax) {
				return errNotConvex
			}
			return errNumerical
		}
	}
	return nil
}

// breakdownPivot is the smallest squared pivot accepted in a factor of H + ρI: below it
// the factorization is treated as broken (H + ρI is positive definite by construction, so
// this only catches numerical failure).
func (e *engine) breakdownPivot() float64 { return 1e-14 * max(1, e.hMax) }

// solveBlock writes ((H+ρI)_FF⁻¹ src) on block b's free variables into dst.
func (e *engine) solveBlock(b int, src, dst []float64) {
	blk := &e.blocks[b]
	nf := len(blk.ord)
	if nf == 0 {
		return
	}
	if nf == 1 {
		j := blk.vars[blk.ord[0]]
		d := blk.f.l[0]
		dst[j] = src[j] / (d * d)
		return
	}
	t := blk.buf[:nf]
	for k, l := range blk.ord {
		t[k] = src[blk.vars[l]]
	}
	blk.f.solve(t)
	for k, l := range blk.ord {
		dst[blk.vars[l]] = t[k]
	}
}

// solveAll writes (H+ρI)_FF⁻¹ src on F into dst (dst may be src).
func (e *engine) solveAll(src, dst []float64) {
	for b := range e.blocks {
		e.solveBlock(b, src, dst)
	}
}

// normalF writes n_p restricted to F into dst (which must be zero on entry) and solves
// w = (H+ρI)_FF⁻¹ n_pF into w (zero outside the touched blocks). It returns σ = n_pFᵀw.
// The touched blocks are left in e.touched so that callers can clear dst and w cheaply.
func (e *engine) normalSolve(p constraint, dst, w []float64) float64 {
	e.stampGen++
	e.touched = e.touched[:0]
	if !p.row {
		j := p.idx
		if e.st[j] != free {
			return 0
		}
		dst[j] = p.sign
		b := e.blkOf[j]
		e.stamp[b] = e.stampGen
		e.touched = append(e.touched, b)
	} else {
		for k := e.rStart[p.idx]; k < e.rStart[p.idx+1]; k++ {
			j := e.rIndex[k]
			if e.st[j] != free {
				continue
			}
			dst[j] = p.sign * e.rValue[k]
			if b := e.blkOf[j]; e.stamp[b] != e.stampGen {
				e.stamp[b] = e.stampGen
				e.touched = append(e.touched, b)
			}
		}
	}
	sigma := 0.0
	for _, b := range e.touched {
		e.solveBlock(b, dst, w)
		blk := &e.blocks[b]
		for _, l := range blk.ord {
			j := blk.vars[l]
			sigma += dst[j] * w[j]
		}
	}
	return sigma
}

// clearTouched zeroes the free variables of the touched blocks in each vector.
func (e *engine) clearTouched(vs ...[]float64) {
	for _, b := range e.touched {
		blk := &e.blocks[b]
		for _, l := range blk.ord {
			j := blk.vars[l]
			for _, v := range vs {
				v[j] = 0
			}
		}
	}
}

// dotNormal is n_pFᵀ u over the free variables.
func (e *engine) dotNormal(p constraint, u []float64) float64 {
	if !p.row {
		if e.st[p.idx] != free {
			return 0
		}
		return p.sign * u[p.idx]
	}
	s := 0.0
	for k := e.rStart[p.idx]; k < e.rStart[p.idx+1]; k++ {
		if j := e.rIndex[k]; e.st[j] == free {
			s += e.rValue[k] * u[j]
		}
	}
	return p.sign * s
}

// newT returns a zeroed n-vector for a column of T.
func (e *engine) newT() []float64 {
	if k := len(e.tPool); k > 0 {
		t := e.tPool[k-1]
		e.tPool = e.tPool[:k-1]
		clear(t)
		return t
	}
	return make([]float64, e.n)
}

func (e *engine) growRowScratch() {
	if q := len(e.wRow) + 1; len(e.v) < q {
		e.v = make([]float64, 2*q)
		e.r = make([]float64, 2*q)
		e.tmp = make([]float64, 2*q)
	}
}

// appendRowToS tries to add active row constraint p to S and T. w must hold
// (H+ρI)_FF⁻¹ n_pF and sigma = n_pFᵀw; the function fills e.v with Tᵀn_pF. It returns false
// when p is (numerically) a combination of the working set.
func (e *engine) appendRowToS(p constraint, w []float64, sigma, tol float64) bool {
	e.growRowScratch()
	q := len(e.wRow)
	l := e.tmp[:q]
	for k := range q {
		l[k] = e.dotNormal(p, e.t[k])
	}
	e.s.solveL(l)
	if !e.s.appendRow(l, sigma, tol) {
		return false
	}
	tc := e.newT()
	for _, b := range e.touched {
		blk := &e.blocks[b]
		for _, ll := range blk.ord {
			j := blk.vars[ll]
			tc[j] = w[j]
		}
	}
	e.t = append(e.t, tc)
	e.rowPos[p.idx] = q
	e.wRow = append(e.wRow, p.idx)
	e.wSign = append(e.wSign, p.sign)
	e.wEq = append(e.wEq, p.eq)
	e.uR = append(e.uR, 0)
	return true
}

// removeRow drops active row at position k from S, T and the lists.
func (e *engine) removeRow(k int) {
	e.s.remove(k)
	e.rowPos[e.wRow[k]] = -1
	e.tPool = append(e.tPool, e.t[k])
	e.t = append(e.t[:k], e.t[k+1:]...)
	e.wRow = append(e.wRow[:k], e.wRow[k+1:]...)
	e.wSign = append(e.wSign[:k], e.wSign[k+1:]...)
	e.wEq = append(e.wEq[:k], e.wEq[k+1:]...)
	e.uR = append(e.uR[:k], e.uR[k+1:]...)
	for i := k; i < len(e.wRow); i++ {
		e.rowPos[e.wRow[i]] = i
	}
	e.updates++
}

// fixVar moves free variable j to the bound side st (atLower/atUpper): S loses the rank-one
// term of j, T is corrected and j leaves its block's factor. w must be zero on entry and
// is left zero.
func (e *engine) fixVar(j int, st int8) error {
	b := e.blkOf[j]
	blk := &e.blocks[b]
	// wj = (H+ρI)_FF⁻¹ e_j, block-local.
	w := e.w
	w[j] = 1
	e.solveBlock(b, w, w)
	alpha := w[j]
	if !(alpha > 0) {
		e.clearBlock(b, w)
		return errNumerical
	}
	q := len(e.wRow)
	ok := true
	if q > 0 {
		e.growRowScratch()
		v := e.tmp[:q]
		for k := range q {
			v[k] = e.t[k][j]
		}
		for k := range q {
			tk := e.t[k]
			f := v[k] / alpha
			if f == 0 {
				continue
			}
			for _, l := range blk.ord {
				jj := blk.vars[l]
				tk[jj] -= f * w[jj]
			}
			tk[j] = 0
		}
		sa := 1 / math.Sqrt(alpha)
		for k := range v {
			v[k] *= sa
		}
		ok = e.s.downdate(v)
	}
	e.clearBlock(b, w)
	// Remove j from the block factor.
	l := e.locOf[j]
	k := blk.pos[l]
	blk.f.remove(k)
	blk.ord = append(blk.ord[:k], blk.ord[k+1:]...)
	blk.pos[l] = -1
	for i := k; i < len(blk.ord); i++ {
		blk.pos[blk.ord[i]] = i
	}
	e.st[j] = st
	e.updates++
	if !ok {
		return e.refactor()
	}
	return nil
}

func (e *engine) clearBlock(b int, v []float64) {
	for _, j := range e.blocks[b].vars {
		v[j] = 0
	}
}

// freeVar releases variable j from its bound: it joins its block's factor, S gains a
// rank-one term and T is corrected.
func (e *engine) freeVar(j int) error {
	b := e.blkOf[j]
	blk := &e.blocks[b]
	nb := len(blk.vars)
	l := e.locOf[j]
	nf := len(blk.ord)
	col := blk.buf[:nf]
	for k, ll := range blk.ord {
		col[k] = blk.h[ll*nb+l]
	}
	blk.f.solveL(col)
	if !blk.f.appendRow(col, blk.h[l*nb+l]+e.rho, 1e-13) || blk.f.at(nf, nf) <= math.Sqrt(e.breakdownPivot()) {
		return errNumerical
	}
	blk.pos[l] = nf
	blk.ord = append(blk.ord, l)
	e.st[j] = free
	e.uB[j] = 0
	e.updates++
	q := len(e.wRow)
	if q == 0 {
		return nil
	}
	w := e.w
	w[j] = 1
	e.solveBlock(b, w, w)
	beta := w[j]
	e.growRowScratch()
	v := e.tmp[:q]
	clear(v)
	for _, ll := range blk.ord {
		jj := blk.vars[ll]
		wj := w[jj]
		if wj == 0 {
			continue
		}
		for k := e.aStart[jj]; k < e.aStart[jj+1]; k++ {
			if pos := e.rowPos[e.aIndex[k]]; pos >= 0 {
				v[pos] += e.wSign[pos] * e.aValue[k] * wj
			}
		}
	}
	for k := range q {
		tk := e.t[k]
		f := v[k] / beta
		if f == 0 {
			continue
		}
		for _, ll := range blk.ord {
			jj := blk.vars[ll]
			tk[jj] += f * w[jj]
		}
	}
	e.clearBlock(b, w)
	sb := 1 / math.Sqrt(beta)
	for k := range v {
		v[k] *= sb
	}
	e.s.update(0, v)
	return nil
}

// refactor rebuilds every factor from the current working set (variable states and the
// list of active rows). Rows that have become numerically dependent are dropped.
func (e *engine) refactor() error {
	e.nRefactor++
	if err := e.factorBlocks(); err != nil {
		return err
	}
	rows, signs, eqs, us := e.wRow, e.wSign, e.wEq, e.uR
	e.wRow, e.wSign, e.wEq, e.uR = nil, nil, nil, nil
	for _, t := range e.t {
		e.tPool = append(e.tPool, t)
	}
	e.t = e.t[:0]
	e.s.n = 0
	for k, i := range rows {
		e.rowPos[i] = -1
		p := constraint{row: true, idx: i, sign: signs[k], eq: eqs[k]}
		sigma := e.normalSolve(p, e.y, e.w)
		if e.appendRowToS(p, e.w, sigma, e.tolDep) {
			e.uR[len(e.uR)-1] = us[k]
		}
		e.clearTouched(e.y, e.w)
	}
	e.updates = 0
	return nil
}

// eqp solves the equality-constrained problem of the working set with the current
// factors: x_B at its bounds, active rows at their bounds, minimal over the free
// variables; it sets x, Ax and every working-set multiplier.
//
// It works by iterative refinement from the current (x, u_R): each pass computes the KKT
// residuals r_F = −((H+ρI)x + c − N_R u_R)_F and r_c = b_R − N_Rᵀx and solves for the
// correction with the factors (δx = (H+ρI)_FF⁻¹(r_F + N_F δu) = y₀ + T δu, S δu =
// r_c − N_Fᵀy₀). The first pass is the plain solve; later passes remove the cancellation
// that a large unconstrained minimizer −H⁻¹c would otherwise leave in x.
func (e *engine) eqp() {
	e.nEQP++
	n := e.n
	for j := range n {
		if e.st[j] != free {
			e.x[j] = e.boundValue(j)
		}
	}
	q := len(e.wRow)
	e.growRowScratch()
	rhs, dx := e.y, e.z
	// Two passes always (solve, refine); a third only when the refinement was large.
	for pass := 0; pass < 3; pass++ {
		clear(dx)
		for j := range n {
			if e.st[j] != free {
				continue
			}
			g := e.c[j] + (e.hDiag[j]+e.rho)*e.x[j]
			for k := e.hStart[j]; k < e.hStart[j+1]; k++ {
				g += e.hValue[k] * e.x[e.hIndex[k]]
			}
			rhs[j] = -g
		}
		for k, i := range e.wRow {
			f := e.wSign[k] * e.uR[k]
			if f == 0 {
				continue
			}
			for kk := e.rStart[i]; kk < e.rStart[i+1]; kk++ {
				if j := e.rIndex[kk]; e.st[j] == free {
					rhs[j] += f * e.rValue[kk]
				}
			}
		}
		e.solveAll(rhs, dx)
		if q > 0 {
			du := e.r[:q]
			for k, i := range e.wRow {
				s := 0.0
				for kk := e.rStart[i]; kk < e.rStart[i+1]; kk++ {
					j := e.rIndex[kk]
					s += e.rValue[kk] * (e.x[j] + dx[j])
				}
				du[k] = e.wSign[k] * (e.rowBound(i, e.wSign[k]) - s)
			}
			e.s.solve(du)
			for k := range q {
				tk, uk := e.t[k], du[k]
				if uk == 0 {
					continue
				}
				for j := range n {
					dx[j] += uk * tk[j]
				}
				e.uR[k] += uk
			}
		}
		dmax, xmax := 0.0, 0.0
		for j := range n {
			if e.st[j] == free {
				e.x[j] += dx[j]
				dmax = max(dmax, math.Abs(dx[j]))
				xmax = max(xmax, math.Abs(e.x[j]))
			}
		}
		if pass == 0 && dmax <= 1e-15*(1+xmax) || pass == 1 && dmax <= 1e-9*(1+xmax) {
			break
		}
	}
	clear(rhs)
	clear(dx)
	e.computeAx()
	e.boundMultipliers()
}

func (e *engine) computeAx() {
	clear(e.ax)
	for j := range e.n {
		xj := e.x[j]
		if xj == 0 {
			continue
		}
		for k := e.aStart[j]; k < e.aStart[j+1]; k++ {
			e.ax[e.aIndex[k]] += e.aValue[k] * xj
		}
	}
}

// boundMultipliers sets uB from the gradient: for a variable at a bound,
// g_j = (H+ρI)x + c − N_R u_R has g_j = sign·u_j.
func (e *engine) boundMultipliers() {
	g := e.y
	for k, i := range e.wRow {
		f := e.wSign[k] * e.uR[k]
		for kk := e.rStart[i]; kk < e.rStart[i+1]; kk++ {
			g[e.rIndex[kk]] -= f * e.rValue[kk]
		}
	}
	for j := range e.n {
		if e.st[j] == free {
			g[j] = 0
			continue
		}
		s := g[j] + e.c[j] + (e.hDiag[j]+e.rho)*e.x[j]
		for k := e.hStart[j]; k < e.hStart[j+1]; k++ {
			s += e.hValue[k] * e.x[e.hIndex[k]]
		}
		if e.st[j] == atUpper {
			s = -s
		}
		e.uB[j] = s
		g[j] = 0
	}
}

// dropNegatives repeats: solve the working set's equality problem, release every
// inequality whose multiplier is negative, until none is. The working set shrinks each
// round, so this ends; what remains is a dual-feasible starting point for the dual method.
func (e *engine) dropNegatives() error {
	for {
		e.eqp()
		tol := e.tolD * max(1, e.cMax)
		if e.iterLimit > 0 {
			drops := 0
			for j := range e.n {
				if (e.st[j] == atLower || e.st[j] == atUpper) && e.uB[j] < -tol {
					drops++
				}
			}
			for k := range e.wRow {
				if !e.wEq[k] && e.uR[k] < -tol {
					drops++
				}
			}
			if drops > 0 && e.iters+drops > e.iterLimit {
				return errIterLimit
			}
		}
		changed := false
		for j := range e.n {
			if (e.st[j] == atLower || e.st[j] == atUpper) && e.uB[j] < -tol {
				e.st[j] = free
				e.uB[j] = 0
				e.iters++
				changed = true
			}
		}
		for k := 0; k < len(e.wRow); k++ {
			if !e.wEq[k] && e.uR[k] < -tol {
				e.rowPos[e.wRow[k]] = -1
				e.wRow = append(e.wRow[:k], e.wRow[k+1:]...)
				e.wSign = append(e.wSign[:k], e.wSign[k+1:]...)
				e.wEq = append(e.wEq[:k], e.wEq[k+1:]...)
				e.uR = append(e.uR[:k], e.uR[k+1:]...)
				for i := k; i < len(e.wRow); i++ {
					e.rowPos[e.wRow[i]] = i
				}
				k--
				e.iters++
				changed = true
			}
		}
		if !changed {
			return nil
		}
		if err := e.refactor(); err != nil {
			return err
		}
	}
}

// mostViolated returns the inactive constraint with the largest normalized violation
// above tolerance, and its violation b_p − n_pᵀx (> 0).
func (e *engine) mostViolated() (constraint, float64, bool) {
	var best constraint
	bestScore, bestViol := 0.0, 0.0
	for j := range e.n {
		if e.st[j] != free || e.skipCol[j] {
			continue
		}
		xj := e.x[j]
		if v := e.lo[j] - xj; v > e.tolP*max(1, math.Abs(e.lo[j])) && v > bestScore {
			best, bestScore, bestViol = constraint{idx: j, sign: 1}, v, v
		} else if v := xj - e.up[j]; v > e.tolP*max(1, math.Abs(e.up[j])) && v > bestScore {
			best, bestScore, bestViol = constraint{idx: j, sign: -1}, v, v
		}
	}
	for i := range e.m {
		if e.rowPos[i] >= 0 || e.rowNorm[i] == 0 || e.skipRow[i] {
			continue
		}
		a := e.ax[i]
		eq := e.rlo[i] == e.rup[i]
		if v := e.rlo[i] - a; v > e.tolP*max(1, math.Abs(e.rlo[i])) {
			if s := v / e.rowNorm[i]; s > bestScore {
				best, bestScore, bestViol = constraint{row: true, idx: i, sign: 1, eq: eq}, s, v
			}
		} else if v := a - e.rup[i]; v > e.tolP*max(1, math.Abs(e.rup[i])) {
			if s := v / e.rowNorm[i]; s > bestScore {
				best, bestScore, bestViol = constraint{row: true, idx: i, sign: -1, eq: eq}, s, v
			}
		}
	}
	return best, bestViol, bestScore > 0
}

// violation is b_p − n_pᵀx for constraint p.
func (e *engine) violation(p constraint) float64 {
	if !p.row {
		if p.sign > 0 {
			return e.lo[p.idx] - e.x[p.idx]
		}
		return e.x[p.idx] - e.up[p.idx]
	}
	if p.sign > 0 {
		return e.rlo[p.idx] - e.ax[p.idx]
	}
	return e.ax[p.idx] - e.rup[p.idx]
}

// giStatus is the outcome of the dual method.
type giStatus int

const (
	giOptimal giStatus = iota
	giInfeasible
	giStopped // e.check asked to stop (limit or cancellation)
	giNumerical
	giDependent // p is a combination of the working set and violated only within infeasTol
)

// infeasTol is the violation above which a constraint that cannot be added proves
// infeasibility. Below it the violation is rounding at a degenerate vertex (the
// constraint is a combination of the working set, which pins x to about the accuracy of
// the factorization), and the constraint is accepted as satisfied within tolerance.
func (e *engine) infeasTol(p constraint) float64 {
	var b float64
	switch {
	case !p.row && p.sign > 0:
		b = e.lo[p.idx]
	case !p.row:
		b = e.up[p.idx]
	default:
		b = e.rowBound(p.idx, p.sign)
	}
	return 100 * e.tolP * max(1, math.Abs(b))
}

// run is the Goldfarb–Idnani loop from the current dual-feasible working set.
func (e *engine) run(maxIters int) (giStatus, error) {
	refreshes := 0
	retries := 0
	for {
		p, _, ok := e.mostViolated()
		if !ok {
			if e.nskip > 0 && e.skippedTooFar() {
				// A constraint set aside as "violated within tolerance" has drifted
				// beyond it: consider it again.
				e.clearSkips()
				if refreshes++; refreshes > 6 {
					return giNumerical, nil
				}
				continue
			}
			if e.updates == 0 || refreshes >= 3 {
				return giOptimal, nil
			}
			// Recompute the point from fresh factors before declaring optimality, so that
			// drift from many low-rank updates cannot leave a slightly wrong answer.
			refreshes++
			if err := e.refactor(); err != nil {
				return giNumerical, err
			}
			if err := e.dropNegatives(); err != nil {
				return giNumerical, err
			}
			continue
		}
		if e.check != nil && e.check() {
			return giStopped, nil
		}
		if e.iters > maxIters {
			return giNumerical, nil
		}
		viol := e.violation(p)
		st, err := e.addConstraint(p, maxIters)
		if err == nil && (st == giInfeasible || st == giDependent) && retries < 3 && e.updates > 0 &&
			viol <= 10*e.infeasTol(p) {
			// Before concluding, recompute the point from fresh factors: a violation this
			// small may be drift from the low-rank updates. (A large one is not, and
			// retrying it would only replay the same additions.)
			retries++
			if err := e.refactor(); err != nil {
				return giNumerical, err
			}
			if err := e.dropNegatives(); err != nil {
				return giNumerical, err
			}
			continue
		}
		if st == giDependent {
			e.skip(p)
			continue
		}
		if err != nil || st != giOptimal {
			return st, err
		}
		if e.updates > 200 {
			if err := e.refactor(); err != nil {
				return giNumerical, err
			}
			if err := e.dropNegatives(); err != nil {
				return giNumerical, err
			}
		}
	}
}

// addConstraint performs steps 2 of the dual method for the violated constraint p:
// partial steps (dropping blocking constraints) until p can be added with a full step.
// It returns giInfeasible when p cannot be satisfied together with the equality part of
// the working set and the remaining inequalities (no blocking constraint and no primal
// direction).
func (e *engine) addConstraint(p constraint, maxIters int) (giStatus, error) {
	up := 0.0 // p's multiplier so far
	for {
		if e.check != nil && e.check() {
			return giStopped, nil
		}
		if e.iters > maxIters {
			return giNumerical, nil
		}
		q := len(e.wRow)
		e.growRowScratch()
		nv := e.y // n_pF scratch
		sigma := e.normalSolve(p, nv, e.w)
		// v = Tᵀn_pF, r = S⁻¹v.
		r := e.r[:q]
		for k := range q {
			r[k] = e.dotNormal(p, e.t[k])
		}
		e.s.solve(r)
		// z = w − T r on F.
		z := e.z
		for j := range e.n {
			if e.st[j] == free {
				s := e.w[j]
				for k := range q {
					s -= r[k] * e.t[k][j]
				}
				z[j] = s
			} else {
				z[j] = 0
			}
		}
		delta2 := e.dotNormal(p, z)
		e.clearTouched(nv, e.w)
		// r_B = s_j (n_p,j − (Hz)_j − (N_R r)_j) for variables at a bound.
		e.boundDirection(p, r)
		// Partial step length t1 over the droppable working set.
		t1, drop := math.Inf(1), constraint{}
		// Entries of r below epsR are rounding noise of an exact zero; the scale is that
		// of the droppable constraints only (equality multipliers may be huge when an
		// equality is nearly dependent, and must not swamp the rest).
		rmax := 0.0
		for k := range q {
			if !e.wEq[k] {
				rmax = max(rmax, math.Abs(r[k]))
			}
		}
		for j := range e.n {
			if e.st[j] == atLower || e.st[j] == atUpper {
				rmax = max(rmax, math.Abs(e.rB[j]))
			}
		}
		epsR := 1e-13 * max(1, rmax)
		for j := range e.n {
			if (e.st[j] == atLower || e.st[j] == atUpper) && e.rB[j] > epsR {
				if t := max(e.uB[j], 0) / e.rB[j]; t < t1 {
					t1, drop = t, constraint{idx: j}
				}
			}
		}
		for k := range q {
			if !e.wEq[k] && r[k] > epsR {
				if t := max(e.uR[k], 0) / r[k]; t < t1 {
					t1, drop = t, constraint{row: true, idx: k}
				}
			}
		}
		// Full step length t2.
		t2 := math.Inf(1)
		if delta2 > e.tolDep*sigma && sigma > 0 {
			t2 = max(e.violation(p), 0) / delta2
		}
		if math.IsInf(t1, 1) && math.IsInf(t2, 1) {
			if up == 0 && e.violation(p) <= e.infeasTol(p) {
				return giDependent, nil
			}
			return giInfeasible, nil
		}
		t := min(t1, t2)
		// Multipliers.
		for j := range e.n {
			if e.st[j] != free {
				e.uB[j] -= t * e.rB[j]
			}
		}
		for k := range q {
			e.uR[k] -= t * r[k]
		}
		up += t
		if !math.IsInf(t2, 1) {
			e.step(t, z)
		}
		e.iters++
		if t2 <= t1 {
			return giOptimal, e.commit(p, up)
		}
		if err := e.dropConstraint(drop); err != nil {
			return giNumerical, err
		}
	}
}

// boundDirection fills e.rB for variables at a bound (see addConstraint).
func (e *engine) boundDirection(p constraint, r []float64) {
	y := e.rB
	for j := range e.n {
		y[j] = 0
	}
	// −(N_R r)_j
	for k, i := range e.wRow {
		f := e.wSign[k] * r[k]
		if f == 0 {
			continue
		}
		for kk := e.rStart[i]; kk < e.rStart[i+1]; kk++ {
			if j := e.rIndex[kk]; e.st[j] != free {
				y[j] -= f * e.rValue[kk]
			}
		}
	}
	if p.row {
		for kk := e.rStart[p.idx]; kk < e.rStart[p.idx+1]; kk++ {
			if j := e.rIndex[kk]; e.st[j] != free {
				y[j] += p.sign * e.rValue[kk]
			}
		}
	}
	z := e.z
	for j := range e.n {
		if e.st[j] == free {
			continue
		}
		s := y[j]
		for k := e.hStart[j]; k < e.hStart[j+1]; k++ {
			s -= e.hValue[k] * z[e.hIndex[k]]
		}
		if e.st[j] == atUpper {
			s = -s
		}
		y[j] = s
	}
}

// step moves x by t·z and keeps Ax in step.
func (e *engine) step(t float64, z []float64) {
	for j := range e.n {
		zj := z[j]
		if zj == 0 {
			continue
		}
		e.x[j] += t * zj
		tz := t * zj
		for k := e.aStart[j]; k < e.aStart[j+1]; k++ {
			e.ax[e.aIndex[k]] += e.aValue[k] * tz
		}
	}
}

// commit adds p to the working set with multiplier u.
func (e *engine) commit(p constraint, u float64) error {
	if !p.row {
		j := p.idx
		st := atLower
		if p.sign < 0 {
			st = atUpper
		}
		if err := e.fixVar(j, st); err != nil {
			return err
		}
		// Snap to the bound exactly.
		if d := e.boundValue(j) - e.x[j]; d != 0 {
			e.x[j] += d
			for k := e.aStart[j]; k < e.aStart[j+1]; k++ {
				e.ax[e.aIndex[k]] += e.aValue[k] * d
			}
		}
		e.uB[j] = u
		return nil
	}
	sigma := e.normalSolve(p, e.y, e.w)
	// The full step was taken because δ² = n_pᵀz passed tolDep; accept the same
	// pivot here with some slack for the different rounding of σ − ‖L⁻¹v‖².
	ok := e.appendRowToS(p, e.w, sigma, 0.01*e.tolDep)
	e.clearTouched(e.y, e.w)
	if !ok {
		return errNumerical
	}
	e.uR[len(e.uR)-1] = u
	e.updates++
	return nil
}

// dropConstraint removes a blocking constraint found by the partial step.
func (e *engine) dropConstraint(d constraint) error {
	if d.row {
		e.removeRow(d.idx)
		return nil
	}
	return e.freeVar(d.idx)
}

// skip sets p aside: it is violated by less than infeasTol and cannot be added.
func (e *engine) skip(p constraint) {
	if p.row {
		e.skipRow[p.idx] = true
	} else {
		e.skipCol[p.idx] = true
	}
	e.skipped = append(e.skipped, p)
	e.nskip++
}

func (e *engine) clearSkips() {
	for _, p := range e.skipped {
		if p.row {
			e.skipRow[p.idx] = false
		} else {
			e.skipCol[p.idx] = false
		}
	}
	e.skipped = e.skipped[:0]
	e.nskip = 0
}

// skippedTooFar reports whether a set-aside constraint is now violated beyond infeasTol.
func (e *engine) skippedTooFar() bool {
	for _, p := range e.skipped {
		if p.row && e.rowPos[p.idx] >= 0 || !p.row && e.st[p.idx] != free {
			continue
		}
		if e.violation(p) > e.infeasTol(p) {
			return true
		}
	}
	return false
}
