package sim

import (
	"math"

	"github.com/coraopt/coraopt/workload"
)

// WorkflowMetrics are the workflow outcomes of woha.txt §VI for a workload whose jobs
// form workflows: a workflow completes when its last job does, its workspan is
// completion − submission, and it meets its deadline when it completes by it.
type WorkflowMetrics struct {
	Workflows []WorkflowOutcome `json:"workflows"`
	// DeadlineViolationRatio is the share of workflows with a deadline that missed it
	// (a workflow with a rejected job never completes and misses).
	DeadlineViolationRatio float64 `json:"deadline_violation_ratio"`
	// MaxTardiness and TotalTardiness are over the completed workflows, in seconds.
	MaxTardiness   float64 `json:"max_tardiness"`
	TotalTardiness float64 `json:"total_tardiness"`
}

// WorkflowOutcome is one workflow's outcome. Completion, Workspan and Tardiness are null
// when a job of it was rejected; Deadline, Tardiness and Met when it has no deadline.
type WorkflowOutcome struct {
	ID         string   `json:"id"`
	Arrival    float64  `json:"arrival"`
	Deadline   *float64 `json:"deadline"` // absolute, seconds
	Completion *float64 `json:"completion"`
	Workspan   *float64 `json:"workspan"`
	Tardiness  *float64 `json:"tardiness"`
	Met        *bool    `json:"met"`
}

// AdmissionMetrics are rtmr.txt §V's measures for a policy that decides admission.
type AdmissionMetrics struct {
	Accepted    int     `json:"accepted"`
	AcceptRatio float64 `json:"accept_ratio"` // accepted / jobs
	// SuccessRatio is the accepted jobs that met their deadline over the accepted jobs
	// (1 when none was accepted: no accepted job missed).
	SuccessRatio float64 `json:"success_ratio"`
	// SuccessfulUtilization is §V's Util: slot time held by the jobs that met their
	// deadlines over the slot time available (every pool's capacity over [0, makespan]).
	// Slot time held above a dropped capacity (Metrics.Overcommitted) counts as
	// available too, since the jobs' slot time includes it: the ratio stays at most 1.
	SuccessfulUtilization float64 `json:"successful_utilization"`
}

// summarizeWorkflows groups w's jobs into workflows — the declared ones first, in file
// order, then undeclared workflow names in job order — or returns nil when no job is in
// a workflow. An undeclared workflow's submission is its earliest job arrival and its
// deadline its jobs' earliest absolute deadline.
func summarizeWorkflows(w *workload.Workload, r *Result) *WorkflowMetrics {
	index := map[string]int{}
	var out []WorkflowOutcome
	var done []bool
	for _, wf := range w.Workflows {
		d := wf.Arrival + wf.Deadline
		index[wf.ID] = len(out)
		out = append(out, WorkflowOutcome{ID: wf.ID, Arrival: wf.Arrival, Deadline: &d})
		done = append(done, true)
	}
	last := map[string]float64{}
	declared := len(out)
	for i := range w.Jobs {
		job := &w.Jobs[i]
		if job.Workflow == "" {
			continue
		}
		k, ok := index[job.Workflow]
		if !ok {
			k = len(out)
			index[job.Workflow] = k
			out = append(out, WorkflowOutcome{ID: job.Workflow, Arrival: job.Arrival})
			done = append(done, true)
		}
		o := &out[k]
		if k >= declared {
			o.Arrival = min(o.Arrival, job.Arrival)
			if job.Deadline > 0 {
				d := job.Arrival + job.Deadline
				if o.Deadline == nil || d < *o.Deadline {
					o.Deadline = &d
				}
			}
		}
		jr := &r.Jobs[i]
		if jr.Rejected || math.IsNaN(jr.Completion) {
			done[k] = false
			continue
		}
		if c, seen := last[job.Workflow]; !seen || jr.Completion > c {
			last[job.Workflow] = jr.Completion
		}
	}
	if len(out) == 0 {
		return nil
	}
	m := &WorkflowMetrics{Workflows: out}
	withDeadline, missed := 0, 0
	for k := range out {
		o := &out[k]
		c, seen := last[o.ID]
		if done[k] && seen {
			span := c - o.Arrival
			o.Completion, o.Workspan = &c, &span
		}
		if o.Deadline == nil {
			continue
		}
		withDeadline++
		met := o.Completion != nil && *o.Completion <= *o.Deadline
		o.Met = &met
		if !met {
			missed++
		}
		if o.Completion != nil {
			tard := max(0, *o.Completion-*o.Deadline)
			o.Tardiness = &tard
			m.TotalTardiness += tard
			m.MaxTardiness = max(m.MaxTardiness, tard)
		}
	}
	if withDeadline > 0 {
		m.DeadlineViolationRatio = float64(missed) / float64(withDeadline)
	}
	return m
}

// summarizeAdmission computes AdmissionMetrics from the job metrics already in m.
func summarizeAdmission(m *Metrics, r *Result) *AdmissionMetrics {
	a := &AdmissionMetrics{SuccessRatio: 1}
	success, used := 0, 0.0
	for i, jm := range m.Jobs {
		acc := !jm.Rejected
		m.Jobs[i].Accepted = &acc
		if jm.Rejected {
			continue
		}
		a.Accepted++
		if jm.Met != nil && *jm.Met {
			success++
			used += r.Jobs[i].SlotSeconds
		}
	}
	if n := len(m.Jobs); n > 0 {
		a.AcceptRatio = float64(a.Accepted) / float64(n)
	}
	if a.Accepted > 0 {
		a.SuccessRatio = float64(success) / float64(a.Accepted)
	}
	avail := 0.0
	for k, c := range r.CapacitySeconds {
		avail += c + r.Overcommitted[k]
	}
	if avail > 0 {
		a.SuccessfulUtilization = used / avail
	}
	return a
}
