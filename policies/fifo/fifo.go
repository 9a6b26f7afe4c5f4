// Package fifo is first-in-first-out in the two forms the papers' baselines take:
//
//   - "fifo": each free slot goes to the earliest-arrived job with a task that can run
//     on it, ties by job id — Hadoop's default scheduler, cora.txt §III-B's FIFO
//     ("jobs are scheduled according to the order of their arrival time. This is the
//     default scheduler of Hadoop"), work-conserving across jobs.
//   - "fifo-serial": one job at a time (policies.Serial), the earliest-arrived ready
//     job, as rush.txt §V-B ran it: "The fact that EDF and FIFO only execute one job
//     at a time creates head-of-line blocking". Slots that job cannot use stay idle.
package fifo

import (
	"context"

	"github.com/coraopt/coraopt/policies"
)

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

// Serial is FIFO one job at a time.
type Serial struct{ s policies.Serial }

// NewSerial returns FIFO one job at a time.
func NewSerial() *Serial { return &Serial{} }

func (*Serial) Name() string { return "fifo-serial" }

// StartRound makes the earliest-arrived ready job the one that runs (Active is in
// (arrival, id) order).
func (p *Serial) StartRound(_ context.Context, v policies.View) { p.s.Lead(v, v.Active()) }

func (p *Serial) Pick(v policies.View, s policies.Slot) (int, bool) { return p.s.Pick(v, s) }
