package solvertest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// answer is the hand-derived result for one case problem, keyed by Problem.Name: the
// optimal point and row duals written in the case comments, or the status.
type answer struct {
	status solvers.Status
	x, y   []float64
}

func opt(x, y []float64) answer { return answer{status: solvers.Optimal, x: x, y: y} }

// answers are the certificates of the case comments, typed in again. The oracle solver
// replays them, so a run of the suite against it checks every hand derivation with the
// suite's own checkers, and mutations of it are the broken solvers the suite must catch.
func answers() map[string]answer {
	a := map[string]answer{
		"diet":                opt(vec(3, 1), vec(1.5, 0.5)),
		"wyndor":              opt(vec(2, 6), vec(0, 1.5, 1)),
		"max_ge_rows":         opt(vec(3, 0), vec(-1, 0)),
		"equality_rows":       opt(vec(3.5, 2.5, 0), vec(1.5, -0.5)),
		"free_variables":      opt(vec(-2, -1), vec(1.0/3, 1.0/3)),
		"upper_bounded_only":  opt(vec(-1.5, 3), vec(0.5)),
		"negative_box":        opt(vec(-4, -1), vec(1)),
		"fixed_variable":      opt(vec(2, 3), vec(1)),
		"column_at_upper":     opt(vec(3, 2), vec(-1)),
		"ranged_row_at_upper": opt(vec(2, 1), vec(0.5)),
		"ranged_row_at_lower": opt(vec(0, 1), vec(0.5)),
		"diet_offset":         opt(vec(3, 1), vec(1.5, 0.5)),
		"wyndor_offset":       opt(vec(2, 6), vec(0, 1.5, 1)),
		"zero_objective":      opt(vec(1, 1, 1), vec(0, 0)),

		"no_rows":                                opt(vec(1, 4, 0), vec()),
		"empty_rows":                             opt(vec(2, 6), vec(0, 0, 1.5, 1, 0, 0)),
		"empty_row_infeasible":                   {status: solvers.Infeasible},
		"empty_columns":                          opt(vec(3, 1, -1, 4, 0), vec(1.5, 0.5)),
		"empty_column_unbounded":                 {status: solvers.Unbounded},
		"empty_column_unbounded_infeasible_rows": {status: solvers.Infeasible},
		"free_row":                               opt(vec(3, 1), vec(0, 1.5, 0.5)),
		"redundant_rows":                         opt(vec(0, 2), vec(1, 0, 0, 0, 0)),

		"degenerate_vertex": opt(vec(1, 1), vec(0, 0, 1, 0, 0, 0, 0, 0, 0)),
		"klee_minty":        opt(vec(0, 0, 0, 0, 0, 15625), vec(0, 0, 0, 0, 0, 1)),
		"beale_cycling":     opt(vec(0.04, 0, 1, 0), vec(0, -1.5, -0.05)),

		"infeasible_bounds":               {status: solvers.Infeasible},
		"infeasible_rows":                 {status: solvers.Infeasible},
		"infeasible_dependent_equalities": {status: solvers.Infeasible},
		"infeasible_and_dual_infeasible":  {status: solvers.Infeasible},
		"unbounded_max":                   {status: solvers.Unbounded},
		"unbounded_free_column":           {status: solvers.Unbounded},
		"diet_infeasible":                 {status: solvers.Infeasible},

		"scaled_coefficients": opt(vec(2, 2), vec(0, 999000, 1e-3)),
		// x_i_j at column 4i + j; supply rows, then demand rows.
		"transportation": opt(
			vec(0, 20, 0, 0, 10, 0, 15, 0, 0, 5, 0, 25),
			vec(-4, 0, -1, 9, 10, 13, 6)),

		"knapsack":                   opt(vec(1, 1, 0, 0), nil),
		"rounding_far_from_lp":       opt(vec(0, 3), nil),
		"mip_infeasible":             {status: solvers.Infeasible},
		"mip_offset_negative_bounds": opt(vec(1, 2), nil),
		"fixed_charge":               opt(vec(0, 1, 0, 6), nil),

		"qp_unconstrained":      opt(vec(2, -1), vec()),
		"qp_box":                opt(vec(2, 0), vec()),
		"qp_equality":           opt(vec(1, 1, 1), vec(2)),
		"qp_ranged_rows":        opt(vec(1.25, 0.75), vec(-2, 0.5)),
		"qp_singular_hessian":   opt(vec(0.5, 0.5), vec(1)),
		"qp_unbounded_singular": {status: solvers.Unbounded},
		"qp_infeasible":         {status: solvers.Infeasible},
		"qp_maximize_concave":   opt(vec(1.5, 0.5), vec(1)),
	}
	// The assignment optimum x_{i,π(i)} = 1 with y = 1 on agent rows, 0 on task rows.
	const n = 20
	x, y := make([]float64, n*n), make([]float64, 2*n)
	for i := range n {
		x[i*n+(7*i+3)%n] = 1
		y[i] = 1
	}
	a["assignment_degenerate"] = opt(x, y)
	return a
}

// parametric answers the sensitivity cases, whose problems keep their name when a bound
// moves: each computes the optimum of the case comment from the problem's bounds.
var parametric = map[string]func(p *model.Problem) answer{
	"lp2_min": func(p *model.Problem) answer {
		b1, b2 := p.RowLower[0], p.RowUpper[1]
		return opt(vec((b1+b2)/2, (b1-b2)/2), vec(1.5, -0.5))
	},
	"lp2_max": func(p *model.Problem) answer {
		b1, b2 := p.RowLower[0], p.RowUpper[1]
		return opt(vec((b1+b2)/2, (b1-b2)/2), vec(-1.5, 0.5))
	},
	"rc_min": func(p *model.Problem) answer {
		b, u := p.RowLower[0], p.ColUpper[0]
		return opt(vec(u, b-u), vec(2))
	},
	"rc_max": func(p *model.Problem) answer {
		b, u := p.RowLower[0], p.ColUpper[0]
		return opt(vec(u, b-u), vec(-2))
	},
	"qp_fd_min": func(p *model.Problem) answer {
		b, u := p.RowUpper[0], p.ColUpper[1]
		return opt(vec(b-u, u), vec(2*(b-u-1)))
	},
	"qp_fd_max": func(p *model.Problem) answer {
		b, u := p.RowUpper[0], p.ColUpper[1]
		return opt(vec(b-u, u), vec(-2*(b-u-1)))
	},
}

// oracle is a fake backend that answers from the table, honours done contexts and
// IterationLimit as the contract says, and applies mutate (a deliberate bug) to each
// Solution before returning it.
type oracle struct {
	name    string
	answers map[string]answer
	mutate  func(p *model.Problem, sol *solvers.Solution)
	// Deliberate bugs that mutate cannot express.
	ignoreContext, ignoreIterationLimit, ignoreTimeLimit bool
}

func newOracle(mutate func(p *model.Problem, sol *solvers.Solution)) func() solvers.Solver {
	a := answers()
	return func() solvers.Solver { return &oracle{name: "oracle", answers: a, mutate: mutate} }
}

func (o *oracle) Name() string { return o.name }

func (o *oracle) Solve(ctx context.Context, p *model.Problem, opt solvers.Options) (*solvers.Solution, error) {
	sol := &solvers.Solution{Backend: o.name}
	// A real backend looks at its context before it starts and again while it works; the
	// oracle "works" only on the busy models, which it cannot answer.
	err := ctx.Err()
	if err == nil && (p.Name == "busy_lp" || p.Name == "hard_mip") {
		err = ctx.Err()
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded) && !o.ignoreContext:
		sol.Status = solvers.TimeLimit
	case err != nil && !o.ignoreContext:
		sol.Status = solvers.Other
	case opt.IterationLimit == 1 && !o.ignoreIterationLimit:
		sol.Status = solvers.IterationLimit
	case opt.TimeLimit > 0 && opt.TimeLimit < time.Microsecond && !o.ignoreTimeLimit:
		sol.Status = solvers.TimeLimit
	default:
		a, ok := o.answers[p.Name]
		if f, param := parametric[p.Name]; param {
			a, ok = f(p), true
		}
		if !ok {
			return nil, fmt.Errorf("oracle: no answer for %q", p.Name)
		}
		sol.Status = a.status
		if a.status == solvers.Optimal {
			sol.X = append([]float64(nil), a.x...)
			sol.RowActivity = p.RowActivity(sol.X)
			sol.Objective = p.Objective(sol.X)
			sol.BestBound = sol.Objective
			if !p.HasInteger() {
				sol.RowDual = append([]float64{}, a.y...)
				sol.ReducedCost = reducedCosts(p, sol.X, sol.RowDual)
			}
		}
	}
	if o.mutate != nil {
		o.mutate(p, sol)
	}
	return sol, nil
}

// reducedCosts is c + Qx − Aᵀy.
func reducedCosts(p *model.Problem, x, y []float64) []float64 {
	d, _ := gradient(p, x)
	for j := range d {
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			d[j] -= p.AValue[k] * y[p.AIndex[k]]
		}
	}
	return d
}

// hasNonzeroMultiplier reports whether a Solution carries a nonzero dual or reduced cost.
func hasNonzeroMultiplier(sol *solvers.Solution) bool {
	for _, v := range sol.RowDual {
		if math.Abs(v) > 1e-12 {
			return true
		}
	}
	for _, v := range sol.ReducedCost {
		if math.Abs(v) > 1e-12 {
			return true
		}
	}
	return false
}
