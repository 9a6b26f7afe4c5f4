package solve

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/formulations/rs"
	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
)

// RSDetails is the Details of rs.
type RSDetails struct {
	Theta float64 `json:"theta"`
	Delta float64 `json:"delta"`
	Bins  int     `json:"bins"`
	// Demands is WCDE's answer per job; TAS is the details of the method that scheduled
	// the η; Mapping is Alg. 4's assignment of tasks to container queues.
	Demands    []RSDemand    `json:"demands"`
	WCDEChecks RSChecks      `json:"wcde_checks"`
	TAS        any           `json:"tas,omitempty"`
	Mapping    RSMappingJSON `json:"mapping"`
}

// RSChecks counts WCDE's cross-checks.
type RSChecks struct {
	Run    int `json:"run"`
	Failed int `json:"failed"`
}

// RSMappingJSON is Alg. 4's mapping as reported.
type RSMappingJSON struct {
	Rounding string `json:"rounding"`
	// BoundHolds says whether every job finished by T_i + R_i (Theorem 3); Late lists
	// those that did not.
	BoundHolds bool           `json:"bound_holds"`
	Late       []string       `json:"late,omitempty"`
	Jobs       []RSMappedJobs `json:"jobs"`
}

// RSMappedJobs is one job of the mapping.
type RSMappedJobs struct {
	ID         string `json:"id"`
	TaskSlots  int    `json:"task_slots"`
	Tasks      int    `json:"tasks"`
	Volume     int    `json:"volume"`
	Target     int    `json:"target"`
	Completion int    `json:"completion"`
}

// RSDemand is one job's WCDE answer (rs.JobDemand) as reported.
type RSDemand struct {
	ID                string  `json:"id"`
	Estimator         string  `json:"estimator,omitempty"`
	Samples           int     `json:"samples,omitempty"`
	Nominal           int     `json:"nominal"`
	ReferenceQuantile *int64  `json:"reference_quantile,omitempty"`
	Eta               int64   `json:"eta"`
	KL                float64 `json:"kl"`
	Bins              int     `json:"bins,omitempty"`
	BinWidth          float64 `json:"bin_width,omitempty"`
	TauMax            float64 `json:"tau_max,omitempty"`
	SupportEdge       bool    `json:"support_edge"`
}

// DemandOf reports one job's WCDE answer.
func DemandOf(d rs.JobDemand) RSDemand {
	j := RSDemand{ID: d.ID, Nominal: d.Nominal, Eta: d.Eta}
	if d.HasRuntime() {
		ref := d.Reference
		q := d.Estimate.ReferenceQuantile
		j.Estimator, j.Samples, j.ReferenceQuantile = ref.Estimator, ref.Samples, &q
		j.KL, j.Bins, j.BinWidth, j.TauMax, j.SupportEdge = d.Estimate.KL, ref.Bins(), ref.Width(), ref.TauMax, d.Estimate.SupportEdge
	}
	return j
}

// RSParams merges the overrides with the instance's robust block; theta and delta must
// come from one or the other.
func RSParams(in *sched.Instance, o RSOptions) (rs.Params, error) {
	p, ok := rs.ParamsOf(in)
	if o.Theta != nil {
		p.Theta = *o.Theta
	}
	if o.Delta != nil {
		p.Delta = *o.Delta
	}
	if o.Bins != nil {
		p.Bins = *o.Bins
	}
	if !ok && (o.Theta == nil || o.Delta == nil) {
		return p, requestErrf("RS needs theta and delta: add a \"robust\" block to the instance or pass %s and %s", field("theta"), field("delta"))
	}
	return p, nil
}

func rsFormulation() Formulation {
	return Formulation{
		Name:          "rs",
		Help:          "RUSH's robust scheduling (rush.txt §III): each job with a \"runtime\" needs its worst-case demand eta, the largest theta-quantile of any distribution within KL divergence delta of its reference runtime distribution (REM closed form, Alg. 1; bisection, Alg. 2); then tas on the eta, then Alg. 4's mapping to container queues. theta, delta and bins come from the instance's \"robust\" block or --theta, --delta, --bins. Single-resource instances only. The output adds jobs[].eta and jobs[].reference_quantile; the self-check is against the eta.",
		Methods:       []Method{onionMethod, mipMethod},
		Options:       []string{"theta", "delta", "bins"},
		DefaultVerify: true,
		Solve:         solveRS,
	}
}

// solveRS solves RS (rush.txt §III) with formulations/rs: WCDE per job, TAS on the
// worst-case demands η with the request's method, and Alg. 4's mapping of the schedule
// to container queues. The schedule is checked against the η (the robust instance), and
// WCDE's cross-checks (rs.CrossCheckDemands) join the self-check.
func solveRS(ctx context.Context, req *Request, b solvers.Backend) (*Result, error) {
	in := req.Instance
	p, err := RSParams(in, req.RS)
	if err != nil {
		return nil, err
	}
	var inner *Result
	scheduled := false
	res, err := rs.Solve(ctx, in, p, rs.Options{Scheduler: func(ctx context.Context, robust *sched.Instance) (*sched.Schedule, error) {
		scheduled = true
		var s *Result
		var err error
		if req.Method == mipMethod.Name {
			s, err = solveTASMIP(ctx, req, robust, b)
		} else {
			s, err = solveOnion(ctx, robust, req.Budget, false, nil)
		}
		if err != nil {
			return nil, err
		}
		inner = s
		return s.Schedule, nil
	}})
	switch {
	case err != nil && !scheduled:
		return nil, requestErr(err) // WCDE: the instance or the parameters
	case err != nil:
		return nil, err // TAS (its own kind) or the mapping
	}
	var checks []rs.CheckResult
	if !req.SkipSelfChecks {
		if checks, err = rs.CrossCheckDemands(res.Demands, p); err != nil {
			return nil, err
		}
	}
	out := inner
	out.Instance = res.Instance
	det := RSDetails{Theta: p.Theta, Delta: p.Delta, Bins: p.Bins, TAS: inner.Details,
		WCDEChecks: RSChecks{Run: len(checks)}, Mapping: mappingJSON(res.Instance, res.Mapping)}
	if det.Bins == 0 {
		det.Bins = rs.DefaultBins
	}
	for _, c := range checks {
		if !c.OK {
			det.WCDEChecks.Failed++
			out.Problems = append(out.Problems, fmt.Sprintf("%s: %s (violation %g)", c.Name, c.Detail, c.MaxViolation))
		}
	}
	for _, d := range res.Demands {
		det.Demands = append(det.Demands, DemandOf(d))
	}
	out.Details = det
	if req.SkipSelfChecks {
		out.Checked = ""
	} else {
		out.Checked = fmt.Sprintf("%d WCDE cross-checks (bisection vs scan, b*-quantile, REM closed form vs Lagrange dual, monotonicity, worst-case distribution)", len(checks))
	}
	out.Jobs = make([]JobExtra, len(res.Demands))
	for j, d := range res.Demands {
		if d.HasRuntime() {
			eta, q := d.Eta, d.Estimate.ReferenceQuantile
			out.Jobs[j] = JobExtra{Eta: &eta, ReferenceQuantile: &q}
		}
	}
	return out, nil
}

func mappingJSON(in *sched.Instance, m *tas.Mapping) RSMappingJSON {
	out := RSMappingJSON{Rounding: rs.Options{}.Rounding.String(), BoundHolds: m.BoundHolds}
	for _, j := range m.Late {
		out.Late = append(out.Late, in.Jobs[j].ID)
	}
	for j, job := range in.Jobs {
		out.Jobs = append(out.Jobs, RSMappedJobs{ID: job.ID, TaskSlots: max(job.TaskSlots, 1), Tasks: m.Tasks[j],
			Volume: m.Volume[j], Target: m.Target[j], Completion: m.Completion[j]})
	}
	return out
}
