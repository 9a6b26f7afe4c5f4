package cora

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// DefaultTolerance is the solver optimality tolerance the numerics guard assumes when
// Options.Tolerance is 0: 10⁻⁷, the default dual feasibility tolerance of HiGHS, lp_solve
// and the built-in simplex (a reduced cost above −10⁻⁷ counts as optimal).
const DefaultTolerance = 1e-7

// minNormal is the smallest positive normal float64, 2⁻¹⁰²².
const minNormal = 0x1p-1022

// Numerics is the guard's verdict on the objective weights k^{−u_it} of eq. (6): can a
// float64 LP solver tell them apart?
//
// Every weight is computed exactly in log space. The weights of an empty cell (1, the
// largest) and of a used cell (k^{−u}) must be representable, and the LP can only prefer
// one optimum of eq. (6) over another when the difference in objective exceeds its
// optimality tolerance: a pivot that would improve the objective by less than the
// tolerance (relative to the largest cost, 1) is not taken. So the guard compares the
// smallest gap between two distinct weights with the tolerance. Passing is necessary,
// not sufficient, for the LP's optimum to be eq. (6)'s: Lemma 1 compares a weight with
// sums of up to k smaller ones.
type Numerics struct {
	K float64 `json:"k"`
	// Cells is the number of weights checked: one per cell (i, t, r) whose x is not fixed
	// at 0 (demand, release, capacity).
	Cells int `json:"cells"`
	// MinLog10 is log10 of the smallest weight (the largest u); the largest is 1.
	MinLog10 float64 `json:"min_log10"`
	// Underflow counts weights that are 0 in float64; Subnormal those below 2⁻¹⁰²², where
	// float64 loses precision.
	Underflow int `json:"underflow"`
	Subnormal int `json:"subnormal"`
	// GapLog10 is log10 of the smallest difference between two distinct weights, relative
	// to the largest weight (1); 0 when there is only one distinct weight.
	GapLog10 float64 `json:"gap_log10"`
	// Tolerance is the solver tolerance compared against.
	Tolerance float64 `json:"tolerance"`
	// OK is true when no weight underflows or is subnormal and every gap exceeds the
	// tolerance. Warning says what failed, in numbers; "" when OK.
	OK      bool   `json:"ok"`
	Warning string `json:"warning,omitempty"`
}

// checkNumerics computes the guard over the cells' utilities (u of every usable cell).
func checkNumerics(k float64, cells []int64, tol float64) Numerics {
	nm := Numerics{K: k, Cells: len(cells), Tolerance: tol, OK: true}
	lk := math.Log10(k)
	vals := append([]int64{0}, cells...) // 0: an empty cell's weight 1 = k^0
	slices.Sort(vals)
	vals = slices.Compact(vals)
	nm.MinLog10 = -float64(vals[len(vals)-1]) * lk
	for _, u := range cells {
		w := math.Pow(k, -float64(u))
		switch {
		case w == 0:
			nm.Underflow++
		case w < minNormal:
			nm.Subnormal++
		}
	}
	if len(vals) > 1 {
		nm.GapLog10 = math.Inf(1)
		for j := 1; j < len(vals); j++ {
			// k^{-a} − k^{-b} = k^{-a}·(1 − k^{-(b−a)}) for a < b.
			d := float64(vals[j] - vals[j-1])
			g := -float64(vals[j-1])*lk + math.Log10(-math.Expm1(-d*math.Log(k)))
			nm.GapLog10 = math.Min(nm.GapLog10, g)
		}
	}
	tooClose := len(vals) > 1 && nm.GapLog10 < math.Log10(tol)
	if nm.Underflow == 0 && nm.Subnormal == 0 && !tooClose {
		return nm
	}
	nm.OK = false
	var b strings.Builder
	fmt.Fprintf(&b, "the weights k^-u (k = %s) span 10^%s … 1", fmtNum(k), fmtExp(nm.MinLog10))
	var parts []string
	if nm.Underflow > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s underflow to 0", thousands(nm.Underflow), thousands(nm.Cells)))
	}
	if nm.Subnormal > 0 {
		parts = append(parts, fmt.Sprintf("%s are subnormal (below 2^-1022, with fewer than 53 bits)", thousands(nm.Subnormal)))
	}
	if len(parts) > 0 {
		b.WriteString(": " + strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "; the smallest gap between distinct weights is 10^%s of the objective's largest coefficient", fmtExp(nm.GapLog10))
	if tooClose {
		if short := math.Log10(tol) - nm.GapLog10; short >= 0.05 {
			fmt.Fprintf(&b, ", below the solver's 10^%s tolerance by %s orders of magnitude", fmtExp(math.Log10(tol)), fmtExp(short))
		} else {
			fmt.Fprintf(&b, ", just below the solver's 10^%s tolerance", fmtExp(math.Log10(tol)))
		}
	}
	b.WriteString(": the LP cannot tell these utilities apart, so its optimum need not be eq. (6)'s")
	nm.Warning = b.String()
	return nm
}

// fmtExp formats a base-10 exponent: an integer when it is large or within 0.05 of one,
// one decimal otherwise.
func fmtExp(x float64) string {
	if r := math.Round(x); math.Abs(x) >= 10 || math.Abs(x-r) < 0.05 {
		return strconv.FormatFloat(r, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// fmtNum formats a positive number: an integer with thousands separators, or %g.
func fmtNum(x float64) string {
	if x == math.Trunc(x) && x < 1e15 {
		return thousands(int(x))
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// thousands formats n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
