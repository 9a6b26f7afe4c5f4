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

// BoundResult is the offline bound of a workload's trace (see the package doc): the
// lexmax bound (SortedUtilities, and MinUtility, SumUtility of that vector), which no
// run's sorted utilities exceed lexicographically.
type BoundResult struct {
	// SortedUtilities is the relaxation's lexmax vector, ascending: the bound on a run's
	// sorted utilities (min_gap and first_short_position compare against it).
	SortedUtilities []float64 `json:"sorted_utilities"`
	// MinUtility and SumUtility are the minimum and sum of SortedUtilities. The sum of
	// the lexmax vector is not a bound on a run's sum (see SumBound).
	MinUtility  float64 `json:"min_utility"`
	SumUtility  float64 `json:"sum_utility"`
	SlotSeconds float64 `json:"slot_seconds"`
	Slots       int     `json:"slots"`
	Method      string  `json:"method"`
	// Exact is false when OnionPeel had to decide a stalled layer by its fallback rule
	// (tied utility values past its branch budget): the vector is then not proven
	// lexmax, and so not a proven bound.
	Exact bool `json:"exact"`
	// CoversRejections is false when some pool's capacity ends at 0 while jobs still
	// need it, so the horizon has no room for a rejected job's work after every run:
	// the bound then holds only for runs that reject nothing.
	CoversRejections bool `json:"covers_rejections"`
	// SumBound is the bound on a run's sum of utilities (sum_gap compares against it):
	// the optimum of the relaxation's transportation problem, each job's utility spread
	// over its units (see the package doc, "The bound on the sum"), or with
	// SumBoundMethod "alone" the sum of every job's best utility from its release on.
	SumBound       float64 `json:"sum_bound"`
	SumBoundMethod string  `json:"sum_bound_method"`
	// DeadlinesUnderSlot counts the jobs whose deadline (seconds after arrival) is
	// shorter than one slot, of JobsWithDeadline: the relaxation credits a job at a
	// slot's start, so when most deadlines are shorter than a slot most jobs are credited
	// as if on time whatever the order, and the bound says little (near-vacuous).
	DeadlinesUnderSlot int `json:"deadlines_under_slot"`
	JobsWithDeadline   int `json:"jobs_with_deadline"`
}

// SumGapTolerance is the largest sum gap reported as 0 against a sum bound of b:
// 2·10⁻⁹·(|b| + 1). The sum bound is its Lagrangian certificate's value raised by
// 10⁻⁹·(|value| + 1) for float error (formulations/tas.SumBound), so a policy whose sum
// reaches the certificate's value would otherwise show that margin as a gap (1e-08 on a
// sum of 9); twice the margin also absorbs the float error of the policy's own sum.
func SumGapTolerance(b float64) float64 { return 2e-9 * (math.Abs(b) + 1) }

// NearVacuous reports whether the slot is longer than most (more than half of the)
// jobs' deadlines: the bound then credits most jobs as if on time and says little.
func (b *BoundResult) NearVacuous() bool {
	return b.JobsWithDeadline > 0 && 2*b.DeadlinesUnderSlot > b.JobsWithDeadline
}

// SlotTooShortError is the refusal of a bound whose relaxation would need more slots
// than sched.MaxHorizon: Fits is a slot length, in whole seconds, at which it fits.
type SlotTooShortError struct {
	Slot, Slots, Fits float64
}

func (e *SlotTooShortError) Error() string {
	return fmt.Sprintf("sim: bound: %.0f slots of %g s exceed the limit of %d; a slot of %g s or more fits (--slot %g)", e.Slots, e.Slot, sched.MaxHorizon, e.Fits, e.Fits)
}

// BoundOptions choose the relaxation's tightenings; the zero value is the tightest.
// Each one keeps the proof of the package doc (every run maps into the relaxation with
// every job's utility at least its simulated one); turning one off gives a looser
// relaxation, to measure what it buys.
type BoundOptions struct {
	// NoEarliestCompletion credits a job completing in slot t with its utility at the
	// slot's start, as issue 17's relaxation did, instead of at the later of the slot's
	// start and the earliest the job can complete (its stages' critical path at the
	// fastest speed after its arrival and the jobs it waits for).
	NoEarliestCompletion bool
	// NoAfterRelease lets a job use slots from its arrival on, instead of from the
	// earliest completion of the jobs in its `after` list.
	NoAfterRelease bool
	// NoStageCaps lets the sum bound give a job any number of slot-units of a pool in a
	// slot, instead of at most the tasks its stages on that pool can run at once.
	NoStageCaps bool
	// NoStageRelease lets a job use every pool from its start on, instead of each pool
	// from the earliest start of its stages there (a reduce pool after the maps could
	// have finished).
	NoStageRelease bool
	// Progress, when set, hears how many of the relaxation's jobs the lexmax has
	// settled so far and how many stall branches it explored (tas.Options.Progress); a
	// long bound is one whose onion peeling stalls on tied utilities.
	Progress func(settled, jobs, branches int)
}

// Bound computes the offline bound of w's trace under seed with slots of s seconds,
// with every tightening (BoundWith with the zero BoundOptions).
func Bound(ctx context.Context, w *workload.Workload, seed uint64, s, until float64) (*BoundResult, error) {
	return BoundWith(ctx, w, seed, s, until, BoundOptions{})
}

// BoundWith computes the offline bound of w's trace under seed with slots of s
// seconds. until must be at least the latest completion time of every run it is to
// bound (the largest makespan); the horizon reaches past it far enough for every job's
// work.
func BoundWith(ctx context.Context, w *workload.Workload, seed uint64, s, until float64, opts BoundOptions) (*BoundResult, error) {
	rx, err := relax(w, seed, s, until, opts)
	if err != nil {
		return nil, err
	}
	res := &BoundResult{SlotSeconds: s, Slots: rx.in.Horizon, Method: "onion-peel (formulations/tas, release times)", Exact: true, CoversRejections: rx.covers}
	for i := range w.Jobs {
		if d := w.Jobs[i].Deadline; d > 0 {
			res.JobsWithDeadline++
			if d < s {
				res.DeadlinesUnderSlot++
			}
		}
	}
	levels := slices.Clone(rx.fixed)
	if len(rx.fixed) > 0 {
		// Summed in another order than a run sums the same utilities, so raised like
		// tas.SumBound's value: without the margin a run of jobs with no work could sum
		// one ulp above it (TestNoPolicyBeatsTheBound found 5.310882311206299 > …298).
		fixed := 0.0
		for _, u := range rx.fixed {
			fixed += u
		}
		res.SumBound = tas.RaiseForFloatError(fixed)
	}
	res.SumBoundMethod = "transportation"
	if len(rx.in.Jobs) > 0 {
		lv, exact, err := lexmax(ctx, rx, opts.Progress)
		if err != nil {
			return nil, fmt.Errorf("sim: bound: %w", err)
		}
		res.Exact = exact
		levels = append(levels, lv...)
		sb, err := tas.SumBound(ctx, rx.in, tas.SumOptions{Credit: rx.credit, MaxParallel: rx.caps, ResourceRelease: rx.release})
		if err != nil {
			return nil, fmt.Errorf("sim: sum bound: %w", err)
		}
		res.SumBound += sb.Bound
		res.SumBoundMethod = sb.Method
	}
	slices.Sort(levels)
	res.SortedUtilities = levels
	res.MinUtility = levels[0]
	for _, u := range levels {
		res.SumUtility += u
	}
	return res, nil
}

// relaxation is the TAS instance of the package doc, in compact form: demands,
// releases and per-slot capacities, and each job's utility as a function of its
// completion slot evaluated when asked (slotUtility), never tabulated — O(jobs + slots)
// memory.
type relaxation struct {
	in *sched.Instance
	// fixed holds the utilities of the jobs whose demand rounds to 0 in every pool: the
	// most any schedule can give them, merged into the sorted vector.
	fixed  []float64
	index  []int // index[k]: the workload job of in.Jobs[k]
	covers bool
	// credit[k] is the pool whose units carry in.Jobs[k]'s utility in the sum bound:
	// that of its last stage with demand; caps[k][p] the most slot-units of pool p it can
	// hold in one slot (0: no cap; nil with BoundOptions.NoStageCaps).
	credit []int
	caps   [][]int
	// release[k][p] is the first slot in.Jobs[k] may use pool p: the slot of the
	// earliest start of its stages there (nil with BoundOptions.NoStageRelease).
	release [][]int
}

// relax builds the relaxation of w's trace (see the package doc).
func relax(w *workload.Workload, seed uint64, s, until float64, opts BoundOptions) (*relaxation, error) {
	if !(s > 0) || math.IsInf(s, 0) || !(until >= 0) || math.IsInf(until, 0) {
		return nil, fmt.Errorf("sim: bound needs a slot length > 0 and a finite horizon, got %g and %g", s, until)
	}
	np := len(w.Cluster.Pools)
	fastest, slowest, rate := make([]float64, np), make([]float64, np), make([]float64, np)
	for k := range slowest {
		slowest[k] = math.Inf(1)
	}
	for _, wk := range w.Cluster.Workers {
		for p, pool := range w.Cluster.Pools {
			if n := wk.Slots[pool.Name]; n > 0 {
				fastest[p] = max(fastest[p], wk.Speed)
				slowest[p] = min(slowest[p], wk.Speed)
				rate[p] += float64(wk.Count*n) * wk.Speed
			}
		}
	}
	// True work per job and pool at the fastest speed; the longest hold per pool.
	work := make([][]float64, len(w.Jobs))
	longest := make([]float64, np)
	cp := newCriticalPaths(w, fastest, rate)
	for i := range w.Jobs {
		work[i] = make([]float64, np)
		stream := workload.JobStream(seed, w.Jobs[i].ID)
		for si := range w.Jobs[i].Stages {
			st := &w.Jobs[i].Stages[si]
			p := w.Cluster.PoolIndex(st.Pool)
			if fastest[p] == 0 {
				return nil, fmt.Errorf("sim: bound: job %s needs pool %q, which has no slots", w.Jobs[i].ID, st.Pool)
			}
			runtimes := cp.runtimes[:0]
			for t := range st.Tasks {
				r := workload.TaskRuntime(stream, st, si, t)
				runtimes = append(runtimes, r)
				work[i][p] += r / fastest[p]
				longest[p] = max(longest[p], r/slowest[p])
			}
			cp.addStage(i, si, p, runtimes)
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
		return nil, &SlotTooShortError{Slot: s, Slots: slots, Fits: fittingSlot(w, work, until, s)}
	}
	T := int(math.Ceil(until/s)) + extra + 1
	// A job's work starts at its start (arrival, or the earliest completion of the jobs
	// it waits for) and it completes no earlier than its critical path allows.
	start, earliest, poolStart := cp.solve(opts)
	lastRelease := int(math.Ceil(until/s)) + 1 // a job that never ran may start late: its release needs no more
	in := &sched.Instance{Name: w.Name + " (relaxation)", Horizon: T, HorizonSource: "file"}
	for p := range np {
		in.Resources = append(in.Resources, sched.Resource{Name: w.Cluster.Pools[p].Name, Capacity: windowCapacity(w, p, s, longest[p], T)})
	}
	rx := &relaxation{in: in, covers: covers}
	for i := range w.Jobs {
		job := &w.Jobs[i]
		u := slotUtility{u: job.Utility, arrival: job.Arrival, earliest: earliest[i], slot: s, unit: w.TimeUnit}
		if slices.Max(demand[i]) == 0 {
			rx.fixed = append(rx.fixed, u.atResponse(u.earliest))
			continue
		}
		rel := min(int(math.Floor(start[i]/s))+1, lastRelease)
		in.Jobs = append(in.Jobs, sched.Job{ID: job.ID, Demand: demand[i], Release: rel, TaskSlots: 1, Utility: u})
		if poolStart != nil {
			row := make([]int, np)
			for p, x := range poolStart[i] {
				row[p] = rel
				if demand[i][p] > 0 {
					row[p] = min(max(rel, int(math.Floor(x/s))+1), lastRelease)
				}
			}
			rx.release = append(rx.release, row)
		}
		rx.index = append(rx.index, i)
		rx.credit = append(rx.credit, creditPool(w, i, demand[i]))
		if !opts.NoStageCaps {
			rx.caps = append(rx.caps, stageCaps(w, i))
		}
	}
	return rx, nil
}

// fittingSlot is a slot length, in whole seconds and above s, whose relaxation has at
// most sched.MaxHorizon slots. A slot of length x needs ⌈until/x⌉ + extra + 1 slots,
// where extra = max over pools of ⌈Σ_i ⌊work_i/x⌋ / end⌉ ≤ W/(x·end) + 1 (W the pool's
// work in seconds, end its capacity at the end); so every x ≥ (until + max W/end) /
// (MaxHorizon − 3) fits.
func fittingSlot(w *workload.Workload, work [][]float64, until, s float64) float64 {
	need := until
	for p := range w.Cluster.Pools {
		end := capacityAt(w, p, math.Inf(1))
		if end == 0 {
			continue
		}
		total := 0.0
		for i := range work {
			total += work[i][p]
		}
		need = max(need, until+total/float64(end))
	}
	return max(math.Floor(s)+1, math.Ceil(need/float64(sched.MaxHorizon-3)))
}

// creditPool is the pool of job i's last stage whose pool it has demand on (the job
// completes when that stage does, so its units there come last).
func creditPool(w *workload.Workload, i int, demand []int) int {
	st := w.Jobs[i].Stages
	for k := len(st) - 1; k >= 0; k-- {
		if p := w.Cluster.PoolIndex(st[k].Pool); demand[p] > 0 {
			return p
		}
	}
	return slices.Index(demand, slices.Max(demand))
}

// stageCaps is, per pool, the most tasks job i can run on it at once: the running
// stage's tasks on the pool, plus the next stage's when it opens under slow start.
// Each task holds at most s of a slot's s seconds, so a job holds at most that many
// slot-units of the pool in one slot.
func stageCaps(w *workload.Workload, i int) []int {
	caps := make([]int, len(w.Cluster.Pools))
	st := w.Jobs[i].Stages
	for k := range st {
		on := make([]int, len(caps))
		on[w.Cluster.PoolIndex(st[k].Pool)] += st[k].Tasks
		if k+1 < len(st) && st[k+1].SlowStart > 0 && st[k+1].SlowStart < 1 {
			on[w.Cluster.PoolIndex(st[k+1].Pool)] += st[k+1].Tasks
		}
		for p, n := range on {
			caps[p] = max(caps[p], n)
		}
	}
	return caps
}

// lexmax is the one call into the TAS solver: the exact lexmax levels of the
// relaxation and whether OnionPeel proved them. It is kept apart so the call can move
// to the solve package's entry point without touching the relaxation.
func lexmax(ctx context.Context, rx *relaxation, progress func(settled, jobs, branches int)) ([]float64, bool, error) {
	opts := tas.Options{NoSchedule: true, ResourceRelease: rx.release}
	if progress != nil {
		opts.Progress = func(p tas.Progress) { progress(p.Fixed, p.Jobs, p.Branches) }
	}
	r, err := tas.OnionPeel(ctx, rx.in, opts)
	if err != nil {
		return nil, false, err
	}
	return slices.Clone(r.Levels), r.Exact, nil
}

// slotUtility is a job's utility as a function of its completion slot t in the
// relaxation: its utility at the response max((t−1)s, earliest) − arrival, in time
// units — the same family evaluated at a shifted and scaled argument, never tabulated.
// With earliest = arrival it is exactly workload.UtilityAt at the slot's start.
type slotUtility struct {
	u                             sched.Utility
	arrival, earliest, slot, unit float64
}

func (v slotUtility) response(t int) float64 {
	return max(0, max(float64(t-1)*v.slot, v.earliest)-v.arrival) / v.unit
}

// atResponse is the utility of completing at time c (seconds).
func (v slotUtility) atResponse(c float64) float64 {
	return workload.UtilityOfResponse(v.u, max(0, c-v.arrival)/v.unit)
}

func (v slotUtility) At(t int) float64 { return workload.UtilityOfResponse(v.u, v.response(t)) }
func (v slotUtility) Type() string     { return "relaxation " + v.u.Type() }

// Log offers ln U for a positive sigmoid, so onion peeling keeps apart the jobs whose
// utilities underflow to 0 (sched.LogUtility).
func (v slotUtility) Log() (sched.Utility, bool) {
	sg, ok := v.u.(sched.Sigmoid)
	if !ok || !(sg.Priority > 0) {
		return nil, false
	}
	return slotLogUtility{slotUtility: v, log: sched.NewLogSigmoid(sg)}, true
}

// slotLogUtility is ln of a sigmoid slotUtility.
type slotLogUtility struct {
	slotUtility
	log sched.LogSigmoid
}

func (v slotLogUtility) At(t int) float64 { return v.log.Of(v.response(t)) }
func (v slotLogUtility) Type() string     { return "relaxation log-sigmoid" }

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
