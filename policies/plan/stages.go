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
// is pending, else the longest running remainder. Means.Estimated is the same,
// faster, for a planner that keeps a Means across decision instants.
func Estimated(v policies.View, j int, slot float64, pooled bool) ([]Stage, error) {
	return estimated(v, j, slot, pooled, policies.MeanTaskRuntime, nil)
}

// estimated writes the stages into buf when it has room.
func estimated(v policies.View, j int, slot float64, pooled bool, mean func(v policies.View, j, stage int) float64, buf []Stage) ([]Stage, error) {
	info := v.Job(j)
	first := v.Stage(j)
	if first >= len(info.Stages) {
		return nil, nil
	}
	n := len(info.Stages) - first
	var out []Stage
	if cap(buf) >= n {
		out = buf[:n]
	} else {
		out = make([]Stage, n)
	}
	// work and means are scratch; on the stack for the usual few stages.
	var fbuf [16]float64
	var scratch []float64
	if 2*n <= len(fbuf) {
		scratch = fbuf[:2*n]
	} else {
		scratch = make([]float64, 2*n)
	}
	work, means := scratch[:n], scratch[n:]
	for k := range out {
		s := first + k
		means[k] = mean(v, j, s)
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

// Means keeps, per job, the running sums policies.MeanTaskRuntime takes over
// View.Finished, fed only the records added since the previous instant (Finished only
// grows while a job runs, in finishing order) and in that order, so that its means are
// bit for bit a full pass's without rescanning every finished task of every job at
// every decision instant. The zero value is ready; Forget a job once it is finished.
type Means struct {
	jobs map[int]*jobMeans
}

type jobMeans struct {
	// out is the job's stages as Estimated last returned them, reused by the next call.
	out    []Stage
	seen   int       // records of View.Finished summed so far
	sum    []float64 // per stage: Σ elapsed of its finished tasks
	n      []int
	all    float64 // Σ elapsed over every stage
	nall   int
	stages int
}

// Mean is policies.MeanTaskRuntime(v, j, stage).
func (m *Means) Mean(v policies.View, j, stage int) float64 {
	return m.update(v, j).mean(v.Job(j), stage)
}

// update is job j's sums with the records added since the last call.
func (m *Means) update(v policies.View, j int) *jobMeans {
	info := v.Job(j)
	jm := m.jobs[j]
	fin := v.Finished(j)
	if jm == nil || len(fin) < jm.seen || jm.stages != len(info.Stages) {
		// New, or a record list that shrank (another run's view): start over.
		if m.jobs == nil {
			m.jobs = map[int]*jobMeans{}
		}
		jm = &jobMeans{sum: make([]float64, len(info.Stages)), n: make([]int, len(info.Stages)), stages: len(info.Stages)}
		m.jobs[j] = jm
	}
	for _, r := range fin[jm.seen:] {
		x := r.Elapsed()
		jm.all += x
		jm.nall++
		if r.Stage >= 0 && r.Stage < len(jm.sum) {
			jm.sum[r.Stage] += x
			jm.n[r.Stage]++
		}
	}
	jm.seen = len(fin)
	return jm
}

// mean is the mean runtime of the job's stage from its sums (Mean).
func (jm *jobMeans) mean(info *policies.JobInfo, stage int) float64 {
	switch {
	case jm.n[stage] > 0:
		return jm.sum[stage] / float64(jm.n[stage])
	case info.Stages[stage].Runtime != nil:
		return info.Stages[stage].Runtime.MeanValue()
	case jm.nall > 0:
		return jm.all / float64(jm.nall)
	}
	return 1
}

// Forget drops job j's sums (after it finished or was rejected).
func (m *Means) Forget(j int) { delete(m.jobs, j) }

// Estimated is plan.Estimated with the means of m: an Estimator. The slice it returns
// for job j is m's, reused by its next call for j: Build reads a job's stages before it
// asks for them again, and copying them at every decision instant was a tenth of what
// a decision allocated.
func (m *Means) Estimated(v policies.View, j int, slot float64, pooled bool) ([]Stage, error) {
	// One look-up of the job's sums for all its stages (Mean looks them up per stage).
	jm := m.jobs[j]
	var buf []Stage
	if jm != nil {
		buf = jm.out
	}
	updated := false
	mean := func(v policies.View, j, stage int) float64 {
		if !updated {
			jm, updated = m.update(v, j), true
		}
		return jm.mean(v.Job(j), stage)
	}
	st, err := estimated(v, j, slot, pooled, mean, buf)
	if jm != nil {
		switch {
		case !pooled && cap(st) > cap(jm.out):
			jm.out = st[:0]
		case cap(jm.out) == 0:
			// Pooled returns Shape's per-pool slice; the per-stage one is scratch.
			jm.out = make([]Stage, 0, len(v.Job(j).Stages))
		}
	}
	return st, err
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
