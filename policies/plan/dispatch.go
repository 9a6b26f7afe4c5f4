package plan

import (
	"math"

	"github.com/coraopt/coraopt/policies"
)

// Dispatcher carries a plan out (DispatchPlan): each free slot goes to the runnable
// job whose stage on the slot's pool has the earliest promise, ties to the earlier job
// by (arrival, id). It is work-conserving: a slot idles only when no active job can
// run a task on it. Embed it, or call its Pick from the policy's.
type Dispatcher struct {
	keys [][]float64 // [job][stage]: promise in seconds, +Inf before any plan
}

// Set records the promises of plan p for its jobs; other jobs keep theirs.
func (d *Dispatcher) Set(v policies.View, p *Problem, pr *Promises) {
	if len(d.keys) != v.NumJobs() {
		d.keys = make([][]float64, v.NumJobs())
	}
	for i, j := range p.Job {
		k := d.keys[j]
		if k == nil {
			k = make([]float64, len(v.Job(j).Stages))
			d.keys[j] = k
		}
		for s := range k {
			if s < p.Stage[i] {
				continue
			}
			if p.Model == Pooled {
				if v.Job(j).Stages[s].Pool == v.Job(j).Stages[p.Stage[i]].Pool {
					k[s] = pr.Part[i]
				}
			} else if s == p.Stage[i] {
				k[s] = pr.Part[i]
			}
		}
	}
}

// Key is job j's promise for the task it would start on a slot of pool: that of its
// earliest unfinished stage on the pool with a task not started (+Inf when unplanned).
func (d *Dispatcher) Key(v policies.View, j, pool int) float64 {
	info := v.Job(j)
	s := v.Stage(j)
	for s < len(info.Stages) && (info.Stages[s].Pool != pool || v.Pending(j, s) == 0) {
		s++
	}
	if s >= len(info.Stages) || j >= len(d.keys) || d.keys[j] == nil {
		return math.Inf(1)
	}
	return d.keys[j][s]
}

// Pick gives s to the runnable active job with the earliest Key.
func (d *Dispatcher) Pick(v policies.View, s policies.Slot) (int, bool) {
	best, bk := -1, 0.0
	for _, j := range v.Active() { // rank order: the first of equal keys wins
		if !v.Runnable(j, s.Pool) {
			continue
		}
		if k := d.Key(v, j, s.Pool); best < 0 || k < bk {
			best, bk = j, k
		}
	}
	return best, best >= 0
}
