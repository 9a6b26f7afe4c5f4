package rs

import (
	"math"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/sched"
	"pgregory.net/rapid"
)

// The mean-time estimator: η is the impulse's value on unit bins whatever θ and δ, and
// the upper edge of its bin (rounded up) on wider bins.
func TestImpulse(t *testing.T) {
	tests := []struct {
		work  float64
		q     Quantization
		width float64
		eta   int64
	}{
		{120, Quantization{}, 1, 120},                     // 256 bins: unit width
		{120, Quantization{Bins: 11}, 12, 120},            // w = ⌈120/10⌉ = 12, bin 10
		{120, Quantization{Bins: 8}, 18, 126},             // w = ⌈120/7⌉ = 18, bin ⌈120/18⌉ = 7: 126 ≥ 120
		{120.5, Quantization{}, 1, 121},                   // rounded up
		{0, Quantization{}, 1, 0},                         // bin 0
		{-3, Quantization{}, 1, 0},                        // negative work folded into bin 0
		{7, Quantization{Width: 2.5}, 2.5, 8},             // bin ⌈7/2.5⌉ = 3, edge 7.5
		{1e6, Quantization{Bins: 1001}, 1000, 1000000},    // wide jobs get wide bins
		{3, Quantization{Width: 0.5, Theta: 0.9}, 0.5, 3}, // Theta/MaxDelta do not move an impulse
	}
	for _, tc := range tests {
		ref, err := Impulse(tc.work, tc.q)
		if err != nil {
			t.Fatalf("Impulse(%v, %+v): %v", tc.work, tc.q, err)
		}
		if ref.Width() != tc.width {
			t.Errorf("Impulse(%v, %+v): width %v, want %v", tc.work, tc.q, ref.Width(), tc.width)
		}
		for _, theta := range []float64{0.01, 0.5, 0.99} {
			for _, delta := range []float64{0, 0.7, 100} {
				e, err := WorstCaseDemand(ref.PMF, theta, delta)
				if err != nil {
					t.Fatal(err)
				}
				if e.Eta != tc.eta || e.ReferenceQuantile != tc.eta || !e.SupportEdge {
					t.Errorf("Impulse(%v, %+v) at theta %v delta %v: %+v, want eta %d at the support edge", tc.work, tc.q, theta, delta, e, tc.eta)
				}
			}
		}
	}
}

func TestGaussianQuantization(t *testing.T) {
	ref, err := Gaussian(6000, 200, Quantization{Width: 1, Theta: 0.9, MaxDelta: 2})
	if err != nil {
		t.Fatal(err)
	}
	// b*(0.9, 2) ≈ 8e-11 → z* ≈ 6.4 < 7.1: τ_max = mean + 7.4σ (z* + 1).
	if ref.Z < TailZ || ref.Z > 8 {
		t.Errorf("Z = %v", ref.Z)
	}
	if ref.TailMass > 1e-12 {
		t.Errorf("mass above tau_max %g, want < 1e-12", ref.TailMass)
	}
	if got, want := ref.TauMax, math.Ceil(6000+ref.Z*200); got != want {
		t.Errorf("TauMax = %v, want %v", got, want)
	}
	// The PMF's mean (upper edges) is within a bin of the Gaussian's.
	var mean float64
	for l := range ref.Bins() {
		mean += ref.Prob(l) * ref.Edge(l)
	}
	if math.Abs(mean-6000.5) > 1e-6 {
		t.Errorf("PMF mean %v, want 6000.5 (upper edges of unit bins)", mean)
	}
	// Quantiles match the continuous ones rounded up to the next container-slot.
	for _, tc := range []struct{ theta, delta float64 }{{0.5, 0}, {0.9, 0}, {0.9, 0.1}, {0.9, 0.7}, {0.9, 2}, {0.3, 1}} {
		e, err := WorstCaseDemand(ref.PMF, tc.theta, tc.delta)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := WorstCaseTail(tc.theta, tc.delta)
		var z float64
		if b < 0.5 {
			z = normalUpperQuantile(b)
		} else {
			z = -normalUpperQuantile(1 - b)
		}
		want := math.Ceil(6000 + 200*z)
		if math.Abs(float64(e.Eta)-want) > 1 {
			t.Errorf("theta %v delta %v: eta %d, continuous worst-case quantile %v", tc.theta, tc.delta, e.Eta, 6000+200*z)
		}
		if e.SupportEdge {
			t.Errorf("theta %v delta %v: eta at the support edge", tc.theta, tc.delta)
		}
	}
}

// With θ = 0.99 and δ = 1 the worst case sits 14σ above the mean (b* ≈ 3.7e-46). A fixed
// truncation at 7.1σ would decide η; the adaptive τ_max reaches it.
func TestGaussianReachesDeepTail(t *testing.T) {
	adaptive, err := Gaussian(1000, 10, Quantization{Width: 1, Theta: 0.99, MaxDelta: 1})
	if err != nil {
		t.Fatal(err)
	}
	fixed, err := Gaussian(1000, 10, Quantization{Width: 1})
	if err != nil {
		t.Fatal(err)
	}
	ea, _ := WorstCaseDemand(adaptive.PMF, 0.99, 1)
	ef, _ := WorstCaseDemand(fixed.PMF, 0.99, 1)
	b, _ := WorstCaseTail(0.99, 1)
	zStar := normalUpperQuantile(b)
	if zStar < 13 || zStar > 15 {
		t.Fatalf("z* = %v", zStar)
	}
	if ea.SupportEdge || math.Abs(float64(ea.Eta)-math.Ceil(1000+10*zStar)) > 1 {
		t.Errorf("adaptive: %+v, want eta ≈ %v", ea, 1000+10*zStar)
	}
	if !ef.SupportEdge || ef.Eta != int64(fixed.TauMax) {
		t.Errorf("fixed 7.1 sigma: %+v, want eta at tau_max %v", ef, fixed.TauMax)
	}
}

func TestGaussianEdgeCases(t *testing.T) {
	// std 0 is an impulse.
	ref, err := Gaussian(42, 0, Quantization{})
	if err != nil || ref.Estimator != EstimatorGaussian || ref.Bins() != 43 || ref.Prob(42) != 1 {
		t.Fatalf("N(42, 0): %+v, %v", ref, err)
	}
	// Mostly negative mass folds into bin 0.
	ref, err = Gaussian(-100, 10, Quantization{}) // τ_max = max(−100 + 71, 0) = 0
	if err != nil {
		t.Fatal(err)
	}
	if ref.Bins() != 1 {
		t.Errorf("N(-100, 10²): %d bins, want 1", ref.Bins())
	}
	ref, err = Gaussian(1, 10, Quantization{Width: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p0 := ref.Prob(0); math.Abs(p0-0.5*math.Erfc(0.1/math.Sqrt2)) > 1e-15 {
		t.Errorf("N(1, 10²): bin 0 (v ≤ 0) has %v", p0)
	}
	var sum float64
	for l := range ref.Bins() {
		sum += ref.Prob(l)
	}
	if math.Abs(sum-1) > 1e-14 {
		t.Errorf("sum %v", sum)
	}
	for _, bad := range [][2]float64{{math.NaN(), 1}, {math.Inf(1), 1}, {1, -1}, {1, math.Inf(1)}, {1e300, 1}} {
		if _, err := Gaussian(bad[0], bad[1], Quantization{}); err == nil {
			t.Errorf("Gaussian(%v, %v): no error", bad[0], bad[1])
		}
	}
}

func TestEmpirical(t *testing.T) {
	// Samples 1..4: mean 2.5, unbiased variance 5/3; 10 tasks → N(25, 50/3).
	ref, err := Empirical([]float64{1, 2, 3, 4}, 10, Quantization{Width: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if ref.Samples != 4 || ref.Estimator != EstimatorEmpirical || math.Abs(ref.Mean-25) > 1e-12 || math.Abs(ref.Std-math.Sqrt(50.0/3)) > 1e-12 {
		t.Errorf("reference %+v", ref)
	}
	// Welford keeps a large mean with a small spread.
	ref, err = Empirical([]float64{1e9 + 1, 1e9 + 2, 1e9 + 3}, 1, Quantization{})
	if err != nil || math.Abs(ref.Std-1) > 1e-6 {
		t.Errorf("std %v, %v", ref.Std, err)
	}
	// Identical samples: an impulse.
	ref, err = Empirical([]float64{5, 5, 5}, 3, Quantization{})
	if err != nil || ref.Std != 0 || ref.Prob(15) != 1 {
		t.Errorf("identical samples: %+v, %v", ref, err)
	}
	for _, bad := range [][]float64{nil, {1}, {1, math.NaN()}, {1, math.Inf(-1)}} {
		if _, err := Empirical(bad, 1, Quantization{}); err == nil {
			t.Errorf("Empirical(%v): no error", bad)
		}
	}
	if _, err := Empirical([]float64{1, 2}, 0, Quantization{}); err == nil {
		t.Error("0 tasks: no error")
	}
}

func TestFromRuntime(t *testing.T) {
	q := Quantization{Theta: 0.9, MaxDelta: 0.7}
	tests := []struct {
		rt   sched.Runtime
		est  string
		eta0 int64 // reference 0.9-quantile
	}{
		{sched.Runtime{Type: "impulse", Mean: 2, Tasks: 60}, EstimatorImpulse, 120},
		{sched.Runtime{Type: "impulse", Mean: 7}, EstimatorImpulse, 7},                                   // Tasks 0 means 1
		{sched.Runtime{Type: "gaussian", Mean: 2, Std: 0.6, Tasks: 60}, EstimatorGaussian, 126},          // 120 + 1.2816·4.648 = 125.96
		{sched.Runtime{Type: "empirical", Samples: []float64{1, 3}, Tasks: 50}, EstimatorEmpirical, 113}, // mean 2, variance 2 → N(100, 100): 100 + 1.2816·10 = 112.8
		{sched.Runtime{Type: "pmf", Probabilities: []float64{0.05, 0.05, 0.9}, BinWidth: 4}, EstimatorPMF, 8},
		{sched.Runtime{Type: "pmf", Probabilities: []float64{0.5, 0.45, 0.05}}, EstimatorPMF, 1}, // BinWidth 0 means 1; Φ(1) = 0.95 > 0.9
	}
	for _, tc := range tests {
		ref, err := FromRuntime(&tc.rt, q)
		if err != nil {
			t.Fatalf("%+v: %v", tc.rt, err)
		}
		e, _ := WorstCaseDemand(ref.PMF, 0.9, 0)
		if ref.Estimator != tc.est || e.Eta != tc.eta0 {
			t.Errorf("%+v: estimator %s, 0.9-quantile %d; want %s, %d", tc.rt, ref.Estimator, e.Eta, tc.est, tc.eta0)
		}
	}
	for _, rt := range []*sched.Runtime{nil, {Type: "weibull"}, {Type: "pmf"}, {Type: "empirical", Samples: []float64{1}}, {Type: "impulse", Mean: 1, Tasks: -2}} {
		if _, err := FromRuntime(rt, q); err == nil {
			t.Errorf("FromRuntime(%+v): no error", rt)
		}
	}
}

func TestQuantizationRejects(t *testing.T) {
	for _, tc := range []struct {
		q    Quantization
		want string
	}{
		{Quantization{Bins: 1}, "bins"},
		{Quantization{Bins: MaxBins + 1}, "bins"},
		{Quantization{Width: -1}, "width"},
		{Quantization{Width: math.NaN()}, "width"},
		{Quantization{Width: 1e-9}, "more than"}, // 1e11 bins
		{Quantization{MaxDelta: 1}, "needs Theta"},
		{Quantization{Theta: 1.5}, "theta"},
	} {
		_, err := Gaussian(100, 10, tc.q)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err %v, want %q", tc.q, err, tc.want)
		}
	}
	if _, err := Impulse(1e17, Quantization{}); err == nil {
		t.Error("impulse at 1e17 > 2^53: no error")
	}
}

// math.Log is wrong for subnormal inputs on amd64 (golang/go#56600); logSafe is not.
func TestLogSafeSubnormal(t *testing.T) {
	for _, x := range []float64{math.SmallestNonzeroFloat64, 1e-320, 1e-310, 2.1e-308, smallestNormal, 1e-300, 0.5, 1, 1e300} {
		want := math.Log2(x) * math.Ln2
		if got := logSafe(x); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("logSafe(%g) = %v, want %v", x, got, want)
		}
	}
}

// Bins are computed from mean − 8.3σ up; the far lower tail is folded into the bin
// holding that point and every other bin is exactly F(lW) − F((l−1)W).
func TestGaussianLowerFold(t *testing.T) {
	ref, err := Gaussian(6000, 200, Quantization{Width: 1})
	if err != nil {
		t.Fatal(err)
	}
	F := func(x float64) float64 { return 0.5 * math.Erfc((6000-x)/(200*math.Sqrt2)) }
	first := int((6000 - LowZ*200) / 1) // 4340
	for l := 0; l < first; l++ {
		if ref.Prob(l) != 0 {
			t.Fatalf("bin %d below the fold has %g", l, ref.Prob(l))
		}
	}
	if got, want := ref.Prob(first), F(float64(first)); math.Abs(got-want) > 1e-13*want || want > 5.3e-17 {
		t.Errorf("fold bin %d: %g, want F(%d) = %g", first, got, first, want)
	}
	for _, l := range []int{first + 1, 5000, 5999, 6000, 6001, 7000} {
		want := F(float64(l)) - F(float64(l-1))
		if l > 6000 {
			want = 0.5*math.Erfc(float64(l-1-6000)/(200*math.Sqrt2)) - 0.5*math.Erfc(float64(l-6000)/(200*math.Sqrt2))
		}
		if got := ref.Prob(l); math.Abs(got-want) > 1e-11*want { // erfc argument rounding, amplified by the difference
			t.Errorf("bin %d: %g, want %g", l, got, want)
		}
	}
}

// A prepared quantization gives bit for bit the references of the unprepared one, and
// it did compute z (reach then skips the worst-case tail and the quantile).
func TestPreparedQuantizationSameReferences(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := Quantization{Bins: rapid.IntRange(0, 400).Draw(t, "bins"),
			Theta: rapid.SampledFrom([]float64{0, 0.5, 0.9, 0.99}).Draw(t, "theta")}
		if q.Theta > 0 {
			q.MaxDelta = rapid.Float64Range(0, 3).Draw(t, "delta")
		}
		pq, err := q.Prepared()
		if err != nil {
			t.Fatalf("Prepared(%+v): %v", q, err)
		}
		if pq.z <= 0 {
			t.Fatalf("Prepared(%+v) kept z = %v", q, pq.z)
		}
		mean := rapid.Float64Range(0, 5000).Draw(t, "mean")
		std := rapid.Float64Range(0, 500).Draw(t, "std")
		want, err1 := Gaussian(mean, std, q)
		got, err2 := Gaussian(mean, std, pq)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("errors differ: %v / %v", err1, err2)
		}
		if err1 != nil {
			return
		}
		if want.TauMax != got.TauMax || want.Z != got.Z || want.TailMass != got.TailMass || len(want.raw) != len(got.raw) {
			t.Fatalf("reference differs: %+v / %+v", want, got)
		}
		for i := range want.raw {
			if math.Float64bits(want.raw[i]) != math.Float64bits(got.raw[i]) || want.width != got.width {
				t.Fatalf("bin %d: %v / %v", i, want.raw[i], got.raw[i])
			}
		}
	})
}
