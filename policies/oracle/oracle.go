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
	o policies.Oracle
}

// New returns the oracle with slots of cfg.
func New(cfg cora.Config) *Policy {
	p := &Policy{}
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
	started := map[[2]int]bool{}
	for _, r := range v.Finished(j) {
		started[[2]int{r.Stage, r.Task}] = true
	}
	for _, r := range v.RunningTasks(j) {
		started[[2]int{r.Stage, r.Task}] = true
		speed := workers[r.Worker].Speed
		pool := info.Stages[r.Stage].Pool
		out[pool] += max(0, r.Start+p.o.TrueRuntime(j, r.Stage, r.Task)/speed-now)
	}
	for s := v.Stage(j); s < len(info.Stages); s++ {
		st := &info.Stages[s]
		speed := max(fastest[st.Pool], 1e-12)
		for t := range st.Tasks {
			if !started[[2]int{s, t}] {
				out[st.Pool] += p.o.TrueRuntime(j, s, t) / speed
			}
		}
	}
}
