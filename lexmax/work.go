package lexmax

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

// outcome is one u_i = Σ val·x[idx] + c over the compiled model's columns, with duplicate
// columns merged and zeros dropped.
type outcome struct {
	idx []int
	val []float64
	c   float64
}

func (o outcome) eval(x []float64) float64 {
	s := o.c
	for k, j := range o.idx {
		s += o.val[k] * x[j]
	}
	return s
}

// compileOutcomes checks that every term belongs to p.Model and converts the outcomes.
func compileOutcomes(p Problem, ncols int) ([]outcome, error) {
	outs := make([]outcome, len(p.Outcomes))
	for i, e := range p.Outcomes {
		if math.IsNaN(e.Const) || math.IsInf(e.Const, 0) {
			return nil, fmt.Errorf("lexmax: outcome %d: constant %g is not finite", i, e.Const)
		}
		for _, t := range e.Terms {
			if t.Var.Model() != p.Model || !t.Var.Valid() || t.Var.Index() >= ncols {
				return nil, fmt.Errorf("lexmax: outcome %d: variable %s does not belong to the problem's model", i, t.Var)
			}
			if math.IsNaN(t.Coef) || math.IsInf(t.Coef, 0) {
				return nil, fmt.Errorf("lexmax: outcome %d: coefficient %g of %s is not finite", i, t.Coef, t.Var)
			}
		}
		c := e.Canonical()
		o := outcome{c: c.Const, idx: make([]int, len(c.Terms)), val: make([]float64, len(c.Terms))}
		for k, t := range c.Terms {
			o.idx[k], o.val[k] = t.Var.Index(), t.Coef
		}
		outs[i] = o
	}
	return outs, nil
}

// lp is a growable copy of the compiled model: columns and rows can be appended (and
// removed again from the end), bounds and costs changed, and a model.Problem produced
// for each solve. Rows are kept row-wise; problem() transposes them in O(nnz).
type lp struct {
	name     string
	sense    model.Sense
	cost     []float64
	lo, hi   []float64
	integ    []bool
	colNames []string

	rstart   []int // len nrows+1
	ridx     []int
	rval     []float64
	rlo, rhi []float64
	rowNames []string

	// basis is the basis of the last LP solve of this lp (for warm starts).
	basis *solvers.Basis
}

// newLP copies base without its objective.
func newLP(base *model.Problem) *lp {
	n := base.NumCols()
	l := &lp{
		name:     base.Name,
		sense:    model.Maximize,
		cost:     make([]float64, n),
		lo:       slices.Clone(base.ColLower),
		hi:       slices.Clone(base.ColUpper),
		integ:    make([]bool, n),
		colNames: slices.Clone(base.ColNames),
		rlo:      slices.Clone(base.RowLower),
		rhi:      slices.Clone(base.RowUpper),
		rowNames: slices.Clone(base.RowNames),
	}
	copy(l.integ, base.Integrality)
	if l.colNames == nil {
		l.colNames = make([]string, n)
	}
	if l.rowNames == nil {
		l.rowNames = make([]string, base.NumRows())
	}
	l.rstart, l.ridx, l.rval = base.Transpose()
	return l
}

func (l *lp) ncols() int { return len(l.cost) }
func (l *lp) nrows() int { return len(l.rlo) }

func (l *lp) addCol(lo, hi float64, integer bool, name string) int {
	l.cost = append(l.cost, 0)
	l.lo = append(l.lo, lo)
	l.hi = append(l.hi, hi)
	l.integ = append(l.integ, integer)
	l.colNames = append(l.colNames, name)
	return len(l.cost) - 1
}

// addRow appends lo ≤ Σ val·x[idx] ≤ hi. idx must hold distinct columns; zero values
// are dropped.
func (l *lp) addRow(idx []int, val []float64, lo, hi float64, name string) int {
	for k, j := range idx {
		if val[k] != 0 {
			l.ridx = append(l.ridx, j)
			l.rval = append(l.rval, val[k])
		}
	}
	l.rstart = append(l.rstart, len(l.ridx))
	l.rlo = append(l.rlo, lo)
	l.rhi = append(l.rhi, hi)
	l.rowNames = append(l.rowNames, name)
	return len(l.rlo) - 1
}

// truncate removes the columns and rows added after the lp had nc columns and nr rows.
// Rows must not refer to removed columns (rows added after the columns are removed too).
func (l *lp) truncate(nc, nr int) {
	l.cost, l.lo, l.hi, l.integ, l.colNames = l.cost[:nc], l.lo[:nc], l.hi[:nc], l.integ[:nc], l.colNames[:nc]
	l.rstart = l.rstart[:nr+1]
	l.ridx, l.rval = l.ridx[:l.rstart[nr]], l.rval[:l.rstart[nr]]
	l.rlo, l.rhi, l.rowNames = l.rlo[:nr], l.rhi[:nr], l.rowNames[:nr]
}

// setObjective zeroes every cost and sets the given ones.
func (l *lp) setObjective(sense model.Sense, cols []int, coefs []float64) {
	clear(l.cost)
	for k, j := range cols {
		l.cost[j] += coefs[k]
	}
	l.sense = sense
}

func (l *lp) hasInteger() bool { return slices.Contains(l.integ, true) }

// problem returns the current lp in CSC form.
func (l *lp) problem() *model.Problem {
	n, m := l.ncols(), l.nrows()
	p := &model.Problem{
		Name:     l.name,
		Sense:    l.sense,
		ColCost:  slices.Clone(l.cost),
		ColLower: slices.Clone(l.lo),
		ColUpper: slices.Clone(l.hi),
		RowLower: slices.Clone(l.rlo),
		RowUpper: slices.Clone(l.rhi),
		ColNames: slices.Clone(l.colNames),
		RowNames: slices.Clone(l.rowNames),
	}
	if l.hasInteger() {
		p.Integrality = slices.Clone(l.integ)
	}
	start := make([]int, n+1)
	for _, j := range l.ridx {
		start[j+1]++
	}
	for j := range n {
		start[j+1] += start[j]
	}
	next := slices.Clone(start[:n])
	index := make([]int, len(l.ridx))
	value := make([]float64, len(l.ridx))
	// Rows are visited in increasing order, so each column's row indices come out sorted.
	for i := range m {
		for k := l.rstart[i]; k < l.rstart[i+1]; k++ {
			j := l.ridx[k]
			index[next[j]] = i
			value[next[j]] = l.rval[k]
			next[j]++
		}
	}
	p.AStart, p.AIndex, p.AValue = start, index, value
	return p
}

// state is one Solve in progress.
type state struct {
	ctx       context.Context
	p         Problem
	base      *model.Problem
	outs      []outcome
	info      []outcomeInfo
	res       *Result
	opt       Options
	sopt      solvers.Options
	solver    solvers.Solver
	caps      solvers.Capabilities
	described bool
	isMIP     bool
	warm      bool
}

// slack is the tolerance of a freeze at value v of a sum of terms outcomes:
// max(terms·AbsTol, RelTol·|v|).
func (st *state) slack(v float64, terms int) float64 {
	s := math.Max(float64(terms)*st.res.Tol.Abs, st.res.Tol.Rel*math.Abs(v))
	st.res.Tol.MaxSlack = math.Max(st.res.Tol.MaxSlack, s)
	return s
}

func (st *state) name(i int) string {
	if st.p.Names != nil && st.p.Names[i] != "" {
		return st.p.Names[i]
	}
	return fmt.Sprintf("u%d", i)
}

func (st *state) note(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if !slices.Contains(st.res.Notes, msg) {
		st.res.Notes = append(st.res.Notes, msg)
	}
}

// solve runs the backend on l. start, when not nil, is a basis for l to warm-start from
// (used only for LPs with a backend that takes a basis). Anything but an optimum is an
// error. The basis of an LP solve is remembered on l.
func (st *state) solve(kind string, k int, l *lp, start *solvers.Basis) (*solvers.Solution, error) {
	if err := st.ctx.Err(); err != nil {
		return nil, fmt.Errorf("lexmax: %w", err)
	}
	p := l.problem()
	o := st.sopt
	warm := false
	if st.warm && p.Integrality == nil && start != nil {
		o.WarmStart = start
		warm = true
	}
	sol, err := st.solver.Solve(st.ctx, p, o)
	st.res.Solves++
	if err != nil {
		return nil, fmt.Errorf("lexmax: %s solve: %w", kind, err)
	}
	reported := sol.Status
	if err := st.ctx.Err(); err != nil {
		return nil, fmt.Errorf("lexmax: %w", err)
	}
	if salvageable(p, sol, st.sopt.MIPGap) {
		// HiGHS 1.10 can end a MIP with "infeasible or unbounded" after a restart whose
		// presolve applies the incumbent's cutoff, while reporting that incumbent at zero
		// gap. The point is checked here, so the claim rests on our check and the bound.
		st.note("backend %s reported %s for a MIP while returning a point at zero gap; the point was checked feasible and accepted as optimal", st.solver.Name(), sol.Status)
		s := *sol
		s.Status = solvers.Optimal
		sol = &s
	}
	st.res.Steps = append(st.res.Steps, Step{Kind: kind, K: k, Value: sol.Objective, Bound: sol.BestBound, Status: sol.Status,
		Iterations: sol.Iterations, Nodes: sol.Nodes, Warm: warm, WallTime: sol.WallTime})
	if st.opt.Log != nil {
		status := sol.Status.String()
		if reported != sol.Status {
			status = reported.String() + " (checked: " + status + ")"
		}
		fmt.Fprintf(st.opt.Log, "lexmax: solve %d %s k=%d: %s value=%.10g bound=%.10g iterations=%d nodes=%d warm=%v %v\n",
			st.res.Solves, kind, k, status, sol.Objective, sol.BestBound, sol.Iterations, sol.Nodes, warm, sol.WallTime.Round(time.Microsecond))
	}
	switch sol.Status {
	case solvers.Optimal:
	case solvers.Infeasible:
		if st.res.Solves == 1 {
			return nil, fmt.Errorf("%w (%s solve)", ErrInfeasible, kind)
		}
		return nil, &StatusError{Step: kind, Status: sol.Status}
	case solvers.Unbounded:
		return nil, fmt.Errorf("%w (%s solve)", ErrUnbounded, kind)
	default:
		return nil, &StatusError{Step: kind, Status: sol.Status}
	}
	if len(sol.X) != p.NumCols() {
		return nil, fmt.Errorf("lexmax: %s solve: backend %s returned %d values for %d columns", kind, st.solver.Name(), len(sol.X), p.NumCols())
	}
	if p.Integrality != nil && !math.IsNaN(sol.BestBound) && !math.IsInf(sol.BestBound, 0) {
		st.res.Tol.MaxGap = math.Max(st.res.Tol.MaxGap, math.Abs(sol.BestBound-sol.Objective))
	}
	if p.Integrality == nil {
		l.basis = sol.Basis
	}
	return sol, nil
}

// solveRobust is solve with a second chance for a step after the first: when it ends
// infeasible or without a verdict, which on the large degenerate LPs of ordered outcomes
// is numerical (HiGHS 1.10's dual simplex declared a 200-outcome problem infeasible at
// step 89, 1e-7 from a point that satisfies every row), it tries again from the other
// start (cold after warm, the last basis after cold), then with the freezes relaxed by
// relax(10) and relax(100) when relax is not nil. Every retry is a counted solve and
// leaves a note; a relaxed freeze shows in Tol.MaxSlack.
func (st *state) solveRobust(kind string, k int, l *lp, start *solvers.Basis, relax func(factor float64)) (*solvers.Solution, error) {
	sol, err := st.solve(kind, k, l, start)
	if err == nil || !retryable(err) || st.res.Solves == 1 {
		return sol, err
	}
	first := err
	var alt *solvers.Basis
	if start == nil && st.warm {
		alt = l.extendBasis(l.basis, nil, nil)
	}
	if start != nil || alt != nil {
		if sol, err = st.solve(kind, k, l, alt); err == nil {
			st.note("a %s solve that failed (%v) succeeded from another start", kind, first)
			return sol, nil
		}
	}
	if relax != nil {
		for _, f := range []float64{10, 100} {
			relax(f)
			if sol, err = st.solve(kind, k, l, start); err == nil {
				st.note("a %s solve that failed (%v) succeeded after relaxing the freezes %g-fold", kind, first, f)
				return sol, nil
			}
		}
	}
	return nil, first
}

func retryable(err error) bool {
	var se *StatusError
	if !errors.As(err, &se) {
		return false
	}
	switch se.Status {
	case solvers.Infeasible, solvers.InfeasibleOrUnbounded, solvers.Other, solvers.NumericalError:
		return true
	}
	return false
}

// extendBasis returns b (a basis of an earlier state of l) made valid for l's current
// columns, rows and bounds: new columns take the given statuses (or a bound status),
// rows beyond len(b.Rows) are left to the backend (basic) unless rows says otherwise, and
// every nonbasic status is moved to a bound that exists. nil when b is nil or too long.
func (l *lp) extendBasis(b *solvers.Basis, cols, rows []solvers.BasisStatus) *solvers.Basis {
	if b == nil || len(b.Cols) > l.ncols() || len(b.Rows) > l.nrows() {
		return nil
	}
	out := &solvers.Basis{Cols: make([]solvers.BasisStatus, 0, l.ncols()), Rows: make([]solvers.BasisStatus, 0, l.nrows())}
	out.Cols = append(append(out.Cols, b.Cols...), cols...)
	for len(out.Cols) < l.ncols() {
		out.Cols = append(out.Cols, solvers.AtLower)
	}
	out.Cols = out.Cols[:l.ncols()]
	out.Rows = append(append(out.Rows, b.Rows...), rows...)
	for len(out.Rows) < l.nrows() {
		out.Rows = append(out.Rows, solvers.Basic)
	}
	out.Rows = out.Rows[:l.nrows()]
	for j := range out.Cols {
		out.Cols[j] = fitStatus(out.Cols[j], l.lo[j], l.hi[j])
	}
	for i := range out.Rows {
		out.Rows[i] = fitStatus(out.Rows[i], l.rlo[i], l.rhi[i])
	}
	return out
}

// fitStatus moves a nonbasic status to a bound that exists in [lo, hi].
func fitStatus(s solvers.BasisStatus, lo, hi float64) solvers.BasisStatus {
	if s == solvers.Basic {
		return s
	}
	loF, hiF := !math.IsInf(lo, -1), !math.IsInf(hi, 1)
	switch {
	case loF && hiF && lo == hi:
		return solvers.Fixed
	case s == solvers.AtUpper && hiF:
		return s
	case (s == solvers.AtLower || s == solvers.Fixed) && loF:
		return solvers.AtLower
	case s == solvers.AtZero && !loF && !hiF:
		return s
	case loF:
		return solvers.AtLower
	case hiF:
		return solvers.AtUpper
	}
	return solvers.AtZero
}

// errStall is internal: water-filling found no saturated outcome.
var errStall = errors.New("stall")

// salvageable reports whether a MIP solve that ended Infeasible or InfeasibleOrUnbounded
// nevertheless returned a point that satisfies every bound, row and integrality (checked
// here, to 1e-6 scaled) with its objective equal to the proven bound within the gap.
func salvageable(p *model.Problem, sol *solvers.Solution, gap float64) bool {
	if p.Integrality == nil || sol.X == nil || len(sol.X) != p.NumCols() {
		return false
	}
	if sol.Status != solvers.Infeasible && sol.Status != solvers.InfeasibleOrUnbounded {
		return false
	}
	b, v := sol.BestBound, sol.Objective
	if math.IsNaN(b) || math.IsInf(b, 0) || math.IsNaN(v) || math.Abs(b-v) > gap*math.Abs(v)+1e-6 {
		return false
	}
	const tol = 1e-6
	x := sol.X
	for j, xj := range x {
		if math.IsNaN(xj) || xj < p.ColLower[j]-tol*(1+math.Abs(p.ColLower[j])) || xj > p.ColUpper[j]+tol*(1+math.Abs(p.ColUpper[j])) {
			return false
		}
		if p.Integrality[j] && math.Abs(xj-math.Round(xj)) > 1e-5 {
			return false
		}
	}
	for i, a := range p.RowActivity(x) {
		if a < p.RowLower[i]-tol*(1+math.Abs(p.RowLower[i])) || a > p.RowUpper[i]+tol*(1+math.Abs(p.RowUpper[i])) {
			return false
		}
	}
	return math.Abs(p.Objective(x)-v) <= 1e-6*(1+math.Abs(v))
}
