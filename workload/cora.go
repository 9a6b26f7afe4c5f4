package workload

import (
	"fmt"
	"math/rand/v2"

	"github.com/coraopt/coraopt/sched"
)

// CORAPaper draws an instance shaped like cora.txt §III-C: n jobs on one resource of
// capacity c in every one of T slots, sigmoid utilities (eq. 11) with priority
// p ~ U[1, 5], deadline d ~ U{1..T} and decay μ from the paper's three classes — 20%
// completion-time critical (μ ~ U[4, 6]), 60% sensitive (μ ~ U[0.01, 1]), 20% insensitive
// (μ = 0) — and demands uniform in 1..2cT/n − 1 (about half the room c·T on average),
// capped so that the total fits c·T with at least one unit left for every later job.
// It fails when n < 1, T < 1 or c·T < n (no room for one unit per job).
func CORAPaper(n, T, c int, seed uint64) (*sched.Instance, error) {
	if n < 1 || T < 1 || c < 1 || c*T < n {
		return nil, fmt.Errorf("workload: CORA paper instance with %d jobs, %d slots, capacity %d: need n, T, c ≥ 1 and c·T ≥ n", n, T, c)
	}
	rng := rand.New(rand.NewPCG(seed, 0x636f7261))
	capacity := make([]int, T)
	for s := range capacity {
		capacity[s] = c
	}
	in := &sched.Instance{Name: fmt.Sprintf("paper-%d-%d-%d-%d", n, T, c, seed), Horizon: T, HorizonSource: "file",
		Resources: []sched.Resource{{Name: "containers", Capacity: capacity}}}
	room := c * T
	maxDemand := max(1, 2*room/n-1)
	total := 0
	for i := range n {
		decay := coraDecay(rng)
		d := 1 + rng.IntN(maxDemand)
		d = min(d, room-total-(n-1-i)) // leave a unit for every later job
		total += d
		in.Jobs = append(in.Jobs, sched.Job{
			ID: fmt.Sprintf("j%d", i+1), Demand: []int{d}, Release: 1, TaskSlots: 1,
			Utility: sched.Sigmoid{Priority: 1 + 4*rng.Float64(), Deadline: float64(1 + rng.IntN(T)), Decay: decay},
		})
	}
	if err := in.Validate(); err != nil {
		return nil, fmt.Errorf("workload: generated CORA paper instance: %w", err)
	}
	return in, nil
}

// coraDecay draws a sigmoid decay μ from cora.txt §III-C's classes: 20% completion-time
// critical (μ ~ U[4, 6]), 60% sensitive (μ ~ U[0.01, 1]), 20% insensitive (μ = 0).
func coraDecay(rng *rand.Rand) float64 {
	switch x := rng.Float64(); {
	case x < 0.2:
		return classDecay(0, rng)
	case x < 0.8:
		return classDecay(1, rng)
	}
	return classDecay(2, rng)
}

// classDecay draws μ within class k (0 critical, 1 sensitive, 2 insensitive). The
// classes' ranges are disjoint, so a job's class is read back from its decay (critical
// μ ≥ 4, sensitive 0 < μ ≤ 1, insensitive μ = 0) and needs no field of its own.
func classDecay(k int, rng *rand.Rand) float64 {
	switch k {
	case 0:
		return 4 + 2*rng.Float64()
	case 1:
		return 0.01 + 0.99*rng.Float64()
	}
	return 0
}

// CTClass is a job's completion-time class as cora.txt §III-C names them, read from a
// sigmoid's decay (critical μ ≥ 4, sensitive 0 < μ < 4, insensitive μ = 0); a job with
// another utility is in "all jobs".
func CTClass(u sched.Utility) string {
	if s, ok := u.(sched.Sigmoid); ok {
		switch {
		case s.Decay >= 4:
			return "critical"
		case s.Decay > 0:
			return "sensitive"
		}
		return "insensitive"
	}
	return "all jobs"
}
