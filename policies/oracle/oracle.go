// Package oracle is the clairvoyant policy of the simulator (DESIGN.md "Simulator";
// issue 18 item 4): it knows every task's true runtime (policies.Clairvoyant) and
// re-plans at every decision instant with exact CORA — the completion-time lexmax by
// onion peeling, through the solve package — on the true remaining work, setting
// targets from the first slot as policies/cora does. It is the best schedule we know
// how to realize, shown beside the offline bound (sim.Bound) to say how close that bound
// is to something achievable. It is not an upper bound itself: the plan is still slotted,
// tasks are not preempted, and the capacity is taken as constant from now on.
//
// True remaining work of a job on a pool: the true base runtimes of its unstarted tasks
// (divided by the pool's fastest worker speed) plus, for each running task, the time
// until it ends (start + runtime/speed − now).
package oracle

import (
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/cora"
)

// Policy is the oracle.
type Policy struct {
	*cora.Policy
	o    policies.Oracle
	jobs map[int]*jobWork
}

// jobWork keeps a job's true base work per stage so that a decision costs O(running
// tasks + new finishes) per job instead of O(tasks): jobs of the rds family have
// ~1,000 tasks and a run ~70,000 decision instants.
type jobWork struct {
	total    []float64 // Σ base runtimes of every task of the stage
	finished []float64 // Σ base runtimes of the stage's finished tasks
	seen     int       // how many of v.Finished(j) are in finished (it only grows)
}

// New returns the oracle with slots of cfg.
func New(cfg cora.Config) *Policy {
	p := &Policy{jobs: map[int]*jobWork{}}
	p.Policy = cora.NewNamed("oracle", cfg, p.trueWork)
	return p
}

// UseOracle implements policies.Clairvoyant.
func (p *Policy) UseOracle(o policies.Oracle) { p.o = o }

func (p *Policy) trueWork(v policies.View, j int, out []float64) {
	if p.o == nil { // run outside an engine that grants clairvoyance: estimate
		cora.EstimatedWork(v, j, out)
		return
	}
	info := v.Job(j)
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
	jw := p.jobs[j]
	if jw == nil {
		jw = &jobWork{total: make([]float64, len(info.Stages)), finished: make([]float64, len(info.Stages))}
		for s := range info.Stages {
			for t := range info.Stages[s].Tasks {
				jw.total[s] += p.o.TrueRuntime(j, s, t)
			}
		}
		p.jobs[j] = jw
	}
	fin := v.Finished(j)
	for _, r := range fin[min(jw.seen, len(fin)):] {
		jw.finished[r.Stage] += p.o.TrueRuntime(j, r.Stage, r.Task)
	}
	jw.seen = len(fin)
	unstarted := make([]float64, len(info.Stages))
	for s := range unstarted {
		unstarted[s] = jw.total[s] - jw.finished[s]
	}
	for _, r := range v.RunningTasks(j) {
		rt := p.o.TrueRuntime(j, r.Stage, r.Task)
		unstarted[r.Stage] -= rt
		pool := info.Stages[r.Stage].Pool
		out[pool] += max(0, r.Start+rt/workers[r.Worker].Speed-now)
	}
	for s := v.Stage(j); s < len(info.Stages); s++ {
		st := &info.Stages[s]
		speed := max(fastest[st.Pool], 1e-12)
		out[st.Pool] += max(0, unstarted[s]) / speed
	}
}
