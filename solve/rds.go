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
