package workload

import (
	"fmt"
	"math/rand/v2"

	"github.com/coraopt/coraopt/sched"
)

// Arrivals draws the release-time family of issue 23: n jobs arriving over the first half
// of the horizon, as every job of a replayed trace does, on one resource. The shape is
// fixed by n so that a scaling series is one family:
//
//   - horizon T = max(200, n/10) slots, capacity C = max(1, n/20) in every slot;
//   - release r ~ U{1..⌊T/2⌋};
//   - demand uniform in 1..2m−1 with m = max(1, round(0.9·C·T/n)), so the resource is
//     loaded to about 90% over the horizon (at most C·(T−⌊T/2⌋+1), which only binds for
//     a handful of jobs);
//   - sigmoid utility (cora.txt eq. 11) with priority ~ U[1, 5), deadline
//     r + U[0, T/2) and decay ~ U[0.05, 0.5), continuous so that values rarely tie;
//   - with capped, max_parallel = ⌈η/D⌉ for a minimal duration D ~ U{1..20}: the job
//     cannot take more than 1/D of its demand in one slot.
//
// The same (n, capped, seed) always gives the same instance. It fails when n < 1 or when
// the draw is not a valid instance.
func Arrivals(n int, capped bool, seed uint64) (*sched.Instance, error) {
	return arrivals(n, arrivalsShape{capped: capped, load: 0.9, decaySpan: 0.45}, seed)
}

// SteepArrivals is Arrivals' shape at 95% load with releases over the first quarter of
// the horizon (r ~ U{1..⌊T/4⌋}), deadlines within 5 slots of the release (d ~ r +
// U[0, 5)), decays ~ U[0.05, 2) and no caps: a family like issue 29's tie instance.
// The backlog makes jobs finish hundreds of slots past their deadlines, and a sigmoid
// p/(1+e^{μ(t−d)}) rounds to exactly 0 in float64 once μ(t−d) > 709.78: at 20,000 jobs
// 275 of the lexmax's utilities are 0 in float64. Peeled on U those jobs tie; ordered by
// ln U (sched.LogUtility) they do not. Where the draw does not fit in T slots (small n:
// the demand is random), the horizon is lengthened at capacity C until it does.
func SteepArrivals(n int, seed uint64) (*sched.Instance, error) {
	return arrivals(n, arrivalsShape{load: 0.95, decaySpan: 1.95, deadlineSpan: 5, releaseSpan: 0.25, kind: "arrivals-steep", stretch: true}, seed)
}

type arrivalsShape struct {
	capped bool
	load   float64
	// decaySpan is the width of the decay's range [0.05, 0.05 + decaySpan), written
	// out so that Arrivals draws exactly what it always drew.
	decaySpan float64
	kind      string // the name's prefix; "" for Arrivals' own
	// releaseSpan draws releases over this fraction of the T slots instead of the first
	// half (0: half).
	releaseSpan float64
	// deadlineSpan is the width of the deadline's range after the release (0: T/2).
	deadlineSpan float64
	// stretch lengthens the horizon (at capacity C) where the draw does not fit in T:
	// at 95% load the demand drawn often exceeds the capacity of short horizons.
	stretch bool
}

// stretchToFit lengthens in's horizon, at capacity C per slot, to the smallest that
// holds every job: max over a of a − 1 + ⌈(demand released in slot a or later)/C⌉
// (Horn's windows [a, T] on one resource of constant capacity).
func stretchToFit(in *sched.Instance, C int) {
	T := in.Horizon
	byRelease := make([]int64, T+2)
	for _, j := range in.Jobs {
		byRelease[j.Release] += int64(j.Demand[0])
	}
	need, suffix := T, int64(0)
	for a := T; a >= 1; a-- {
		suffix += byRelease[a]
		need = max(need, a-1+int((suffix+int64(C)-1)/int64(C)))
	}
	for range need - T {
		in.Resources[0].Capacity = append(in.Resources[0].Capacity, C)
	}
	in.Horizon = need
}

func arrivals(n int, shape arrivalsShape, seed uint64) (*sched.Instance, error) {
	if n < 1 {
		return nil, fmt.Errorf("workload: arrivals instance with %d jobs: need at least 1", n)
	}
	capped := shape.capped
	T := max(200, n/10)
	releaseSpan := T / 2
	if shape.releaseSpan > 0 {
		releaseSpan = int(shape.releaseSpan * float64(T))
	}
	deadlineSpan := float64(T / 2)
	if shape.deadlineSpan > 0 {
		deadlineSpan = shape.deadlineSpan
	}
	C := max(1, n/20)
	m := max(1, int(shape.load*float64(C)*float64(T)/float64(n)+0.5))
	rng := rand.New(rand.NewPCG(seed, 0x61727276))
	capacity := make([]int, T)
	for s := range capacity {
		capacity[s] = C
	}
	kind := "arrivals"
	if capped {
		kind = "arrivals-capped"
	}
	if shape.kind != "" {
		kind = shape.kind
	}
	in := &sched.Instance{Name: fmt.Sprintf("%s-%d-%d", kind, n, seed), Horizon: T, HorizonSource: "file",
		Resources: []sched.Resource{{Name: "containers", Capacity: capacity}}}
	in.Jobs = make([]sched.Job, n)
	for i := range in.Jobs {
		r := 1 + rng.IntN(releaseSpan)
		d := min(1+rng.IntN(2*m-1), C*(T-T/2+1)) // a job released late still fits
		j := sched.Job{
			ID: fmt.Sprintf("j%d", i+1), Demand: []int{d}, Release: r, TaskSlots: 1,
			Utility: sched.Sigmoid{
				Priority: 1 + 4*rng.Float64(),
				Deadline: float64(r) + deadlineSpan*rng.Float64(),
				Decay:    0.05 + shape.decaySpan*rng.Float64(),
			},
		}
		if capped {
			dur := 1 + rng.IntN(20)
			j.MaxParallel = (d + dur - 1) / dur
		}
		in.Jobs[i] = j
	}
	if shape.stretch {
		stretchToFit(in, C)
	}
	if err := in.Validate(); err != nil {
		return nil, fmt.Errorf("workload: generated arrivals instance: %w", err)
	}
	return in, nil
}
