package simplex

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Version is the version of the built-in simplex reported in Solutions.
const Version = "1.0.0"

// Default tolerances (on the scaled problem).
const (
	DefaultPrimalTol = 1e-7
	DefaultDualTol   = 1e-7
)

// Solver is the built-in simplex backend. The zero value is ready to use.
type Solver struct {
	// NoPresolve turns the light presolve off (it is also skipped for warm starts).
	NoPresolve bool
	// NoScaling turns scaling off.
	NoScaling bool
}

func init() {
	solvers.Register("simplex", func() (solvers.Solver, error) { return &Solver{}, nil })
}

// Name implements solvers.Solver.
func (*Solver) Name() string { return "simplex" }

// Version implements solvers.Describer.
func (*Solver) Version() string { return Version }

// Capabilities implements solvers.Describer: LPs, with duals and bases.
func (*Solver) Capabilities() solvers.Capabilities {
	return solvers.Capabilities{LP: true, Duals: true, Basis: true}
}

// ErrNotLP is wrapped by the error Solve returns for problems with integer variables or a
// quadratic objective.
var ErrNotLP = errors.New("the simplex backend solves LPs only")

// Solve implements solvers.Solver.
func (sv *Solver) Solve(ctx context.Context, p *model.Problem, opt solvers.Options) (*solvers.Solution, error) {
	start := time.Now()
	if p == nil {
		return nil, fmt.Errorf("simplex: nil problem")
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("simplex: %w", err)
	}
	if k := p.Kind(); k != "LP" {
		return nil, fmt.Errorf("simplex: problem %q is a %s: %w", p.Name, k, ErrNotLP)
	}
	if opt.PrimalTol < 0 || opt.DualTol < 0 || opt.IterationLimit < 0 || opt.TimeLimit < 0 {
		return nil, fmt.Errorf("simplex: negative tolerance or limit in options")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	set := settings{
		primalTol: DefaultPrimalTol,
		dualTol:   DefaultDualTol,
		iterLimit: opt.IterationLimit,
		ctx:       ctx,
		verbose:   opt.Verbose,
		seed:      1,
	}
	if opt.PrimalTol > 0 {
		set.primalTol = opt.PrimalTol
	}
	if opt.DualTol > 0 {
		set.dualTol = opt.DualTol
	}
	if opt.TimeLimit > 0 {
		set.deadline = start.Add(opt.TimeLimit)
	}
	sol := &solvers.Solution{Backend: "simplex", Version: Version}
	defer func() { sol.WallTime = time.Since(start) }()
	if err := ctx.Err(); err != nil {
		sol.Status = ctxStatus(err)
		return sol, nil
	}
	r := solveLP(p, set, opt.WarmStart, !sv.NoPresolve, !sv.NoScaling)
	r.fill(p, sol)
	return sol, nil
}

func ctxStatus(err error) solvers.Status {
	if errors.Is(err, context.DeadlineExceeded) {
		return solvers.TimeLimit
	}
	return solvers.Other
}

// result is the outcome of solveLP in the original problem's space.
type result struct {
	status solvers.Status
	iters  int
	x      []float64 // original columns; nil when not optimal
	y      []float64 // row duals, minimization sense
	basis  *solvers.Basis
}

func (r *result) fill(p *model.Problem, sol *solvers.Solution) {
	sol.Status = r.status
	sol.Iterations = r.iters
	if r.basis != nil {
		sol.Basis = r.basis
	}
	if r.status != solvers.Optimal || r.x == nil {
		return
	}
	sol.X = r.x
	sol.RowActivity = p.RowActivity(r.x)
	sol.Objective = p.Objective(r.x)
	sol.BestBound = sol.Objective
	// Duals in the problem's own sense: y_own = sense·y_min; d = c − Aᵀy_own.
	sense := float64(p.Sense)
	if sense == 0 {
		sense = 1
	}
	y := make([]float64, p.NumRows())
	for i := range y {
		y[i] = sense * r.y[i]
	}
	d := append([]float64(nil), p.ColCost...)
	for j := range d {
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			d[j] -= p.AValue[k] * y[p.AIndex[k]]
		}
	}
	sol.RowDual = y
	sol.ReducedCost = d
}

func outcomeStatus(o outcome, ctxErr error) solvers.Status {
	switch o {
	case outOptimal:
		return solvers.Optimal
	case outInfeasible:
		return solvers.Infeasible
	case outUnbounded:
		return solvers.Unbounded
	case outIterLimit:
		return solvers.IterationLimit
	case outTimeLimit:
		return solvers.TimeLimit
	case outCancelled:
		return ctxStatus(ctxErr)
	case outNumerical:
		return solvers.NumericalError
	}
	return solvers.Other
}

// solveLP runs presolve, scaling, the simplex method and the way back.
func solveLP(p *model.Problem, set settings, warm *solvers.Basis, doPresolve, doScale bool) *result {
	if warm != nil && len(warm.Cols) != p.NumCols() {
		warm = nil // a basis for another problem: start from the slack basis
	}
	var pre *presolveResult
	if doPresolve && warm == nil {
		pre = presolve(p, set.primalTol)
		if pre.status != presolveReduced {
			return pre.trivialResult(p)
		}
	} else {
		pre = identityPresolve(p)
	}
	red := pre.reduced
	lp, rowScale, colScale := buildLP(red, doScale)
	s := newSimplex(lp, set)
	if warm != nil {
		s.setWarmBasis(warm)
	} else {
		s.setSlackBasis()
	}
	o := s.run()
	s.logf("simplex: %s after %d iterations, %d factorizations", outcomeStatus(o, set.ctx.Err()), s.iters, s.invertions)
	res := &result{status: outcomeStatus(o, set.ctx.Err()), iters: s.iters}
	if o != outOptimal {
		return res
	}
	// Unscale into the reduced problem's space.
	nr, mr := lp.n, lp.m
	xr := make([]float64, nr)
	for j := 0; j < nr; j++ {
		v := s.x[j]
		if s.pos[j] >= 0 {
			v = s.xB[s.pos[j]]
		}
		xr[j] = v * colScale[j]
	}
	yr := make([]float64, mr)
	for i := 0; i < mr; i++ {
		yr[i] = s.y[i] * rowScale[i]
	}
	basis := s.basisStatus()
	x, y, b := pre.postsolve(p, xr, yr, basis)
	if pre.unboundedIfFeasible {
		res.status = solvers.Unbounded
		return res
	}
	res.x, res.y, res.basis = x, y, b
	return res
}

// buildLP scales the reduced problem and puts it in the simplex's form (minimization,
// logicals with negated row bounds).
func buildLP(p *reducedLP, doScale bool) (*lpData, []float64, []float64) {
	m, n := p.m, p.n
	lp := &lpData{m: m, n: n}
	lp.a = sparseMatrix{
		start: append([]int(nil), p.a.start...),
		index: append([]int(nil), p.a.index...),
		value: append([]float64(nil), p.a.value...),
	}
	var rowScale, colScale []float64
	if doScale {
		rowScale, colScale = computeScaling(m, n, &lp.a)
	} else {
		rowScale, colScale = ones(m), ones(n)
	}
	for j := 0; j < n; j++ {
		for k := lp.a.start[j]; k < lp.a.start[j+1]; k++ {
			lp.a.value[k] *= rowScale[lp.a.index[k]] * colScale[j]
		}
	}
	lp.buildRowCopy()
	nt := n + m
	lp.cost = make([]float64, nt)
	lp.lower = make([]float64, nt)
	lp.upper = make([]float64, nt)
	for j := 0; j < n; j++ {
		lp.cost[j] = p.cost[j] * colScale[j]
		lp.lower[j] = p.lower[j] / colScale[j]
		lp.upper[j] = p.upper[j] / colScale[j]
	}
	for i := 0; i < m; i++ {
		lp.lower[n+i] = -p.rowUpper[i] * rowScale[i]
		lp.upper[n+i] = -p.rowLower[i] * rowScale[i]
	}
	return lp, rowScale, colScale
}

func ones(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

// basisStatus reports the final basis in the reduced problem's columns and rows.
func (s *simplex) basisStatus() *solvers.Basis {
	b := &solvers.Basis{Cols: make([]solvers.BasisStatus, s.n), Rows: make([]solvers.BasisStatus, s.m)}
	for j := 0; j < s.nt; j++ {
		var st solvers.BasisStatus
		lo, up := s.lp.lower[j], s.lp.upper[j]
		switch {
		case s.pos[j] >= 0:
			st = solvers.Basic
		case lo == up:
			st = solvers.Fixed
		case s.move[j] == 1:
			st = solvers.AtLower
		case s.move[j] == -1:
			st = solvers.AtUpper
		default:
			st = solvers.AtZero
		}
		if j < s.n {
			b.Cols[j] = st
			continue
		}
		// The logical is the negated activity: its lower bound is the row's upper.
		switch st {
		case solvers.AtLower:
			st = solvers.AtUpper
		case solvers.AtUpper:
			st = solvers.AtLower
		}
		b.Rows[j-s.n] = st
	}
	return b
}

// setWarmBasis installs a basis given in the (unreduced) problem's columns and rows.
// Rows beyond the basis's length start basic. A wrong number of basic variables is
// corrected (extra ones become nonbasic, missing ones are logicals) and a singular basis
// is repaired by the factorization, so any input yields a valid starting basis.
func (s *simplex) setWarmBasis(ws *solvers.Basis) {
	nb := 0
	status := func(j int) solvers.BasisStatus {
		if j < s.n {
			return ws.Cols[j]
		}
		i := j - s.n
		if i < len(ws.Rows) {
			st := ws.Rows[i]
			switch st {
			case solvers.AtLower:
				return solvers.AtUpper
			case solvers.AtUpper:
				return solvers.AtLower
			}
			return st
		}
		return solvers.Basic
	}
	// Logicals first fill the basis last, so keep structurals preferentially.
	for j := 0; j < s.nt; j++ {
		s.pos[j] = -1
	}
	for j := 0; j < s.nt && nb < s.m; j++ {
		if status(j) == solvers.Basic {
			s.basic[nb] = j
			s.pos[j] = nb
			s.move[j] = 0
			nb++
		}
	}
	for i := 0; i < s.m && nb < s.m; i++ {
		j := s.n + i
		if s.pos[j] < 0 {
			s.basic[nb] = j
			s.pos[j] = nb
			s.move[j] = 0
			nb++
		}
	}
	for j := 0; j < s.nt; j++ {
		if s.pos[j] >= 0 {
			continue
		}
		lo, up := s.lower[j], s.upper[j]
		switch status(j) {
		case solvers.AtLower:
			if !math.IsInf(lo, -1) {
				s.x[j], s.move[j] = lo, 1
				if lo == up {
					s.move[j] = 0
				}
				continue
			}
		case solvers.AtUpper:
			if !math.IsInf(up, 1) {
				s.x[j], s.move[j] = up, -1
				if lo == up {
					s.move[j] = 0
				}
				continue
			}
		case solvers.AtZero:
			if math.IsInf(lo, -1) && math.IsInf(up, 1) {
				s.x[j], s.move[j] = 0, moveFree
				continue
			}
		}
		s.placeNonbasic(j, s.cost[j])
	}
	for p := range s.w {
		s.w[p] = 1
	}
}

// New returns the built-in simplex with its default settings.
func New() *Solver { return &Solver{} }
