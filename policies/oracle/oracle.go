// Package oracle is the clairvoyant policy of the simulator (docs/design.md, "The
// simulator contract"): it knows every task's true runtime (policies.Clairvoyant) and
// re-plans at every decision instant with exact CORA — the completion-time lexmax by
// onion peeling, through the solve package — on the true remaining work of every
// stage, carrying each plan out as policies/cora does (policies/plan). It is the best
// schedule we know how to realize, shown beside the offline bound (sim.Bound) to say
// how close that bound is to something achievable. It is not an upper bound itself:
// the plan is still slotted, tasks are not preempted, and the capacity is taken as
// constant from now on (the capacity trace is not read).
//
// True remaining work of a stage: the true base runtimes of its unstarted tasks
// (divided by the pool's fastest worker speed) plus, for each running task, the time
// until it ends (start + runtime/speed − now); its longest remaining task is the longer
// of its longest unstarted task and its longest running remainder.
package oracle

import (
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/cora"
	"github.com/coraopt/coraopt/policies/plan"
)

// Policy is the oracle.
type Policy struct {
	*cora.Policy
	o    policies.Oracle
	jobs map[int]*jobWork
	// means serve the estimate outside an engine that grants clairvoyance.
	means plan.Means
}

// jobWork keeps a job's true base work per stage so that a decision costs O(running
// tasks + new finishes) per job instead of O(tasks): jobs of the rds family have
// ~1,000 tasks and a run ~70,000 decision instants.
type jobWork struct {
	total    []float64 // Σ base runtimes of every task of the stage
	finished []float64 // Σ base runtimes of the stage's finished tasks
	// longest[s][k] is the longest base runtime among tasks k… of stage s: the engine
	// starts a stage's tasks in index order, so the unstarted ones are a suffix.
	longest [][]float64
	seen    int // how many of v.Finished(j) are in finished (it only grows)
	// out is the stages trueStages last returned for the job, reused by its next call
	// (plan.Build reads them first; see plan.Means.Estimated).
	out []plan.Stage
}

// New returns the oracle with the planner shape cfg.
func New(cfg cora.Config) *Policy {
	p := &Policy{jobs: map[int]*jobWork{}}
	p.Policy = cora.NewNamed("oracle", cfg, p.trueStages)
	return p
}

// Observe is cora's, and drops the estimate's sums of a job that is done.
func (p *Policy) Observe(v policies.View, e policies.Event) {
	p.Policy.Observe(v, e)
	if e.Kind == policies.EventJobFinish || e.Kind == policies.EventReject {
		p.means.Forget(e.Job)
	}
}

// UseOracle implements policies.Clairvoyant.
func (p *Policy) UseOracle(o policies.Oracle) { p.o = o }

func (p *Policy) work(v policies.View, j int) *jobWork {
	info := v.Job(j)
	jw := p.jobs[j]
	if jw == nil {
		jw = &jobWork{total: make([]float64, len(info.Stages)), finished: make([]float64, len(info.Stages)),
			longest: make([][]float64, len(info.Stages))}
		for s := range info.Stages {
			n := info.Stages[s].Tasks
			jw.longest[s] = make([]float64, n+1)
			for t := n - 1; t >= 0; t-- {
				rt := p.o.TrueRuntime(j, s, t)
				jw.total[s] += rt
				jw.longest[s][t] = max(jw.longest[s][t+1], rt)
			}
		}
		p.jobs[j] = jw
	}
	fin := v.Finished(j)
	for _, r := range fin[min(jw.seen, len(fin)):] {
		jw.finished[r.Stage] += p.o.TrueRuntime(j, r.Stage, r.Task)
	}
	jw.seen = len(fin)
	return jw
}

// trueStages is plan.Estimated with the truth.
func (p *Policy) trueStages(v policies.View, j int, slot float64, pooled bool) ([]plan.Stage, error) {
	if p.o == nil { // run outside an engine that grants clairvoyance: estimate
		return p.means.Estimated(v, j, slot, pooled)
	}
	info := v.Job(j)
	first := v.Stage(j)
	if first >= len(info.Stages) {
		return nil, nil
	}
	now := v.Now()
	workers := v.Workers()
	fastest := make([]float64, len(v.Pools()))
	for _, w := range workers {
		for pool, n := range w.Slots {
			if n > 0 {
				fastest[pool] = max(fastest[pool], w.Speed)
			}
		}
	}
	jw := p.work(v, j)
	if cap(jw.out) < len(info.Stages) {
		jw.out = make([]plan.Stage, len(info.Stages))
	}
	out := jw.out[:len(info.Stages)-first]
	work := make([]float64, len(out))
	unstarted := make([]float64, len(out))
	for k := range out {
		s := first + k
		st := &info.Stages[s]
		unstarted[k] = jw.total[s] - jw.finished[s]
		speed := max(fastest[st.Pool], 1e-12)
		started := v.Done(j, s) + v.Running(j, s)
		out[k] = plan.Stage{Index: s, Pool: st.Pool, Parallel: v.Pending(j, s) + v.Running(j, s),
			Longest: jw.longest[s][min(started, st.Tasks)] / speed}
	}
	for _, r := range v.RunningTasks(j) {
		rt := p.o.TrueRuntime(j, r.Stage, r.Task)
		k := r.Stage - first
		unstarted[k] -= rt
		rem := max(0, r.Start+rt/workers[r.Worker].Speed-now)
		work[k] += rem
		out[k].Longest = max(out[k].Longest, rem)
	}
	for k := range out {
		speed := max(fastest[out[k].Pool], 1e-12)
		work[k] += max(0, unstarted[k]) / speed
		mean := 0.0
		if n := info.Stages[first+k].Tasks; n > 0 {
			mean = jw.total[first+k] / float64(n) / speed
		}
		out[k].TaskSlots = max(1, int(mean/slot+0.5))
	}
	return plan.Shape(out, work, slot, pooled), nil
}
