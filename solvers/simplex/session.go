package simplex

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// Session is one LP solved again and again with different column bounds, as branch and
// bound does: the scaled problem, the factorization's storage and the basis stay in
// memory between solves, and each solve starts from the basis the previous one ended
// with (a bound change leaves it dual feasible), or from a basis given to it. There is no
// presolve; scaling is computed once, from the first bounds. A Session is not safe for
// concurrent use.
type Session struct {
	p                  *model.Problem
	lp                 *lpData
	s                  *simplex
	rowScale, colScale []float64
	den, span          []float64
	primalTol, dualTol float64
	factored           bool // s.lu factorizes s.basic (after the first solve)
}

// NewSession prepares p (an LP; integrality is ignored) for repeated solves with the
// tolerances of opt (its limits and warm start are not used: each Solve takes its own).
func NewSession(p *model.Problem, opt solvers.Options) (*Session, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("simplex: session: %w", err)
	}
	if p.HasQuadratic() {
		return nil, fmt.Errorf("simplex: session: %w", ErrNotLP)
	}
	ss := &Session{p: p, primalTol: DefaultPrimalTol, dualTol: DefaultDualTol}
	if opt.PrimalTol > 0 {
		ss.primalTol = opt.PrimalTol
	}
	if opt.DualTol > 0 {
		ss.dualTol = opt.DualTol
	}
	lp, rowScale, colScale := buildLP(identityPresolve(p).reduced, true)
	ss.lp, ss.rowScale, ss.colScale = lp, rowScale, colScale
	ss.den = make([]float64, 2*(lp.n+lp.m))
	ss.span = make([]float64, lp.n+lp.m)
	for i := 0; i < lp.m; i++ {
		ss.den[2*(lp.n+i)], ss.den[2*(lp.n+i)+1] = boundScale(p.RowLower[i]), boundScale(p.RowUpper[i])
		ss.span[lp.n+i] = p.RowUpper[i] - p.RowLower[i]
	}
	ss.s = newSimplex(lp, settings{primalTol: ss.primalTol, dualTol: ss.dualTol, ctx: context.Background(), seed: 1})
	ss.s.setSlackBasis()
	return ss, nil
}

// Solve solves the LP with column bounds lo and up (one per column; lo ≤ up). With warm
// nil it starts from the basis the last Solve ended with (the slack basis at first),
// otherwise from warm. iterLimit > 0 caps the simplex iterations, and the context's
// deadline or cancellation stops the solve as in Solver.Solve. The Solution carries the
// status, and at an optimum x, the objective, row activities, duals, reduced costs and
// the basis, in the conventions of Solver.Solve.
func (ss *Session) Solve(ctx context.Context, lo, up []float64, warm *solvers.Basis, iterLimit int) (*solvers.Solution, error) {
	start := time.Now()
	lp, s := ss.lp, ss.s
	if len(lo) != lp.n || len(up) != lp.n {
		return nil, fmt.Errorf("simplex: session: %d and %d bounds for %d columns", len(lo), len(up), lp.n)
	}
	for j := range lo {
		if !(lo[j] <= up[j]) || math.IsInf(lo[j], 1) || math.IsInf(up[j], -1) {
			return nil, fmt.Errorf("simplex: session: column %d: bounds [%g, %g]", j, lo[j], up[j])
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	sol := &solvers.Solution{Backend: "simplex", Version: Version}
	defer func() { sol.WallTime = time.Since(start) }()
	if err := ctx.Err(); err != nil {
		sol.Status = ctxStatus(err)
		return sol, nil
	}
	for j := 0; j < lp.n; j++ {
		lp.lower[j], lp.upper[j] = lo[j]/ss.colScale[j], up[j]/ss.colScale[j]
		ss.den[2*j], ss.den[2*j+1] = boundScale(lo[j]), boundScale(up[j])
		ss.span[j] = up[j] - lo[j]
	}
	// Reset what the last solve may have left: working bounds and costs, tolerances, the
	// iteration count (its safety net is per solve), limits.
	copy(s.lower, lp.lower)
	copy(s.upper, lp.upper)
	copy(s.cost, lp.cost)
	s.perturbed, s.perturbScale, s.phase1 = false, 1, false
	s.recent, s.recentPos, s.cycling, s.cycleEvents = [64]recentChange{}, 0, false, 0
	s.set = settings{primalTol: ss.primalTol, dualTol: ss.dualTol, iterLimit: iterLimit, ctx: ctx, seed: 1}
	s.iters = 0
	s.setTolerances(ss.den, ss.rowScale, ss.colScale)
	if warm != nil && len(warm.Cols) == lp.n {
		s.setWarmBasis(warm)
	} else {
		s.keepFactor = ss.factored
		for k, v := range s.basic {
			s.setPos(k, v) // the basic variables' bounds and tolerances by position
		}
		// Keep the basis; move each nonbasic variable to the new value of the bound it sat
		// at, or to a bound its reduced cost suggests when that one is gone.
		for j := 0; j < s.nt; j++ {
			if s.pos[j] >= 0 {
				continue
			}
			l, u := s.lower[j], s.upper[j]
			switch {
			case l == u:
				s.x[j], s.move[j] = l, 0
			case s.move[j] == 1 && !math.IsInf(l, -1):
				s.x[j] = l
			case s.move[j] == -1 && !math.IsInf(u, 1):
				s.x[j] = u
			default:
				s.placeNonbasic(j, s.d[j])
			}
		}
	}
	o := s.optimize(ss.rowScale, ss.colScale, ss.den, ss.span)
	ss.factored = true
	sol.Status = outcomeStatus(o, ctx.Err())
	sol.Iterations = s.iters
	if o != outOptimal {
		return sol, nil
	}
	x, y, basis := s.unscaled(ss.rowScale, ss.colScale)
	r := &result{status: solvers.Optimal, iters: s.iters, x: x, y: y, basis: basis}
	q := *ss.p
	q.ColLower, q.ColUpper = lo, up
	r.fill(&q, sol)
	return sol, nil
}
