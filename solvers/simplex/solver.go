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

// Default tolerances: a bound b is met within DefaultPrimalTol·max(1, |b|), a reduced
// cost has the wrong sign by at most DefaultDualTol.
const (
	DefaultPrimalTol = 1e-7
	DefaultDualTol   = 1e-7
)

// Solver is the built-in simplex backend. The zero value is ready to use; a Solver holds
// only its settings, so one may serve concurrent solves.
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
	status      solvers.Status
	iters       int
	primalIters int // of iters, those of the primal simplex
	// resolved: the presolved solve\'s certificate failed after postsolve, and this is the
	// solve without presolve (see solveLP).
	resolved bool
	x        []float64 // original columns; nil when not optimal
	y        []float64 // row duals, minimization sense
	basis    *solvers.Basis
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
	// d = c − Aᵀy. A basic column's reduced cost is zero by definition, and a value within
	// the rounding of its own computation (a few hundred ulps of the largest term) is
	// noise: both are reported as 0, so that noise times a wide range does not look like
	// a complementary-slackness violation.
	d := append([]float64(nil), p.ColCost...)
	for j := range d {
		mag := math.Abs(d[j])
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			t := p.AValue[k] * y[p.AIndex[k]]
			d[j] -= t
			mag += math.Abs(t)
		}
		if (r.basis != nil && r.basis.Cols[j] == solvers.Basic) || math.Abs(d[j]) <= 1e-14*mag {
			d[j] = 0
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

// stage is a presolve stage after the first: a map from its input problem to its output,
// undone by postsolve (output solution, row duals in minimization sense, basis → input).
type stage interface {
	postsolve(x, y []float64, b *solvers.Basis) ([]float64, []float64, *solvers.Basis)
}

// presolvePasses bounds the alternation of the doubleton and column stages.
const presolvePasses = 4

// solveLP runs presolve, scaling, the simplex method and the way back.
func solveLP(p *model.Problem, set settings, warm *solvers.Basis, doPresolve, doScale bool) *result {
	if warm != nil && len(warm.Cols) != p.NumCols() {
		warm = nil // a basis for another problem: start from the slack basis
	}
	var pre *presolveResult
	if doPresolve && warm == nil {
		pre = presolve(p, set.primalTol)
		if pre.status != presolveReduced {
			// Presolve's verdict rests on bounds derived with rounding (a singleton row
			// with a tiny coefficient amplifies it); confirm on the original problem.
			return solveLP(p, set, nil, false, doScale)
		}
	} else {
		pre = identityPresolve(p)
	}
	red := pre.reduced
	n1, m1 := red.n, red.m
	// den[2j], den[2j+1]: max(1, |bound|) for j's lower and upper bound in the original
	// problem.
	den := make([]float64, 2*(n1+m1))
	mag := func(b float64) float64 {
		if math.IsInf(b, 0) {
			return 1
		}
		return math.Max(1, math.Abs(b))
	}
	colNew := make(map[int]int, len(pre.colMap))
	for k, j := range pre.colMap {
		den[2*k], den[2*k+1] = mag(p.ColLower[j]), mag(p.ColUpper[j])
		colNew[j] = k
	}
	// A column bound that came from a singleton row a·x_j ∈ [l, u] is held to that row's
	// accuracy: a violation e of the bound is a row violation |a|·e.
	for _, op := range pre.ops {
		k, ok := colNew[op.col]
		if op.kind != opSingletonRow || !ok {
			continue
		}
		lo, up := p.RowLower[op.row], p.RowUpper[op.row]
		if op.coef < 0 {
			lo, up = up, lo
		}
		if op.lowerFromRow {
			den[2*k] = mag(lo) / math.Abs(op.coef)
		}
		if op.upperFromRow {
			den[2*k+1] = mag(up) / math.Abs(op.coef)
		}
	}
	for k, i := range pre.rowMap {
		den[2*(n1+k)], den[2*(n1+k)+1] = mag(p.RowLower[i]), mag(p.RowUpper[i])
	}
	// span[j]: the width of j's range in the original problem (for a row, its activity's).
	span := make([]float64, n1+m1)
	for k, j := range pre.colMap {
		span[k] = p.ColUpper[j] - p.ColLower[j]
	}
	for k, i := range pre.rowMap {
		span[n1+k] = p.RowUpper[i] - p.RowLower[i]
	}
	// The second and third stages, doubleton equations and the column stage (redundant
	// and forcing rows, implied-free column singletons, dominated columns), alternate on
	// the presolved problem while either finds something: each can enable the other.
	var stages []stage
	for pass := 0; doPresolve && warm == nil && pass < presolvePasses; pass++ {
		progressed := false
		if !set.noDoubletons {
			if dst := eliminateDoubletons(red, den, set.primalTol); dst != nil {
				nIn := red.n
				red = dst.out
				den2 := make([]float64, 2*(red.n+red.m))
				span2 := make([]float64, red.n+red.m)
				for t, j := range dst.colMap {
					den2[2*t], den2[2*t+1], span2[t] = den[2*j], den[2*j+1], span[j]
					if d, ok := dst.denLo[j]; ok {
						den2[2*t] = d
					}
					if d, ok := dst.denUp[j]; ok {
						den2[2*t+1] = d
					}
				}
				for t, i := range dst.rowMap {
					den2[2*(red.n+t)], den2[2*(red.n+t)+1], span2[red.n+t] = den[2*(nIn+i)], den[2*(nIn+i)+1], span[nIn+i]
				}
				den, span = den2, span2
				stages = append(stages, dst)
				progressed = true
				set.logf("doubleton equations: %d eliminated", len(dst.ops))
			}
		}
		if !set.noColumnStage {
			if cst := reduceColumns(red); cst != nil {
				nIn := red.n
				red = cst.out
				den2 := make([]float64, 2*(red.n+red.m))
				span2 := make([]float64, red.n+red.m)
				for t, j := range cst.colMap {
					den2[2*t], den2[2*t+1], span2[t] = den[2*j], den[2*j+1], span[j]
				}
				for t, i := range cst.rowMap {
					den2[2*(red.n+t)], den2[2*(red.n+t)+1], span2[red.n+t] = den[2*(nIn+i)], den[2*(nIn+i)+1], span[nIn+i]
				}
				den, span = den2, span2
				stages = append(stages, cst)
				progressed = true
				set.logf("implied-free column singletons: %d substituted; dominated columns: %d fixed; redundant rows: %d, forcing rows: %d removed", cst.impliedFree, cst.dominated, cst.redundant, cst.forcing)
			}
		}
		if !progressed {
			break
		}
	}
	lp, rowScale, colScale := buildLP(red, doScale)
	s := newSimplex(lp, set)
	s.setTolerances(den, rowScale, colScale)
	if warm != nil {
		s.setWarmBasis(warm)
	} else {
		s.setSlackBasis()
		s.coldStart = true
	}
	o := s.optimize(rowScale, colScale, den, span)
	s.logf("simplex: %s after %d iterations, %d factorizations", outcomeStatus(o, set.ctx.Err()), s.iters, s.invertions)
	res := &result{status: outcomeStatus(o, set.ctx.Err()), iters: s.iters, primalIters: s.primalIters}
	if o == outInfeasible && (len(pre.ops) > 0 || len(stages) > 0) {
		// The same caution as above for an infeasible reduced problem.
		r := solveLP(p, set, nil, false, doScale)
		r.iters += s.iters
		return r
	}
	if o != outOptimal {
		return res
	}
	xr, yr, basis := s.unscaled(rowScale, colScale)
	for k := len(stages) - 1; k >= 0; k-- {
		xr, yr, basis = stages[k].postsolve(xr, yr, basis)
	}
	x, y, b := pre.postsolve(p, xr, yr, basis)
	settleFixedStatuses(p, x, y, b)
	if pre.unboundedIfFeasible {
		res.status = solvers.Unbounded
		return res
	}
	res.x, res.y, res.basis = x, y, b
	if (len(pre.ops) > 0 || len(stages) > 0) && dualityGap(p, x, y) > gapTolerance {
		// Postsolve carries duals through singleton rows; through tiny coefficients that
		// can produce duals so large that rounding spoils the certificate. The solve
		// without presolve computes them from the basis directly; keep the better one.
		set.logf("duality gap %.3g after postsolve: solving without presolve", dualityGap(p, x, y))
		set.verbose = nil
		if r := solveLP(p, set, nil, false, doScale); r.status == solvers.Optimal && dualityGap(p, r.x, r.y) < dualityGap(p, x, y) {
			r.iters += res.iters
			r.resolved = true
			return r
		}
	}
	return res
}

// setTolerances sets the feasibility tolerances in the original problem's units: a bound
// b of variable j is met within primalTol·max(1, |b_original|), which is primalTol·den/σ
// for the scaled x̃_j = x_j/σ_j and primalTol·den·ρ_i for the logical of row i (scaled by
// ρ_i; its lower bound is the row's upper).
func (s *simplex) setTolerances(den, rowScale, colScale []float64) {
	for j := 0; j < s.n; j++ {
		s.fL[j], s.fU[j] = den[2*j]/colScale[j], den[2*j+1]/colScale[j]
	}
	for i := 0; i < s.m; i++ {
		j := s.n + i
		s.fL[j], s.fU[j] = den[2*j+1]*rowScale[i], den[2*j]*rowScale[i]
	}
}

// optimize runs the simplex method from the current basis and checks an optimum in the
// problem's own units.
func (s *simplex) optimize(rowScale, colScale, den, span []float64) outcome {
	ptol, dtol := s.set.primalTol, s.set.dualTol
	o := s.run()
	// The tolerances apply to the scaled problem; a scale factor far from one can leave an
	// infeasibility above them in the problem's own units. Then tighten and continue from
	// the same basis (HiGHS's "unscaled cleanup").
	// Likewise a reduced cost of the wrong sign but within the tolerance can still cost
	// objective value when its variable's range is wide; that is measured as
	// Σ|d_j|·(u_j − l_j) relative to the objective.
	// A refinement never makes the answer worse: if it ends anywhere but at an optimum
	// (tighter tolerances can expose what only rounding separates), the last optimal basis
	// comes back with the tolerances it was optimal for.
	for refine := 0; o == outOptimal && refine < 4; refine++ {
		q := s.unscaledQuality(rowScale, colScale, den, span, ptol, dtol)
		if q.primal <= ptol && q.dual <= dtol && q.gap <= objectiveAccuracy {
			break
		}
		s.logf("unscaled infeasibilities %.3g (primal) and %.3g (dual), objective error %.3g: tightening the tolerances", q.primal, q.dual, q.gap)
		snap := s.snapshot()
		s.set.primalTol = math.Max(math.Min(s.set.primalTol, q.needPrimal), minTolerance)
		s.set.dualTol = math.Max(math.Min(s.set.dualTol, q.needDual), minTolerance)
		if o = s.run(); o != outOptimal && o != outIterLimit && o != outTimeLimit && o != outCancelled {
			s.logf("refinement ended %s: back to the last optimal basis", outcomeStatus(o, nil))
			s.restore(snap)
			o = outOptimal
			break
		}
	}
	return o
}

// unscaled refines the optimal primal and dual values and returns them in the reduced
// problem's own units, with the basis.
func (s *simplex) unscaled(rowScale, colScale []float64) (xr, yr []float64, basis *solvers.Basis) {
	s.refine()
	xr = make([]float64, s.n)
	for j := 0; j < s.n; j++ {
		v := s.x[j]
		if s.pos[j] >= 0 {
			v = s.xB[s.pos[j]]
		}
		xr[j] = v * colScale[j]
	}
	yr = make([]float64, s.m)
	for i := 0; i < s.m; i++ {
		yr[i] = s.y[i] * rowScale[i]
	}
	return xr, yr, s.basisStatus()
}

// gapTolerance is the relative duality gap above which a presolved answer is checked
// against a solve without presolve.
const gapTolerance = 1e-9

// dualityGap is |primal − dual objective| / max(1, |primal|) for x and the row duals y
// (minimization sense) of p, with the dual objective built as the certificate checkers
// build it: each multiplier times the bound its sign selects.
func dualityGap(p *model.Problem, x, y []float64) float64 {
	sense := float64(p.Sense)
	primal, dual := 0.0, 0.0
	pick := func(lam, lo, up float64) float64 {
		switch {
		case lam > 0 && !math.IsInf(lo, 0):
			return lam * lo
		case lam < 0 && !math.IsInf(up, 0):
			return lam * up
		}
		return 0
	}
	for i, yi := range y {
		dual += pick(yi, p.RowLower[i], p.RowUpper[i])
	}
	for j := range p.NumCols() {
		c := sense * p.ColCost[j]
		primal += c * x[j]
		d := c
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			d -= p.AValue[k] * y[p.AIndex[k]]
		}
		dual += pick(d, p.ColLower[j], p.ColUpper[j])
	}
	return math.Abs(primal-dual) / math.Max(1, math.Abs(primal))
}

// objectiveAccuracy is the relative objective error that wrong-signed reduced costs
// within the dual tolerance may cause before the solve continues with a tighter one.
const objectiveAccuracy = 1e-9

// minTolerance is the floor of the tightened tolerances.
const minTolerance = 1e-14

// solutionQuality measures a basic solution in the reduced problem's own units.
type solutionQuality struct {
	primal float64 // largest bound or row violation, relative to max(1, |bound|)
	dual   float64 // largest reduced cost of the wrong sign
	gap    float64 // Σ|wrong d_j|·(u_j − l_j), relative to max(1, |objective|)
	// The scaled tolerances that would expose the violations above the targets.
	needPrimal, needDual float64
}

// unscaledQuality measures the solution in the reduced problem's own units: the largest
// bound or row violation relative to max(1, |bound|), the largest reduced cost of the
// wrong sign for its variable's position, and Σ|d_j|·(u_j − l_j) over those reduced costs
// relative to max(1, |objective|) (what moving them across their range in the original
// problem would gain; |x_j| stands in for an infinite range). The relative measure uses the magnitude
// of the violated bound in the original problem (den), since presolve shifts row bounds
// by the contributions of the columns it removed. It also returns, for the violations
// beyond ptol and dtol, the scaled tolerances under which the simplex sees them.
func (s *simplex) unscaledQuality(rowScale, colScale, den, span []float64, ptol, dtol float64) solutionQuality {
	q := solutionQuality{needPrimal: math.Inf(1), needDual: math.Inf(1)}
	wrongScaled := math.Inf(1) // smallest scaled wrong-signed reduced cost
	for j := 0; j < s.nt; j++ {
		v, sc := s.x[j], 1.0
		if p := s.pos[j]; p >= 0 {
			v = s.xB[p]
		}
		if j < s.n {
			sc = colScale[j]
		} else {
			sc = 1 / rowScale[j-s.n]
		}
		lo, up := s.lp.lower[j], s.lp.upper[j]
		// The logical is the negated activity: its lower bound is the row's upper.
		dlo, dup := den[2*j], den[2*j+1]
		if j >= s.n {
			dlo, dup = dup, dlo
		}
		var e, b, d float64
		switch {
		case v < lo:
			e, b, d = lo-v, lo, dlo
		case v > up:
			e, b, d = v-up, up, dup
		}
		if e > 0 {
			rel := e * sc / d
			q.primal = math.Max(q.primal, rel)
			if rel > ptol {
				q.needPrimal = math.Min(q.needPrimal, 0.5*e/math.Max(1, math.Abs(b)))
			}
		}
		if s.pos[j] >= 0 || lo == up {
			continue
		}
		var wrong float64
		switch s.move[j] {
		case 1:
			wrong = -s.d[j]
		case -1:
			wrong = s.d[j]
		case moveFree:
			wrong = math.Abs(s.d[j])
		}
		if wrong <= 0 {
			continue
		}
		w := wrong / sc
		q.dual = math.Max(q.dual, w)
		if w > dtol {
			q.needDual = math.Min(q.needDual, 0.5*wrong)
		}
		wrongScaled = math.Min(wrongScaled, wrong)
		// Moving j across its range gains w·range; with no opposite bound the dual
		// objective misses w·|x_j|. The range is the original problem's (span): that is
		// what a certificate of the original problem measures.
		if r := span[j]; !math.IsInf(r, 0) {
			q.gap += w * r
		} else {
			q.gap += w * math.Max(1, math.Abs(v*sc))
		}
	}
	q.gap /= math.Max(1, math.Abs(s.objective()))
	if q.gap > objectiveAccuracy {
		q.needDual = math.Min(q.needDual, 0.5*wrongScaled)
	}
	return q
}

// basisSnapshot is what restore needs to reinstate a basis.
type basisSnapshot struct {
	basic              []int
	x                  []float64
	move               []int8
	lower, upper       []float64
	primalTol, dualTol float64
}

func (s *simplex) snapshot() *basisSnapshot {
	return &basisSnapshot{
		basic:     append([]int(nil), s.basic...),
		x:         append([]float64(nil), s.x...),
		move:      append([]int8(nil), s.move...),
		lower:     append([]float64(nil), s.lower...),
		upper:     append([]float64(nil), s.upper...),
		primalTol: s.set.primalTol,
		dualTol:   s.set.dualTol,
	}
}

// restore reinstates a snapshot with the true costs and recomputes everything.
func (s *simplex) restore(b *basisSnapshot) {
	copy(s.basic, b.basic)
	copy(s.x, b.x)
	copy(s.move, b.move)
	copy(s.lower, b.lower)
	copy(s.upper, b.upper)
	s.set.primalTol, s.set.dualTol = b.primalTol, b.dualTol
	for j := range s.pos {
		s.pos[j] = -1
	}
	for p, v := range s.basic {
		s.setPos(p, v)
	}
	s.restoreCosts()
	s.refresh()
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
		fixed := make([]bool, n)
		for j := range fixed {
			fixed[j] = p.lower[j] == p.upper[j]
		}
		rowScale, colScale = computeScaling(m, n, &lp.a, fixed)
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
