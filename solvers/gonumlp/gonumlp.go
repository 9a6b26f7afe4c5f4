package gonumlp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"time"

	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Name is the registry name of this backend.
const Name = "gonum"

const gonumModule = "gonum.org/v1/gonum"

func init() {
	solvers.Register(Name, func() (solvers.Solver, error) { return New(), nil })
}

// Solver is the gonum lp.Simplex backend. The zero value is ready to use and holds no
// state between solves.
type Solver struct{}

// New returns a gonum backend.
func New() *Solver { return &Solver{} }

// Name implements solvers.Solver.
func (*Solver) Name() string { return Name }

// Capabilities implements solvers.Describer: LPs only, no duals, no basis.
func (*Solver) Capabilities() solvers.Capabilities { return solvers.Capabilities{LP: true} }

// Version implements solvers.Describer: the gonum module version linked into the binary.
func (*Solver) Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == gonumModule {
				return gonumModule + " " + d.Version
			}
		}
	}
	return gonumModule + " (version unknown)"
}

const (
	defaultDualTol = 1e-9 // reduced-cost tolerance handed to lp.Simplex
	defaultFeasTol = 1e-9 // presolve decisions on empty and dependent rows
	checkTol       = 1e-6 // relative violation above which gonum's optimum is rejected
)

// Solve implements solvers.Solver. See the package documentation for the conversion, the
// status mapping and how the context and limits are honoured.
func (s *Solver) Solve(ctx context.Context, p *model.Problem, opt solvers.Options) (*solvers.Solution, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("gonum: invalid problem: %w", err)
	}
	if p.HasQuadratic() || p.HasInteger() {
		return nil, fmt.Errorf("gonum: %s problems are not supported; lp.Simplex solves LPs only", p.Kind())
	}
	sol := &solvers.Solution{Backend: Name, Version: s.Version()}
	finish := func(st solvers.Status) (*solvers.Solution, error) {
		sol.Status = st
		sol.WallTime = time.Since(start)
		return sol, nil
	}
	if err := ctx.Err(); err != nil {
		return finish(contextStatus(err))
	}
	feasTol := defaultFeasTol
	if opt.PrimalTol > 0 {
		feasTol = opt.PrimalTol
	}
	dualTol := defaultDualTol
	if opt.DualTol > 0 {
		dualTol = opt.DualTol
	}

	sf, outcome := toStandardForm(p, feasTol)
	switch outcome {
	case infeasibleRows:
		return finish(solvers.Infeasible)
	case solvedByPresol:
		if sf.unboundedCol >= 0 {
			return finish(solvers.Unbounded)
		}
		s.setPoint(sol, p, sf.recover(nil))
		return finish(solvers.Optimal)
	}
	ms, ns := sf.a.Dims()
	if opt.Verbose != nil {
		fmt.Fprintf(opt.Verbose, "gonum: %d rows × %d columns → standard form %d × %d\n", p.NumRows(), p.NumCols(), ms, ns)
	}
	switch {
	case ms > ns:
		// Cannot happen (see toStandardForm); lp.Simplex would panic (gonum issue 450).
		return nil, fmt.Errorf("gonum: internal error: standard form has %d rows > %d columns", ms, ns)
	case ms == ns:
		// One point satisfies the rows. lp.Simplex solves this case itself but calls any
		// component below 0 infeasible, with no tolerance, so a −1e-16 from rounding
		// turns a feasible problem infeasible; decide it here with feasTol instead.
		xs, st := sf.solveSquare(feasTol)
		switch {
		case st != solvers.Optimal:
			return finish(st)
		case sf.unboundedCol >= 0:
			return finish(solvers.Unbounded) // the rows are feasible
		}
		x := sf.recover(xs)
		s.setPoint(sol, p, x)
		if violation(p, x) > checkTol {
			return finish(solvers.NumericalError)
		}
		return finish(solvers.Optimal)
	}

	if opt.TimeLimit > 0 && time.Since(start) >= opt.TimeLimit {
		return finish(solvers.TimeLimit)
	}

	type result struct {
		x   []float64
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned run never blocks
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("%w: %v", errPanic, r)}
			}
		}()
		_, x, err := lp.Simplex(sf.c, sf.a, sf.b, dualTol, nil)
		done <- result{x: x, err: err}
	}()
	var timeout <-chan time.Time
	if opt.TimeLimit > 0 {
		timer := time.NewTimer(opt.TimeLimit - time.Since(start))
		defer timer.Stop()
		timeout = timer.C
	}
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		return finish(contextStatus(ctx.Err()))
	case <-timeout:
		return finish(solvers.TimeLimit)
	}

	switch {
	case errors.Is(r.err, errPanic):
		return nil, fmt.Errorf("gonum: lp.Simplex on a %d×%d standard form: %w", ms, ns, r.err)
	case errors.Is(r.err, lp.ErrInfeasible):
		return finish(solvers.Infeasible)
	case errors.Is(r.err, lp.ErrUnbounded):
		if sf.unboundedCol >= 0 {
			// Impossible with the zero objective used then; be conservative.
			return finish(solvers.NumericalError)
		}
		return finish(solvers.Unbounded)
	case r.err != nil || r.x == nil:
		// ErrSingular, ErrLinSolve, ErrBland, a mat.Condition, a failed phase I.
		return finish(solvers.NumericalError)
	}
	if sf.unboundedCol >= 0 {
		// The rows are feasible and an empty column improves without bound.
		return finish(solvers.Unbounded)
	}
	x := sf.recover(r.x)
	s.setPoint(sol, p, x)
	if violation(p, x) > checkTol {
		return finish(solvers.NumericalError)
	}
	return finish(solvers.Optimal)
}

var errPanic = errors.New("panic")

func (*Solver) setPoint(sol *solvers.Solution, p *model.Problem, x []float64) {
	sol.X = x
	sol.RowActivity = p.RowActivity(x)
	sol.Objective = p.Objective(x)
	sol.BestBound = sol.Objective
}

// contextStatus maps a done context to the package solvers convention.
func contextStatus(err error) solvers.Status {
	if errors.Is(err, context.DeadlineExceeded) {
		return solvers.TimeLimit
	}
	return solvers.Other
}

// violation is the largest relative violation of a bound or row by x.
func violation(p *model.Problem, x []float64) float64 {
	worst := 0.0
	check := func(v, lo, up float64) {
		if d := (lo - v) / scale(lo); d > worst {
			worst = d
		}
		if d := (v - up) / scale(up); d > worst {
			worst = d
		}
		if math.IsNaN(v) {
			worst = math.Inf(1)
		}
	}
	for j, v := range x {
		check(v, p.ColLower[j], p.ColUpper[j])
	}
	for i, v := range p.RowActivity(x) {
		check(v, p.RowLower[i], p.RowUpper[i])
	}
	return worst
}
