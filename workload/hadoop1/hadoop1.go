// Package hadoop1 turns the workload generators of the Hadoop-1 papers — WOHA's
// workflows (policies/woha, woha.txt §V-A) and RTMR's workloads I and II
// (policies/rtmr, rtmr.txt §V) — into workload files for `coraopt simulate`. The
// generators live beside their schedulers and know nothing of the workload file; this
// package only converts, so a generated file describes exactly the jobs the cores'
// own tests drive.
package hadoop1

import (
	"fmt"

	"github.com/coraopt/coraopt/policies/rtmr"
	"github.com/coraopt/coraopt/policies/woha"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// TruthModel says how a WOHA task's true runtime relates to its job's estimate.
type TruthModel int

const (
	// Exact: every task takes exactly its estimate (Fig. 2, the three-workflow
	// experiment: the paper's comparison is about scheduling, not estimation).
	Exact TruthModel = iota
	// Noisy: a task takes U[0.8, 1.2] × its estimate, drawn per task from the
	// simulation seed (plans are built from estimates; true runtimes differ, §IV-A).
	Noisy
)

// FromWOHA writes WOHA workflows as a workload on the given cluster. Each job becomes
// a workload job with id "<workflow>/<job>", a map stage and (when it has reduces) a
// reduce stage, its estimates as estimates.map_time/reduce_time, the workflow's
// submission time as arrival and a step utility worth 1 until the workflow's deadline.
func FromWOHA(name string, ws []woha.Workflow, cluster workload.Cluster, truth TruthModel) (*workload.Workload, error) {
	if err := woha.Validate(ws); err != nil {
		return nil, err
	}
	w := &workload.Workload{Name: name, TimeUnit: 1, Cluster: cluster}
	rt := func(est float64) *workload.Runtime {
		if truth == Noisy {
			return &workload.Runtime{Type: "uniform", Min: 0.8 * est, Max: 1.2 * est}
		}
		return &workload.Runtime{Type: "fixed", Value: est}
	}
	for _, wf := range ws {
		w.Workflows = append(w.Workflows, workload.Workflow{ID: wf.ID, Arrival: wf.Arrival, Deadline: wf.Deadline})
		for _, job := range wf.Jobs {
			j := workload.Job{ID: wf.ID + "/" + job.ID, Arrival: wf.Arrival, Priority: 1, Deadline: wf.Deadline,
				Utility: sched.Step{Value: 1, Deadline: wf.Deadline}, Workflow: wf.ID,
				Estimates: &workload.Estimates{MapTime: job.MapTime, ReduceTime: job.ReduceTime}}
			for _, a := range job.After {
				j.After = append(j.After, wf.ID+"/"+a)
			}
			if job.Maps > 0 {
				j.Stages = append(j.Stages, workload.Stage{Pool: "map", Tasks: job.Maps, Runtime: rt(job.MapTime)})
			}
			if job.Reduces > 0 {
				j.Stages = append(j.Stages, workload.Stage{Pool: "reduce", Tasks: job.Reduces, Runtime: rt(job.ReduceTime)})
			}
			if len(j.Stages) == 0 {
				return nil, fmt.Errorf("hadoop1: workflow %q job %q has no tasks", wf.ID, job.ID)
			}
			w.Jobs = append(w.Jobs, j)
		}
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	return w, nil
}

// WOHACluster is the paper's cluster: workers × (2 map + 1 reduce) slots (§VI-A: 32).
func WOHACluster(workers int) workload.Cluster {
	return workload.Cluster{Workers: []workload.Worker{{Count: workers, Slots: map[string]int{"map": 2, "reduce": 1}, Speed: 1}}}
}

// WOHAFamily generates one of the WOHA families:
//
//	woha       n random workflows (woha.Generate, default config, seed), 32 × (2 + 1)
//	           slots, true task times U[0.8, 1.2] × estimate
//	woha-fig2  Fig. 2 (woha.Fig2): 3 map + 3 reduce slots, exact task times
//	woha-3wf   the three-workflow experiment (woha.ThreeWorkflows(seed)), 32 × (2 + 1)
//	           slots, exact task times
func WOHAFamily(family string, n int, seed uint64) (*workload.Workload, error) {
	switch family {
	case "woha":
		cfg := woha.DefaultGenConfig()
		cfg.Workflows = n
		ws, err := woha.Generate(seed, cfg)
		if err != nil {
			return nil, err
		}
		return FromWOHA(fmt.Sprintf("woha-%d-seed%d", n, seed), ws, WOHACluster(cfg.Slots/3), Noisy)
	case "woha-fig2":
		cl := workload.Cluster{Pools: []workload.Pool{{Name: "map", Slots: 3}, {Name: "reduce", Slots: 3}}}
		return FromWOHA("woha-fig2", woha.Fig2(), cl, Exact)
	case "woha-3wf":
		return FromWOHA(fmt.Sprintf("woha-3wf-seed%d", seed), woha.ThreeWorkflows(seed), WOHACluster(32), Exact)
	}
	return nil, fmt.Errorf("hadoop1: unknown WOHA family %q", family)
}

// FromRTMR writes a generated RTMR workload as a workload file: one worker per RTMR
// worker (its map and reduce speeds must be equal: the simulator has one speed per
// worker), a map stage with the true per-task inputs (task_data) and true task times
// at speed 1, a reduce stage with its true inputs and times, the job's declared
// worst-case estimates, and a step utility worth 1 by the deadline.
func FromRTMR(rw *rtmr.Workload) (*workload.Workload, error) {
	w := &workload.Workload{Name: fmt.Sprintf("%s-seed%d-%s", rw.Family, rw.Seed, rw.RuntimeModel), TimeUnit: 1}
	for k, wk := range rw.Cluster.Workers {
		if wk.MapSpeed != wk.ReduceSpeed {
			return nil, fmt.Errorf("hadoop1: RTMR worker %d: map speed %g differs from reduce speed %g", k, wk.MapSpeed, wk.ReduceSpeed)
		}
		w.Cluster.Workers = append(w.Cluster.Workers, workload.Worker{Count: 1, Speed: wk.MapSpeed,
			Slots: map[string]int{"map": wk.MapSlots, "reduce": wk.ReduceSlots}})
	}
	for i, rj := range rw.Jobs {
		j := workload.Job{ID: rj.ID, Arrival: rj.Arrival, Priority: 1, Deadline: rj.Deadline,
			Utility: sched.Step{Value: 1, Deadline: rj.Deadline}}
		if rj.Est != nil {
			j.Estimates = &workload.Estimates{Eta: rj.Est.Eta, CmMax: rj.Est.CmMax, CrMax: rj.Est.CrMax}
		}
		if rj.ReduceShares != nil {
			return nil, fmt.Errorf("hadoop1: job %q has unequal reduce shares, which the workload file cannot declare", rj.ID)
		}
		maps := workload.Stage{Pool: "map", Tasks: rj.M(), TaskData: rj.MapSizes}
		for k := range rj.M() {
			maps.TaskRuntimes = append(maps.TaskRuntimes, rw.TaskRuntime(i, rtmr.Map, k, 1))
		}
		j.Stages = append(j.Stages, maps)
		if rj.Reduces > 0 {
			red := workload.Stage{Pool: "reduce", Tasks: rj.Reduces}
			for k := range rj.Reduces {
				red.TaskRuntimes = append(red.TaskRuntimes, rw.TaskRuntime(i, rtmr.Reduce, k, 1))
				red.TaskData = append(red.TaskData, rw.ReduceInput(i, k))
			}
			j.Stages = append(j.Stages, red)
		}
		w.Jobs = append(w.Jobs, j)
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	return w, nil
}

// RTMRFamily generates workload I ("rtmr-1") or II ("rtmr-2") with the given runtime
// model ("within": true task times within the estimates; "beyond": up to
// rtmr.DefaultGenParams().BeyondFactor = 1.3× them).
func RTMRFamily(family string, seed uint64, model string) (*workload.Workload, error) {
	return RTMRFamilyBeyond(family, seed, model, rtmr.DefaultGenParams().BeyondFactor)
}

// RTMRFamilyBeyond is RTMRFamily with true task times up to factor × the estimates under
// "beyond" (factor ≥ 1).
func RTMRFamilyBeyond(family string, seed uint64, model string, factor float64) (*workload.Workload, error) {
	rm := rtmr.RuntimeModel(model)
	if rm != rtmr.Within && rm != rtmr.Beyond {
		return nil, fmt.Errorf("hadoop1: runtime model %q: want within or beyond", model)
	}
	if !(factor >= 1) || factor > 100 {
		return nil, fmt.Errorf("hadoop1: beyond factor %g: want a number in [1, 100]", factor)
	}
	gp := rtmr.DefaultGenParams()
	gp.BeyondFactor = factor
	var rw *rtmr.Workload
	var err error
	switch family {
	case "rtmr-1":
		rw, err = rtmr.RTMRWorkload1(seed, rm, gp)
	case "rtmr-2":
		rw, err = rtmr.RTMRWorkload2(seed, rm, gp)
	default:
		return nil, fmt.Errorf("hadoop1: unknown RTMR family %q (want rtmr-1 or rtmr-2)", family)
	}
	if err != nil {
		return nil, err
	}
	return FromRTMR(rw)
}
