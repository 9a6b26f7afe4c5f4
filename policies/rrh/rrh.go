// Package rrh is the risk–reward heuristic of Irwin, Grit and Chase (HPDC 2004) as
// cora.txt §III-B and rush.txt §V-B use it as a baseline: scheduling decisions weigh
// the utility a job gains by running now against the opportunity cost its running
// imposes on the others, with the cost taken from each job's decay slope — the
// tangent of its utility at its target completion time (cora.txt: "it only takes into
// account the tangent to the job utility function locally at the target completion
// time").
//
// The concrete reading used here (Irwin et al.'s FirstReward with α = 1/2, no
// discounting of the present value), recomputed at every decision instant for each
// active job i:
//
//	C      = Σ_p Capacity(p), the slots of the cluster now
//	RPT_i  = RemainingWork_i / C: the time i would take with the whole cluster, from the
//	         estimated remaining slot-seconds (policies.RemainingWork: mean runtime of
//	         the stage's finished tasks, else its declared mean)
//	yield_i = U_i(now + RPT_i), the utility i earns if it runs now
//	decay_i = −dU_i/dt at i's target time (policies.TargetTime), a central difference
//	         over ±½ time unit, in utility per second; at now + RPT_i when there is none
//	cost_i  = RPT_i · Σ_{k≠i} decay_k: what the others lose while i runs first
//	reward_i = (½·yield_i − ½·cost_i) / RPT_i
//
// Each free slot goes to the runnable job with the highest reward, ties to the earlier
// job by (arrival, id).
package rrh

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/workload"
)

// Alpha weighs yield against cost (Irwin et al.'s α).
const Alpha = 0.5

// Policy is RRH.
type Policy struct {
	order  []int
	reward []float64 // by job index
}

// New returns RRH.
func New() *Policy { return &Policy{} }

func (*Policy) Name() string { return "rrh" }

// Rewards computes reward_i for every active job into out (indexed by job).
func Rewards(v policies.View, out []float64) {
	act := v.Active()
	c := 0
	for p := range v.Pools() {
		c += v.Capacity(p)
	}
	now, tu := v.Now(), v.TimeUnit()
	rpt := make([]float64, len(act))
	decay := make([]float64, len(act))
	total := 0.0
	for k, j := range act {
		rpt[k] = max(policies.RemainingWork(v, j)/float64(max(1, c)), 1e-9)
		info := v.Job(j)
		target := policies.TargetTime(v, j)
		if math.IsInf(target, 1) {
			target = now + rpt[k]
		}
		r := (target - info.Arrival) / tu
		lo := workload.UtilityOfResponse(info.Utility, max(0, r-0.5))
		hi := workload.UtilityOfResponse(info.Utility, r+0.5)
		decay[k] = (lo - hi) / ((r + 0.5 - max(0, r-0.5)) * tu)
		total += decay[k]
	}
	for k, j := range act {
		yield := policies.UtilityAt(v, j, now+rpt[k])
		cost := rpt[k] * (total - decay[k])
		out[j] = (Alpha*yield - (1-Alpha)*cost) / rpt[k]
	}
}

func (p *Policy) StartRound(_ context.Context, v policies.View) {
	if len(p.reward) != v.NumJobs() {
		p.reward = make([]float64, v.NumJobs())
	}
	Rewards(v, p.reward)
	p.order = append(p.order[:0], v.Active()...)
	slices.SortStableFunc(p.order, func(a, b int) int { return cmp.Compare(p.reward[b], p.reward[a]) })
}

func (p *Policy) Pick(v policies.View, s policies.Slot) (int, bool) {
	for _, j := range p.order {
		if v.Runnable(j, s.Pool) {
			return j, true
		}
	}
	return 0, false
}
