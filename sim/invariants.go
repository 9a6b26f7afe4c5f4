package sim

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/workload"
)

// CheckInvariants verifies a recorded run (Options.Record) of w with the given seed
// against the simulator's promises, recomputing everything from the placements and the
// workload rather than trusting the engine's counters:
//
//   - no slot double-booked: the runs on one (worker, pool, slot) do not overlap, and
//     slot ids exist on the worker;
//   - capacity never exceeded: no task starts while its pool already runs as many
//     tasks as the capacity trace allows at that instant;
//   - every admitted job completes: each of its tasks ran exactly once, its completion
//     is its last task's finish, and a rejected job ran nothing;
//   - precedence: a task starts no earlier than its job's arrival, the completion of
//     every job it waits for, and the moment its stage opened — the end of the
//     previous stage, or under slow start the finish of the ⌈f·n⌉-th of its n tasks —
//     and finishes no earlier than the end of the previous stage;
//   - true runtimes: every task held its slot for workload.TaskRuntime / speed — the
//     runtime the seed fixes, whatever the policy (common random numbers) — or, when
//     it started under slow start, longer only by waiting for the previous stage to
//     end;
//   - work conserved: the engine's busy slot-seconds per pool equal the slots' holding
//     times, Σ runtime / speed plus slow-start waiting, and its overcommitted
//     slot-seconds (held above a capacity that dropped under running tasks) equal
//     ∫ max(0, running − capacity) dt recomputed from the placements and the trace.
func CheckInvariants(w *workload.Workload, seed uint64, r *Result) error {
	var errs []error
	bad := func(format string, args ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	speeds, slots := []float64{}, [][]int{}
	for _, wk := range w.Cluster.Workers {
		s := make([]int, len(w.Cluster.Pools))
		for name, n := range wk.Slots {
			s[w.Cluster.PoolIndex(name)] = n
		}
		for range wk.Count {
			speeds = append(speeds, wk.Speed)
			slots = append(slots, s)
		}
	}
	const tol = 1e-6
	// Tasks ran exactly once, for their true runtime.
	type key struct{ job, stage, task int }
	seen := map[key]*Placement{}
	stageEnd := map[[2]int]float64{}
	stageFinishes := map[[2]int][]float64{}
	lastFinish := make([]float64, len(w.Jobs))
	busy := make([]float64, len(w.Cluster.Pools))
	for k := range r.Placements {
		p := &r.Placements[k]
		kk := key{p.Job, p.Stage, p.Task}
		if seen[kk] != nil {
			bad("job %s stage %d task %d ran twice", w.Jobs[p.Job].ID, p.Stage, p.Task)
		}
		seen[kk] = p
		st := &w.Jobs[p.Job].Stages[p.Stage]
		want := workload.TaskRuntime(workload.JobStream(seed, w.Jobs[p.Job].ID), st, p.Stage, p.Task)
		if p.Runtime != want || (p.Finish-p.Start)-want/speeds[p.Worker] < -tol*max(1, want) {
			bad("job %s stage %d task %d ran %g s with runtime %g, the seed gives %g at speed %g",
				w.Jobs[p.Job].ID, p.Stage, p.Task, p.Finish-p.Start, p.Runtime, want, speeds[p.Worker])
		}
		if w.Cluster.PoolIndex(st.Pool) != p.Pool || p.Slot < 0 || p.Slot >= slots[p.Worker][p.Pool] {
			bad("job %s stage %d task %d on pool %d slot %d of worker %d, which does not exist", w.Jobs[p.Job].ID, p.Stage, p.Task, p.Pool, p.Slot, p.Worker)
		}
		sk := [2]int{p.Job, p.Stage}
		stageEnd[sk] = max(stageEnd[sk], p.Finish)
		stageFinishes[sk] = append(stageFinishes[sk], p.Finish)
		lastFinish[p.Job] = max(lastFinish[p.Job], p.Finish)
		busy[p.Pool] += p.Finish - p.Start
	}
	for i := range w.Jobs {
		jr := r.Jobs[i]
		job := &w.Jobs[i]
		for s, st := range job.Stages {
			for t := range st.Tasks {
				p := seen[key{i, s, t}]
				switch {
				case jr.Rejected && p != nil:
					bad("rejected job %s ran task %d of stage %d", job.ID, t, s)
				case !jr.Rejected && p == nil:
					bad("admitted job %s never ran task %d of stage %d", job.ID, t, s)
				case p == nil:
				case p.Start < job.Arrival-tol:
					bad("job %s task %d of stage %d started at %g before its arrival %g", job.ID, t, s, p.Start, job.Arrival)
				case s > 0 && p.Start < stageOpen(stageFinishes[[2]int{i, s - 1}], st.SlowStart)-tol:
					bad("job %s stage %d task %d started at %g before its stage opened at %g", job.ID, s, t, p.Start, stageOpen(stageFinishes[[2]int{i, s - 1}], st.SlowStart))
				case s > 0 && p.Finish < stageEnd[[2]int{i, s - 1}]-tol:
					bad("job %s stage %d task %d finished at %g before stage %d ended at %g", job.ID, s, t, p.Finish, s-1, stageEnd[[2]int{i, s - 1}])
				case math.Abs((p.Finish-p.Start)-p.Runtime/speeds[p.Worker]) > tol*max(1, p.Runtime) &&
					(s == 0 || math.Abs(p.Finish-stageEnd[[2]int{i, s - 1}]) > tol):
					bad("job %s stage %d task %d held its slot %g s for a runtime of %g s without waiting for stage %d", job.ID, s, t, p.Finish-p.Start, p.Runtime/speeds[p.Worker], s-1)
				}
				if p != nil {
					for _, dep := range job.After {
						d := w.JobIndex(dep)
						if c := r.Jobs[d].Completion; !(p.Start >= c-tol) {
							bad("job %s started at %g before %s, which it waits for, completed (%g)", job.ID, p.Start, dep, c)
						}
					}
				}
			}
		}
		if !jr.Rejected && !(math.Abs(jr.Completion-lastFinish[i]) <= tol) {
			bad("job %s completion %g, its last task finished at %g", job.ID, jr.Completion, lastFinish[i])
		}
	}
	for k := range busy {
		if math.Abs(busy[k]-r.Busy[k]) > tol*max(1, busy[k]) {
			bad("pool %s: busy slot-seconds %g, the tasks' runtimes/speeds sum to %g", w.Cluster.Pools[k].Name, r.Busy[k], busy[k])
		}
	}
	// No double booking, per (worker, pool, slot).
	bySlot := map[[3]int][]*Placement{}
	for k := range r.Placements {
		p := &r.Placements[k]
		bySlot[[3]int{p.Worker, p.Pool, p.Slot}] = append(bySlot[[3]int{p.Worker, p.Pool, p.Slot}], p)
	}
	for s, ps := range bySlot {
		slices.SortFunc(ps, func(a, b *Placement) int { return cmp.Compare(a.Start, b.Start) })
		for k := 1; k < len(ps); k++ {
			if ps[k].Start < ps[k-1].Finish-tol {
				bad("worker %d pool %d slot %d double-booked: [%g, %g) and [%g, %g)", s[0], s[1], s[2], ps[k-1].Start, ps[k-1].Finish, ps[k].Start, ps[k].Finish)
			}
		}
	}
	// Capacity: sweep each pool's starts and finishes, finishes first at equal times
	// (the engine frees a slot before it offers it).
	for pool := range w.Cluster.Pools {
		var ms []mark
		for k := range r.Placements {
			if p := &r.Placements[k]; p.Pool == pool {
				ms = append(ms, mark{p.Start, +1}, mark{p.Finish, -1})
			}
		}
		slices.SortFunc(ms, func(a, b mark) int { return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.delta, b.delta)) })
		running := 0
		for _, m := range ms {
			running += m.delta
			if c := capacityAt(w, pool, m.t); m.delta > 0 && running > c {
				bad("pool %s: %d tasks running at t=%g, capacity %d", w.Cluster.Pools[pool].Name, running, m.t, c)
			}
		}
		if over := overcommitted(w, pool, ms, r.Makespan); math.Abs(over-r.Overcommitted[pool]) > tol*max(1, over) {
			bad("pool %s: overcommitted slot-seconds %g, the placements and the capacity trace give %g", w.Cluster.Pools[pool].Name, r.Overcommitted[pool], over)
		}
	}
	return errors.Join(errs...)
}

// mark is a task's start (delta +1) or finish (−1) on a pool.
type mark struct {
	t     float64
	delta int
}

// overcommitted integrates max(0, running − capacity) over [0, until] from the pool's
// marks, sorted by time, and the capacity trace: both are constant between
// consecutive mark and trace times.
func overcommitted(w *workload.Workload, pool int, ms []mark, until float64) float64 {
	times := []float64{0, until}
	for _, m := range ms {
		times = append(times, m.t)
	}
	for _, st := range w.Cluster.Capacity {
		times = append(times, st.Time)
	}
	slices.Sort(times)
	times = slices.Compact(times)
	total, running, next := 0.0, 0, 0
	for i := 0; i+1 < len(times) && times[i] < until; i++ {
		for next < len(ms) && ms[next].t <= times[i] {
			running += ms[next].delta
			next++
		}
		if over := running - capacityAt(w, pool, times[i]); over > 0 {
			total += float64(over) * (min(times[i+1], until) - times[i])
		}
	}
	return total
}

// capacityAt is the pool's capacity at time t: the last trace step at or before t
// that names the pool, else its slot count.
func capacityAt(w *workload.Workload, pool int, t float64) int {
	c := w.Cluster.Pools[pool].Slots
	name := w.Cluster.Pools[pool].Name
	for _, st := range w.Cluster.Capacity {
		if st.Time > t {
			break
		}
		if n, ok := st.Slots[name]; ok {
			c = n
		}
	}
	return min(c, w.Cluster.Pools[pool].Slots)
}

// stageOpen is when a stage with slow start f may start, given its predecessor's
// finish times: the ⌈f·n⌉-th smallest of the n (all of them when f is 1).
func stageOpen(prevFinishes []float64, f float64) float64 {
	if len(prevFinishes) == 0 {
		return math.Inf(1)
	}
	fs := slices.Clone(prevFinishes)
	slices.Sort(fs)
	need := len(fs)
	if f > 0 && f < 1 {
		need = int(math.Ceil(f*float64(len(fs)) - 1e-9))
	}
	return fs[max(need, 1)-1]
}
