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
	r, tmp      []float64
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

// normalSolve writes n_p restricted to F into dst (which must be zero on entry) and solves
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
	if q := len(e.wRow) + 1; len(e.r) < q {
		e.r = make([]float64, 2*q)
		e.tmp = make([]float64, 2*q)
	}
}

// appendRowToS tries to add active row constraint p to S and T. w must hold
// (H+ρI)_FF⁻¹ n_pF and sigma = n_pFᵀw (the new diagonal entry of S; its off-diagonal
// column is Tᵀn_pF). It returns false when the new pivot is below tol·sigma: p is
// (numerically) a combination of the working set.
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
		if k%32 == 31 && e.check != nil && e.check() {
			// Rebuilding S for thousands of active rows takes seconds; the engine is
			// left inconsistent, which is fine: a stopped solve reports no point.
			for _, i := range rows[k:] {
				e.rowPos[i] = -1
			}
			return errStopped
		}
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
