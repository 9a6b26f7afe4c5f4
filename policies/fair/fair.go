// Package fair is the proportional (fair-share) baseline of cora.txt §III-B: each job
// is entitled to slots in proportion to its priority, and the scheduler is
// work-conserving. Per free slot of a pool it picks the runnable job with the smallest
// held/priority ratio in that pool — the job furthest below its weighted share, as
// Hadoop's Fair Scheduler does — ties to the earlier job by (arrival, id).
package fair

import "github.com/coraopt/coraopt/policies"

// Policy is Fair.
type Policy struct{}

// New returns Fair.
func New() *Policy { return &Policy{} }

func (*Policy) Name() string { return "fair" }

func (*Policy) Pick(v policies.View, s policies.Slot) (int, bool) {
	best, bestRatio := -1, 0.0
	for _, j := range v.Active() {
		if !v.Runnable(j, s.Pool) {
			continue
		}
		r := float64(v.Held(j, s.Pool)) / v.Job(j).Priority
		if best < 0 || r < bestRatio {
			best, bestRatio = j, r
		}
	}
	return best, best >= 0
}
