package bench

import (
	"math"
	"testing"
	"time"
)

func TestSpreadOf(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	cases := []struct {
		name             string
		in               []time.Duration
		min, median, max time.Duration
	}{
		{"none", nil, 0, 0, 0},
		{"one", ms(7), 7 * time.Millisecond, 7 * time.Millisecond, 7 * time.Millisecond},
		{"odd, unsorted", ms(9, 1, 5), time.Millisecond, 5 * time.Millisecond, 9 * time.Millisecond},
		{"even: mean of the middle two", ms(4, 1, 10, 2), time.Millisecond, 3 * time.Millisecond, 10 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := append([]time.Duration(nil), c.in...)
			got := SpreadOf(c.in)
			if got != (Spread{c.min, c.median, c.max}) {
				t.Errorf("SpreadOf(%v) = %+v, want %v %v %v", c.in, got, c.min, c.median, c.max)
			}
			for i := range in {
				if in[i] != c.in[i] {
					t.Fatal("SpreadOf reordered its input")
				}
			}
		})
	}
}

func TestShiftedGeoMean(t *testing.T) {
	s := 10 * time.Millisecond
	cases := []struct {
		name  string
		times []time.Duration
		want  float64 // seconds
	}{
		{"none", nil, 0},
		{"equal times give that time", []time.Duration{time.Second, time.Second, time.Second}, 1},
		// exp((ln 0.02 + ln 0.04)/2) − 0.01 = √0.0008 − 0.01.
		{"two times", []time.Duration{10 * time.Millisecond, 30 * time.Millisecond}, math.Sqrt(0.0008) - 0.01},
		// The shift damps tiny times: 1 µs and 1 ms are both close to 0 next to 10 ms.
		{"tiny times", []time.Duration{time.Microsecond, time.Millisecond}, math.Sqrt(0.010001*0.011) - 0.01},
	}
	for _, c := range cases {
		got := ShiftedGeoMean(c.times, s).Seconds()
		if math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: ShiftedGeoMean = %.12g, want %.12g", c.name, got, c.want)
		}
	}
	// Without a shift it is the plain geometric mean; the shift makes a 1000× ratio of
	// tiny times count for much less.
	plain := ShiftedGeoMean([]time.Duration{time.Microsecond, time.Millisecond}, 0).Seconds()
	if math.Abs(plain-math.Sqrt(1e-9)) > 1e-9 {
		t.Errorf("unshifted geometric mean %.6g, want %.6g", plain, math.Sqrt(1e-9))
	}
}

func TestAgree(t *testing.T) {
	cases := []struct {
		a, b float64
		want bool
	}{
		{1, 1, true},
		{1e6, 1e6 + 0.5, true}, // relative 5e-7
		{1e6, 1e6 + 2, false},  // relative 2e-6
		{0, 5e-7, true},        // absolute floor below 1
		{0, 2e-6, false},       // …but not beyond it
		{-464.75314286, -464.7531429, true},
		{math.NaN(), 1, false},
		{math.Inf(1), math.Inf(1), true},
		{math.Inf(1), 1e300, false},
	}
	for _, c := range cases {
		if got := Agree(c.a, c.b); got != c.want {
			t.Errorf("Agree(%g, %g) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := Agree(c.b, c.a); got != c.want {
			t.Errorf("Agree(%g, %g) = %v, want %v (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestFitPower(t *testing.T) {
	ns := []float64{1000, 2000, 4000, 8000, 16000}
	pow := func(c, k float64) []float64 {
		out := make([]float64, len(ns))
		for i, n := range ns {
			out[i] = c * math.Pow(n, k)
		}
		return out
	}
	for _, k := range []float64{0.5, 1, 1.5, 2} {
		f, err := FitPower(ns, pow(3e-7, k))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(f.K-k) > 1e-9 || math.Abs(f.C-3e-7)/3e-7 > 1e-9 || math.Abs(f.R2-1) > 1e-12 {
			t.Errorf("exact n^%g: got %+v", k, f)
		}
	}
	// n log n over a doubling range fits an exponent a little above 1.
	nlogn := make([]float64, len(ns))
	for i, n := range ns {
		nlogn[i] = n * math.Log(n) * 1e-8
	}
	f, err := FitPower(ns, nlogn)
	if err != nil {
		t.Fatal(err)
	}
	if f.K <= 1 || f.K > 1.2 || f.R2 < 0.999 {
		t.Errorf("n log n: k = %.4f, R² = %.6f; want k in (1, 1.2], R² ≈ 1", f.K, f.R2)
	}
	// Noise lowers R².
	noisy := pow(1e-6, 1)
	noisy[1] *= 3
	noisy[3] /= 3
	f, err = FitPower(ns, noisy)
	if err != nil {
		t.Fatal(err)
	}
	if f.R2 >= 0.99 || f.R2 < 0 {
		t.Errorf("noisy: R² = %.4f, want clearly below 1", f.R2)
	}
	for name, c := range map[string][2][]float64{
		"one point":     {{1000}, {1}},
		"lengths":       {{1, 2}, {1}},
		"equal sizes":   {{5, 5, 5}, {1, 2, 3}},
		"zero time":     {{1, 2}, {0, 1}},
		"negative size": {{-1, 2}, {1, 1}},
		"NaN":           {{1, 2}, {math.NaN(), 1}},
	} {
		if _, err := FitPower(c[0], c[1]); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
