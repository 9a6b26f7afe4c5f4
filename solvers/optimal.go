package solvers

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/model"
)

// SolveOptimal compiles m, solves it with s and returns the solution only when s proves
// it optimal: the exact references (RTMR's largest admissible set, WOHA's most
// workflows on time) have no use for an incumbent. Errors name what and s.
func SolveOptimal(ctx context.Context, s Solver, what string, m *model.Model, opt Options) (*Solution, error) {
	p, err := m.Compile()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	sol, err := s.Solve(ctx, p, opt)
	if err != nil {
		return nil, fmt.Errorf("%s with %s: %w", what, s.Name(), err)
	}
	if sol.Status != Optimal {
		return nil, fmt.Errorf("%s with %s: status %v", what, s.Name(), sol.Status)
	}
	return sol, nil
}
