// Package edf is earliest-deadline-first in the two forms rds.txt §6 compares:
//
//   - EDF-P ("edf"): every free slot goes to the runnable job with the earliest
//     absolute deadline. A job that arrives with an earlier deadline takes the slots
//     that free up from then on, but running tasks are never killed — rds.txt's
//     EDF-P, and the EDF of cora.txt §III-B and rush.txt §V-B, which order jobs by
//     target completion time.
//   - EDF-N ("edf-n"): one job at a time is in the running queue — the earliest
//     deadline among the ready jobs when the queue empties — and it keeps the cluster
//     until it finishes, even when a job with an earlier deadline arrives; slots the
//     running job cannot use stay idle.
//
// The deadline is the job's (arrival + deadline), or when it has none the time its
// utility names (policies.TargetTime), or +Inf; ties go to the earlier job by
// (arrival, id).
package edf

import (
	"cmp"
	"context"
	"slices"

	"github.com/coraopt/coraopt/policies"
)

// Policy is EDF-P or EDF-N.
type Policy struct {
	nonPreemptive bool
	order         []int // active jobs by (deadline, rank), for this round
	current       int   // EDF-N's running job, -1 when none
}

// New returns EDF-P, the per-slot EDF.
func New() *Policy { return &Policy{current: -1} }

// NewNonPreemptive returns EDF-N.
func NewNonPreemptive() *Policy { return &Policy{nonPreemptive: true, current: -1} }

func (p *Policy) Name() string {
	if p.nonPreemptive {
		return "edf-n"
	}
	return "edf"
}

func (p *Policy) StartRound(_ context.Context, v policies.View) {
	p.order = append(p.order[:0], v.Active()...)
	slices.SortStableFunc(p.order, func(a, b int) int { // Active is in rank order already
		return cmp.Compare(policies.TargetTime(v, a), policies.TargetTime(v, b))
	})
	if !p.nonPreemptive {
		return
	}
	if p.current >= 0 {
		if _, done := v.Completion(p.current); done || v.Rejected(p.current) {
			p.current = -1
		}
	}
	if p.current < 0 {
		for _, j := range p.order {
			if v.Ready(j) {
				p.current = j
				break
			}
		}
	}
}

func (p *Policy) Pick(v policies.View, s policies.Slot) (int, bool) {
	if p.nonPreemptive {
		return p.current, p.current >= 0 && v.Runnable(p.current, s.Pool)
	}
	for _, j := range p.order {
		if v.Runnable(j, s.Pool) {
			return j, true
		}
	}
	return 0, false
}
