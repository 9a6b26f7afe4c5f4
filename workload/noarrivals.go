package workload

import (
	"fmt"

	"github.com/coraopt/coraopt/sched"
)

// NoArrivals is w with every job arriving at time 0 and every deadline and utility kept
// at its absolute time: a job that arrived at a with relative deadline d now has
// deadline a + d, and its utility of response r is its old utility of r − a. What
// remains is the planning problem alone — nothing arrives later, so a planner has
// nothing to be myopic about (issue 28's experiment). A workflow's deadline, when
// declared, is kept absolute the same way. Table utilities cannot be shifted by a
// fraction of a slot and are refused; an RDS utility becomes the piecewise-linear
// function it is after the shift.
func NoArrivals(w *Workload) (*Workload, error) {
	out := *w
	out.Jobs = make([]Job, len(w.Jobs))
	for i, j := range w.Jobs {
		a := j.Arrival
		shift := a / w.TimeUnit
		if j.Deadline > 0 {
			j.Deadline += a
		}
		u, err := shiftUtility(j.Utility, shift)
		if err != nil {
			return nil, fmt.Errorf("workload: jobs[%d] (%s): %w", i, j.ID, err)
		}
		j.Utility, j.Arrival = u, 0
		out.Jobs[i] = j
	}
	out.Workflows = make([]Workflow, len(w.Workflows))
	for i, wf := range w.Workflows {
		wf.Deadline += wf.Arrival
		wf.Arrival = 0
		out.Workflows[i] = wf
	}
	out.Name = w.Name + "-at-once"
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("workload: without arrivals: %w", err)
	}
	return &out, nil
}

// shiftUtility is u(r − s): the utility of a job that arrives s time units earlier.
func shiftUtility(u sched.Utility, s float64) (sched.Utility, error) {
	switch u := u.(type) {
	case sched.Sigmoid:
		u.Deadline += s
		return u, nil
	case sched.Linear:
		u.Budget += s
		return u, nil
	case sched.Step:
		u.Deadline += s
		return u, nil
	case sched.Constant:
		return u, nil
	case sched.Piecewise:
		pts := make([][2]float64, len(u.Points))
		for k, p := range u.Points {
			pts[k] = [2]float64{p[0] + s, p[1]}
		}
		return sched.Piecewise{Points: pts}, nil
	case sched.RDS:
		if s == 0 {
			return u, nil
		}
		// ω until soft, then ω(1 − (r − soft)/soft) down to hard, then 0.
		atHard := u.Priority * (1 - (u.Hard-u.Soft)/u.Soft)
		return sched.Piecewise{Points: [][2]float64{{u.Soft + s, u.Priority}, {u.Hard + s, atHard}, {u.Hard + s, 0}}}, nil
	}
	return nil, fmt.Errorf("utility %s cannot be shifted in time exactly", u.Type())
}
