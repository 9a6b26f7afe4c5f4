package verify

import (
	"context"
	"fmt"
	"slices"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/all" // every backend this build has
)

// liar wraps a real backend and corrupts its answers, so that the checks that compare
// backends can be seen to fail. The test binary registers the liars once; tests that
// use the default backends name them explicitly so the liars stay out.
type liar struct {
	name   string
	inner  string
	caps   solvers.Capabilities
	mangle func(p *model.Problem, s *solvers.Solution) *solvers.Solution
}

func (l *liar) Name() string { return l.name }

func (l *liar) Capabilities() solvers.Capabilities { return l.caps }

func (l *liar) Version() string { return "test liar" }

func (l *liar) Solve(ctx context.Context, p *model.Problem, opt solvers.Options) (*solvers.Solution, error) {
	s, err := solvers.Get(l.inner)
	if err != nil {
		return nil, fmt.Errorf("liar: %w", err)
	}
	sol, err := s.Solve(ctx, p, opt)
	if err != nil || sol == nil {
		return sol, err
	}
	return l.mangle(p, sol), nil
}

const (
	// liarShift returns the simplex's optimum with the first column raised by one
	// (objective and row activities recomputed, duals kept): a point that is infeasible
	// or not optimal.
	liarShift = "test-liar-shift"
	// liarInfeasible claims every MIP infeasible (it needs a MIP backend to wrap:
	// registered in the tagged build).
	liarInfeasible = "test-liar-infeasible"
)

func init() {
	solvers.Register(liarShift, func() (solvers.Solver, error) {
		return &liar{name: liarShift, inner: "simplex", caps: solvers.Capabilities{LP: true, Duals: true},
			mangle: func(p *model.Problem, s *solvers.Solution) *solvers.Solution {
				if s.X == nil {
					return s
				}
				out := *s
				out.X = slices.Clone(s.X)
				out.X[0]++
				out.Objective = p.Objective(out.X)
				out.RowActivity = p.RowActivity(out.X)
				return &out
			}}, nil
	})
}
