package rs

import (
	"math"
	"testing"
)

func TestREMClosedFormCases(t *testing.T) {
	quarter := mustPMF(t, 1, 1, 1, 1, 1) // Φ = .25 .5 .75 1
	tests := []struct {
		name  string
		p     *PMF
		L     int
		theta float64
		want  float64
	}{
		{"reference feasible", quarter, 1, 0.5, 0},
		{"reference feasible below theta", quarter, 0, 0.3, 0},
		{"rescale both groups", quarter, 2, 0.5, 0.5*math.Log(0.5/0.75) + 0.5*math.Log(0.5/0.25)},
		{"rescale, theta small", quarter, 0, 0.1, 0.1*math.Log(0.1/0.25) + 0.9*math.Log(0.9/0.75)},
		{"last bin infeasible", quarter, 3, 0.99, math.Inf(1)},
		{"no mass above", mustPMF(t, 1, 0.5, 0.5, 0, 0), 1, 0.9, math.Inf(1)},
		{"zero-mass prefix", mustPMF(t, 1, 0, 0, 1), 1, 0.01, 0},
		{"impulse below", mustPMF(t, 1, 0, 0, 1), 2, 0.5, math.Inf(1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.p.REM(tc.L, tc.theta)
			if !(got == tc.want || math.Abs(got-tc.want) <= 1e-15) {
				t.Fatalf("REM(%d, %v) = %v, want %v", tc.L, tc.theta, got, tc.want)
			}
			p, kl := tc.p.REMSolution(tc.L, tc.theta)
			if math.IsInf(tc.want, 1) {
				if p != nil || !math.IsInf(kl, 1) {
					t.Fatalf("REMSolution = %v, %v; want nil, +Inf", p, kl)
				}
				return
			}
			var sum, prefix float64
			for l, q := range p {
				sum += q
				if l <= tc.L {
					prefix += q
				}
			}
			direct, err := tc.p.KL(p)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(sum-1) > 1e-15 || prefix > tc.theta+1e-15 || math.Abs(direct-got) > 1e-15 {
				t.Fatalf("Alg. 1 solution %v: sum %v, prefix %v (theta %v), KL %v vs closed form %v", p, sum, prefix, tc.theta, direct, got)
			}
		})
	}
}

// An independent oracle for 3-bin references: minimize KL over a 2-D grid of the
// probability simplex under Σ_{l≤L} p_l ≤ θ, refined around the best grid point.
func TestREMAgainstGridSearch(t *testing.T) {
	refs := [][]float64{{0.2, 0.3, 0.5}, {0.6, 0.3, 0.1}, {0.05, 0.9, 0.05}, {0.5, 0, 0.5}}
	for _, probs := range refs {
		p := mustPMF(t, 1, probs...)
		for _, theta := range []float64{0.1, 0.35, 0.5, 0.8} {
			for L := range 3 {
				closed := p.REM(L, theta)
				grid := gridREM(p, L, theta)
				if math.IsInf(closed, 1) != math.IsInf(grid, 1) || (!math.IsInf(closed, 1) && math.Abs(closed-grid) > 1e-7) {
					t.Errorf("ref %v theta %v L %d: closed form %v, grid %v", probs, theta, L, closed, grid)
				}
			}
		}
	}
}

func gridREM(p *PMF, L int, theta float64) float64 {
	best := math.Inf(1)
	var b0, b1 float64
	eval := func(x, y float64) {
		if x < 0 || y < 0 || x+y > 1 {
			return
		}
		q := []float64{x, y, 1 - x - y}
		var prefix float64
		for l := 0; l <= L; l++ {
			prefix += q[l]
		}
		if prefix > theta+1e-15 {
			return
		}
		kl, _ := p.KL(q)
		if kl < best {
			best, b0, b1 = kl, x, y
		}
	}
	const n = 400
	for i := 0; i <= n; i++ {
		for j := 0; i+j <= n; j++ {
			eval(float64(i)/n, float64(j)/n)
		}
	}
	// Refine around the best point, keeping the constraint's boundary in view.
	for h := 1.0 / n; h > 1e-12; h /= 4 {
		c0, c1 := b0, b1
		for i := -8; i <= 8; i++ {
			for j := -8; j <= 8; j++ {
				eval(c0+float64(i)*h/4, c1+float64(j)*h/4)
			}
		}
		// Points on the constraint Σ_{l≤L} = θ.
		switch L {
		case 0:
			for j := -8; j <= 8; j++ {
				eval(theta, c1+float64(j)*h/4)
			}
		case 1:
			for i := -8; i <= 8; i++ {
				eval(c0+float64(i)*h/4, theta-c0-float64(i)*h/4)
			}
		}
	}
	return best
}

func TestBinaryKL(t *testing.T) {
	if got := BinaryKL(0.3, 0.3); got != 0 {
		t.Errorf("d(0.3‖0.3) = %v", got)
	}
	if got := BinaryKL(0, 0.5); math.Abs(got-math.Log(2)) > 1e-15 {
		t.Errorf("d(0‖0.5) = %v, want ln 2", got)
	}
	if got := BinaryKL(0.5, 1); !math.IsInf(got, 1) {
		t.Errorf("d(0.5‖1) = %v, want +Inf", got)
	}
}

func TestWorstCaseTail(t *testing.T) {
	for _, theta := range []float64{0.01, 0.5, 0.9, 0.99, 0.999999} {
		for _, delta := range []float64{0, 1e-9, 0.1, 0.7, 2, 10} {
			b, err := WorstCaseTail(theta, delta)
			if err != nil {
				t.Fatal(err)
			}
			if delta == 0 {
				if b != 1-theta {
					t.Errorf("theta %v: b*(0) = %v, want %v", theta, b, 1-theta)
				}
				continue
			}
			if b == 0 {
				continue // below the smallest float64; checked below
			}
			got := theta*math.Log(theta/(1-b)) + (1-theta)*math.Log((1-theta)/b)
			if math.Abs(got-delta) > 1e-12*math.Max(1, delta) {
				t.Errorf("theta %v delta %v: d(theta‖1-b*) = %v with b* = %g", theta, delta, got, b)
			}
		}
	}
	// θ = 0.99, δ = 10 puts the worst case at about 0.01·e^{-1000}: below float64.
	if b, _ := WorstCaseTail(0.99, 10); b != 0 {
		t.Errorf("b*(0.99, 10) = %g, want 0 (underflow)", b)
	}
	for _, bad := range [][2]float64{{0, 1}, {1, 1}, {0.5, -1}, {0.5, math.Inf(1)}, {math.NaN(), 1}, {0.5, math.NaN()}} {
		if _, err := WorstCaseTail(bad[0], bad[1]); err == nil {
			t.Errorf("WorstCaseTail(%v, %v): no error", bad[0], bad[1])
		}
	}
}
