package plan

import (
	"math"

	"github.com/coraopt/coraopt/policies"
)

// Stage is one remaining stage of a job as a plan sees it.
type Stage struct {
	// Index is the stage's index in the job (JobInfo.Stages).
	Index int
	Pool  int
	// Units is the stage's remaining work in container-slots of the slot length the
	// estimator was asked for (at least 0).
	Units int
	// Parallel is how many of the stage's tasks can hold a container at once: its
	// pending and running tasks.
	Parallel int
	// Longest is the longest remaining task of the stage in seconds: no schedule
	// finishes the stage sooner.
	Longest float64
	// TaskSlots is R, the slots one task holds a container (for the continuous
	// time-slot mapping of DispatchTargets; at least 1).
	TaskSlots int
}

// Estimator lists job j's remaining stages, in order, with their work in
// container-slots of slot seconds. Stages with no work left may be left out. With
// pooled (Config.Model Pooled) it returns one Stage per pool instead: the job's
// remaining work on the pool, Index the first stage on it.
type Estimator func(v policies.View, j int, slot float64, pooled bool) ([]Stage, error)

// Units is work seconds as container-slots of slot seconds, rounded up (a float
// residue below 1e-9 of a slot does not make a unit).
func Units(work, slot float64) int {
	return int(max(0, math.Ceil(work/slot-1e-9)))
}

// Estimated is what a non-clairvoyant planner knows of j's remaining stages: pending
// tasks at their stage's mean runtime (policies.MeanTaskRuntime: the mean of the
// stage's finished tasks, else the declared mean), running tasks at that mean less the
// time they have run (at least 0); the longest remaining task is the mean when a task
// is pending, else the longest running remainder.
func Estimated(v policies.View, j int, slot float64, pooled bool) ([]Stage, error) {
	info := v.Job(j)
	first := v.Stage(j)
	if first >= len(info.Stages) {
		return nil, nil
	}
	work := make([]float64, len(info.Stages)-first)
	out := make([]Stage, len(work))
	means := make([]float64, len(work))
	for k := range out {
		s := first + k
		means[k] = policies.MeanTaskRuntime(v, j, s)
		work[k] = float64(v.Pending(j, s)) * means[k]
		out[k] = Stage{Index: s, Pool: info.Stages[s].Pool, Parallel: v.Pending(j, s) + v.Running(j, s),
			TaskSlots: max(1, int(math.Round(means[k]/slot)))}
		if v.Pending(j, s) > 0 {
			out[k].Longest = means[k]
		}
	}
	now := v.Now()
	for _, r := range v.RunningTasks(j) {
		k := r.Stage - first
		rem := max(0, means[k]-(now-r.Start))
		work[k] += rem
		out[k].Longest = max(out[k].Longest, rem)
	}
	return Shape(out, work, slot, pooled), nil
}

// Shape sets each stage's Units from its work in seconds (work[k] for stages[k]), or
// with pooled sums the stages per pool and rounds each pool's work once, as the
// papers' per-pool demand is: the ending of an Estimator.
func Shape(stages []Stage, work []float64, slot float64, pooled bool) []Stage {
	if !pooled {
		for k := range stages {
			stages[k].Units = Units(work[k], slot)
		}
		return stages
	}
	var out []Stage
	var sum []float64
	for k, st := range stages {
		i := 0
		for i < len(out) && out[i].Pool != st.Pool {
			i++
		}
		if i == len(out) {
			out = append(out, Stage{Index: st.Index, Pool: st.Pool, TaskSlots: st.TaskSlots})
			sum = append(sum, 0)
		}
		sum[i] += work[k]
		out[i].Parallel += st.Parallel
		out[i].Longest = max(out[i].Longest, st.Longest)
	}
	for i := range out {
		out[i].Units = Units(sum[i], slot)
	}
	return out
}
