package cli

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/formulations/rs"
	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
)

// rsDetails is the "details" object of --formulation rs.
type rsDetails struct {
	Theta float64 `json:"theta"`
	Delta float64 `json:"delta"`
	Bins  int     `json:"bins"`
	// Demands is WCDE's answer per job; TAS is the details of the method that scheduled
	// the η; Mapping is Alg. 4's assignment of tasks to container queues.
	Demands    []rsDemandJSON `json:"demands"`
	WCDEChecks rsChecksJSON   `json:"wcde_checks"`
	TAS        any            `json:"tas,omitempty"`
	Mapping    rsMappingJSON  `json:"mapping"`
}

type rsChecksJSON struct {
	Run    int `json:"run"`
	Failed int `json:"failed"`
}

type rsMappingJSON struct {
	Rounding string `json:"rounding"`
	// BoundHolds says whether every job finished by T_i + R_i (Theorem 3); Late lists
	// those that did not.
	BoundHolds bool              `json:"bound_holds"`
	Late       []string          `json:"late,omitempty"`
	Jobs       []rsMappedJobJSON `json:"jobs"`
}

type rsMappedJobJSON struct {
	ID         string `json:"id"`
	TaskSlots  int    `json:"task_slots"`
	Tasks      int    `json:"tasks"`
	Volume     int    `json:"volume"`
	Target     int    `json:"target"`
	Completion int    `json:"completion"`
}

// solveRS solves RS (rush.txt §III) with formulations/rs: WCDE per job, TAS on the
// worst-case demands η with --method (onion peeling, or the MIP), and Alg. 4's mapping of
// the schedule to container queues. The schedule is checked against the η (the robust
// instance), and WCDE's cross-checks (rs.CrossCheckDemands) join the self-check.
func solveRS(ctx context.Context, o *solveOptions, in *sched.Instance) (*solved, error) {
	p, err := o.rs.params(in)
	if err != nil {
		return nil, err
	}
	var inner *solved
	scheduled := false
	res, err := rs.Solve(ctx, in, p, rs.Options{Scheduler: func(ctx context.Context, robust *sched.Instance) (*sched.Schedule, error) {
		scheduled = true
		s, err := solveTAS(ctx, o, robust)
		if err != nil {
			return nil, err
		}
		inner = s
		return s.schedule, nil
	}})
	switch {
	case err != nil && !scheduled:
		return nil, usageErr(err) // WCDE: the instance or the parameters
	case err != nil && inner == nil:
		return nil, err // TAS: carries its own exit code
	case err != nil:
		return nil, failed(err) // the mapping
	}
	checks, err := rs.CrossCheckDemands(res.Demands, p)
	if err != nil {
		return nil, failed(err)
	}
	out := inner
	out.instance = res.Instance
	det := rsDetails{Theta: p.Theta, Delta: p.Delta, Bins: p.Bins, TAS: inner.details,
		WCDEChecks: rsChecksJSON{Run: len(checks)}, Mapping: mappingJSON(res.Instance, res.Mapping)}
	if det.Bins == 0 {
		det.Bins = rs.DefaultBins
	}
	for _, c := range checks {
		if !c.OK {
			det.WCDEChecks.Failed++
			out.problems = append(out.problems, fmt.Sprintf("%s: %s (violation %g)", c.Name, c.Detail, c.MaxViolation))
		}
	}
	for _, d := range res.Demands {
		det.Demands = append(det.Demands, demandJSON(d))
	}
	out.details = det
	out.checked = fmt.Sprintf("%d WCDE cross-checks (bisection vs scan, b*-quantile, REM closed form vs Lagrange dual, monotonicity, worst-case distribution)", len(checks))
	out.decorate = func(j int, job *solveJob) {
		d := res.Demands[j]
		if d.HasRuntime() {
			eta, q := d.Eta, d.Estimate.ReferenceQuantile
			job.Eta, job.ReferenceQuantile = &eta, &q
		}
	}
	return out, nil
}

func mappingJSON(in *sched.Instance, m *tas.Mapping) rsMappingJSON {
	out := rsMappingJSON{Rounding: rs.Options{}.Rounding.String(), BoundHolds: m.BoundHolds}
	for _, j := range m.Late {
		out.Late = append(out.Late, in.Jobs[j].ID)
	}
	for j, job := range in.Jobs {
		out.Jobs = append(out.Jobs, rsMappedJobJSON{ID: job.ID, TaskSlots: max(job.TaskSlots, 1), Tasks: m.Tasks[j],
			Volume: m.Volume[j], Target: m.Target[j], Completion: m.Completion[j]})
	}
	return out
}
