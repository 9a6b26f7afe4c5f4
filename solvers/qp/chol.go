package qp

import (
	"errors"
	"math"
)

// chol is a dense lower-triangular Cholesky factor L of a symmetric positive definite
// matrix M = L·Lᵀ of order n, stored column-major with stride cap: L[i][j] (i ≥ j) is
// l[j*cap+i], so column j (rows j..n-1) is contiguous. The operations are the ones an
// active-set method needs: append a row and column, delete one, and rank-one updates and
// downdates, each in O(n²) instead of the O(n³) of a refactorization.
type chol struct {
	n, cap int
	l      []float64
	work   []float64
}

func newChol(capacity int) *chol {
	return &chol{cap: capacity, l: make([]float64, capacity*capacity), work: make([]float64, capacity)}
}

func (c *chol) at(i, j int) float64 { return c.l[j*c.cap+i] }

// grow makes room for at least need rows, keeping the factor.
func (c *chol) grow(need int) {
	if need <= c.cap {
		return
	}
	nc := max(2*c.cap, need, 4)
	nl := make([]float64, nc*nc)
	for j := range c.n {
		copy(nl[j*nc+j:j*nc+c.n], c.l[j*c.cap+j:j*c.cap+c.n])
	}
	c.cap, c.l, c.work = nc, nl, make([]float64, nc)
}

// factor computes the factor of the n×n symmetric matrix whose lower triangle is given by
// m(i, j) for i ≥ j. It returns false (and leaves c with the columns that succeeded) when
// a squared pivot is not above minPivot2; pivot2 is then the failing squared pivot, so
// callers can tell "singular" (about zero) from "indefinite" (clearly negative).
func (c *chol) factor(n int, m func(i, j int) float64, minPivot2 float64, stop func() bool) (ok bool, pivot2 float64) {
	c.grow(n)
	for j := range n {
		col := c.l[j*c.cap:]
		for i := j; i < n; i++ {
			col[i] = m(i, j)
		}
	}
	return c.factorInPlace(n, minPivot2, stop)
}

// errStopped is reported by factorInPlace when its stop function asked to stop.
var errStopped = errors.New("qp: stopped")

// factorInPlace factors the matrix whose lower triangle is already in c's storage
// (column-major, rows j..n-1 of column j); see factor. For large n it calls stop (when
// not nil) every 64 columns and gives up, returning pivot2 = NaN, when it returns true:
// a factorization of a block of thousands of variables takes seconds.
func (c *chol) factorInPlace(n int, minPivot2 float64, stop func() bool) (ok bool, pivot2 float64) {
	c.n = 0
	for j := range n {
		if stop != nil && n >= 256 && j%64 == 63 && stop() {
			return false, math.NaN()
		}
		col := c.l[j*c.cap : j*c.cap+n]
		for k := range j {
			ck := c.l[k*c.cap : k*c.cap+n]
			ljk := ck[j]
			if ljk == 0 {
				continue
			}
			for i := j; i < n; i++ {
				col[i] -= ck[i] * ljk
			}
		}
		d := col[j]
		if !(d > minPivot2) {
			return false, d
		}
		d = math.Sqrt(d)
		col[j] = d
		inv := 1 / d
		for i := j + 1; i < n; i++ {
			col[i] *= inv
		}
		c.n = j + 1
	}
	return true, 0
}

// solveL overwrites b[:n] with L⁻¹b.
func (c *chol) solveL(b []float64) {
	n := c.n
	for j := range n {
		col := c.l[j*c.cap : j*c.cap+n]
		bj := b[j] / col[j]
		b[j] = bj
		if bj == 0 {
			continue
		}
		for i := j + 1; i < n; i++ {
			b[i] -= col[i] * bj
		}
	}
}

// solveLT overwrites b[:n] with L⁻ᵀb.
func (c *chol) solveLT(b []float64) {
	for j := c.n - 1; j >= 0; j-- {
		col := c.l[j*c.cap : j*c.cap+c.n]
		s := b[j]
		for i := j + 1; i < c.n; i++ {
			s -= col[i] * b[i]
		}
		b[j] = s / col[j]
	}
}

// solve overwrites b[:n] with M⁻¹b.
func (c *chol) solve(b []float64) {
	c.solveL(b)
	c.solveLT(b)
}

// appendRow extends M by one row and column: given l = L⁻¹v (v the new off-diagonal
// column, length n) and the new diagonal entry sigma, the new pivot is
// sqrt(sigma − lᵀl). It returns false, leaving c unchanged, when that is not positive
// above tol·sigma (the new row is, numerically, a combination of the old ones).
func (c *chol) appendRow(l []float64, sigma, tol float64) bool {
	d2 := sigma
	for _, v := range l[:c.n] {
		d2 -= v * v
	}
	if !(d2 > tol*math.Abs(sigma)) || sigma <= 0 {
		return false
	}
	c.grow(c.n + 1)
	n := c.n
	for j := range n {
		c.l[j*c.cap+n] = l[j]
	}
	c.l[n*c.cap+n] = math.Sqrt(d2)
	c.n++
	return true
}

// remove deletes row and column k of M and refactors the trailing part with a rank-one
// update (the deleted column of L, below the diagonal, re-enters the trailing block).
func (c *chol) remove(k int) {
	n, cp := c.n, c.cap
	x := c.work[:n-k-1]
	copy(x, c.l[k*cp+k+1:k*cp+n])
	// Columns before k lose their row k: shift rows k+1..n-1 up by one.
	for j := range k {
		col := c.l[j*cp:]
		copy(col[k:n-1], col[k+1:n])
	}
	// Columns after k move one to the left and one up.
	for j := k + 1; j < n; j++ {
		copy(c.l[(j-1)*cp+j-1:(j-1)*cp+n-1], c.l[j*cp+j:j*cp+n])
	}
	c.n--
	c.update(k, x)
}

// update replaces the trailing block (rows and columns from k) of M by itself plus xxᵀ,
// where x has length n−k. x is destroyed.
func (c *chol) update(k int, x []float64) {
	n, cp := c.n, c.cap
	for i := k; i < n; i++ {
		xi := x[i-k]
		if xi == 0 {
			continue
		}
		col := c.l[i*cp : i*cp+n]
		lii := col[i]
		r := math.Hypot(lii, xi)
		cs, sn := r/lii, xi/lii
		col[i] = r
		for j := i + 1; j < n; j++ {
			lj := (col[j] + sn*x[j-k]) / cs
			col[j] = lj
			x[j-k] = cs*x[j-k] - sn*lj
		}
	}
}

// downdate replaces M by M − xxᵀ (x of length n, destroyed). It returns false when the
// result is not numerically positive definite; c is then invalid and must be refactored.
func (c *chol) downdate(x []float64) bool {
	n, cp := c.n, c.cap
	for i := range n {
		xi := x[i]
		if xi == 0 {
			continue
		}
		col := c.l[i*cp : i*cp+n]
		lii := col[i]
		r2 := (lii - xi) * (lii + xi)
		if !(r2 > 1e-14*lii*lii) {
			return false
		}
		r := math.Sqrt(r2)
		cs, sn := r/lii, xi/lii
		col[i] = r
		for j := i + 1; j < n; j++ {
			lj := (col[j] - sn*x[j]) / cs
			col[j] = lj
			x[j] = cs*x[j] - sn*lj
		}
	}
	return true
}

// maxInvDiag estimates ‖M⁻¹‖₂ = 1/λ_min(M). For n ≤ 128 it returns max_i (M⁻¹)_ii =
// max_i ‖L⁻¹e_i‖², which lies within a factor n of ‖M⁻¹‖₂ (below it); for larger n it
// runs a few steps of inverse iteration, also a lower bound. Cholesky pivots alone can
// miss near-singularity (the last pivot depends on the ordering).
func (c *chol) maxInvDiag() float64 {
	n := c.n
	if n == 0 {
		return 0
	}
	v := make([]float64, n)
	best := 0.0
	if n <= 128 {
		for i := range n {
			clear(v)
			v[i] = 1
			// forward solve from row i
			s := 0.0
			for j := i; j < n; j++ {
				col := c.l[j*c.cap : j*c.cap+n]
				vj := v[j] / col[j]
				v[j] = vj
				s += vj * vj
				if vj == 0 {
					continue
				}
				for k := j + 1; k < n; k++ {
					v[k] -= col[k] * vj
				}
			}
			best = max(best, s)
		}
		return best
	}
	for i := range v {
		v[i] = 1 + float64(i%7)/7
	}
	for range 12 {
		nrm := 0.0
		for _, x := range v {
			nrm += x * x
		}
		nrm = math.Sqrt(nrm)
		for i := range v {
			v[i] /= nrm
		}
		c.solve(v)
		s := 0.0
		for _, x := range v {
			s += x * x
		}
		best = max(best, math.Sqrt(s))
	}
	return best
}
