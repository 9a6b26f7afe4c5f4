package rs

import (
	"math"
	"math/bits"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Hand example: four bins of 1/4, θ = 0.5. Φ = .25 .5 .75 1, so the reference upper
// 0.5-quantile is bin 2; REM(2) = ½ln(.5/.75) + ½ln(.5/.25) ≈ 0.143841 decides when the
// worst case moves to bin 3; bin 3 is the support's edge.
func TestWorstCaseDemandHandExample(t *testing.T) {
	p := mustPMF(t, 10, 1, 1, 1, 1)
	rem2 := p.REM(2, 0.5) // δ = REM(2) exactly: Alg. 2 line 5 accepts with ≤
	if want := 0.5*math.Log(0.5/0.75) + 0.5*math.Log(0.5/0.25); math.Abs(rem2-want) > 1e-15 {
		t.Fatalf("REM(2) = %v, want %v", rem2, want)
	}
	tests := []struct {
		delta   float64
		bin     int
		eta     int64
		kl      float64
		support bool
	}{
		{0, 2, 20, 0, false},
		{0.1, 2, 20, 0, false},
		{rem2, 3, 30, rem2, true},
		{0.2, 3, 30, rem2, true},
		{50, 3, 30, rem2, true},
	}
	for _, tc := range tests {
		e, err := WorstCaseDemand(p, 0.5, tc.delta)
		if err != nil {
			t.Fatal(err)
		}
		if e.Bin != tc.bin || e.Eta != tc.eta || math.Abs(e.KL-tc.kl) > 1e-15 || e.SupportEdge != tc.support ||
			e.ReferenceBin != 2 || e.ReferenceQuantile != 20 {
			t.Errorf("delta %v: %+v, want bin %d eta %d KL %v support %v, reference bin 2 (20)", tc.delta, e, tc.bin, tc.eta, tc.kl, tc.support)
		}
	}
}

// Alg. 2 as printed starts from L_f = Φ^{-1}(θ), the lower quantile. That start is not
// feasible: here Φ(1) = 0.5 ≥ θ = 0.4, and REM(1) ≈ 0.0201 > δ = 0. Our start, the
// upper quantile minus one, is.
func TestPaperLowerBoundIsInfeasible(t *testing.T) {
	p := mustPMF(t, 1, 1, 1, 1, 1)
	theta := 0.4
	lower := 1 // min{L : Φ(L) ≥ 0.4}
	if p.CDF(lower) < theta || p.CDF(lower-1) >= theta {
		t.Fatalf("bin %d is not the lower quantile", lower)
	}
	if rem := p.REM(lower, theta); !(rem > 0.02) {
		t.Fatalf("REM at the paper's start = %v, expected > 0 (infeasible at delta 0)", rem)
	}
	if rem := p.REM(p.Quantile(theta)-1, theta); rem != 0 {
		t.Fatalf("REM at our start = %v, want 0", rem)
	}
	e, _ := WorstCaseDemand(p, theta, 0)
	if e.Bin != 1 {
		t.Fatalf("delta 0: bin %d, want the reference quantile 1", e.Bin)
	}
}

func TestWorstCaseDemandRejects(t *testing.T) {
	p := mustPMF(t, 1, 1, 1)
	for _, tc := range []struct {
		ref          *PMF
		theta, delta float64
		want         string
	}{
		{nil, 0.5, 0, "nil"},
		{p, 0, 0, "theta"},
		{p, 1, 0, "theta"},
		{p, math.NaN(), 0, "theta"},
		{p, 0.5, -0.1, "delta"},
		{p, 0.5, math.Inf(1), "delta"},
		{p, 0.5, math.NaN(), "delta"},
	} {
		_, err := WorstCaseDemand(tc.ref, tc.theta, tc.delta)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("theta %v delta %v: err %v, want %q", tc.theta, tc.delta, err, tc.want)
		}
		if _, err2 := WorstCaseDemandScan(tc.ref, tc.theta, tc.delta); (err2 == nil) != (err == nil) {
			t.Errorf("scan and bisection disagree on rejecting theta %v delta %v", tc.theta, tc.delta)
		}
	}
}

func TestWorstCaseDemandsBatch(t *testing.T) {
	a := mustPMF(t, 1, 1, 1, 1, 1)
	b := mustPMF(t, 2, 0.1, 0.1, 0.8)
	got, err := WorstCaseDemands([]*PMF{a, b}, 0.5, []float64{0})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Eta != 2 || got[1].Eta != 4 {
		t.Errorf("etas %d %d, want 2 4", got[0].Eta, got[1].Eta)
	}
	got, err = WorstCaseDemands([]*PMF{a, b}, 0.5, []float64{0, 5})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Eta != 2 || got[1].Eta != 4 {
		t.Errorf("per-job deltas: etas %d %d, want 2 4", got[0].Eta, got[1].Eta)
	}
	got, _ = WorstCaseDemands([]*PMF{a, b}, 0.5, []float64{5, 0})
	if got[0].Eta != 3 || got[1].Eta != 4 {
		t.Errorf("per-job deltas: etas %d %d, want 3 4", got[0].Eta, got[1].Eta)
	}
	if _, err := WorstCaseDemands([]*PMF{a, b}, 0.5, []float64{0, 1, 2}); err == nil {
		t.Error("3 deltas for 2 jobs: no error")
	}
	if _, err := WorstCaseDemands([]*PMF{a, nil}, 0.5, []float64{0}); err == nil || !strings.Contains(err.Error(), "job 1") {
		t.Errorf("nil reference: err %v", err)
	}
}

// genPMF draws a reference PMF: 1–80 bins, some exactly 0, some tiny, widths from 0.1 to 50.
func genPMF(t *rapid.T) *PMF {
	n := rapid.IntRange(1, 80).Draw(t, "bins")
	probs := make([]float64, n)
	kind := rapid.SliceOfN(rapid.IntRange(0, 5), n, n).Draw(t, "kinds")
	for l, k := range kind {
		switch k {
		case 0:
			probs[l] = 0
		case 1:
			probs[l] = math.Pow(10, -rapid.Float64Range(5, 300).Draw(t, "tiny"))
		default:
			probs[l] = rapid.Float64Range(0, 1).Draw(t, "p")
		}
	}
	if rapid.Bool().Draw(t, "positiveLast") {
		probs[n-1] += 0.01
	}
	probs[rapid.IntRange(0, n-1).Draw(t, "somewhere")] += 0.05
	w := rapid.SampledFrom([]float64{0.1, 0.7, 1, 2.5, 50}).Draw(t, "width")
	p, err := NewPMF(w, probs)
	if err != nil {
		t.Fatalf("NewPMF: %v", err)
	}
	return p
}

func genTheta(t *rapid.T) float64 { return rapid.Float64Range(1e-6, 1-1e-6).Draw(t, "theta") }
func genDelta(t *rapid.T) float64 {
	return rapid.OneOf(rapid.Just(0.0), rapid.Float64Range(0, 2)).Draw(t, "delta")
}

// Acceptance: Alg. 2's bisection equals a scan over every L, in O(log bins) evaluations.
func TestPropertyBisectionEqualsScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p, theta, delta := genPMF(t), genTheta(t), genDelta(t)
		bis, err := WorstCaseDemand(p, theta, delta)
		if err != nil {
			t.Fatal(err)
		}
		scan, _ := WorstCaseDemandScan(p, theta, delta)
		if bis.Bin != scan.Bin || bis.Eta != scan.Eta || bis.KL != scan.KL {
			t.Fatalf("bisection %+v, scan %+v", bis, scan)
		}
		if limit := bits.Len(uint(p.Bins())); bis.Evaluations > limit {
			t.Fatalf("%d REM evaluations for %d bins, more than %d", bis.Evaluations, p.Bins(), limit)
		}
		if bis.Bin < bis.ReferenceBin || bis.Bin > p.LastPositive() || bis.KL > delta {
			t.Fatalf("estimate %+v out of bounds (delta %v, last %d)", bis, delta, p.LastPositive())
		}
	})
}

// Acceptance: the closed form of REM is within 1e-9 of the numerical optimum (Lagrange
// dual lower bound and direct primal upper bound) at every bin, and every other
// cross-check holds.
func TestPropertyCrossCheck(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p, theta, delta := genPMF(t), genTheta(t), genDelta(t)
		checks, err := CrossCheck(p, theta, delta)
		if err != nil {
			t.Fatal(err)
		}
		if len(checks) != 8 {
			t.Fatalf("%d checks, want 8", len(checks))
		}
		for _, c := range checks {
			if !c.OK {
				t.Fatalf("%s failed: violation %g: %s", c.Name, c.MaxViolation, c.Detail)
			}
		}
	})
}

// Acceptance: η grows with θ and with δ; δ = 0 gives the reference quantile.
func TestPropertyMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := genPMF(t)
		t1, t2 := genTheta(t), genTheta(t)
		d1, d2 := genDelta(t), genDelta(t)
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		if d1 > d2 {
			d1, d2 = d2, d1
		}
		at := func(theta, delta float64) Estimate {
			e, err := WorstCaseDemand(p, theta, delta)
			if err != nil {
				t.Fatal(err)
			}
			return e
		}
		if a, b := at(t1, d1), at(t2, d1); a.Eta > b.Eta {
			t.Fatalf("theta %v → %v: eta %d → %d", t1, t2, a.Eta, b.Eta)
		}
		if a, b := at(t1, d1), at(t1, d2); a.Eta > b.Eta {
			t.Fatalf("delta %v → %v: eta %d → %d", d1, d2, a.Eta, b.Eta)
		}
		if e := at(t1, 0); e.Bin != p.Quantile(t1) || e.Eta != e.ReferenceQuantile {
			t.Fatalf("delta 0: %+v, reference quantile bin %d", e, p.Quantile(t1))
		}
		for L := 1; L < p.Bins(); L++ {
			a, b := p.REM(L-1, t1), p.REM(L, t1)
			if b < a && (math.IsInf(a, 1) || a-b > MonotoneTol*math.Max(1, a)) {
				t.Fatalf("REM(%d) = %v > REM(%d) = %v", L-1, a, L, b)
			}
		}
	})
}

// The worst-case distribution is in the ball and has its θ-quantile at Bin.
func TestPropertyWorstCaseDistribution(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p, theta, delta := genPMF(t), genTheta(t), genDelta(t)
		q, e, err := WorstCaseDistribution(p, theta, delta)
		if err != nil {
			t.Fatal(err)
		}
		kl, _ := p.KL(q)
		var below float64
		for l := 0; l < e.Bin; l++ {
			below += q[l]
		}
		if kl > delta+1e-12 || below > theta+1e-12 {
			t.Fatalf("p* has KL %v (delta %v) and mass %v below bin %d (theta %v)", kl, delta, below, e.Bin, theta)
		}
	})
}

// A 1000-bin reference: bisection takes ⌈log₂ 1000⌉ = 10 evaluations, the scan 1000.
func TestBisectionIsLogarithmic(t *testing.T) {
	ref, err := Gaussian(500, 50, Quantization{Width: 0.5, Theta: 0.9, MaxDelta: 1})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := WorstCaseDemand(ref.PMF, 0.9, 1)
	if limit := bits.Len(uint(ref.Bins())); e.Evaluations > limit {
		t.Errorf("%d evaluations for %d bins", e.Evaluations, ref.Bins())
	}
	s, _ := WorstCaseDemandScan(ref.PMF, 0.9, 1)
	if s.Bin != e.Bin {
		t.Errorf("scan bin %d, bisection %d", s.Bin, e.Bin)
	}
}
