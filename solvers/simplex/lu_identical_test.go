package simplex

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/mps"
	"github.com/coraopt/coraopt/solvers/netlib/models"
	"pgregory.net/rapid"
)

// luInput is one basis to factorize: B's column k is column basic[k] of [A I].
type luInput struct {
	name  string
	m, n  int
	a     *sparseMatrix
	basic []int
}

// sameFactors factorizes in with the oracle (a fresh oldLUFactor) and with f (reused
// across calls, so that state left by an earlier basis would show), and describes the
// first difference in the pivot sequence, L, U or the repair, bit for bit; "" when none.
func sameFactors(f *luFactor, in luInput) string {
	var old oldLUFactor
	kOld := old.factorize(in.m, in.n, in.a, in.basic)
	kNew := f.factorize(in.m, in.n, in.a, in.basic)
	if kOld != kNew {
		return fmt.Sprintf("rank deficiency %d, oracle %d", kNew, kOld)
	}
	ints := []struct {
		name     string
		got, old []int
	}{
		{"stepRow", f.stepRow, old.stepRow}, {"stepCol", f.stepCol, old.stepCol},
		{"uTmpStart", f.uTmpStart, old.uTmpStart}, {"uTmpIdx", f.uTmpIdx, old.uTmpIdx},
		{"lPiv", f.lPiv, old.lPiv}, {"lStart", f.lStart, old.lStart}, {"lIdx", f.lIdx, old.lIdx},
		{"singularPos", f.singularPos, old.singularPos}, {"singularRow", f.singularRow, old.singularRow},
	}
	for _, c := range ints {
		if len(c.got) != len(c.old) {
			return fmt.Sprintf("%s: length %d, oracle %d", c.name, len(c.got), len(c.old))
		}
		for i := range c.got {
			if c.got[i] != c.old[i] {
				return fmt.Sprintf("%s[%d] = %d, oracle %d", c.name, i, c.got[i], c.old[i])
			}
		}
	}
	floats := []struct {
		name     string
		got, old []float64
	}{
		{"stepPiv", f.stepPiv, old.stepPiv}, {"uTmpVal", f.uTmpVal, old.uTmpVal}, {"lVal", f.lVal, old.lVal},
	}
	for _, c := range floats {
		if len(c.got) != len(c.old) {
			return fmt.Sprintf("%s: length %d, oracle %d", c.name, len(c.got), len(c.old))
		}
		for i := range c.got {
			if math.Float64bits(c.got[i]) != math.Float64bits(c.old[i]) {
				return fmt.Sprintf("%s[%d] = %v, oracle %v", c.name, i, c.got[i], c.old[i])
			}
		}
	}
	return ""
}

// tieValues are entry magnitudes that make Markowitz ties (equal counts and equal
// values), threshold rejections (a small entry beside a large one) and numerically zero
// columns (below luAbsPivotTol).
var tieValues = []float64{1, 1, 1, 2, 0.5, 3, 0.05, 1000, 1e-12, 1e-10}

// drawLUInput draws a basis built to stress the pivot search: dense columns and rows,
// entries from a handful of values, columns that are multiples of others, numerically
// zero and empty columns, logicals, and rows no column reaches (singular bases).
func drawLUInput(t *rapid.T) luInput {
	m := rapid.IntRange(1, 150).Draw(t, "m")
	n := rapid.IntRange(1, 2*m).Draw(t, "n")
	density := rapid.SampledFrom([]float64{0.02, 0.1, 0.3, 0.7}).Draw(t, "density")
	denseCols := rapid.IntRange(0, 4).Draw(t, "denseCols")
	denseRows := rapid.IntRange(0, 4).Draw(t, "denseRows")
	ties := rapid.Bool().Draw(t, "ties")
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 7))
	value := func() float64 {
		v := rng.NormFloat64()
		if ties {
			v = tieValues[rng.IntN(len(tieValues))]
		}
		if rng.IntN(2) == 0 {
			v = -v
		}
		return v
	}
	isDenseRow := make([]bool, m)
	for range denseRows {
		isDenseRow[rng.IntN(m)] = true
	}
	skipRow := -1 // a row that only logicals may reach
	if rng.IntN(4) == 0 {
		skipRow = rng.IntN(m)
	}
	a := &sparseMatrix{start: []int{0}}
	for j := 0; j < n; j++ {
		switch {
		case j > 0 && rng.IntN(8) == 0: // a multiple of an earlier column
			src := rng.IntN(j)
			f := []float64{1, -2, 0.5}[rng.IntN(3)]
			for p := a.start[src]; p < a.start[src+1]; p++ {
				a.index = append(a.index, a.index[p])
				a.value = append(a.value, f*a.value[p])
			}
		case rng.IntN(12) == 0: // numerically zero
			a.index = append(a.index, rng.IntN(m))
			a.value = append(a.value, 1e-13)
		case rng.IntN(20) == 0: // empty
		default:
			d := density
			if j < denseCols {
				d = 0.9
			}
			for i := 0; i < m; i++ {
				if i == skipRow {
					continue
				}
				if rng.Float64() < d || (isDenseRow[i] && rng.Float64() < 0.8) || i == j%m && rng.IntN(2) == 0 {
					a.index = append(a.index, i)
					a.value = append(a.value, value())
				}
			}
		}
		a.start = append(a.start, len(a.index))
	}
	logicals := rapid.SampledFrom([]int{0, 1, 4}).Draw(t, "logicalWeight")
	basic := make([]int, 0, m)
	for _, v := range rng.Perm(n + m) {
		if len(basic) == m {
			break
		}
		if v >= n && (v-n == skipRow || rng.IntN(5) >= logicals) {
			continue
		}
		basic = append(basic, v)
	}
	for _, v := range rng.Perm(n + m) { // top up with whatever is left
		if len(basic) == m {
			break
		}
		if !containsInt(basic, v) && (v < n || v-n != skipRow) {
			basic = append(basic, v)
		}
	}
	return luInput{name: "drawn", m: m, n: n, a: a, basic: basic}
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestLUMatchesOracle: on drawn bases the factorization pivots the same entries in the
// same order, produces the same L, U and repair bit for bit as the oracle (the code
// before the entries' twin links), whatever the previous basis left in the arrays.
func TestLUMatchesOracle(t *testing.T) {
	var f luFactor
	rapid.Check(t, func(t *rapid.T) {
		in := drawLUInput(t)
		if d := sameFactors(&f, in); d != "" {
			t.Fatalf("m=%d n=%d basic=%v: %s", in.m, in.n, in.basic, d)
		}
	})
}

// TestLUMatchesOracleOnSolves: the same on the bases met along real solves of Netlib
// models (every few iterations from the slack basis to the optimum), the bases whose
// pivot order every simplex answer in the project rests on.
func TestLUMatchesOracleOnSolves(t *testing.T) {
	names := []string{"afiro", "adlittle", "blending", "israel", "scrs8", "e226", "25fv47"}
	var f luFactor
	count := 0
	for _, name := range names {
		p, err := mps.ReadFile(testmodels.Path(t, name+".mps"), mps.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range solveBases(t, name, p, 20, 200) {
			if d := sameFactors(&f, in); d != "" {
				t.Fatalf("%s: %s", in.name, d)
			}
			count++
		}
	}
	if !testing.Short() {
		// Larger models of the whole collection, when it is there: long columns (fit1p)
		// and heavy fill-in (degen3).
		dir, err := models.FullDir()
		if err != nil {
			t.Logf("whole Netlib collection not checked: %v", err)
		} else {
			for _, name := range []string{"degen3", "fit1p", "greenbea"} {
				p, err := models.ReadModel(filepath.Join(dir, name+".mps.gz"))
				if err != nil {
					t.Fatal(err)
				}
				for _, in := range solveBases(t, name, p, 200, 40) {
					if d := sameFactors(&f, in); d != "" {
						t.Fatalf("%s: %s", in.name, d)
					}
					count++
				}
			}
		}
	}
	t.Logf("%d bases factorized identically", count)
}

// solveBases runs the dual simplex on p (after presolve's first stage, scaled, from the
// slack basis, as a solve does) and returns the basis after every `every` iterations
// and the last one, at most limit bases.
func solveBases(tb testing.TB, name string, p *model.Problem, every, limit int) []luInput {
	tb.Helper()
	pre := presolve(p, 1e-7)
	if pre.status != presolveReduced {
		pre = identityPresolve(p)
	}
	data, _, _ := buildLP(pre.reduced, true)
	s := newSimplex(data, settings{primalTol: 1e-7, dualTol: 1e-7, seed: 1, ctx: context.Background()})
	s.setSlackBasis()
	s.coldStart = true
	var out []luInput
	for len(out) < limit {
		s.set.iterLimit = s.iters + every
		o := s.run()
		s.coldStart = false
		out = append(out, luInput{name: fmt.Sprintf("%s@%d", name, s.iters), m: s.m, n: s.n, a: &s.lp.a,
			basic: append([]int(nil), s.basic...)})
		if o != outIterLimit {
			if o != outOptimal {
				tb.Fatalf("%s: the solve ended %v", name, o)
			}
			break
		}
	}
	return out
}
