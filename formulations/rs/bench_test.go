package rs

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchRefs returns jobs reference distributions of exactly `bins` bins each: quantized
// Gaussians with random means and spreads, as the estimators produce them.
func benchRefs(b *testing.B, jobs, bins int) [][]float64 {
	b.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	out := make([][]float64, jobs)
	for i := range out {
		mean := 200 + 800*rng.Float64()
		ref, err := Gaussian(mean, mean*(0.05+0.2*rng.Float64()), Quantization{Bins: bins})
		if err != nil {
			b.Fatal(err)
		}
		p := ref.Probs()
		// Pad to exactly `bins` (the width rounding may leave a few bins unused).
		out[i] = append(p, make([]float64, bins-len(p))...)
	}
	return out
}

// BenchmarkWCDE measures WCDE for many jobs. The top-level case is the whole cost from
// bin probabilities to η: the O(bins) prefix sums of NewPMF plus the O(log bins)
// bisection per job. part=prefix and part=bisection split it. Two references measured in
// the same run: part=read-reference sums every input probability once (a floor for any
// method that reads its input), part=scan replaces Alg. 2 by a linear scan over all bins.
//
//	go test ./formulations/rs -run '^$' -bench 'WCDE|Quantize' -benchmem
func BenchmarkWCDE(b *testing.B) {
	const theta, delta = 0.9, 0.7
	for _, size := range []struct{ jobs, bins int }{{1000, 1000}, {1000, 100}, {100, 10000}} {
		raw := benchRefs(b, size.jobs, size.bins)
		name := fmt.Sprintf("jobs=%d,bins=%d", size.jobs, size.bins)
		pmfs := make([]*PMF, len(raw))
		for i, p := range raw {
			var err error
			if pmfs[i], err = NewPMF(1, p); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(name, func(b *testing.B) {
			reportCPU(b, func() {
				for _, p := range raw {
					ref, err := NewPMF(1, p)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := WorstCaseDemand(ref, theta, delta); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
		b.Run(name+",part=prefix", func(b *testing.B) {
			reportCPU(b, func() {
				for _, p := range raw {
					if _, err := NewPMF(1, p); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
		b.Run(name+",part=bisection", func(b *testing.B) {
			reportCPU(b, func() {
				if _, err := WorstCaseDemands(pmfs, theta, []float64{delta}); err != nil {
					b.Fatal(err)
				}
			})
		})
		// A floor for anything that reads the input once: sum every probability.
		b.Run(name+",part=read-reference", func(b *testing.B) {
			var sink float64
			reportCPU(b, func() {
				for _, p := range raw {
					for _, v := range p {
						sink += v
					}
				}
			})
			if sink < 0 {
				b.Fatal(sink)
			}
		})
		b.Run(name+",part=scan", func(b *testing.B) {
			reportCPU(b, func() {
				for _, ref := range pmfs {
					if _, err := WorstCaseDemandScan(ref, theta, delta); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkQuantize measures building the references themselves: a Gaussian costs one
// erfc per bin edge (plus NewPMF); an empirical estimate adds a pass over its samples.
func BenchmarkQuantize(b *testing.B) {
	const jobs, bins = 1000, 1000
	rng := rand.New(rand.NewPCG(3, 4))
	means := make([]float64, jobs)
	for i := range means {
		means[i] = 200 + 800*rng.Float64()
	}
	q := Quantization{Bins: bins, Theta: 0.9, MaxDelta: 0.7}
	b.Run(fmt.Sprintf("gaussian,jobs=%d,bins=%d", jobs, bins), func(b *testing.B) {
		reportCPU(b, func() {
			for _, m := range means {
				if _, err := Gaussian(m, 0.1*m, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
	samples := make([]float64, 50)
	for i := range samples {
		samples[i] = 60 + 20*rng.NormFloat64()
	}
	b.Run(fmt.Sprintf("empirical,jobs=%d,bins=%d,samples=50", jobs, bins), func(b *testing.B) {
		reportCPU(b, func() {
			for range jobs {
				if _, err := Empirical(samples, 100, q); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}
