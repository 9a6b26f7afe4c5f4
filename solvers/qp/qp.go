package qp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Name is the registry name of this backend.
const Name = "qp"

// Version identifies the algorithm revision in Solution.Version.
const Version = "coraopt-qp 1.0 (Goldfarb–Idnani dual active set)"

func init() {
	solvers.Register(Name, func() (solvers.Solver, error) { return New(), nil })
}

// Solver is the pure-Go convex QP backend. The zero value is ready to use and a Solver
// may be used from several goroutines at once: every Solve has its own state.
type Solver struct{}

// New returns a Solver.
func New() *Solver { return &Solver{} }

// Name returns "qp".
func (*Solver) Name() string { return Name }

// Version returns the algorithm revision.
func (*Solver) Version() string { return Version }

// Capabilities: convex QPs and LPs (an LP is a QP with H = 0, solved by the proximal
// fallback), duals, and an active set reported as a Basis and accepted as a warm start.
// No integer variables.
func (*Solver) Capabilities() solvers.Capabilities {
	return solvers.Capabilities{LP: true, QP: true, Duals: true, Basis: true}
}

// Default tolerances (Options.PrimalTol and DualTol override them).
const (
	DefaultPrimalTol = 1e-9
	DefaultDualTol   = 1e-9
)

// Solve solves p. See the package documentation for the method, the statuses it can
// prove and the warm start.
func (s *Solver) Solve(ctx context.Context, p *model.Problem, opt solvers.Options) (*solvers.Solution, error) {
	start := time.Now()
	if p == nil {
		return nil, errors.New("qp: nil problem")
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("qp: invalid problem: %w", err)
	}
	if p.HasInteger() {
		return nil, fmt.Errorf("qp: problem %q has integer variables; the qp backend solves continuous problems only", p.Name)
	}
	q, err := newProblem(p)
	if err != nil {
		return nil, err
	}
	comps := q.components()
	if err := q.checkSize(comps); err != nil {
		return nil, err
	}
	e := newEngine(q, comps)
	if opt.PrimalTol > 0 {
		e.tolP = opt.PrimalTol
	}
	if opt.DualTol > 0 {
		e.tolD = opt.DualTol
	}
	if err := e.setWarmStart(opt.WarmStart); err != nil {
		return nil, err
	}
	e.iterLimit = max(opt.IterationLimit, 0)

	var stop solvers.Status
	var deadline time.Time
	if opt.TimeLimit > 0 {
		deadline = start.Add(opt.TimeLimit)
	}
	calls := 0
	e.check = func() bool {
		if opt.IterationLimit > 0 && e.iters >= opt.IterationLimit {
			stop = solvers.IterationLimit
			return true
		}
		calls++
		if calls%16 != 1 {
			return false
		}
		if err := ctx.Err(); err != nil {
			stop = solvers.Other
			if errors.Is(err, context.DeadlineExceeded) {
				stop = solvers.TimeLimit
			}
			return true
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			stop = solvers.TimeLimit
			return true
		}
		return false
	}

	sol := &solvers.Solution{Backend: Name, Version: Version}
	var res result
	if e.check() {
		res = resStopped // cancelled or out of time before starting
	} else {
		res, err = e.solve()
	}
	switch {
	case errors.Is(err, errNotConvex):
		return nil, err
	case errors.Is(err, errIterLimit):
		res, stop = resStopped, solvers.IterationLimit
	case errors.Is(err, errStopped):
		res = resStopped // stop was set by e.check
	case err != nil:
		res = resNumerical
	}
	sol.Iterations = e.iters
	switch res {
	case resOptimal:
		sol.Status = solvers.Optimal
		e.fillSolution(p, sol)
	case resInfeasible:
		sol.Status = solvers.Infeasible
	case resUnbounded:
		sol.Status = solvers.Unbounded
	case resStopped:
		sol.Status = stop
	default:
		sol.Status = solvers.NumericalError
	}
	sol.WallTime = time.Since(start)
	if opt.Verbose != nil {
		fmt.Fprintf(opt.Verbose, "qp: %s after %d active-set changes in %v (n=%d, m=%d, %d Hessian blocks, proximal=%v, %d crash rounds, %d refactorizations, %d working-set solves)\n",
			sol.Status, sol.Iterations, sol.WallTime, q.n, q.m, len(comps), e.proximal, e.nCrash, e.nRefactor, e.nEQP)
	}
	return sol, nil
}

// setWarmStart installs the active set of an earlier solution (bounds and rows at a
// bound) as the initial working set; the equality rows are always in it.
func (e *engine) setWarmStart(ws *solvers.Basis) error {
	if ws != nil {
		if len(ws.Cols) != e.n {
			return fmt.Errorf("qp: warm start has %d column statuses, the problem has %d columns", len(ws.Cols), e.n)
		}
		if len(ws.Rows) > e.m {
			return fmt.Errorf("qp: warm start has %d row statuses, the problem has %d rows", len(ws.Rows), e.m)
		}
		for j, b := range ws.Cols {
			if e.st[j] == fixed {
				continue
			}
			switch {
			case b == solvers.AtLower && !math.IsInf(e.lo[j], -1):
				e.st[j] = atLower
			case b == solvers.AtUpper && !math.IsInf(e.up[j], 1):
				e.st[j] = atUpper
			}
		}
	}
	for i := range e.m {
		sign := 0.0
		switch {
		case e.rlo[i] == e.rup[i]:
			sign = 1
		case ws != nil && i < len(ws.Rows) && ws.Rows[i] == solvers.AtLower && !math.IsInf(e.rlo[i], -1):
			sign = 1
		case ws != nil && i < len(ws.Rows) && ws.Rows[i] == solvers.AtUpper && !math.IsInf(e.rup[i], 1):
			sign = -1
		}
		if sign != 0 && e.rowNorm[i] > 0 {
			e.wRow = append(e.wRow, i)
			e.wSign = append(e.wSign, sign)
			e.wEq = append(e.wEq, e.rlo[i] == e.rup[i])
			e.uR = append(e.uR, 0)
		}
	}
	return nil
}

// fillSolution writes the primal point, activities, duals, objective and basis in the
// problem's own sense.
func (e *engine) fillSolution(p *model.Problem, sol *solvers.Solution) {
	n, m := e.n, e.m
	sense := float64(p.Sense)
	x := slices.Clone(e.x)
	sol.X = x
	sol.RowActivity = p.RowActivity(x)
	y := make([]float64, m)
	for k, i := range e.wRow {
		y[i] = sense * e.wSign[k] * e.uR[k]
	}
	sol.RowDual = y
	// d = c + Qx − Aᵀy (the gradient form of the reduced cost for a QP).
	d := slices.Clone(p.ColCost)
	for j := range n {
		hx := e.hDiag[j] * x[j]
		for k := e.hStart[j]; k < e.hStart[j+1]; k++ {
			hx += e.hValue[k] * x[e.hIndex[k]]
		}
		d[j] += sense * hx // e.h is sense·Q
		for k := e.aStart[j]; k < e.aStart[j+1]; k++ {
			d[j] -= e.aValue[k] * y[e.aIndex[k]]
		}
	}
	sol.ReducedCost = d
	sol.Objective = p.Objective(x)
	sol.BestBound = sol.Objective
	b := &solvers.Basis{Cols: make([]solvers.BasisStatus, n), Rows: make([]solvers.BasisStatus, m)}
	for j := range n {
		switch e.st[j] {
		case atLower:
			b.Cols[j] = solvers.AtLower
		case atUpper:
			b.Cols[j] = solvers.AtUpper
		case fixed:
			b.Cols[j] = solvers.Fixed
		default:
			b.Cols[j] = solvers.Basic
		}
	}
	for i := range m {
		b.Rows[i] = solvers.Basic
	}
	for k, i := range e.wRow {
		switch {
		case e.wEq[k]:
			b.Rows[i] = solvers.Fixed
		case e.wSign[k] > 0:
			b.Rows[i] = solvers.AtLower
		default:
			b.Rows[i] = solvers.AtUpper
		}
	}
	sol.Basis = b
}
