package qp

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

// spd draws a random symmetric positive definite n×n matrix (row-major) BᵀB + I/2.
func spd(t *rapid.T, n int, label string) []float64 {
	b := rapid.SliceOfN(rapid.Float64Range(-2, 2), n*n, n*n).Draw(t, label)
	m := make([]float64, n*n)
	for i := range n {
		for j := range n {
			s := 0.0
			for k := range n {
				s += b[k*n+i] * b[k*n+j]
			}
			m[i*n+j] = s
		}
		m[i*n+i] += 0.5
	}
	return m
}

// product returns L·Lᵀ as a row-major n×n matrix.
func (c *chol) product() []float64 {
	n := c.n
	m := make([]float64, n*n)
	for i := range n {
		for j := range n {
			s := 0.0
			for k := 0; k <= min(i, j); k++ {
				s += c.at(i, k) * c.at(j, k)
			}
			m[i*n+j] = s
		}
	}
	return m
}

func maxDiff(t *rapid.T, what string, got, want []float64, tol float64) {
	for i := range want {
		if d := math.Abs(got[i] - want[i]); d > tol*(1+math.Abs(want[i])) {
			t.Fatalf("%s: entry %d: got %g, want %g", what, i, got[i], want[i])
		}
	}
}

// TestCholUpdates checks every low-rank operation against the matrix it must represent.
func TestCholUpdates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 9).Draw(t, "n")
		m := spd(t, n+1, "m")
		at := func(i, j int) float64 { return m[i*(n+1)+j] }
		c := newChol(1) // forces growth
		if ok, _ := c.factor(n, at, 1e-14, nil); !ok {
			t.Fatal("factor failed on an SPD matrix")
		}
		sub := make([]float64, n*n)
		for i := range n {
			for j := range n {
				sub[i*n+j] = at(i, j)
			}
		}
		maxDiff(t, "factor", c.product(), sub, 1e-10)

		// maxInvDiag is max_i (M⁻¹)_ii for small n: compare with solves of unit vectors.
		wantInv := 0.0
		for i := range n {
			e := make([]float64, n)
			e[i] = 1
			c.solve(e)
			wantInv = max(wantInv, e[i])
		}
		if got := c.maxInvDiag(); math.Abs(got-wantInv) > 1e-9*wantInv {
			t.Fatalf("maxInvDiag %g, want %g", got, wantInv)
		}

		// solve
		b := rapid.SliceOfN(rapid.Float64Range(-5, 5), n, n).Draw(t, "b")
		x := append([]float64(nil), b...)
		c.solve(x)
		for i := range n {
			s := 0.0
			for j := range n {
				s += sub[i*n+j] * x[j]
			}
			if math.Abs(s-b[i]) > 1e-8*(1+math.Abs(b[i])) {
				t.Fatalf("solve: row %d: %g != %g", i, s, b[i])
			}
		}

		// append the last row/column of m
		l := make([]float64, n)
		for j := range n {
			l[j] = at(n, j)
		}
		c.solveL(l)
		if !c.appendRow(l, at(n, n), 1e-14) {
			t.Fatal("appendRow refused an SPD extension")
		}
		full := make([]float64, (n+1)*(n+1))
		copy(full, m)
		maxDiff(t, "append", c.product(), full, 1e-9)

		// rank-one update and downdate
		u := rapid.SliceOfN(rapid.Float64Range(-1, 1), n+1, n+1).Draw(t, "u")
		uu := append([]float64(nil), u...)
		c.update(0, uu)
		want := make([]float64, len(full))
		for i := range n + 1 {
			for j := range n + 1 {
				want[i*(n+1)+j] = full[i*(n+1)+j] + u[i]*u[j]
			}
		}
		maxDiff(t, "update", c.product(), want, 1e-9)
		uu = append(uu[:0], u...)
		if !c.downdate(uu) {
			t.Fatal("downdate failed back to an SPD matrix")
		}
		maxDiff(t, "downdate", c.product(), full, 1e-8)

		// remove row/column k
		k := rapid.IntRange(0, n).Draw(t, "k")
		c.remove(k)
		var red []float64
		for i := range n + 1 {
			for j := range n + 1 {
				if i != k && j != k {
					red = append(red, full[i*(n+1)+j])
				}
			}
		}
		maxDiff(t, "remove", c.product(), red, 1e-8)
	})
}

func TestCholRejectsSingular(t *testing.T) {
	c := newChol(2)
	m := []float64{1, 1, 1, 1}
	if ok, _ := c.factor(2, func(i, j int) float64 { return m[i*2+j] }, 1e-12, nil); ok {
		t.Fatal("factor accepted a singular matrix")
	}
	neg := []float64{1, 2, 2, 1}
	ok, minPiv := c.factor(2, func(i, j int) float64 { return neg[i*2+j] }, 1e-12, nil)
	if ok || minPiv >= 0 {
		t.Fatalf("indefinite matrix: ok=%v minPivot=%g, want a negative pivot", ok, minPiv)
	}
	// downdating to a singular matrix must fail
	if ok, _ := c.factor(1, func(i, j int) float64 { return 4 }, 1e-12, nil); !ok {
		t.Fatal("factor [4] failed")
	}
	if c.downdate([]float64{2}) {
		t.Fatal("downdate to zero succeeded")
	}
}

// TestCholFactorStops checks that a large factorization consults its stop function and
// gives up when asked (so that a solve with a big Hessian block honours its context).
func TestCholFactorStops(t *testing.T) {
	const n = 300
	m := func(i, j int) float64 {
		if i == j {
			return n
		}
		return 1
	}
	calls := 0
	c := newChol(n)
	ok, piv := c.factor(n, m, 1e-12, func() bool { calls++; return calls == 2 })
	if ok || !math.IsNaN(piv) || calls != 2 {
		t.Fatalf("ok=%v pivot=%g after %d stop calls; want a stopped factorization after 2", ok, piv, calls)
	}
	ok, _ = c.factor(n, m, 1e-12, func() bool { return false })
	if !ok {
		t.Fatal("factorization failed without being stopped")
	}
}
