// Package edf is earliest-deadline-first in the forms the papers compare:
//
//   - EDF-P ("edf"): every free slot goes to the runnable job with the earliest
//     absolute deadline. A job that arrives with an earlier deadline takes the slots
//     that free up from then on, but running tasks are never killed — rds.txt §6's
//     EDF-P, and the EDF of cora.txt §III-B ("jobs are scheduled according to the
//     order of their target completion-times"), work-conserving across jobs.
//   - EDF-N ("edf-n"): one job at a time is in the running queue — the earliest
//     deadline among the ready jobs when the queue empties — and it keeps the cluster
//     until it finishes, even when a job with an earlier deadline arrives; slots the
//     running job cannot use stay idle (rds.txt §6).
//   - "edf-serial": one job at a time (policies.Serial), the earliest deadline among
//     the ready jobs, re-chosen at every decision instant, as rush.txt §V-B ran it:
//     "The fact that EDF and FIFO only execute one job at a time creates head-of-line
//     blocking", with jobs in deadline order — "EDF scheduling is the optimal policy
//     for meeting the jobs' deadlines when jobs are queued in a preemptive queue". A
//     job arriving with an earlier deadline displaces the running one between tasks:
//     it starts once the displaced job's running tasks have finished (tasks are never
//     killed; a displaced job whose reducers started under slow start first finishes
//     the maps they wait for), and the displaced job resumes when it is the earliest
//     again. EDF-N is the same without displacement.
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

type mode int

const (
	perSlot mode = iota
	nonPreemptive
	serial
)

// Policy is EDF-P, EDF-N or serial EDF.
type Policy struct {
	mode    mode
	order   []int // active jobs by (deadline, rank), for this round
	current int   // EDF-N's running job, -1 when none
	serial  policies.Serial
}

// New returns EDF-P, the per-slot EDF.
func New() *Policy { return &Policy{current: -1} }

// NewNonPreemptive returns EDF-N.
func NewNonPreemptive() *Policy { return &Policy{mode: nonPreemptive, current: -1} }

// NewSerial returns serial EDF, one job at a time by earliest deadline.
func NewSerial() *Policy { return &Policy{mode: serial, current: -1} }

func (p *Policy) Name() string {
	switch p.mode {
	case nonPreemptive:
		return "edf-n"
	case serial:
		return "edf-serial"
	}
	return "edf"
}

func (p *Policy) StartRound(_ context.Context, v policies.View) {
	p.order = append(p.order[:0], v.Active()...)
	slices.SortStableFunc(p.order, func(a, b int) int { // Active is in rank order already
		return cmp.Compare(policies.TargetTime(v, a), policies.TargetTime(v, b))
	})
	switch p.mode {
	case serial:
		p.serial.Lead(v, p.order)
	case nonPreemptive:
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
}

func (p *Policy) Pick(v policies.View, s policies.Slot) (int, bool) {
	switch p.mode {
	case nonPreemptive:
		return p.current, p.current >= 0 && v.Runnable(p.current, s.Pool)
	case serial:
		return p.serial.Pick(v, s)
	}
	for _, j := range p.order {
		if v.Runnable(j, s.Pool) {
			return j, true
		}
	}
	return 0, false
}
