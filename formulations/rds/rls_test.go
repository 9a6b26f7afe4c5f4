package rds

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

type observation struct {
	u  Alloc
	dy float64
}

// weightedLS solves the problem RLS minimizes recursively (see RLS): exponentially
// weighted least squares with the prior g0, p0·I as a regularizer of weight λ^N.
// It returns the estimate and the matrix M⁻¹ = (λ^N/p0·I + Σ w_k φ_k φ_kᵀ)⁻¹.
func weightedLS(obs []observation, g0 Gain, p0, lambda float64) (Gain, *mat.Dense) {
	n := len(obs)
	prior := math.Pow(lambda, float64(n)) / p0
	m := mat.NewDense(2, 2, []float64{prior, 0, 0, prior})
	r := mat.NewVecDense(2, []float64{prior * g0.Map, prior * g0.Reduce})
	for k, o := range obs {
		w := math.Pow(lambda, float64(n-1-k))
		phi := []float64{o.u.Map, o.u.Reduce}
		for a := range 2 {
			r.SetVec(a, r.AtVec(a)+w*phi[a]*o.dy)
			for b := range 2 {
				m.Set(a, b, m.At(a, b)+w*phi[a]*phi[b])
			}
		}
	}
	var inv mat.Dense
	if err := inv.Inverse(m); err != nil {
		panic(err)
	}
	var g mat.VecDense
	g.MulVec(&inv, r)
	return Gain{Map: g.AtVec(0), Reduce: g.AtVec(1)}, &inv
}

func noisyObservations(rng *rand.Rand, g Gain, n int, sigma float64) []observation {
	obs := make([]observation, n)
	for k := range obs {
		u := Alloc{Map: 0.5 + 9.5*rng.Float64(), Reduce: 0.5 + 9.5*rng.Float64()}
		obs[k] = observation{u: u, dy: g.Map*u.Map + g.Reduce*u.Reduce + sigma*rng.NormFloat64()}
	}
	return obs
}

// TestRLSMatchesWeightedLeastSquares: the recursion equals the batch solution of the
// criterion it minimizes (eq. 10's exponentially weighted form), for λ = 1 and λ < 1.
func TestRLSMatchesWeightedLeastSquares(t *testing.T) {
	for _, lambda := range []float64{1, 0.95, 0.8} {
		rng := rand.New(rand.NewPCG(1, uint64(lambda*100)))
		obs := noisyObservations(rng, Gain{Map: 2, Reduce: 0.7}, 60, 0.3)
		g0, p0 := Gain{Map: 1, Reduce: 1}, 10.0
		r, err := NewRLS(g0, p0, lambda)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range obs {
			if _, err := r.Update(o.u, o.dy); err != nil {
				t.Fatal(err)
			}
			if c := r.Covariance(); c[0][0] >= 2*p0 || c[1][1] >= 2*p0 {
				t.Fatalf("λ = %g: the variance cap was reached; the recursion is no longer exact", lambda)
			}
		}
		want, _ := weightedLS(obs, g0, p0, lambda)
		got := r.Gain()
		if !near(got.Map, want.Map, 1e-9) || !near(got.Reduce, want.Reduce, 1e-9) {
			t.Errorf("λ = %g: RLS %+v, batch weighted least squares %+v", lambda, got, want)
		}
		if r.Observations() != len(obs) {
			t.Errorf("λ = %g: %d observations counted, want %d", lambda, r.Observations(), len(obs))
		}
	}
}

// TestRLSRecoversGains: from noisy synthetic progress (σ = 0.5 work units per interval,
// allocations uniform in [0.5, 10]) RLS recovers known gains. The tolerance is four
// standard errors of the weighted estimator, computed from the data: σ²·M⁻¹ΣW²φφᵀM⁻¹
// (for λ = 1 that is σ²(ΦᵀΦ)⁻¹, about 0.004² here).
func TestRLSRecoversGains(t *testing.T) {
	truth := Gain{Map: 2.5, Reduce: 0.8}
	const sigma = 0.5
	for _, lambda := range []float64{1, 0.98} {
		rng := rand.New(rand.NewPCG(42, 7))
		obs := noisyObservations(rng, truth, 400, sigma)
		r, err := NewRLS(Gain{}, 1e3, lambda)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range obs {
			if _, err := r.Update(o.u, o.dy); err != nil {
				t.Fatal(err)
			}
		}
		_, minv := weightedLS(obs, Gain{}, 1e3, lambda)
		// Covariance of the weighted estimator: σ² M⁻¹ (Σ w_k² φφᵀ) M⁻¹.
		s := mat.NewDense(2, 2, nil)
		for k, o := range obs {
			w := math.Pow(lambda, float64(len(obs)-1-k))
			phi := []float64{o.u.Map, o.u.Reduce}
			for a := range 2 {
				for b := range 2 {
					s.Set(a, b, s.At(a, b)+w*w*phi[a]*phi[b])
				}
			}
		}
		var cov mat.Dense
		cov.Product(minv, s, minv)
		se := []float64{sigma * math.Sqrt(cov.At(0, 0)), sigma * math.Sqrt(cov.At(1, 1))}
		g := r.Gain()
		if math.Abs(g.Map-truth.Map) > 4*se[0] || math.Abs(g.Reduce-truth.Reduce) > 4*se[1] {
			t.Errorf("λ = %g: estimate %+v, truth %+v, standard errors %.4g", lambda, g, truth, se)
		}
		t.Logf("λ = %g: estimate %.4f/%.4f, standard errors %.4f/%.4f", lambda, g.Map, g.Reduce, se[0], se[1])
	}
}

// TestRLSForgettingTracksAChange: when a job's gains change (a new phase), forgetting
// lets the estimate follow within a few dozen intervals; without forgetting (λ = 1)
// the old data keep it far off.
func TestRLSForgettingTracksAChange(t *testing.T) {
	before, after := Gain{Map: 3, Reduce: 0.2}, Gain{Map: 0.5, Reduce: 2}
	errAfter := func(lambda float64) float64 {
		rng := rand.New(rand.NewPCG(3, 3))
		r, err := NewRLS(Gain{}, 100, lambda)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range append(noisyObservations(rng, before, 200, 0.1), noisyObservations(rng, after, 60, 0.1)...) {
			if _, err := r.Update(o.u, o.dy); err != nil {
				t.Fatal(err)
			}
		}
		g := r.Gain()
		return math.Max(math.Abs(g.Map-after.Map), math.Abs(g.Reduce-after.Reduce))
	}
	if e := errAfter(0.9); e > 0.05 {
		t.Errorf("λ = 0.9: estimate %.3g off the new gains 60 intervals after the change", e)
	}
	if e := errAfter(1); e < 0.3 {
		t.Errorf("λ = 1: estimate only %.3g off 60 intervals after the change; forgetting should matter", e)
	}
}

// TestRLSUnexcitedDirection: during a map phase the reduce input is always 0. The
// reduce gain keeps its prior, intervals without any resources are skipped, and the
// covariance stays bounded (no wind-up) however long it lasts, without slowing down
// the map gain, which is learned exactly.
func TestRLSUnexcitedDirection(t *testing.T) {
	r, err := NewRLS(Gain{Map: 1, Reduce: 0.7}, 10, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 1000 {
		u := Alloc{Map: float64(1 + k%5)}
		if k%7 == 0 {
			u = Alloc{}
		}
		if _, err := r.Update(u, 2*u.Map); err != nil {
			t.Fatal(err)
		}
	}
	g, c := r.Gain(), r.Covariance()
	if math.Abs(g.Map-2) > 1e-12 || g.Reduce != 0.7 {
		t.Errorf("gains %+v, want map 2 (learned) and reduce 0.7 (the prior, never excited)", g)
	}
	if c[1][1] > 20*(1+1e-12) {
		t.Errorf("reduce variance %g exceeds its cap 2·p0 = 20", c[1][1])
	}
	if want := 1000 - (1000+6)/7; r.Observations() != want {
		t.Errorf("%d observations, want %d (intervals without resources skipped)", r.Observations(), want)
	}
}

func TestRLSErrors(t *testing.T) {
	for _, tc := range []struct {
		g      Gain
		p0, lb float64
	}{{Gain{}, 1, 0}, {Gain{}, 1, 1.1}, {Gain{}, 0, 0.9}, {Gain{}, math.Inf(1), 0.9}, {Gain{Map: math.NaN()}, 1, 0.9}} {
		if _, err := NewRLS(tc.g, tc.p0, tc.lb); err == nil {
			t.Errorf("NewRLS(%+v, %g, %g): no error", tc.g, tc.p0, tc.lb)
		}
	}
	r, _ := NewRLS(Gain{Map: 1}, 1, 1)
	if _, err := r.Update(Alloc{Map: math.Inf(1)}, 1); err == nil {
		t.Error("Update with an infinite allocation: no error")
	}
	if _, err := r.Update(Alloc{Map: 1}, math.NaN()); err == nil {
		t.Error("Update with NaN progress: no error")
	}
	if g := r.Gain(); g.Map != 1 {
		t.Errorf("rejected updates changed the estimate to %+v", g)
	}
}
