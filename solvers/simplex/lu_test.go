package simplex

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomBasis builds an n-column matrix A (m rows) and a basis of m variables mixing
// structurals and logicals. With dependent=true some columns are copies of others.
func randomBasis(rng *rand.Rand, m int, density float64, dependent bool) (*sparseMatrix, int, []int) {
	n := m + rng.IntN(m+1)
	a := &sparseMatrix{start: []int{0}}
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			if rng.Float64() < density || (i == j%m && rng.Float64() < 0.5) {
				a.index = append(a.index, i)
				v := rng.NormFloat64()
				if rng.IntN(5) == 0 {
					v *= 1000
				}
				a.value = append(a.value, v)
			}
		}
		a.start = append(a.start, len(a.index))
	}
	if dependent && n >= 2 && m >= 2 {
		// column 1 := 2·column 0
		var idx []int
		var val []float64
		for p := a.start[0]; p < a.start[1]; p++ {
			idx = append(idx, a.index[p])
			val = append(val, 2*a.value[p])
		}
		rebuilt := &sparseMatrix{start: []int{0}}
		for j := 0; j < n; j++ {
			if j == 1 {
				rebuilt.index = append(rebuilt.index, idx...)
				rebuilt.value = append(rebuilt.value, val...)
			} else {
				rebuilt.index = append(rebuilt.index, a.index[a.start[j]:a.start[j+1]]...)
				rebuilt.value = append(rebuilt.value, a.value[a.start[j]:a.start[j+1]]...)
			}
			rebuilt.start = append(rebuilt.start, len(rebuilt.index))
		}
		a = rebuilt
	}
	perm := rng.Perm(n + m)
	basic := make([]int, 0, m)
	if dependent && n >= 2 && m >= 2 {
		basic = append(basic, 0, 1)
	}
	for _, v := range perm {
		if len(basic) == m {
			break
		}
		if dependent && n >= 2 && m >= 2 && (v == 0 || v == 1) {
			continue
		}
		basic = append(basic, v)
	}
	return a, n, basic
}

// denseColumn returns column v of [A I].
func denseColumn(a *sparseMatrix, n, m, v int) []float64 {
	c := make([]float64, m)
	if v >= n {
		c[v-n] = 1
		return c
	}
	for p := a.start[v]; p < a.start[v+1]; p++ {
		c[a.index[p]] = a.value[p]
	}
	return c
}

// checkSolves compares FTRAN and BTRAN with gonum's dense solves of the explicit basis,
// allowing an error proportional to the basis's condition number (random sparse bases
// are often badly conditioned; a wrong formula fails by far more).
func checkSolves(t *testing.T, rng *rand.Rand, f *luFactor, a *sparseMatrix, n, m int, basic []int, condSoFar *float64) {
	t.Helper()
	B := mat.NewDense(m, m, nil)
	for p, v := range basic {
		col := denseColumn(a, n, m, v)
		for i := range col {
			B.Set(i, p, col[i])
		}
	}
	cond := math.Max(mat.Cond(B, 2), *condSoFar)
	*condSoFar = cond // product-form updates carry the errors of earlier bases
	for _, trans := range []bool{false, true} {
		b := make([]float64, m)
		for i := range b {
			if rng.IntN(3) == 0 {
				b[i] = rng.NormFloat64()
			}
		}
		x := append([]float64(nil), b...)
		var want mat.VecDense
		var err error
		if trans {
			f.btran(x)
			err = want.SolveVec(B.T(), mat.NewVecDense(m, append([]float64(nil), b...)))
		} else {
			f.ftran(x, false)
			err = want.SolveVec(B, mat.NewVecDense(m, append([]float64(nil), b...)))
		}
		if err != nil && cond < 1e12 {
			t.Fatalf("dense solve: %v", err)
		}
		for i := range x {
			if d := math.Abs(x[i] - want.AtVec(i)); d > 1e-13*cond*(1+maxAbs(x)) {
				t.Fatalf("transposed=%v: entry %d = %g, dense solve %g (cond %g)", trans, i, x[i], want.AtVec(i), cond)
			}
		}
	}
}

func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// permuteBasis applies the factorization's permutation and repair to basic.
func permuteBasis(f *luFactor, n int, basic []int) []int {
	b := append([]int(nil), basic...)
	for t, k := range f.singularPos {
		b[k] = n + f.singularRow[t]
	}
	out := make([]int, len(b))
	for k, v := range b {
		out[f.rowOfPos[k]] = v
	}
	return out
}

func TestLUFactorSolves(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var f luFactor
	for trial := 0; trial < 300; trial++ {
		m := 1 + rng.IntN(40)
		density := []float64{0.05, 0.2, 0.6}[trial%3]
		dependent := trial%7 == 3
		a, n, basic := randomBasis(rng, m, density, dependent)
		rank := f.factorize(m, n, a, basic)
		if dependent && m >= 2 && rank == 0 {
			t.Fatalf("trial %d: dependent columns not detected", trial)
		}
		basic = permuteBasis(&f, n, basic)
		cond := 1.0
		checkSolves(t, rng, &f, a, n, m, basic, &cond)
		checkHyper(t, rng, &f, m)

		// A chain of product-form updates.
		for u := 0; u < 10; u++ {
			q := rng.IntN(n + m)
			in := false
			for _, v := range basic {
				if v == q {
					in = true
				}
			}
			if in {
				continue
			}
			alpha := denseColumn(a, n, m, q)
			f.ftran(alpha, true)
			p := -1
			best := 0.0
			for i, v := range alpha {
				if math.Abs(v) > best {
					best, p = math.Abs(v), i
				}
			}
			if best < 1e-3 {
				continue
			}
			if !f.update(p, alpha[p]) {
				t.Fatalf("trial %d: update at %d failed its stability check", trial, p)
			}
			basic[p] = q
			checkSolves(t, rng, &f, a, n, m, basic, &cond)
			checkHyper(t, rng, &f, m)
		}
	}
}

func TestLUSingularRepair(t *testing.T) {
	// B = [a a] with a second column equal to the first: rank 1.
	a := &sparseMatrix{start: []int{0, 2, 4}, index: []int{0, 1, 0, 1}, value: []float64{1, 2, 1, 2}}
	var f luFactor
	if got := f.factorize(2, 2, a, []int{0, 1}); got != 1 {
		t.Fatalf("rank deficiency %d, want 1", got)
	}
	basic := permuteBasis(&f, 2, []int{0, 1})
	rng := rand.New(rand.NewPCG(3, 4))
	cond := 1.0
	checkSolves(t, rng, &f, a, 2, 2, basic, &cond)
	// An all-zero structural column (numerically) is replaced too.
	z := &sparseMatrix{start: []int{0, 1}, index: []int{0}, value: []float64{1e-13}}
	if got := f.factorize(1, 1, z, []int{0}); got != 1 {
		t.Fatalf("tiny column: rank deficiency %d, want 1", got)
	}
}

// checkHyper compares the hyper-sparse solves with the dense ones on unit and two-entry
// right-hand sides.
func checkHyper(t *testing.T, rng *rand.Rand, f *luFactor, m int) {
	t.Helper()
	for trial := 0; trial < 4; trial++ {
		v := newWorkVec(m)
		dense := make([]float64, m)
		for k := 0; k < 1+trial%2; k++ {
			i := rng.IntN(m)
			if v.val[i] == 0 {
				v.idx = append(v.idx, i)
			}
			x := rng.NormFloat64()
			v.val[i] += x
			dense[i] += x
		}
		transposed := trial >= 2
		if transposed {
			f.btranHyper(&v)
			f.btran(dense)
		} else {
			f.ftranHyper(&v, false)
			f.ftran(dense, false)
		}
		seen := make([]bool, m)
		for _, i := range v.idx {
			if seen[i] {
				t.Fatalf("duplicate index %d", i)
			}
			seen[i] = true
		}
		for i := 0; i < m; i++ {
			if math.Abs(v.val[i]-dense[i]) > 1e-9*(1+math.Abs(dense[i])) {
				t.Fatalf("transposed=%v: hyper-sparse entry %d = %g, dense %g", transposed, i, v.val[i], dense[i])
			}
			if v.val[i] != 0 && !seen[i] {
				t.Fatalf("transposed=%v: nonzero %d missing from the index", transposed, i)
			}
		}
	}
}
