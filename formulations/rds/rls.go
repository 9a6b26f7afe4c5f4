package rds

import (
	"fmt"
	"math"
)

// RLS estimates one job's gains g = (g^m, g^r) from observed progress by recursive least
// squares with exponential forgetting (rds.txt §3.2.2, eqs. 9–10, after Åström and
// Wittenmark). Each observation is an interval's allocation φ = (u^m, u^r) and the
// progress Δy = y(t+1) − y(t) it produced, Δy = φᵀg + e (eq. 9 with the regression
// vector reduced to the allocation: the linear-in-u model the controller uses). After l
// observations the estimate minimizes
//
//	Σ_{k=1..l} λ^{l−k} (Δy_k − φ_kᵀg)²  +  λ^l (g − g_0)ᵀ P_0⁻¹ (g − g_0),
//
// the exponentially weighted form of eq. 10: λ ∈ (0, 1] plays the role of the paper's
// discount τ, giving recent intervals more weight so the estimate follows a job whose
// speed changes (a new phase, data skew, interference). λ = 1 is ordinary least squares.
//
// An interval without resources (φ = 0) carries no information and is skipped without
// forgetting; and each variance P_ii is capped at 2·p0, so that a direction that is
// never excited (reduce resources during the map phase) cannot wind P up without bound —
// forgetting divides P by λ every interval, also where no data arrive. While no cap
// binds the recursion is exact.
type RLS struct {
	g      [2]float64
	p      [2][2]float64
	lambda float64
	maxVar float64
	n      int
}

// NewRLS starts an estimator at the prior gains g0 with covariance P_0 = p0·I (a large
// p0 trusts the first observations; a small one trusts the prior) and forgetting factor
// lambda ∈ (0, 1]. Each variance is kept at most 2·p0.
func NewRLS(g0 Gain, p0, lambda float64) (*RLS, error) {
	if !(lambda > 0 && lambda <= 1) {
		return nil, fmt.Errorf("rds: RLS forgetting factor must be in (0, 1], got %g", lambda)
	}
	if !(p0 > 0) || math.IsInf(p0, 0) {
		return nil, fmt.Errorf("rds: RLS initial covariance must be finite and > 0, got %g", p0)
	}
	if !finiteGain(g0) {
		return nil, fmt.Errorf("rds: RLS prior gains must be finite, got %+v", g0)
	}
	return &RLS{
		g:      [2]float64{g0.Map, g0.Reduce},
		p:      [2][2]float64{{p0, 0}, {0, p0}},
		lambda: lambda,
		maxVar: 2 * p0,
	}, nil
}

func finiteGain(g Gain) bool {
	return !math.IsNaN(g.Map) && !math.IsInf(g.Map, 0) && !math.IsNaN(g.Reduce) && !math.IsInf(g.Reduce, 0)
}

// Gain is the current estimate. It can be negative under noise; callers that need a
// physical gain clamp it (the controller uses max(0, ĝ)).
func (r *RLS) Gain() Gain { return Gain{Map: r.g[0], Reduce: r.g[1]} }

// Observations is how many informative observations were folded in.
func (r *RLS) Observations() int { return r.n }

// Covariance returns P (symmetric).
func (r *RLS) Covariance() [2][2]float64 { return r.p }

// Update folds in one interval: allocation u and observed progress dy. It returns the
// prediction error e = dy − φᵀĝ before the update (eq. 9). Non-finite inputs are
// rejected and leave the estimate unchanged.
func (r *RLS) Update(u Alloc, dy float64) (float64, error) {
	phi := [2]float64{u.Map, u.Reduce}
	for _, v := range []float64{phi[0], phi[1], dy} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("rds: RLS observation (u = %+v, Δy = %g) is not finite", u, dy)
		}
	}
	e := dy - (phi[0]*r.g[0] + phi[1]*r.g[1])
	if phi[0] == 0 && phi[1] == 0 {
		return e, nil
	}
	// Pφ, and the gain vector K = Pφ / (λ + φᵀPφ).
	pphi := [2]float64{r.p[0][0]*phi[0] + r.p[0][1]*phi[1], r.p[1][0]*phi[0] + r.p[1][1]*phi[1]}
	den := r.lambda + phi[0]*pphi[0] + phi[1]*pphi[1]
	k := [2]float64{pphi[0] / den, pphi[1] / den}
	r.g[0] += k[0] * e
	r.g[1] += k[1] * e
	// P ← (P − K φᵀP) / λ, written symmetrically: P − Pφ φᵀP / den.
	for a := range 2 {
		for b := range 2 {
			r.p[a][b] = (r.p[a][b] - k[a]*pphi[b]) / r.lambda
		}
	}
	r.p[0][1] = 0.5 * (r.p[0][1] + r.p[1][0])
	r.p[1][0] = r.p[0][1]
	// Cap each variance at maxVar: P ← D P D with D_ii = √(maxVar/P_ii) where P_ii is
	// too large (1 elsewhere). A congruence keeps P positive definite, and it shrinks only
	// the direction that wound up, not the one being learned.
	var d [2]float64
	for a := range 2 {
		d[a] = 1
		if r.p[a][a] > r.maxVar {
			d[a] = math.Sqrt(r.maxVar / r.p[a][a])
		}
	}
	for a := range 2 {
		for b := range 2 {
			r.p[a][b] *= d[a] * d[b]
		}
	}
	r.n++
	return e, nil
}
