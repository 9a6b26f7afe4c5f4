package rds

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gonum.org/v1/gonum/mat"
)

// TestARForecastTable2 iterates a known AR(3) by hand, as rds.txt Table 2 lays it out:
// with a = (0.5, 0.3, 0.2) and r(t−3), r(t−2), r(t−1) = 10, 20, 30,
//
//	r̂(t|t)   = 0.5·30   + 0.3·20 + 0.2·10 = 23
//	r̂(t+1|t) = 0.5·23   + 0.3·30 + 0.2·20 = 24.5
//	r̂(t+2|t) = 0.5·24.5 + 0.3·23 + 0.2·30 = 25.15
func TestARForecastTable2(t *testing.T) {
	m := AR{Coef: []float64{0.5, 0.3, 0.2}}
	got, err := m.Forecast([]float64{99, 10, 20, 30}, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{23, 24.5, 25.15}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("forecast (-want +got):\n%s", diff)
	}
	if _, err := m.Forecast([]float64{1, 2}, 1); err == nil {
		t.Error("forecast from 2 values with AR(3): no error")
	}
}

// TestFitARRecoversCoefficients fits AR(3) to a synthetic series
// x_k = 0.5 x_{k−1} + 0.2 x_{k−2} + 0.1 x_{k−3} + ε_k, ε ~ N(0, 1), 5,000 values after a
// burn-in (fixed seed). The tolerance is four standard errors of least squares,
// σ̂·√((XᵀX)⁻¹_ii) from the fitted residuals: about 0.014 each here.
func TestFitARRecoversCoefficients(t *testing.T) {
	truth := []float64{0.5, 0.2, 0.1}
	rng := rand.New(rand.NewPCG(16, 3))
	x := make([]float64, 5500)
	for k := 3; k < len(x); k++ {
		x[k] = truth[0]*x[k-1] + truth[1]*x[k-2] + truth[2]*x[k-3] + rng.NormFloat64()
	}
	series := x[500:]
	m, err := FitAR(series, 3)
	if err != nil {
		t.Fatal(err)
	}
	rows := len(series) - 3
	X := mat.NewDense(rows, 3, nil)
	rss := 0.0
	for r := range rows {
		k := r + 3
		pred := 0.0
		for i := range 3 {
			X.Set(r, i, series[k-1-i])
			pred += m.Coef[i] * series[k-1-i]
		}
		rss += (series[k] - pred) * (series[k] - pred)
	}
	var xtx, inv mat.Dense
	xtx.Mul(X.T(), X)
	if err := inv.Inverse(&xtx); err != nil {
		t.Fatal(err)
	}
	sigma := math.Sqrt(rss / float64(rows-3))
	for i, a := range truth {
		se := sigma * math.Sqrt(inv.At(i, i))
		if math.Abs(m.Coef[i]-a) > 4*se {
			t.Errorf("a_%d = %.4f, truth %.1f, standard error %.4f", i+1, m.Coef[i], a, se)
		}
	}
	if math.Abs(sigma-1) > 0.05 {
		t.Errorf("residual standard deviation %.3f, the noise has 1", sigma)
	}
}

// TestFitARConstantAndPeriodic: rank-deficient histories get the minimum-norm fit,
// which forecasts them exactly: a constant (a_i = 1/n) and the Table 1 capacity pattern
// 3, 6, 3, 6, … (a = (0, 1, 0) for AR(3)).
func TestFitARConstantAndPeriodic(t *testing.T) {
	m, err := FitAR([]float64{5, 5, 5, 5, 5, 5, 5}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, m.Coef, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("constant history (-want +got):\n%s", diff)
	}
	periodic := []float64{3, 6, 3, 6, 3, 6, 3, 6}
	f, err := ARPredictor{Order: 3}.Forecast(periodic, 5)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{3, 6, 3, 6, 3}, f, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("periodic forecast (-want +got):\n%s", diff)
	}
	zero, err := FitAR(make([]float64, 6), 3)
	if err != nil || zero.Coef[0] != 0 {
		t.Errorf("all-zero history: %v, %v", zero.Coef, err)
	}
}

func TestARPredictorShortHistoryAndClipping(t *testing.T) {
	p := ARPredictor{Order: 3}
	if _, err := p.Forecast(nil, 2); err == nil {
		t.Error("no history: no error")
	}
	got, err := p.Forecast([]float64{7}, 3)
	if err != nil || !cmp.Equal(got, []float64{7, 7, 7}) {
		t.Errorf("one observation: %v, %v; want persistence", got, err)
	}
	// Four observations fit AR(2): 2, 4, 6, 8 is x_k = 2x_{k−1} − x_{k−2} exactly.
	got, err = p.Forecast([]float64{2, 4, 6, 8}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{10, 12}, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("AR(2) on a line (-want +got):\n%s", diff)
	}
	// A falling line is extrapolated below zero and clipped.
	got, err = ARPredictor{Order: 2}.Forecast([]float64{10, 8, 6, 4, 2}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{0, 0, 0}, got, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("falling line (-want +got):\n%s", diff)
	}
	// Window: only the last 4 observations count.
	got, err = ARPredictor{Order: 1, Window: 4}.Forecast([]float64{100, -50, 1, 1, 1, 1}, 1)
	if err != nil || math.Abs(got[0]-1) > 1e-12 {
		t.Errorf("windowed: %v, %v; want [1]", got, err)
	}
	if _, err := FitAR([]float64{1, 2, math.NaN(), 4, 5, 6}, 2); err == nil {
		t.Error("NaN in the series: no error")
	}
	if _, err := FitAR([]float64{1, 2, 3}, 2); err == nil {
		t.Error("3 observations for AR(2): no error")
	}
}

func TestKnownForecast(t *testing.T) {
	k := Known{3, 6, 3, 6}
	got, err := k.Forecast([]float64{3, 6}, 4)
	if err != nil || !cmp.Equal(got, []float64{3, 6, 6, 6}) {
		t.Errorf("got %v, %v; want the trace from interval 2, then its last value", got, err)
	}
	if _, err := (Known{}).Forecast(nil, 1); err == nil {
		t.Error("empty trace: no error")
	}
}

// TestGreenForecast checks the §4.2 models by hand. Interval 5: solar 10 kW ideal under
// 30% cloud gives 7 kW; wind at 10 m/s with a = 0.01, b = −1 gives 9 kW; 16 kW at
// 0.5 resources per kW on top of 2 grid-powered resources is 10. Interval 6: full cloud
// and calm (a·0 + b < 0 is clipped) leaves the grid part alone.
func TestGreenForecast(t *testing.T) {
	g := &Green{Start: 5, Brown: 2, PerKW: 0.5,
		SolarIdeal: []float64{10, 10}, CloudCover: []float64{0.3, 1},
		WindSpeed: []float64{10, 0}, WindA: 0.01, WindB: -1}
	got, err := g.Forecast(make([]float64, 5), 2)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{10, 2}, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("green forecast (-want +got):\n%s", diff)
	}
	if _, err := g.Forecast(make([]float64, 6), 2); err == nil {
		t.Error("forecast past the weather data: no error")
	}
	solarOnly := &Green{PerKW: 1, SolarIdeal: []float64{4}, CloudCover: []float64{0.5}}
	if got, err := solarOnly.Forecast(nil, 1); err != nil || got[0] != 2 {
		t.Errorf("solar only: %v, %v; want [2]", got, err)
	}
}

func TestFitWindCurve(t *testing.T) {
	speed := []float64{2, 4, 6, 8, 10}
	power := make([]float64, len(speed))
	for i, v := range speed {
		power[i] = 0.002*v*v*v + 0.3
	}
	a, b, err := FitWindCurve(speed, power)
	if err != nil || math.Abs(a-0.002) > 1e-12 || math.Abs(b-0.3) > 1e-10 {
		t.Errorf("a = %g, b = %g, err %v; want 0.002, 0.3", a, b, err)
	}
	if _, _, err := FitWindCurve([]float64{3, 3}, []float64{1, 2}); err == nil {
		t.Error("equal speeds: no error")
	}
	if _, _, err := FitWindCurve([]float64{3}, []float64{1}); err == nil {
		t.Error("one observation: no error")
	}
}
