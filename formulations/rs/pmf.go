package rs

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// MaxEdge is the largest bin edge, in container-slots, a PMF may have: demands are
// integers, and every integer up to 2^53 is exact in a float64.
const MaxEdge = 1 << 53

// PMF is a reference distribution φ of a job's remaining work v, in container-slots,
// quantized into bins of width W (rush.txt §III-A, the φ_{i,l} of eq. 8). The bins are
// right-closed:
//
//	bin 0      v ≤ 0                       (any negative mass is folded here)
//	bin l ≥ 1  (l−1)·W < v ≤ l·W
//
// so bin l's upper edge is l·W and, with W = 1 and integer v, bin l is exactly the event
// v = l — the PMF over container-slot counts of eq. (7)–(8). The θ-quantile of a PMF is
// a bin index; the demand it stands for is the bin's upper edge rounded up, ⌈l·W⌉ (see
// Demand), which is conservative: every v in bins 0..l satisfies v ≤ l·W.
//
// NewPMF normalises the probabilities (Alg. 1, line 2) and precomputes, once, the
// cumulative sums Φ(L) = Σ_{l≤L} φ_l and the tails 1 − Φ(L) = Σ_{l>L} φ_l. The tails are
// summed from the top so that a tail of 1e-200 keeps its precision (1 − Φ(L) computed by
// subtraction would be 0). With both, REM at any L costs O(1). A PMF is immutable.
type PMF struct {
	width  float64
	raw    []float64 // φ_l before normalisation (the caller's slice)
	s1, s2 float64   // powers of two with Σ raw · s1 · s2 in [0.5, 1)
	inv    float64   // 1/(Σ raw · s1 · s2)
	// sums interleaves Φ(L) = sums[2L] and 1 − Φ(L) = sums[2L+1], so one REM evaluation
	// reads one cache line. Φ is exactly 1 and the tail exactly 0 from the last bin with
	// mass on; the tail is summed from the top.
	sums []float64
	last int // largest bin with positive (normalised) mass
}

// NewPMF builds a PMF from bin probabilities (bin l as described on PMF) of width w.
// The probabilities must be finite and non-negative with a positive sum; they are
// normalised, so a sum that differs from 1 by rounding is harmless.
//
// NewPMF keeps probs without copying it (as bytes.NewBuffer keeps its slice): the
// caller must not modify probs afterwards. Building the PMF for 1,000 bins is then two
// sequential passes and one allocation, which is most of WCDE's cost (BenchmarkWCDE).
func NewPMF(w float64, probs []float64) (*PMF, error) {
	if !(w > 0) || math.IsInf(w, 1) {
		return nil, fmt.Errorf("rs: bin width %v: must be positive and finite", w)
	}
	n := len(probs)
	if n == 0 {
		return nil, errors.New("rs: a PMF needs at least one bin")
	}
	if w*float64(n-1) > MaxEdge {
		return nil, fmt.Errorf("rs: %d bins of width %v reach %v container-slots, more than %v", n, w, w*float64(n-1), float64(MaxEdge))
	}
	r := &PMF{width: w, raw: probs, sums: make([]float64, 2*n), last: -1}
	sums := r.sums
	// Pass 1: validate, and the raw cumulative sums from the bottom (Φ) and from the top
	// (the tails) in the same loop: two independent chains of additions run side by side.
	var up, down float64
	for i, v := range probs {
		if !(v >= 0 && v <= math.MaxFloat64) { // NaN, negative or +Inf
			return nil, fmt.Errorf("rs: probability of bin %d is %v: must be finite and >= 0", i, v)
		}
		up += v
		sums[2*i] = up
		j := n - 1 - i
		sums[2*j+1] = down
		down += probs[j]
	}
	total := up
	if !(total > 0) || math.IsInf(total, 1) {
		return nil, fmt.Errorf("rs: probabilities sum to %v: must be positive and finite", total)
	}
	// Normalise by v·2^-e/f with total = f·2^e, f in [0.5, 1): 1/total itself overflows
	// for a subnormal total and is subnormal (imprecise) near MaxFloat64. 2^-e is applied
	// as two halves, each a representable power of two.
	frac, exp := math.Frexp(total)
	r.s1, r.s2, r.inv = math.Ldexp(1, -exp/2), math.Ldexp(1, -exp-(-exp/2)), 1/frac
	// When 2^-e/f is itself a normal number, one multiplication by it rounds exactly as
	// the three do (the powers of two are exact).
	if c := r.s1 * r.s2 * r.inv; c >= smallestNormal && !math.IsInf(c, 1) {
		r.s1, r.s2, r.inv = 1, 1, c
	}
	r.last = n - 1
	for r.last > 0 && !(r.norm(probs[r.last]) > 0) {
		r.last--
	}
	// Pass 2: normalise. From the last bin with (normalised) mass on, the tail is exactly
	// 0 and Φ is pinned to exactly 1, so that Φ(L) > θ and 1 − Φ(L) = 0 agree for every
	// θ < 1. In particular the last bin is always infeasible for REM, which Alg. 2's
	// upper bound relies on.
	if r.s1 == 1 && r.s2 == 1 {
		c := r.inv
		for l := range 2 * r.last {
			sums[l] *= c
		}
	} else {
		for l := range 2 * r.last {
			sums[l] = r.norm(sums[l])
		}
	}
	for l := r.last; l < n; l++ {
		sums[2*l], sums[2*l+1] = 1, 0
	}
	return r, nil
}

// Bins is the number of bins.
func (r *PMF) Bins() int { return len(r.raw) }

// Width is the bin width W in container-slots.
func (r *PMF) Width() float64 { return r.width }

// Prob is the normalised probability φ_l of bin l.
func (r *PMF) Prob(l int) float64 { return r.norm(r.raw[l]) }

// norm normalises a raw probability or sum of them.
func (r *PMF) norm(v float64) float64 { return v * r.s1 * r.s2 * r.inv }

// Probs returns a copy of the normalised probabilities.
func (r *PMF) Probs() []float64 {
	p := make([]float64, len(r.raw))
	for l, v := range r.raw {
		p[l] = r.norm(v)
	}
	return p
}

// CDF is Φ(L) = Σ_{l≤L} φ_l for 0 ≤ L < Bins().
func (r *PMF) CDF(L int) float64 { return r.sums[2*L] }

// Tail is 1 − Φ(L) = Σ_{l>L} φ_l, summed from the top.
func (r *PMF) Tail(L int) float64 { return r.sums[2*L+1] }

// LastPositive is the largest bin with positive reference mass: no distribution at a
// finite KL divergence from the reference puts mass above it.
func (r *PMF) LastPositive() int { return r.last }

// Edge is bin l's upper edge l·W in container-slots.
func (r *PMF) Edge(l int) float64 { return float64(l) * r.width }

// Demand converts bin l to an integer demand in container-slots: its upper edge rounded
// up, ⌈l·W⌉. An edge within a relative 1e-12 of an integer is taken as that integer, so
// that a width such as 0.7 does not turn 10·0.7 = 7.000000000000001 into 8.
func (r *PMF) Demand(l int) int64 {
	return ceilEdge(r.Edge(l))
}

func ceilEdge(x float64) int64 {
	if x <= 0 {
		return 0
	}
	if k := math.Round(x); math.Abs(x-k) <= 1e-12*math.Max(1, x) {
		return int64(k)
	}
	return int64(math.Ceil(x))
}

// Quantile is the reference's upper θ-quantile bin, min{L : Φ(L) > θ}, for θ in [0, 1).
//
// The upper quantile (strict >) is the one REM's constraint (10), Σ_{l≤L} p_l ≤ θ,
// certifies: the worst-case θ-quantile over a KL ball is ≥ L+1 exactly when REM(L) ≤ δ,
// so with δ = 0 WCDE returns this bin. It differs from the lower quantile
// min{L : Φ(L) ≥ θ} only when Φ hits θ exactly at some bin, and is then one bin more
// conservative.
func (r *PMF) Quantile(theta float64) int {
	return sort.Search(len(r.raw), func(L int) bool { return r.sums[2*L] > theta })
}

// tailQuantile is min{L : 1 − Φ(L) < b}, the upper (1−b)-quantile computed from the
// tails, which keeps its precision for b far below machine epsilon.
func (r *PMF) tailQuantile(b float64) int {
	return sort.Search(len(r.raw), func(L int) bool { return r.sums[2*L+1] < b })
}
