package solve

import (
	"context"
	"errors"
	"strings"

	"github.com/coraopt/coraopt/formulations/rds"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
)

// rhcMethod solves RDS's eq. 3 QP, and the least-shortfall LP when deadlines cannot all
// be met, on one backend.
var rhcMethod = Method{Name: "rhc", Classes: []solvers.Class{solvers.QP, solvers.LP},
	Help: "RDS's receding-horizon control step: the eq. 3 QP (and, when the deadlines inside the window cannot all be met, the least-shortfall LP) on one backend that solves both (default: the first of " + strings.Join(solvers.Preference(solvers.QP), ", ") + " compiled in); --time-limit per solver call."}

func rdsFormulation() Formulation {
	return Formulation{
		Name:    "rds",
		Help:    "One control step of RDS (rds.txt §3–4): FILE is a state file (jobs' progress, work, learned gains, soft/hard deadlines and priorities; capacity history or forecast; H_p, H_c, P, Q, AR order — see testdata/rds/README.md). Prints the allocation for the next interval, the planned moves, the predicted progress against the reference, and the objective of eq. 3. Method rhc; --solver qp (default) or highs; --time-limit per solver call.",
		Methods: []Method{rhcMethod},
		Input:   StateInput,
		Solve: func(ctx context.Context, req *Request, b solvers.Backend) (*Result, error) {
			res, err := rds.RunStep(ctx, req.State, b.Solver, solvers.Options{TimeLimit: req.TimeLimit})
			if err != nil {
				var ve *sched.ValidationError
				if errors.As(err, &ve) {
					return nil, requestErr(err)
				}
				return nil, err
			}
			out := &Result{Status: res.Status, Exact: res.Status == solvers.Optimal, Backend: b.Name,
				BackendVersion: res.Version, Step: res}
			if res.Problem != nil {
				out.Points = append(out.Points, Point{Name: "eq3", Problem: res.Problem, Solution: res.Solution})
			}
			if res.ShortfallProblem != nil {
				out.Points = append(out.Points, Point{Name: "shortfall-lp", Problem: res.ShortfallProblem, Solution: res.Shortfall})
			}
			return out, nil
		},
	}
}

// RHC is the rds formulation's control step for a caller that decides every control
// interval (policies/rds, the simulated RDS): the eq. 3 QP and the least-shortfall LP
// of formulations/rds.SolveRHCWith on backends chosen once by solvers.Select, on a
// state the caller built in memory — no state file to decode, no forecast, no report.
// It is the typed fast entry beside Solve, which serves state files (method rhc).
type RHC struct {
	// QP solves eq. 3; LP the least-shortfall LP of the deadline-first stage.
	QP, LP solvers.Backend
}

// NewRHC selects the backends by name: qp for eq. 3 (it must solve QPs), lp for the
// least-shortfall LP (LPs); "" is solvers.Select's default for the class. A backend
// that is not compiled in or does not solve its class is a *RequestError naming the
// field: "backend" for qp, "shortfall-backend" for lp.
func NewRHC(qp, lp string) (*RHC, error) {
	q, err := solvers.Select(qp, solvers.QP)
	if err != nil {
		return nil, requestErrf("%s: %w", field("backend"), err)
	}
	l, err := solvers.Select(lp, solvers.LP)
	if err != nil {
		return nil, requestErrf("%s: %w", field("shortfall-backend"), err)
	}
	return &RHC{QP: q, LP: l}, nil
}

// Step solves one control step for st with the capacity forecast (formulations/rds.
// SolveRHCWith, whose errors and statuses it returns).
func (r *RHC) Step(ctx context.Context, st *rds.State, forecast []float64, p rds.Params, opt solvers.Options) (*rds.Solved, error) {
	return rds.SolveRHCWith(ctx, r.QP.Solver, r.LP.Solver, st, forecast, p, opt)
}
