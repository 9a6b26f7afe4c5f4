package sim

import (
	"math"
	"slices"

	"github.com/coraopt/coraopt/workload"
)

// criticalPaths bounds, for every job, when its first task can start and when its last
// task can finish, from its true runtimes alone (see the package doc, "Tightenings").
//
// Stage k of a job runs its n_k tasks on pool p_k. With v_p the fastest speed of p's
// workers and V_p the sum of speeds over p's slots (the most work p can do per second;
// a capacity trace only lowers it), stage k cannot take less than
// D_k = max(max_m r_km / v_p, Σ_m r_km / V_p): its longest task runs whole on one slot,
// and its work is done at a rate of at most V_p. Its tasks start no earlier than S_k
// and finish no earlier than E_k = max(S_k + D_k, E_{k−1}), where
//
//   - S_0 is the job's arrival, or the latest earliest completion E of the jobs in its
//     `after` list if later (it waits for them);
//   - S_k = E_{k−1} without slow start (every task of stage k−1 has finished);
//   - with slow start f, S_k = max(S_{k−1} + q_{k−1}/v_{p_{k−1}}, E_{k−2}): ⌈f·n_{k−1}⌉
//     tasks of stage k−1 have finished, so one of them ran at least the ⌈f·n_{k−1}⌉-th
//     smallest runtime q_{k−1} of its stage, and stage k−1 had become the running stage
//     (stage k−2 had finished); E_k ≥ E_{k−1} because a task started early holds its
//     slot until the previous stage has finished.
//
// A job's completion is its last stage's E or later.
type criticalPaths struct {
	w             *workload.Workload
	fastest, rate []float64
	stages        [][]stageBound
	runtimes      []float64 // scratch for one stage's runtimes
	sorted        []float64 // scratch
}

// stageBound is what the critical path needs of one stage: its pool, its shortest
// duration D and the q of the next stage's slow start (0 without one).
type stageBound struct {
	pool           int
	dur, slowStart float64
}

func newCriticalPaths(w *workload.Workload, fastest, rate []float64) *criticalPaths {
	return &criticalPaths{w: w, fastest: fastest, rate: rate, stages: make([][]stageBound, len(w.Jobs))}
}

// addStage records stage si of job i on pool p from its true runtimes.
func (c *criticalPaths) addStage(i, si, p int, runtimes []float64) {
	longest, sum := 0.0, 0.0
	for _, r := range runtimes {
		longest, sum = max(longest, r), sum+r
	}
	b := stageBound{pool: p, dur: max(longest/c.fastest[p], sum/c.rate[p])}
	if stages := c.w.Jobs[i].Stages; si+1 < len(stages) {
		if f := stages[si+1].SlowStart; f > 0 && f < 1 && len(runtimes) > 0 {
			// The engine's threshold: ⌈f·n⌉ tasks (at least 1).
			k := max(1, int(math.Ceil(f*float64(len(runtimes))-1e-9)))
			c.sorted = append(c.sorted[:0], runtimes...)
			slices.Sort(c.sorted)
			b.slowStart = c.sorted[min(k, len(c.sorted))-1] / c.fastest[p]
		}
	}
	c.stages[i] = append(c.stages[i], b)
	c.runtimes = runtimes
}

// solve returns every job's start S_0 and earliest completion (seconds), with the
// `after` edges unless opts.NoAfterRelease and the stages unless
// opts.NoEarliestCompletion (then the earliest completion is the start), and, unless
// opts.NoStageRelease, poolStart[i][p]: the earliest start of any of job i's stages on
// pool p (+Inf where it has none), each lowered by the float margin.
func (c *criticalPaths) solve(opts BoundOptions) (start, earliest []float64, poolStart [][]float64) {
	n := len(c.w.Jobs)
	start, earliest = make([]float64, n), make([]float64, n)
	if !opts.NoStageRelease {
		poolStart = make([][]float64, n)
	}
	state := make([]uint8, n) // 0 new, 1 on the stack, 2 done
	var ids map[string]int
	for i := range c.w.Jobs {
		if len(c.w.Jobs[i].After) > 0 && ids == nil {
			ids = make(map[string]int, n)
			for k := range c.w.Jobs {
				ids[c.w.Jobs[k].ID] = k
			}
		}
	}
	var visit func(i int)
	visit = func(i int) {
		state[i] = 1
		job := &c.w.Jobs[i]
		s0 := job.Arrival
		if !opts.NoAfterRelease {
			for _, id := range job.After {
				d, ok := ids[id]
				if !ok || state[d] == 1 {
					continue // unknown or cyclic (Validate rejects both): no bound from it
				}
				if state[d] == 0 {
					visit(d)
				}
				s0 = max(s0, earliest[d]-margin(earliest[d]))
			}
		}
		start[i] = s0
		earliest[i] = s0
		var starts []float64
		if poolStart != nil {
			starts = make([]float64, len(c.fastest))
			for p := range starts {
				starts[p] = math.Inf(1)
			}
			poolStart[i] = starts
		}
		// The simulator adds and divides the same runtimes in another order, so its
		// times can fall an ulp or so below the ones computed here: a margin of 1e-9
		// relative keeps them lower bounds.
		e := c.path(i, s0, starts)
		for p, x := range starts {
			if !math.IsInf(x, 1) {
				starts[p] = max(s0, x-margin(x))
			}
		}
		if !opts.NoEarliestCompletion {
			earliest[i] = max(s0, e-margin(e))
		}
		state[i] = 2
	}
	for i := range n {
		if state[i] == 0 {
			visit(i)
		}
	}
	return start, earliest, poolStart
}

// margin is the float margin of a computed time x: 1e-9 relative.
func margin(x float64) float64 { return 1e-9 * (math.Abs(x) + 1) }

// path is E of job i's last stage when its first stage starts at s0; starts (when not
// nil) gets, per pool, the least S_k of the job's stages on it.
func (c *criticalPaths) path(i int, s0 float64, starts []float64) float64 {
	st := c.w.Jobs[i].Stages
	var S, E, ePrev2 float64 // S_k, E_k; ePrev2 = E_{k−2} while computing stage k
	E = s0                   // E_{−1}: stage 0 starts at s0
	ePrev2 = s0
	for k, b := range c.stages[i] {
		switch {
		case k == 0:
			S = s0
		case st[k].SlowStart > 0 && st[k].SlowStart < 1:
			S = max(S+c.stages[i][k-1].slowStart, ePrev2)
		default:
			S = E
		}
		if starts != nil {
			starts[b.pool] = min(starts[b.pool], S)
		}
		ePrev2 = E
		E = max(S+b.dur, E)
	}
	return E
}
