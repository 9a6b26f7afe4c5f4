package rs

import (
	"math"
	"strings"
	"testing"
)

func mustPMF(t *testing.T, w float64, probs ...float64) *PMF {
	t.Helper()
	p, err := NewPMF(w, probs)
	if err != nil {
		t.Fatalf("NewPMF(%v, %v): %v", w, probs, err)
	}
	return p
}

func TestNewPMFRejects(t *testing.T) {
	tests := []struct {
		name  string
		w     float64
		probs []float64
		want  string
	}{
		{"zero width", 0, []float64{1}, "bin width"},
		{"negative width", -1, []float64{1}, "bin width"},
		{"NaN width", math.NaN(), []float64{1}, "bin width"},
		{"infinite width", math.Inf(1), []float64{1}, "bin width"},
		{"no bins", 1, nil, "at least one bin"},
		{"negative probability", 1, []float64{0.5, -0.1, 0.6}, "bin 1"},
		{"NaN probability", 1, []float64{math.NaN()}, "bin 0"},
		{"infinite probability", 1, []float64{1, math.Inf(1)}, "bin 1"},
		{"all zero", 1, []float64{0, 0}, "sum to 0"},
		{"sum overflows", 1, []float64{math.MaxFloat64, math.MaxFloat64}, "sum to"},
		{"beyond 2^53", 1e10, make([]float64, 1e6+1), "container-slots"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewPMF(tc.w, tc.probs)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestPMFNormalisesAndSums(t *testing.T) {
	p := mustPMF(t, 1, 1, 1, 2, 0)
	wantP := []float64{0.25, 0.25, 0.5, 0}
	wantCDF := []float64{0.25, 0.5, 1, 1}
	wantTail := []float64{0.75, 0.5, 0, 0}
	for l := range 4 {
		if p.Prob(l) != wantP[l] || p.CDF(l) != wantCDF[l] || p.Tail(l) != wantTail[l] {
			t.Errorf("bin %d: p %v cdf %v tail %v, want %v %v %v", l, p.Prob(l), p.CDF(l), p.Tail(l), wantP[l], wantCDF[l], wantTail[l])
		}
	}
	if p.LastPositive() != 2 {
		t.Errorf("LastPositive = %d, want 2", p.LastPositive())
	}
}

// The tails are summed from the top: a tail of 1e-200 survives, where 1 − Φ would be 0.
func TestPMFTailKeepsPrecision(t *testing.T) {
	p := mustPMF(t, 1, 1, 1e-200, 1e-250)
	if got, want := p.Tail(0), 1e-200+1e-250; math.Abs(got-want) > 1e-214 {
		t.Errorf("Tail(0) = %g, want %g", got, want)
	}
	if got := p.Tail(1); got != 1e-250 {
		t.Errorf("Tail(1) = %g, want 1e-250", got)
	}
	if p.CDF(0) != 1 || p.CDF(2) != 1 {
		t.Errorf("CDF = %v, %v", p.CDF(0), p.CDF(2))
	}
}

// The bin-edge convention: bin l is ((l−1)W, lW], bin 0 is v ≤ 0, and a bin index becomes
// the demand ⌈l·W⌉ (its upper edge, rounded up).
func TestDemandIsUpperEdgeRoundedUp(t *testing.T) {
	tests := []struct {
		w    float64
		l    int
		want int64
	}{
		{1, 0, 0},
		{1, 7, 7},    // unit bins: bin l is v = l
		{0.7, 10, 7}, // 10·0.7 = 7.000000000000001 in float64: still 7
		{0.1, 30, 3}, // 30·0.1 = 3.0000000000000004
		{2.5, 3, 8},  // upper edge 7.5 → 8
		{30, 4, 120}, // integer width from Quantization
		{0.25, 1, 1}, // edge 0.25 → 1
		{1e-3, 1, 1}, // any positive edge is at least one container-slot
		{1.5, 2, 3},  // edge exactly 3
		{1 / 3.0, 3, 1},
	}
	for _, tc := range tests {
		probs := make([]float64, tc.l+1)
		probs[tc.l] = 1
		p := mustPMF(t, tc.w, probs...)
		if got := p.Demand(tc.l); got != tc.want {
			t.Errorf("w=%v l=%d: Demand = %d, want %d (edge %v)", tc.w, tc.l, got, tc.want, p.Edge(tc.l))
		}
	}
}

// Quantile is the upper quantile min{L : Φ(L) > θ}: at Φ(L) = θ exactly it moves one bin
// up, which is what REM's Σ_{l≤L} p_l ≤ θ certifies.
func TestQuantileIsUpper(t *testing.T) {
	p := mustPMF(t, 1, 0.2, 0.3, 0.5) // Φ = 0.2, 0.5, 1
	tests := []struct {
		theta float64
		want  int
	}{
		{0.1, 0}, {0.2, 1}, {0.3, 1}, {0.49, 1}, {0.5, 2}, {0.9, 2}, {0.999999, 2},
	}
	for _, tc := range tests {
		if got := p.Quantile(tc.theta); got != tc.want {
			t.Errorf("Quantile(%v) = %d, want %d", tc.theta, got, tc.want)
		}
	}
}

// Normalising must survive totals whose reciprocal overflows (subnormal) or is
// subnormal (near MaxFloat64).
func TestPMFExtremeTotals(t *testing.T) {
	for _, probs := range [][]float64{
		{0, 2.61773395118493e-310},
		{1e-320, 3e-320},
		{math.MaxFloat64 / 4, math.MaxFloat64 / 4},
		{1e300, 3e300},
	} {
		p := mustPMF(t, 1, probs...)
		total := probs[0] + probs[1]
		want0 := probs[0] / total
		if math.Abs(p.Prob(0)-want0) > 1e-12 || math.Abs(p.Prob(1)-(1-want0)) > 1e-12 || p.CDF(1) != 1 || p.Tail(1) != 0 {
			t.Errorf("%v: probs %v %v, cdf %v, tail %v", probs, p.Prob(0), p.Prob(1), p.CDF(0), p.Tail(0))
		}
		if math.Abs(p.CDF(0)+p.Tail(0)-1) > 1e-12 {
			t.Errorf("%v: cdf(0) + tail(0) = %v", probs, p.CDF(0)+p.Tail(0))
		}
	}
}
