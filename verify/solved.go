package verify

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/coraopt/coraopt/formulations/rds"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/certificate"
)

// SolvedOptions control Solved.
type SolvedOptions struct {
	// All adds the evidence beyond the schedule's own checks: the certificate of every
	// solver point, and for a schedule that claims the TAS lexmax its max-flow
	// certificate.
	All bool
	// Tolerances of the certificates (zero fields: certificate's defaults).
	Tolerances certificate.Tolerances
}

// SolvedReport is Solved's answer: the checks, and what they covered, in words.
type SolvedReport struct {
	Report
	Checked []string
}

// Solved certifies one answer of package solve from the answer alone:
//
//	schedule/<checks>            the schedule against res.Instance (Schedule; demand met
//	                             exactly for CORA)
//	<point>/<certificate>        with All, every solver point (Certificate): "certificate"
//	                             for the LP or MIP, eq3 and shortfall-lp for RDS
//	lexmax-certificate           with All, LexmaxCertificate of a schedule that claims
//	                             the TAS lexmax (onion peeling)
//
// An RDS step (res.Step) has no schedule: its checks are the KKT residuals the step
// computed (RDSStep) and, with All, the certificates of its QP and LP.
func Solved(res *solve.Result, opt SolvedOptions) SolvedReport {
	tol := opt.Tolerances.WithDefaults()
	var out SolvedReport
	if res.Step != nil {
		out.Report = RDSStep(res.Step)
		out.Checked = []string{"kkt"}
		if opt.All {
			for _, p := range res.Points {
				out.Merge(Certificate(p.Problem, p.Solution, tol).Prefixed(p.Name))
			}
		}
		return out
	}
	checked := "capacity, demand, release, max_parallel, completion and utility recomputed from the allocation"
	if res.ExactDemand {
		checked = strings.Replace(checked, "demand", "demand (exactly)", 1)
	}
	out.Report = Schedule(res.Instance, res.Schedule, ScheduleOptions{ExactDemand: res.ExactDemand}).Prefixed("schedule")
	out.Checked = append(out.Checked, checked)
	if opt.All {
		for _, p := range res.Points {
			if p.Problem != nil && p.Solution != nil {
				out.Merge(Certificate(p.Problem, p.Solution, tol).Prefixed(p.Name))
			}
		}
		if len(res.Points) > 0 {
			out.Checked = append(out.Checked, "the solver's point certified (bounds, rows, integrality, objective; duals where returned)")
		}
		if res.LexmaxByFlow {
			out.Add(LexmaxCertificate("lexmax-certificate", res.Instance, res.Schedule, 0))
			out.Checked = append(out.Checked, "lexmax optimality by max-flow saturation tests")
		}
	}
	if res.Checked != "" {
		out.Checked = append(out.Checked, res.Checked)
	}
	return out
}

// RDSStep turns the KKT residuals rds.RunStep computed for the eq. 3 QP into checks
// (relative residuals against their tolerance): kkt-primal, and with duals
// kkt-stationarity and kkt-complementarity (skipped without duals). The certificates
// recomputed from the models and points alone are Solved's, with All.
func RDSStep(step *rds.StepResult) Report {
	k := step.KKT
	var rep Report
	check := func(name string, v float64, what string) Check {
		return New(name, v <= k.Tol, v, fmt.Sprintf("%s: relative residual %.3g, tolerance %g", what, v, k.Tol))
	}
	rep.Add(check("kkt-primal", k.Primal, "bounds and rows of the eq. 3 QP"))
	if !k.Checked {
		reason := "the solver returned no duals"
		rep.Add(Skip("kkt-stationarity", reason), Skip("kkt-complementarity", reason))
		return rep
	}
	rep.Add(check("kkt-stationarity", k.Dual, "c + Qx − Aᵀy projected on the active bounds, with sign conditions"),
		check("kkt-complementarity", k.Complement, "multipliers of inactive rows"))
	return rep
}

// generic verifies a registry formulation that has no suite of its own: every method is
// run through solve (on the first selected backend that solves its classes) and its
// answer certified by Solved (checks <name>/<method>/…), and the methods must agree on
// the sorted utility vector (<name>/methods-agree) where they claim exactness.
func (v *verifier) generic(ctx context.Context, in *sched.Instance, name string, explicit bool) Report {
	var rep Report
	f := v.reg.Lookup(name)
	if f == nil {
		rep.Add(Fail(name, 0, "no such formulation in the registry"))
		return rep
	}
	type answer struct {
		method string
		sorted []float64
	}
	var exact []answer
	for _, m := range f.Methods {
		prefix := name + "/" + m.Name
		req := solve.Request{Formulation: name, Method: m.Name, Instance: in, Budget: v.opt.Budget, TimeLimit: v.opt.TimeLimit}
		if m.NeedsSolver() {
			b, ok := v.backendFor(m.Classes...)
			req.Solver = b.Name
			if !ok {
				rep.Add(Skip(prefix, fmt.Sprintf("no backend among the solvers used (%s) solves %v", v.names(), m.Classes)))
				continue
			}
		}
		res, err := v.reg.Solve(ctx, req)
		var re *solve.RequestError
		switch {
		case ctx.Err() != nil:
			return rep
		case errors.Is(err, solve.ErrNoSchedule):
			rep.Add(v.infeasible(ctx, in, prefix, err.Error()))
			continue
		case errors.As(err, &re):
			if explicit {
				rep.Add(Skip(prefix, err.Error()))
			}
			continue
		case err != nil:
			rep.Add(Fail(prefix, 0, err.Error()))
			continue
		}
		rep.Merge(Solved(res, SolvedOptions{All: true, Tolerances: v.tol}).Prefixed(prefix))
		if res.Exact && res.Schedule != nil {
			exact = append(exact, answer{m.Name, res.Schedule.Sorted})
		}
	}
	if len(exact) > 1 {
		ref := exact[0]
		var diffs []string
		worst := 0.0
		for _, a := range exact[1:] {
			if k, c := firstDiff(a.sorted, ref.sorted); c != 0 {
				worst = max(worst, gap(a.sorted, ref.sorted, k))
				diffs = append(diffs, fmt.Sprintf("%s differs from %s at position %d: %s against %s", a.method, ref.method, k+1, at(a.sorted, k), at(ref.sorted, k)))
			}
		}
		if len(diffs) > 0 {
			rep.Add(Fail(name+"/methods-agree", worst, strings.Join(diffs, "; ")))
		} else {
			rep.Add(Pass(name+"/methods-agree", 0, fmt.Sprintf("%d methods claiming exactness give the same sorted utility vector", len(exact))))
		}
	}
	return rep
}

// backendFor is the first selected backend that solves every class, or false.
func (v *verifier) backendFor(classes ...solvers.Class) (solvers.Backend, bool) {
	for _, b := range v.backends {
		if b.Solves(classes...) {
			return b, true
		}
	}
	return solvers.Backend{}, false
}
