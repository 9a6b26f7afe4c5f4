package rs

import (
	"fmt"
	"math"
)

// REM is the optimal value of the relative entropy minimization of rush.txt eq. (9)–(10)
// for target bin L:
//
//	min_p  Σ_l p_l ln(p_l/φ_l)   s.t.  Σ_l p_l = 1,  Σ_{l≤L} p_l ≤ θ,  p ≥ 0,
//
// in closed form (Alg. 1, Theorem 1). Write a = Φ(L) and b = 1 − Φ(L).
//
//   - a ≤ θ: the reference itself is feasible, so the minimum is 0.
//   - a > θ, b > 0: by the log-sum inequality, for any p with s = Σ_{l≤L} p_l,
//     KL(p‖φ) ≥ s ln(s/a) + (1−s) ln((1−s)/b) = d(s‖a), with equality exactly when p is
//     φ rescaled within each of the two groups l ≤ L and l > L — the shape eq. (11)
//     derives from the KKT conditions. The binary divergence d(s‖a) is convex in s with
//     its minimum 0 at s = a and decreasing for s < a, so under s ≤ θ < a the best split
//     is s = θ, giving
//     REM(L) = θ ln(θ/a) + (1−θ) ln((1−θ)/b).
//   - a > θ, b = 0: every feasible p puts mass 1−θ > 0 on bins where φ is 0, where
//     p ln(p/0) = +∞: REM is infeasible at any finite KL and the value is +Inf.
//
// REM is non-decreasing in L: a = Φ(L) grows with L, and for a > θ
// ∂/∂a [θ ln(θ/a) + (1−θ) ln((1−θ)/(1−a))] = (a−θ)/(a(1−a)) > 0, while for a ≤ θ the value
// is 0. This is the monotonicity Alg. 2's bisection relies on; CrossCheck verifies it on
// the computed values. Rounding can make the formula come out a few ulps below 0 when a
// is barely above θ; the value is clamped at 0.
//
// L must be in [0, Bins()), θ in (0, 1).
func (r *PMF) REM(L int, theta float64) float64 {
	return r.rem(L, newThetaLogs(theta))
}

// thetaLogs holds θ with ln θ and ln(1−θ), computed once per WCDE call rather than at
// every REM evaluation.
type thetaLogs struct{ theta, lnTheta, lnRest float64 }

func newThetaLogs(theta float64) thetaLogs {
	return thetaLogs{theta, math.Log(theta), math.Log(1 - theta)}
}

// rem is REM(L) as documented on REM. The logarithms are taken apart, θ(ln θ − ln a) +
// (1−θ)(ln(1−θ) − ln b), because (1−θ)/b overflows for subnormal b.
func (r *PMF) rem(L int, t thetaLogs) float64 {
	a, b := r.sums[2*L], r.sums[2*L+1]
	switch {
	case b == 0:
		return math.Inf(1)
	case a <= t.theta:
		return 0
	}
	v := t.theta*(t.lnTheta-logSafe(a)) + (1-t.theta)*(t.lnRest-logSafe(b))
	return math.Max(v, 0)
}

// smallestNormal is the smallest positive normal float64, 2^-1022.
const smallestNormal = 0x1p-1022

// logSafe is ln x, correct for subnormal x too. math.Log on amd64 returns about −709.09
// for every subnormal input (golang/go#56600, still open in Go 1.26: ln(5e-324) comes
// out as −709.09 instead of −744.44); reference tails reach that range.
func logSafe(x float64) float64 {
	if x > 0 && x < smallestNormal {
		return math.Log(x*0x1p54) - 54*math.Ln2
	}
	return math.Log(x)
}

// REMSolution is Alg. 1: the distribution p* that attains REM(L) and its KL divergence
// from the reference. When Φ(L) ≤ θ, p* is the reference; otherwise it is the reference
// rescaled to mass θ on bins 0..L and 1−θ on bins L+1.. (eq. 11). It returns nil and +Inf
// when REM(L) is infeasible (no reference mass above L).
func (r *PMF) REMSolution(L int, theta float64) ([]float64, float64) {
	if L < 0 {
		// The empty prefix: Σ_{l≤−1} p_l = 0 ≤ θ for every p, so the reference is optimal.
		return r.Probs(), 0
	}
	kl := r.REM(L, theta)
	if math.IsInf(kl, 1) {
		return nil, kl
	}
	p := r.Probs()
	a, b := r.CDF(L), r.Tail(L)
	if a <= theta {
		return p, 0
	}
	for l := range p {
		// φ_l/a ≤ 1 and φ_l/b ≤ 1: no overflow even when b is subnormal.
		if l <= L {
			p[l] = theta * (p[l] / a)
		} else {
			p[l] = (1 - theta) * (p[l] / b)
		}
	}
	return p, kl
}

// KL is the relative entropy Σ_l p_l ln(p_l/φ_l) of p from the reference, summed bin by
// bin (0 ln 0 = 0; +Inf when p puts mass where φ has none). It is the direct evaluation
// that cross-checks the closed form of REM.
func (r *PMF) KL(p []float64) (float64, error) {
	if len(p) != len(r.raw) {
		return 0, fmt.Errorf("rs: KL of %d probabilities against a reference of %d bins", len(p), len(r.raw))
	}
	var s float64
	for l, q := range p {
		switch {
		case q == 0:
		case r.raw[l] == 0:
			return math.Inf(1), nil
		default:
			s += q * (logSafe(q) - logSafe(r.Prob(l)))
		}
	}
	return s, nil
}

// BinaryKL is d(s‖a) = s ln(s/a) + (1−s) ln((1−s)/(1−a)), the divergence of a two-point
// distribution (s, 1−s) from (a, 1−a), with 0 ln 0 = 0.
func BinaryKL(s, a float64) float64 {
	term := func(x, y float64) float64 {
		if x == 0 {
			return 0
		}
		if y == 0 {
			return math.Inf(1)
		}
		return x * (logSafe(x) - logSafe(y))
	}
	return term(s, a) + term(1-s, 1-a)
}

// WorstCaseTail returns b* = 1 − a*, where a* ∈ [θ, 1) solves d(θ‖a*) = δ: the largest
// cumulative probability a reference may have at L for REM(L) ≤ δ to hold. Equivalently,
// REM(L) ≤ δ ⟺ Φ(L) ≤ a* ⟺ 1 − Φ(L) ≥ b*, so the worst-case θ-quantile over the KL ball
// of radius δ is the reference's upper a*-quantile. This is a closed characterization of
// WCDE's answer, independent of Alg. 2's bisection, that CrossCheck compares against it;
// the quantizer also uses b* to choose how far τ_max must reach.
//
// b* decreases from 1−θ at δ = 0 and behaves like (1−θ)·e^{−δ/(1−θ)} for large δ. It is
// found by bisection on ln b, so it keeps its precision down to the smallest float64;
// when the exact b* is smaller than that it returns 0.
func WorstCaseTail(theta, delta float64) (float64, error) {
	if err := checkThetaDelta(theta, delta); err != nil {
		return 0, err
	}
	if delta == 0 {
		return 1 - theta, nil
	}
	// h(t) = d(θ‖1−e^t), decreasing in t on (−∞, ln(1−θ)].
	h := func(t float64) float64 {
		b := math.Exp(t)
		return theta*math.Log(theta) - theta*math.Log1p(-b) + (1-theta)*(math.Log(1-theta)-t)
	}
	lo, hi := logSafe(math.SmallestNonzeroFloat64), math.Log(1-theta)
	if h(lo) < delta {
		return 0, nil
	}
	// Invariant: h(lo) ≥ δ > h(hi) (h(hi) = 0 < δ).
	for range 2000 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if h(mid) >= delta {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp(lo), nil
}

func checkThetaDelta(theta, delta float64) error {
	if !(theta > 0 && theta < 1) {
		return fmt.Errorf("rs: theta %v: must be in (0, 1)", theta)
	}
	if !(delta >= 0) || math.IsInf(delta, 1) {
		return fmt.Errorf("rs: delta %v: must be finite and >= 0", delta)
	}
	return nil
}
