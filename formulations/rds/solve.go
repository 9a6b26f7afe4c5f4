package rds

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// ShortfallMargin is how much (in percent of a job's work) the second stage of SolveRHC
// relaxes each deadline row beyond the first stage's shortfall, so that solver rounding
// in the first stage cannot make the second infeasible. 1e-6 percent is a hundred
// millionth of the job.
const ShortfallMargin = 1e-6

// Solved is the outcome of SolveRHC.
type Solved struct {
	// Status is Optimal when both stages were solved to optimality; otherwise the
	// status of the stage that was not, and Solution is that stage's.
	Status solvers.Status
	// Problem, Handles and Solution are the eq. 3 stage (BuildRHC).
	Problem  *model.Problem
	Handles  *Handles
	Solution *solvers.Solution
	// Shortfall is the least achievable weighted-optimal shortfall per State.Jobs entry
	// (percent of the work at t_soft), which the eq. 3 stage was held to; all zero when
	// every deadline inside the window can be met.
	Shortfall []float64
	// Stage1 and Stage1Problem are the shortfall stage (BuildShortfall), nil when no
	// deadline falls inside the window.
	Stage1        *solvers.Solution
	Stage1Problem *model.Problem
}

// Iterations is the total solver iterations of both stages.
func (r *Solved) Iterations() int {
	n := 0
	if r.Solution != nil {
		n += r.Solution.Iterations
	}
	if r.Stage1 != nil {
		n += r.Stage1.Iterations
	}
	return n
}

// SolveRHC solves one control step (rds.txt §4.3): when some deadline falls inside the
// prediction window (and p.Deadlines is DeadlinesFirst), first the least weighted
// shortfall (BuildShortfall), then eq. 3 (BuildRHC) with the deadline rows relaxed to
// that shortfall plus ShortfallMargin; otherwise eq. 3 alone. It returns ErrNoJobs when
// no job needs resources. A solver error is returned as an error; a stage that ends
// without an optimum is reported through Solved.Status.
func SolveRHC(ctx context.Context, s solvers.Solver, st *State, forecast []float64, p Params, opt solvers.Options) (*Solved, error) {
	m, h, err := BuildRHC(st, forecast, p)
	if err != nil {
		return nil, err
	}
	res := &Solved{Handles: h, Shortfall: make([]float64, len(st.Jobs))}
	if h.HasDeadlines() {
		m1, h1, err := BuildShortfall(st, forecast, p)
		if err != nil {
			return nil, err
		}
		if res.Stage1Problem, err = m1.Compile(); err != nil {
			return nil, fmt.Errorf("rds: compiling the shortfall model: %w", err)
		}
		sol1, err := s.Solve(ctx, res.Stage1Problem, opt)
		if err != nil {
			return nil, fmt.Errorf("rds: solving the shortfall model with %s: %w", s.Name(), err)
		}
		res.Stage1 = sol1
		if sol1.Status != solvers.Optimal || sol1.X == nil {
			res.Status, res.Solution = sol1.Status, sol1
			return res, nil
		}
		for j, sf := range h1.Shortfall(sol1.X) {
			if sf > ShortfallMargin {
				res.Shortfall[j] = sf
			}
		}
		relaxed := make([]float64, len(res.Shortfall))
		for j, sf := range res.Shortfall {
			relaxed[j] = sf + ShortfallMargin
		}
		if err := h.AllowShortfall(m, relaxed); err != nil {
			return nil, err
		}
	}
	if res.Problem, err = m.Compile(); err != nil {
		return nil, fmt.Errorf("rds: compiling the RHC model: %w", err)
	}
	sol, err := s.Solve(ctx, res.Problem, opt)
	if err != nil {
		return nil, fmt.Errorf("rds: solving the RHC model with %s: %w", s.Name(), err)
	}
	res.Status, res.Solution = sol.Status, sol
	if sol.Status == solvers.Optimal && sol.X == nil {
		res.Status = solvers.NumericalError
	}
	return res, nil
}
