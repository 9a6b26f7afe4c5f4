package mip

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/simplex"
)

// Version is the version of the built-in MIP solver reported in Solutions.
const Version = "0.1.0"

// Default tolerances (see the package doc).
const (
	DefaultIntegralityTol = 1e-6
	DefaultAbsGap         = 1e-6
	DefaultRelGap         = 1e-6
)

// Branching selects the branching rule.
type Branching int

const (
	// PseudoCost is reliability pseudo-cost branching (the default).
	PseudoCost Branching = iota
	// MostFractional branches on the integer column whose value is farthest from an
	// integer.
	MostFractional
)

// Solver is the built-in MIP backend. The zero value is ready to use; a Solver holds only
// its settings, so one may serve concurrent solves.
type Solver struct {
	// NodeLimit stops the search after this many nodes with status IterationLimit; 0: none.
	NodeLimit int
	// Branching is the branching rule.
	Branching Branching
	// NoPresolve, NoCuts and NoHeuristics turn those components off (for tests and
	// measurements).
	NoPresolve, NoCuts, NoHeuristics bool
	// noSession solves every node LP with a fresh simplex (for tests of the session).
	noSession bool
	// noSubMIP turns off the heuristics that solve sub-MIPs (inside such a sub-MIP).
	noSubMIP bool
}

func init() {
	solvers.Register("mip", func() (solvers.Solver, error) { return &Solver{}, nil })
}

// New returns the built-in MIP solver with its default settings.
func New() *Solver { return &Solver{} }

// Name implements solvers.Solver.
func (*Solver) Name() string { return "mip" }

// Version implements solvers.Describer.
func (*Solver) Version() string { return Version }

// Capabilities implements solvers.Describer: LPs (through the simplex, with duals and
// bases) and MIPs.
func (*Solver) Capabilities() solvers.Capabilities {
	return solvers.Capabilities{LP: true, MIP: true, Duals: true, Basis: true}
}

// ErrQuadratic is wrapped by the error Solve returns for problems with a quadratic
// objective.
var ErrQuadratic = errors.New("the mip backend solves linear objectives only")

// Solve implements solvers.Solver.
func (sv *Solver) Solve(ctx context.Context, p *model.Problem, opt solvers.Options) (*solvers.Solution, error) {
	start := time.Now()
	if p == nil {
		return nil, fmt.Errorf("mip: nil problem")
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("mip: %w", err)
	}
	if p.HasQuadratic() {
		return nil, fmt.Errorf("mip: problem %q is a %s: %w", p.Name, p.Kind(), ErrQuadratic)
	}
	if opt.PrimalTol < 0 || opt.DualTol < 0 || opt.IterationLimit < 0 || opt.TimeLimit < 0 || opt.MIPGap < 0 || sv.NodeLimit < 0 {
		return nil, fmt.Errorf("mip: negative tolerance or limit in options")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if !p.HasInteger() {
		sol, err := simplex.New().Solve(ctx, p, opt)
		if err != nil {
			return nil, fmt.Errorf("mip: %w", err)
		}
		sol.Backend, sol.Version = "mip", Version
		sol.WallTime = time.Since(start)
		return sol, nil
	}
	sol := &solvers.Solution{Backend: "mip", Version: Version}
	defer func() { sol.WallTime = time.Since(start) }()
	if opt.TimeLimit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, start.Add(opt.TimeLimit))
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		sol.Status = ctxStatus(err)
		return sol, nil
	}
	s := newSearch(ctx, p, sv, opt)
	s.run()
	s.fill(sol)
	return sol, nil
}

func ctxStatus(err error) solvers.Status {
	if errors.Is(err, context.DeadlineExceeded) {
		return solvers.TimeLimit
	}
	return solvers.Other
}

// fill writes the search's outcome in the original problem's terms.
func (s *search) fill(sol *solvers.Solution) {
	p := s.orig
	sol.Status = s.status
	sol.Nodes = s.nodes
	sol.Iterations = s.iters
	sense := float64(p.Sense)
	if sense == 0 {
		sense = 1
	}
	bound := s.bestBound()
	if s.incumbent != nil {
		sol.X = s.incumbent
		sol.RowActivity = p.RowActivity(sol.X)
		sol.Objective = p.Objective(sol.X)
		if s.status == solvers.Optimal {
			bound = math.Min(bound, s.incObj)
		}
	}
	switch {
	case math.IsInf(bound, 1) && s.incumbent == nil:
		sol.BestBound = sense * math.Inf(1)
	case math.IsInf(bound, -1):
		sol.BestBound = sense * math.Inf(-1)
	default:
		sol.BestBound = sense*bound + p.Offset
	}
	if s.status == solvers.Infeasible || s.status == solvers.Unbounded {
		sol.X, sol.RowActivity, sol.Objective = nil, nil, 0
	}
}
