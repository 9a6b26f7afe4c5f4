package rds

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Predictor forecasts the available capacity r̂_a of future control intervals
// (rds.txt §4). history[k] is the observed r_a of interval k, oldest first, so the first
// interval to forecast is interval len(history); Forecast returns h values
// r̂_a(t|t), r̂_a(t+1|t), …, r̂_a(t+h−1|t), each ≥ 0.
type Predictor interface {
	Forecast(history []float64, h int) ([]float64, error)
}

// AR is an autoregressive model of order n = len(Coef) without intercept, rds.txt
// eq. 16: r_a(t) = a_1 r_a(t−1) + a_2 r_a(t−2) + … + a_n r_a(t−n).
type AR struct {
	Coef []float64 // a_1 … a_n
}

// FitAR fits eq. 16 to series by least squares: one equation
// series[k] = Σ_i a_i series[k−i] per k = n … len(series)−1, so at least 2n
// observations are needed (n equations). The solution is computed from the singular
// value decomposition (gonum/mat), which gives the minimum-norm least-squares
// coefficients when the regressors are rank deficient — a constant capacity history is
// the common case, and then every a with Σa_i = 1 fits exactly; the minimum-norm one is
// a_i = 1/n, which forecasts the constant.
func FitAR(series []float64, n int) (AR, error) {
	if n < 1 {
		return AR{}, fmt.Errorf("rds: AR order must be >= 1, got %d", n)
	}
	rows := len(series) - n
	if rows < n {
		return AR{}, fmt.Errorf("rds: AR(%d) needs at least %d observations, have %d", n, 2*n, len(series))
	}
	for i, v := range series {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return AR{}, fmt.Errorf("rds: AR series[%d] = %g is not finite", i, v)
		}
	}
	x := mat.NewDense(rows, n, nil)
	y := mat.NewDense(rows, 1, nil)
	for r := range rows {
		k := n + r
		y.Set(r, 0, series[k])
		for i := range n {
			x.Set(r, i, series[k-1-i])
		}
	}
	var svd mat.SVD
	if !svd.Factorize(x, mat.SVDThin) {
		return AR{}, errors.New("rds: AR fit: singular value decomposition did not converge")
	}
	// Singular values below this relative size are treated as zero (rank deficiency).
	const rcond = 1e-10
	rank := svd.Rank(rcond)
	if rank == 0 {
		// Every regressor is zero: the history is all zeros and so is any forecast.
		return AR{Coef: make([]float64, n)}, nil
	}
	var a mat.Dense
	svd.SolveTo(&a, y, rank)
	coef := make([]float64, n)
	for i := range n {
		coef[i] = a.At(i, 0)
	}
	return AR{Coef: coef}, nil
}

// Order is n.
func (m AR) Order() int { return len(m.Coef) }

// Forecast iterates the one-step prediction h times from the last n values of recent,
// feeding each prediction back as an input (rds.txt Table 2): r̂(t|t) from
// r(t−1), …, r(t−n); r̂(t+1|t) from r̂(t|t), r(t−1), …; and so on. It needs
// len(recent) ≥ n. Predictions are not clipped (see ARPredictor).
func (m AR) Forecast(recent []float64, h int) ([]float64, error) {
	n := len(m.Coef)
	if len(recent) < n {
		return nil, fmt.Errorf("rds: AR(%d) forecast needs %d recent values, have %d", n, n, len(recent))
	}
	if h < 0 {
		return nil, fmt.Errorf("rds: forecast length must be >= 0, got %d", h)
	}
	// window[i] = r(t−1−i) relative to the step being predicted.
	buf := make([]float64, n+h)
	copy(buf, recent[len(recent)-n:])
	for s := range h {
		v := 0.0
		for i, a := range m.Coef {
			v += a * buf[n+s-1-i]
		}
		buf[n+s] = v
	}
	return buf[n:], nil
}

// DefaultARWindow is how many of the most recent observations ARPredictor fits on when
// its Window is 0: RDS predicts from recent history (§4.1), and the least-squares fit
// costs O(window·n²).
const DefaultARWindow = 1024

// ARPredictor refits an AR(Order) model on the last Window observations of the history
// (DefaultARWindow when Window is 0) at every call and iterates it (rds.txt §4.1).
// Forecasts are clipped at 0: a capacity cannot be negative, and a negative r̂_a would
// make the capacity rows of the QP infeasible.
//
// With a short history it degrades instead of failing, so that a controller can run
// from its first interval: with N < 2·Order observations it fits AR(⌊N/2⌋), and with a
// single observation it repeats it (persistence). With no history at all it fails.
type ARPredictor struct {
	Order  int
	Window int
}

// Forecast implements Predictor.
func (p ARPredictor) Forecast(history []float64, h int) ([]float64, error) {
	if p.Order < 1 {
		return nil, fmt.Errorf("rds: AR order must be >= 1, got %d", p.Order)
	}
	if h < 0 {
		return nil, fmt.Errorf("rds: forecast length must be >= 0, got %d", h)
	}
	window := p.Window
	if window <= 0 {
		window = DefaultARWindow
	}
	if len(history) > window {
		history = history[len(history)-window:]
	}
	if len(history) == 0 {
		return nil, errors.New("rds: AR predictor: no capacity history to forecast from")
	}
	n := min(p.Order, len(history)/2)
	var out []float64
	if n == 0 {
		last := history[len(history)-1]
		if math.IsNaN(last) || math.IsInf(last, 0) {
			return nil, fmt.Errorf("rds: AR predictor: last observation %g is not finite", last)
		}
		out = make([]float64, h)
		for i := range out {
			out[i] = last
		}
	} else {
		m, err := FitAR(history, n)
		if err != nil {
			return nil, err
		}
		if out, err = m.Forecast(history, h); err != nil {
			return nil, err
		}
	}
	for i, v := range out {
		out[i] = math.Max(0, v)
	}
	return out, nil
}

// Known is a perfect forecast: the true capacity trace, Known[k] for interval k.
// Intervals past the end of the trace repeat its last value.
type Known []float64

// Forecast implements Predictor.
func (k Known) Forecast(history []float64, h int) ([]float64, error) {
	if len(k) == 0 {
		return nil, errors.New("rds: known capacity trace is empty")
	}
	if h < 0 {
		return nil, fmt.Errorf("rds: forecast length must be >= 0, got %d", h)
	}
	out := make([]float64, h)
	for i := range out {
		out[i] = k[min(len(history)+i, len(k)-1)]
	}
	return out, nil
}

// Green forecasts capacity from weather forecasts (rds.txt §4.2): a grid-powered part
// that is always there, plus resources in proportion to the predicted green power (the
// linear power–resource relation of §4.2, after [22], [23]). Solar power is
// P^solar(k) = B^solar(k)·(1 − CloudCover(k)), wind power is the cubic
// P^wind(k) = a·v^w(k)³ + b; both are clipped at 0.
//
// The series are indexed by interval number: entry i describes interval Start + i.
// Forecast(history, h) starts at interval len(history), so the series must cover
// intervals len(history) … len(history)+h−1. A nil series contributes nothing (a site
// without panels, or without a turbine).
type Green struct {
	Start      int
	Brown      float64   // resources powered from the grid, every interval
	PerKW      float64   // resources per kW of green power
	SolarIdeal []float64 // B^solar(k): kW expected under a clear sky
	CloudCover []float64 // forecast cloud cover, a fraction in [0, 1]
	WindSpeed  []float64 // forecast wind speed v^w(k)
	WindA      float64   // a of the cubic wind power curve
	WindB      float64   // b of the cubic wind power curve
}

// Power is the predicted green power of interval k (solar plus wind), in kW.
func (g *Green) Power(k int) (float64, error) {
	i := k - g.Start
	need := func(name string, s []float64) error {
		if i < 0 || i >= len(s) {
			return fmt.Errorf("rds: green predictor: no %s forecast for interval %d (have intervals %d–%d)",
				name, k, g.Start, g.Start+len(s)-1)
		}
		return nil
	}
	p := 0.0
	if g.SolarIdeal != nil || g.CloudCover != nil {
		if err := need("solar_ideal", g.SolarIdeal); err != nil {
			return 0, err
		}
		if err := need("cloud_cover", g.CloudCover); err != nil {
			return 0, err
		}
		p += math.Max(0, g.SolarIdeal[i]*(1-g.CloudCover[i]))
	}
	if g.WindSpeed != nil {
		if err := need("wind_speed", g.WindSpeed); err != nil {
			return 0, err
		}
		v := g.WindSpeed[i]
		p += math.Max(0, g.WindA*v*v*v+g.WindB)
	}
	if math.IsNaN(p) || math.IsInf(p, 0) {
		return 0, fmt.Errorf("rds: green predictor: power of interval %d is %g", k, p)
	}
	return p, nil
}

// Forecast implements Predictor.
func (g *Green) Forecast(history []float64, h int) ([]float64, error) {
	if h < 0 {
		return nil, fmt.Errorf("rds: forecast length must be >= 0, got %d", h)
	}
	out := make([]float64, h)
	for i := range out {
		p, err := g.Power(len(history) + i)
		if err != nil {
			return nil, err
		}
		out[i] = math.Max(0, g.Brown+g.PerKW*p)
	}
	return out, nil
}

// FitWindCurve fits the cubic wind power curve P = a·v³ + b to observed (speed, power)
// pairs by least squares (rds.txt §4.2 fits it to NREL data the same way).
func FitWindCurve(speed, power []float64) (a, b float64, err error) {
	if len(speed) != len(power) {
		return 0, 0, fmt.Errorf("rds: wind curve: %d speeds but %d powers", len(speed), len(power))
	}
	if len(speed) < 2 {
		return 0, 0, fmt.Errorf("rds: wind curve: need at least 2 observations, have %d", len(speed))
	}
	// Normal equations of the 2-parameter model in centred form (exact and well
	// conditioned for two unknowns): a = cov(v³, P)/var(v³), b = mean(P) − a·mean(v³).
	n := float64(len(speed))
	var mx, my float64
	for i := range speed {
		x := speed[i] * speed[i] * speed[i]
		if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(power[i]) || math.IsInf(power[i], 0) {
			return 0, 0, fmt.Errorf("rds: wind curve: observation %d (%g, %g) is not finite", i, speed[i], power[i])
		}
		mx += x
		my += power[i]
	}
	mx /= n
	my /= n
	var sxx, sxy float64
	for i := range speed {
		dx := speed[i]*speed[i]*speed[i] - mx
		sxx += dx * dx
		sxy += dx * (power[i] - my)
	}
	if !(sxx > 0) {
		return 0, 0, errors.New("rds: wind curve: all wind speeds are equal; a is not identifiable")
	}
	a = sxy / sxx
	return a, my - a*mx, nil
}
