package bench

import (
	"fmt"
	"math/rand/v2"

	"github.com/coraopt/coraopt/formulations/rs"
	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// The generators below draw the instance families of the suites. Each takes a seed and
// gives the same instance for the same arguments; the second PCG word differs per family
// so that families with the same seed are independent.

// sigmoidInstance draws n jobs over T slots on one resource loaded to 90%: demands
// uniform in 1..39, sigmoid utilities (cora.txt eq. 11) with priority in [1, 5),
// deadline in [1, T] and decay in [0.05, 0.5), so utilities stay positive over the
// horizon and rarely tie (onion peeling's sweep handles them without branching). The
// capacity is constant, the smallest giving at most 90% load.
func sigmoidInstance(n, T int, seed uint64) (*sched.Instance, error) {
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
		return nil, fmt.Errorf("bench: generated instance: %w", err)
	}
	return in, nil
}

// paperInstance is workload.CORAPaper with capacity 40 per slot at n = 100 and
// proportional to n otherwise (at least 4), as in cora.txt §III-C.
func paperInstance(n, T int, seed uint64) (*sched.Instance, error) {
	in, err := workload.CORAPaper(n, T, max(4, 40*n/100), seed)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	return in, nil
}

// rsParams are the robustness parameters of the RS family: the 90% quantile within a KL
// ball of 0.7 (rush.txt's evaluation range), references of at most 256 bins.
var rsParams = rs.Params{Theta: 0.9, Delta: 0.7, Bins: 256}

// rsInstance draws an RS instance: the jobs of sigmoidInstance(n, T) with a Gaussian
// runtime (per-task mean 1–4 slots, relative spread 10–40%, 2–10 tasks) and nominal
// demand ⌈tasks·mean⌉, and a capacity set so that the worst-case demands η from WCDE
// load the horizon to 90%.
func rsInstance(n, T int, seed uint64) (*sched.Instance, error) {
	in, err := sigmoidInstance(n, T, seed)
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
	in.Robust = &sched.Robust{Theta: rsParams.Theta, Delta: rsParams.Delta, Bins: rsParams.Bins}
	ds, err := rs.Demands(in, rsParams)
	if err != nil {
		return nil, fmt.Errorf("bench: generated RS instance: %w", err)
	}
	var eta int64
	for _, d := range ds {
		eta += d.Eta
	}
	in.Resources[0].Capacity = constant(T, ceilDiv(int(10*eta), 9*T))
	if err := in.Validate(); err != nil {
		return nil, fmt.Errorf("bench: generated RS instance: %w", err)
	}
	return in, nil
}

// wcdeReferences draws k reference distributions of exactly `bins` bins: quantized
// Gaussians with random means and spreads, as the estimators produce them, padded to
// `bins` (the width rounding may leave a few bins unused).
func wcdeReferences(k, bins int, seed uint64) ([][]float64, error) {
	rng := rand.New(rand.NewPCG(seed, 0x77636465))
	out := make([][]float64, k)
	for i := range out {
		mean := 200 + 800*rng.Float64()
		ref, err := rs.Gaussian(mean, mean*(0.05+0.2*rng.Float64()), rs.Quantization{Bins: bins})
		if err != nil {
			return nil, fmt.Errorf("bench: WCDE reference: %w", err)
		}
		p := ref.Probs()
		out[i] = append(p, make([]float64, bins-len(p))...)
	}
	return out, nil
}

// maxMinMIP is the first step of TAS's lexicographic maximization as one MIP: the
// time-indexed model of tas.BuildMIP with a level z ≤ u_i for every job, maximized. Its
// optimum is the lowest utility of the lexmax optimum, the level onion peeling's first
// layer reaches.
func maxMinMIP(in *sched.Instance) (*model.Problem, error) {
	mip, err := tas.BuildMIP(in)
	if err != nil {
		return nil, err
	}
	m := mip.Model
	lo, hi := 0.0, 0.0
	for i, row := range in.UtilityTable() {
		for t, u := range row {
			if (i == 0 && t == 0) || u < lo {
				lo = u
			}
			if (i == 0 && t == 0) || u > hi {
				hi = u
			}
		}
	}
	z := m.Continuous(lo, hi, "level")
	for i, u := range mip.Outcomes {
		e := u.Clone()
		e.AddTerm(z, -1)
		m.AddGe(e, 0, fmt.Sprintf("level[%s]", in.Jobs[i].ID))
	}
	m.Maximize(z.E())
	p, err := m.Compile()
	if err != nil {
		return nil, fmt.Errorf("bench: max-min MIP: %w", err)
	}
	return p, nil
}

func constant(T, c int) []int {
	out := make([]int, T)
	for t := range out {
		out[t] = c
	}
	return out
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
