package workload

import (
	"fmt"
	"math/rand/v2"

	"github.com/coraopt/coraopt/formulations/rs"
	"github.com/coraopt/coraopt/sched"
)

// The generators below draw the instance families of `coraopt bench` and the
// benchmarks. Each takes a seed and gives the same instance for the same arguments; the
// second PCG word differs per family so that families with the same seed are
// independent.

// Sigmoid draws n jobs over T slots on one resource loaded to 90%: demands uniform in
// 1..39, sigmoid utilities (cora.txt eq. 11) with priority in [1, 5), deadline in [1, T]
// and decay in [0.05, 0.5), so utilities stay positive over the horizon and rarely tie
// (onion peeling's sweep handles them without branching); task_slots cycle 1..4. The
// capacity is constant, the smallest giving at most 90% load.
func Sigmoid(n, T int, seed uint64) (*sched.Instance, error) {
	rng := rand.New(rand.NewPCG(seed, 0x7461735f))
	in := &sched.Instance{Name: fmt.Sprintf("sigmoid-%d-%d-%d", n, T, seed), Horizon: T, HorizonSource: "file"}
	total := 0
	for j := range n {
		d := 1 + rng.IntN(39)
		total += d
		in.Jobs = append(in.Jobs, sched.Job{
			ID: fmt.Sprintf("j%d", j+1), Demand: []int{d}, Release: 1, TaskSlots: 1 + j%4,
			Utility: sched.Sigmoid{
				Priority: 1 + 4*rng.Float64(),
				Deadline: 1 + float64(T-1)*rng.Float64(),
				Decay:    0.05 + 0.45*rng.Float64(),
			},
		})
	}
	in.Resources = []sched.Resource{{Name: "containers", Capacity: constant(T, ceilDiv(10*total, 9*T))}}
	if err := in.Validate(); err != nil {
		return nil, fmt.Errorf("workload: generated instance: %w", err)
	}
	return in, nil
}

// CORAPaperScaled is CORAPaper with capacity 40 per slot at n = 100 and proportional to
// n otherwise (at least 4), as in cora.txt §III-C.
func CORAPaperScaled(n, T int, seed uint64) (*sched.Instance, error) {
	return CORAPaper(n, T, max(4, 40*n/100), seed)
}

// RSParams are the robustness parameters of the RS family: the 90% quantile within a KL
// ball of 0.7 (rush.txt's evaluation range), references of at most 256 bins.
var RSParams = rs.Params{Theta: 0.9, Delta: 0.7, Bins: 256}

// RSGaussian draws an RS instance: the jobs of Sigmoid(n, T) with a Gaussian runtime
// (per-task mean 1–4 slots, relative spread 10–40%, 2–10 tasks) and nominal demand
// ⌈tasks·mean⌉, the robust block RSParams, and a capacity set so that the worst-case
// demands η from WCDE load the horizon to 90%.
func RSGaussian(n, T int, seed uint64) (*sched.Instance, error) {
	in, err := Sigmoid(n, T, seed)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x72735f5f))
	in.Name = fmt.Sprintf("rs-%d-%d-%d", n, T, seed)
	for j := range in.Jobs {
		mean := 1 + 3*rng.Float64()
		tasks := 2 + rng.IntN(9)
		in.Jobs[j].Runtime = &sched.Runtime{Type: "gaussian", Mean: mean, Std: mean * (0.1 + 0.3*rng.Float64()), Tasks: tasks}
		in.Jobs[j].Demand = []int{ceilDiv(int(float64(tasks)*mean*1000), 1000)}
		in.Jobs[j].TaskSlots = 1
	}
	in.Robust = &sched.Robust{Theta: RSParams.Theta, Delta: RSParams.Delta, Bins: RSParams.Bins}
	ds, err := rs.Demands(in, RSParams)
	if err != nil {
		return nil, fmt.Errorf("workload: generated RS instance: %w", err)
	}
	var eta int64
	for _, d := range ds {
		eta += d.Eta
	}
	in.Resources[0].Capacity = constant(T, ceilDiv(int(10*eta), 9*T))
	if err := in.Validate(); err != nil {
		return nil, fmt.Errorf("workload: generated RS instance: %w", err)
	}
	return in, nil
}

// WCDEReferences draws k reference runtime distributions of exactly `bins` bins:
// quantized Gaussians with random means and spreads, as the estimators produce them,
// padded to `bins` (the width rounding may leave a few bins unused).
func WCDEReferences(k, bins int, seed uint64) ([][]float64, error) {
	rng := rand.New(rand.NewPCG(seed, 0x77636465))
	out := make([][]float64, k)
	for i := range out {
		mean := 200 + 800*rng.Float64()
		ref, err := rs.Gaussian(mean, mean*(0.05+0.2*rng.Float64()), rs.Quantization{Bins: bins})
		if err != nil {
			return nil, fmt.Errorf("workload: WCDE reference: %w", err)
		}
		p := ref.Probs()
		out[i] = append(p, make([]float64, bins-len(p))...)
	}
	return out, nil
}

func constant(T, c int) []int {
	out := make([]int, T)
	for t := range out {
		out[t] = c
	}
	return out
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
