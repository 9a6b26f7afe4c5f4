package sim

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// BoundResult is the offline bound of a workload's trace (see the package doc).
type BoundResult struct {
	SortedUtilities []float64 `json:"sorted_utilities"`
	MinUtility      float64   `json:"min_utility"`
	SumUtility      float64   `json:"sum_utility"`
	SlotSeconds     float64   `json:"slot_seconds"`
	Slots           int       `json:"slots"`
	Method          string    `json:"method"`
	// Exact is false when OnionPeel had to decide a stalled layer by its fallback rule
	// (tied utility values past its branch budget): the vector is then not proven
	// lexmax, and so not a proven bound.
	Exact bool `json:"exact"`
	// CoversRejections is false when some pool's capacity ends at 0 while jobs still
	// need it, so the horizon has no room for a rejected job's work after every run:
	// the bound then holds only for runs that reject nothing.
	CoversRejections bool `json:"covers_rejections"`
}

// MaxBoundCells bounds jobs × slots of the relaxation (its utility tables).
const MaxBoundCells = 1 << 24

// Bound computes the offline bound of w's trace under seed with slots of s seconds.
// until must be at least the latest completion time of every run it is to bound (the
// largest makespan); the horizon reaches past it far enough for every job's work.
func Bound(ctx context.Context, w *workload.Workload, seed uint64, s, until float64) (*BoundResult, error) {
	if !(s > 0) || math.IsInf(s, 0) || !(until >= 0) || math.IsInf(until, 0) {
		return nil, fmt.Errorf("sim: bound needs a slot length > 0 and a finite horizon, got %g and %g", s, until)
	}
	np := len(w.Cluster.Pools)
	fastest, slowest := make([]float64, np), make([]float64, np)
	for k := range slowest {
		slowest[k] = math.Inf(1)
	}
	for _, wk := range w.Cluster.Workers {
		for name, n := range wk.Slots {
			if p := w.Cluster.PoolIndex(name); n > 0 {
				fastest[p] = max(fastest[p], wk.Speed)
				slowest[p] = min(slowest[p], wk.Speed)
			}
		}
	}
	// True work per job and pool at the fastest speed; the longest hold per pool.
	work := make([][]float64, len(w.Jobs))
	longest := make([]float64, np)
	for i := range w.Jobs {
		work[i] = make([]float64, np)
		stream := workload.JobStream(seed, w.Jobs[i].ID)
		for si := range w.Jobs[i].Stages {
			st := &w.Jobs[i].Stages[si]
			p := w.Cluster.PoolIndex(st.Pool)
			if fastest[p] == 0 {
				return nil, fmt.Errorf("sim: bound: job %s needs pool %q, which has no slots", w.Jobs[i].ID, st.Pool)
			}
			for t := range st.Tasks {
				r := workload.TaskRuntime(stream, st, si, t)
				work[i][p] += r / fastest[p]
				longest[p] = max(longest[p], r/slowest[p])
			}
			if st.SlowStart < 1 && si > 0 {
				// A task started under slow start may hold its slot while the previous
				// stage runs, for a time no trace bounds in advance.
				longest[p] = math.Inf(1)
			}
		}
	}
	demand := make([][]int, len(w.Jobs))
	total := make([]int, np)
	for i := range w.Jobs {
		demand[i] = make([]int, np)
		for p := range np {
			// The tolerance keeps a work of exactly k·s from rounding to k−1 through
			// float error; it can only lower the demand, which keeps the relaxation a
			// relaxation.
			units := math.Floor(work[i][p]/s + 1e-9)
			if units > sched.MaxQuantity {
				return nil, fmt.Errorf("sim: bound: job %s needs %g slot-units of %g s; use a longer --slot", w.Jobs[i].ID, units, s)
			}
			demand[i][p] = int(units)
			total[p] += demand[i][p]
		}
	}
	covers := true
	extra := 0
	for p := range np {
		end := capacityAt(w, p, math.Inf(1))
		switch {
		case total[p] == 0:
		case end == 0:
			covers = false
		default:
			extra = max(extra, (total[p]+end-1)/end)
		}
	}
	if slots := math.Ceil(until/s) + float64(extra) + 1; slots > sched.MaxHorizon {
		return nil, fmt.Errorf("sim: bound: %g slots of %g s exceed the limit of %d; use a longer --slot", slots, s, sched.MaxHorizon)
	}
	T := int(math.Ceil(until/s)) + extra + 1
	if cells := T * (len(w.Jobs) + np); cells > MaxBoundCells {
		return nil, fmt.Errorf("sim: bound: %d slots of %g s for %d jobs is too large (limit %d cells); use a longer --slot", T, s, len(w.Jobs), MaxBoundCells)
	}
	in := &sched.Instance{Name: w.Name + " (relaxation)", Horizon: T, HorizonSource: "file"}
	for p := range np {
		in.Resources = append(in.Resources, sched.Resource{Name: w.Cluster.Pools[p].Name, Capacity: windowCapacity(w, p, s, longest[p], T)})
	}
	var fixed []float64 // utilities of jobs with no demand left after rounding
	var index []int
	for i := range w.Jobs {
		if slices.Max(demand[i]) == 0 {
			fixed = append(fixed, w.UtilityAt(i, w.Jobs[i].Arrival))
			continue
		}
		vals := make([]float64, T)
		for t := 1; t <= T; t++ {
			vals[t-1] = w.UtilityAt(i, float64(t-1)*s)
		}
		in.Jobs = append(in.Jobs, sched.Job{ID: w.Jobs[i].ID, Demand: demand[i], Release: int(math.Floor(w.Jobs[i].Arrival/s)) + 1,
			TaskSlots: 1, Utility: sched.Table{Values: vals}})
		index = append(index, i)
	}
	res := &BoundResult{SlotSeconds: s, Slots: T, Method: "onion-peel (formulations/tas, release times)", Exact: true, CoversRejections: covers}
	levels := fixed
	if len(in.Jobs) > 0 {
		if err := in.Validate(); err != nil {
			return nil, fmt.Errorf("sim: bound: relaxation instance: %w", err)
		}
		lv, exact, err := lexmax(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("sim: bound: %w", err)
		}
		res.Exact = exact
		levels = append(levels, lv...)
	}
	slices.Sort(levels)
	res.SortedUtilities = levels
	res.MinUtility = levels[0]
	for _, u := range levels {
		res.SumUtility += u
	}
	return res, nil
}

// lexmax is the one call into the TAS solver: the exact lexmax levels of the
// relaxation and whether OnionPeel proved them. It is kept apart so the call can move
// to the solve package's entry point without touching the relaxation.
func lexmax(ctx context.Context, in *sched.Instance) ([]float64, bool, error) {
	r, err := tas.OnionPeel(ctx, in, tas.Options{NoSchedule: true})
	if err != nil {
		return nil, false, err
	}
	return slices.Clone(r.Levels), r.Exact, nil
}

// windowCapacity is pool p's capacity per slot in the relaxation: the largest capacity
// during [(t−1)s − hold, ts), hold the longest a task can hold a slot of p (see the
// package doc, step 2 of the proof).
func windowCapacity(w *workload.Workload, p int, s, hold float64, T int) []int {
	// The trace's breakpoints for p, with the value from each on.
	type step struct {
		t float64
		c int
	}
	steps := []step{{math.Inf(-1), w.Cluster.Pools[p].Slots}}
	name := w.Cluster.Pools[p].Name
	for _, st := range w.Cluster.Capacity {
		if n, ok := st.Slots[name]; ok {
			steps = append(steps, step{st.Time, min(n, w.Cluster.Pools[p].Slots)})
		}
	}
	out := make([]int, T)
	k := 0 // first step that may still matter
	for t := 1; t <= T; t++ {
		lo, hi := float64(t-1)*s-hold, float64(t)*s
		for k+1 < len(steps) && steps[k+1].t <= lo {
			k++
		}
		c := steps[k].c
		for x := k + 1; x < len(steps) && steps[x].t < hi; x++ {
			c = max(c, steps[x].c)
		}
		out[t-1] = c
	}
	return out
}
