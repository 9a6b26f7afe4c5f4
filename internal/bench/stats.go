package bench

import (
	"errors"
	"math"
	"slices"
	"time"
)

// DefaultShift is the shift of the shifted geometric mean: 10 ms, as Mittelmann's
// benchmarks of optimization software use for times in seconds.
const DefaultShift = 10 * time.Millisecond

// AgreementTol is the relative tolerance within which two objectives agree:
// |a − b| ≤ AgreementTol·max(1, |a|, |b|).
const AgreementTol = 1e-6

// Spread is the minimum, median and maximum of repeated timings.
type Spread struct {
	Min, Median, Max time.Duration
}

// SpreadOf summarizes ds; the median of an even count is the mean of the two middle
// values. The zero Spread for no timings.
func SpreadOf(ds []time.Duration) Spread {
	if len(ds) == 0 {
		return Spread{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Spread{Min: s[0], Median: med, Max: s[n-1]}
}

// ShiftedGeoMean is the shifted geometric mean of times, exp(mean(ln(t_i + s))) − s,
// which damps the weight of very small times (a 1 ms and a 2 ms solve differ by a factor
// of 2 but both are "instant"). It returns 0 for no times.
func ShiftedGeoMean(times []time.Duration, shift time.Duration) time.Duration {
	if len(times) == 0 {
		return 0
	}
	s := shift.Seconds()
	sum := 0.0
	for _, t := range times {
		sum += math.Log(t.Seconds() + s)
	}
	g := math.Exp(sum/float64(len(times))) - s
	return time.Duration(math.Round(g * 1e9))
}

// Agree reports whether two objective values agree to AgreementTol (relative, with an
// absolute floor of AgreementTol for values below 1 in magnitude).
func Agree(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return false
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= AgreementTol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// PowerFit is the least-squares fit of ln t = ln c + k·ln n: time grows like n^K.
type PowerFit struct {
	// K is the empirical growth exponent; C the time at n = 1 in seconds.
	K, C float64
	// R2 is the coefficient of determination of the fit on the log–log scale.
	R2 float64
}

// FitPower fits t ∝ n^k by least squares on (ln n, ln t). It needs at least two points
// with distinct n, and every n and t positive.
func FitPower(n []float64, t []float64) (PowerFit, error) {
	if len(n) != len(t) {
		return PowerFit{}, errors.New("bench: fit: n and t differ in length")
	}
	if len(n) < 2 {
		return PowerFit{}, errors.New("bench: fit: need at least two points")
	}
	x := make([]float64, len(n))
	y := make([]float64, len(n))
	for i := range n {
		if !(n[i] > 0) || !(t[i] > 0) || math.IsInf(n[i], 0) || math.IsInf(t[i], 0) {
			return PowerFit{}, errors.New("bench: fit: sizes and times must be positive and finite")
		}
		x[i], y[i] = math.Log(n[i]), math.Log(t[i])
	}
	mx, my := mean(x), mean(y)
	var sxx, sxy, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	if sxx == 0 {
		return PowerFit{}, errors.New("bench: fit: all sizes are equal")
	}
	k := sxy / sxx
	f := PowerFit{K: k, C: math.Exp(my - k*mx), R2: 1}
	if syy > 0 {
		// Residual sum of squares over total: 1 − SSres/SStot, with SSres = syy − k·sxy.
		f.R2 = 1 - math.Max(0, syy-k*sxy)/syy
	}
	return f, nil
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
