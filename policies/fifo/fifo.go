// Package fifo is Hadoop's default scheduler as the papers' baselines describe it
// (cora.txt §III-B, rush.txt §V-B): each free slot goes to the earliest-arrived job
// with a task that can run on it, ties by job id.
package fifo

import "github.com/coraopt/coraopt/policies"

// Policy is FIFO. It keeps no state.
type Policy struct{}

// New returns FIFO.
func New() *Policy { return &Policy{} }

func (*Policy) Name() string { return "fifo" }

// Pick returns the first runnable job in (arrival, id) order.
func (*Policy) Pick(v policies.View, s policies.Slot) (int, bool) {
	for _, j := range v.Active() {
		if v.Runnable(j, s.Pool) {
			return j, true
		}
	}
	return 0, false
}
