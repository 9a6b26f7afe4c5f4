package mip

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/simplex"
)

// Search parameters.
const (
	reliability    = 4   // pseudo-cost observations per direction before a column is reliable
	maxStrong      = 8   // strong-branching candidates per node
	strongLook     = 4   // stop strong branching after this many candidates without a better score
	strongIters    = 500 // simplex iterations per strong-branching child
	plungeFraction = 0.5 // plunge while the child's bound is within this fraction of the gap
	scoreEps       = 1e-6
	intObjSlack    = 1e-4 // with an integral objective, prune at incumbent − 1 + intObjSlack
)

// search is the state of one branch-and-bound solve. The working problem w is the
// original one as a minimization without offset and without integrality (the LPs are
// its relaxations), presolved, with cuts appended as rows.
type search struct {
	ctx  context.Context
	orig *model.Problem
	w    *model.Problem
	sv   *Solver
	opt  solvers.Options
	lp   *simplex.Solver
	// sess re-solves the working problem's LP once its rows are final (after the root's
	// cuts); sessBasis is the basis it holds, so a child of the node just solved starts
	// without refactorizing from a given basis.
	sess      *simplex.Session
	sessBasis *solvers.Basis

	intTol, absGap, relGap float64
	isInt                  []bool
	hasCont                bool
	intObj                 bool
	lo, up                 []float64 // global bounds

	status    solvers.Status
	stopped   bool
	incumbent []float64
	incObj    float64
	nodes     int
	iters     int
	open      nodeHeap
	siblings  []*node // the open siblings of the current plunge's nodes, deepest last
	seq       int
	pruned    float64 // least bound of a node pruned by bound
	lost      float64 // least bound of a node whose LP failed
	pc        pseudocosts

	rootObj float64
	rootX   []float64
	rootD   []float64

	// maxAggr is the number of rows path aggregation may add in the c-MIR separator
	// (mirMaxAggr; tests set 0 to separate from single rows only).
	maxAggr int
}

func newSearch(ctx context.Context, p *model.Problem, sv *Solver, opt solvers.Options) *search {
	s := &search{ctx: ctx, orig: p, sv: sv, opt: opt, lp: &simplex.Solver{},
		intTol: DefaultIntegralityTol, absGap: DefaultAbsGap, relGap: DefaultRelGap,
		pruned: math.Inf(1), lost: math.Inf(1), maxAggr: mirMaxAggr}
	if opt.MIPGap > 0 {
		s.relGap = opt.MIPGap
	}
	n := p.NumCols()
	w := p.Clone()
	w.Integrality, w.ColNames, w.RowNames, w.Name = nil, nil, nil, p.Name
	sense := float64(p.Sense)
	if sense == 0 {
		sense = 1
	}
	for j := range w.ColCost {
		w.ColCost[j] *= sense
	}
	w.Sense, w.Offset = model.Minimize, 0
	s.w = w
	s.isInt = make([]bool, n)
	copy(s.isInt, p.Integrality)
	s.intObj = true
	for j := range n {
		if !s.isInt[j] {
			s.hasCont = true
			if w.ColCost[j] != 0 {
				s.intObj = false
			}
		} else if c := w.ColCost[j]; c != math.Round(c) {
			s.intObj = false
		}
	}
	s.lo, s.up = slices.Clone(p.ColLower), slices.Clone(p.ColUpper)
	s.pc = newPseudocosts(n)
	return s
}

func (s *search) logf(format string, args ...any) {
	if s.opt.Verbose != nil {
		fmt.Fprintf(s.opt.Verbose, format+"\n", args...)
	}
}

// lpResult is the outcome of one LP relaxation.
type lpResult struct {
	status solvers.Status
	obj    float64
	x, d   []float64
	basis  *solvers.Basis
}

// solveLP solves the working problem's relaxation with the bounds lo, up, warm-started
// from warm when it is not nil. iterLimit > 0 caps the simplex iterations.
func (s *search) solveLP(lo, up []float64, warm *solvers.Basis, iterLimit int) lpResult {
	for j := range lo {
		if lo[j] > up[j] {
			return lpResult{status: solvers.Infeasible}
		}
	}
	if s.sess != nil {
		return s.solveSession(lo, up, warm, iterLimit)
	}
	iterLimit, ok := s.iterBudget(iterLimit)
	if !ok {
		return lpResult{status: solvers.IterationLimit}
	}
	q := *s.w
	q.ColLower, q.ColUpper = lo, up
	o := solvers.Options{WarmStart: warm, IterationLimit: iterLimit, PrimalTol: s.opt.PrimalTol, DualTol: s.opt.DualTol}
	sol, err := s.lp.Solve(s.ctx, &q, o)
	return s.lpOutcome(sol, err)
}

// lpOutcome turns a relaxation's Solution into an lpResult and counts its iterations.
func (s *search) lpOutcome(sol *solvers.Solution, err error) lpResult {
	if err != nil {
		s.logf("mip: LP relaxation: %v", err)
		return lpResult{status: solvers.NumericalError}
	}
	s.iters += sol.Iterations
	r := lpResult{status: sol.Status, basis: sol.Basis}
	if sol.Status == solvers.Optimal {
		r.obj, r.x, r.d = sol.Objective, sol.X, sol.ReducedCost
	}
	return r
}

// iterBudget caps an LP's iteration limit (0: none) by what Options.IterationLimit leaves;
// false means nothing is left.
func (s *search) iterBudget(iterLimit int) (int, bool) {
	if s.opt.IterationLimit <= 0 {
		return iterLimit, true
	}
	left := s.opt.IterationLimit - s.iters
	if left <= 0 {
		return 0, false
	}
	if iterLimit == 0 || left < iterLimit {
		iterLimit = left
	}
	return iterLimit, true
}

// solveSession is solveLP on the session.
func (s *search) solveSession(lo, up []float64, warm *solvers.Basis, iterLimit int) lpResult {
	iterLimit, ok := s.iterBudget(iterLimit)
	if !ok {
		return lpResult{status: solvers.IterationLimit}
	}
	if warm != nil && warm == s.sessBasis {
		warm = nil // the session holds it already
	}
	sol, err := s.sess.Solve(s.ctx, lo, up, warm, iterLimit)
	s.sessBasis = nil
	r := s.lpOutcome(sol, err)
	if r.status == solvers.Optimal {
		s.sessBasis = sol.Basis
	}
	return r
}

// cutoff is the objective value at or above which a node cannot improve the incumbent
// by more than the gap tolerance.
func (s *search) cutoff() float64 {
	if s.incumbent == nil {
		return math.Inf(1)
	}
	d := math.Max(s.absGap, s.relGap*math.Max(1, math.Abs(s.incObj)))
	if s.intObj {
		d = math.Max(d, 1-intObjSlack)
	}
	return s.incObj - d
}

// prune records the bound of a node pruned by bound.
func (s *search) prune(bound float64) {
	if s.intObj {
		// On integer points the objective is an integer.
		bound = math.Ceil(bound - intObjSlack)
	}
	s.pruned = math.Min(s.pruned, bound)
}

// bestBound is the least bound of any part of the search space not yet closed.
func (s *search) bestBound() float64 {
	b := math.Min(s.pruned, s.lost)
	for len(s.open) > 0 && s.open[0].done {
		heap.Pop(&s.open)
	}
	if len(s.open) > 0 {
		b = math.Min(b, s.open[0].bound)
	}
	if s.incumbent != nil {
		b = math.Min(b, s.incObj)
	}
	return b
}

// wobj is the working objective of x.
func (s *search) wobj(x []float64) float64 {
	v := 0.0
	for j, c := range s.w.ColCost {
		v += c * x[j]
	}
	return v
}

// fractional lists the integer columns of x that are not integral.
func (s *search) fractional(x []float64) []int {
	var out []int
	for j, v := range x {
		if s.isInt[j] && math.Abs(v-math.Round(v)) > s.intTol {
			out = append(out, j)
		}
	}
	return out
}

// limitReached checks the context and the node and iteration limits and records the
// status of a stop.
func (s *search) limitReached() bool {
	if s.stopped {
		return true
	}
	if err := s.ctx.Err(); err != nil {
		s.stop(ctxStatus(err))
		return true
	}
	if (s.sv.NodeLimit > 0 && s.nodes >= s.sv.NodeLimit) || (s.opt.IterationLimit > 0 && s.iters >= s.opt.IterationLimit) {
		s.stop(solvers.IterationLimit)
		return true
	}
	return false
}

func (s *search) stop(st solvers.Status) {
	if !s.stopped {
		s.stopped, s.status = true, st
	}
}

// lpStop records the stop of an LP that ended on a limit; it reports whether it did.
func (s *search) lpStop(st solvers.Status) bool {
	switch st {
	case solvers.TimeLimit, solvers.IterationLimit, solvers.Other:
		if s.ctx.Err() != nil {
			s.stop(ctxStatus(s.ctx.Err()))
			return true
		}
		if st == solvers.IterationLimit && s.opt.IterationLimit > 0 && s.iters >= s.opt.IterationLimit {
			s.stop(solvers.IterationLimit)
			return true
		}
	}
	return false
}

// run is the whole solve: presolve, root, cuts, heuristics, tree.
func (s *search) run() {
	for j := range s.lo {
		if s.isInt[j] {
			s.lo[j] = math.Ceil(s.lo[j] - s.intTol)
			s.up[j] = math.Floor(s.up[j] + s.intTol)
			if s.lo[j] > s.up[j] {
				s.status = solvers.Infeasible
				return
			}
		}
	}
	if !s.sv.NoPresolve {
		if !s.presolve() {
			s.logf("mip: presolve proved infeasibility")
			s.status = solvers.Infeasible
			return
		}
	}
	root := s.solveLP(s.lo, s.up, nil, 0)
	s.nodes++
	switch root.status {
	case solvers.Optimal:
	case solvers.Infeasible:
		s.status = solvers.Infeasible
		return
	case solvers.Unbounded:
		s.decideUnbounded()
		return
	default:
		if !s.lpStop(root.status) {
			s.status = root.status
		}
		// Nothing is known about the bound.
		s.push(&node{col: -1, bound: math.Inf(-1)})
		return
	}
	s.logf("mip: root LP %.10g after %d iterations", root.obj, s.iters)
	if !s.sv.NoCuts && len(s.fractional(root.x)) > 0 {
		root = s.cutRounds(root)
		if root.status == solvers.Infeasible {
			s.status = solvers.Infeasible
			return
		}
	}
	s.rootObj, s.rootX, s.rootD = root.obj, root.x, root.d
	if !s.sv.noSession {
		q := *s.w
		q.ColLower, q.ColUpper = s.lo, s.up
		if sess, err := simplex.NewSession(&q, solvers.Options{PrimalTol: s.opt.PrimalTol, DualTol: s.opt.DualTol}); err == nil {
			s.sess = sess
		}
	}
	if len(s.fractional(root.x)) == 0 {
		s.tryIncumbent(root.x)
	} else if !s.sv.NoHeuristics && !s.stopped {
		s.tryRounding(root.x, true)
		s.dive(root)
		if !s.sv.noSubMIP && !s.stopped {
			s.rens(root)
		}
	}
	if s.stopped {
		s.push(&node{col: -1, bound: root.obj})
		return
	}
	s.tree(&node{col: -1, pcCol: -1, bound: root.obj, basis: root.basis, lp: &root})
}

// decideUnbounded runs after an unbounded root LP: the MIP is unbounded if it has an
// integer point (rational data), which a search with zero costs finds or refutes.
func (s *search) decideUnbounded() {
	z := s.orig.Clone()
	clear(z.ColCost)
	sub := newSearch(s.ctx, z, s.sv, s.opt)
	sub.run()
	s.nodes += sub.nodes
	s.iters += sub.iters
	switch sub.status {
	case solvers.Optimal:
		s.status = solvers.Unbounded
	case solvers.Infeasible:
		s.status = solvers.Infeasible
	default:
		s.status = sub.status
		s.stopped = true
		s.push(&node{col: -1, bound: math.Inf(-1)})
	}
}

// node is a subproblem: its parent's bounds with one column's bounds changed.
type node struct {
	parent *node
	col    int     // the column whose bounds this node changes; −1 at the root
	lo, up float64 // its new bounds
	depth  int
	bound  float64 // a lower bound on the node's objective
	basis  *solvers.Basis
	seq    int
	// The branching that created the node, for the pseudo-costs.
	pcCol     int
	pcUp      bool
	pcDist    float64
	parentObj float64
	lp        *lpResult // already solved (the root)
	plunge    bool      // solved right after its parent: the session's basis is close
	done      bool      // taken from the open lists (see next)
	// tight are bounds that reduced-cost fixing derived from the node's LP; they hold in
	// its subtree.
	tight []colBound
}

// colBound is a bound change of one column.
type colBound struct {
	col    int
	lo, up float64
}

type nodeHeap []*node

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(a, b int) bool {
	if h[a].bound != h[b].bound {
		return h[a].bound < h[b].bound
	}
	if h[a].depth != h[b].depth {
		return h[a].depth > h[b].depth
	}
	return h[a].seq < h[b].seq
}
func (h nodeHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *nodeHeap) Push(x any)   { *h = append(*h, x.(*node)) }
func (h *nodeHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	*h = old[:len(old)-1]
	return n
}

func (s *search) push(n *node) {
	n.done = false
	n.seq = s.seq
	s.seq++
	heap.Push(&s.open, n)
}

// next picks the next open node: without an incumbent the most recent sibling left by a
// plunge (depth first, to find a feasible point), otherwise the one of least bound. A
// node taken from one list stays in the other marked done and is skipped there.
func (s *search) next() *node {
	if s.incumbent == nil {
		for len(s.siblings) > 0 {
			n := s.siblings[len(s.siblings)-1]
			s.siblings = s.siblings[:len(s.siblings)-1]
			if !n.done {
				n.done = true
				return n
			}
		}
	}
	s.siblings = s.siblings[:0]
	for len(s.open) > 0 {
		n := heap.Pop(&s.open).(*node)
		if !n.done {
			n.done = true
			return n
		}
	}
	return nil
}

// nodeBounds returns the global bounds intersected with the changes along n's path.
func (s *search) nodeBounds(n *node) ([]float64, []float64) {
	lo, up := slices.Clone(s.lo), slices.Clone(s.up)
	for a := n; a != nil; a = a.parent {
		if a.col >= 0 {
			lo[a.col] = math.Max(lo[a.col], a.lo)
			up[a.col] = math.Min(up[a.col], a.up)
		}
		for _, b := range a.tight {
			lo[b.col] = math.Max(lo[b.col], b.lo)
			up[b.col] = math.Min(up[b.col], b.up)
		}
	}
	return lo, up
}

// tree is the branch-and-bound loop: best bound with plunging.
func (s *search) tree(root *node) {
	cur := root
	for {
		if cur == nil {
			cur = s.next()
			if cur == nil {
				break
			}
		}
		if cur.bound >= s.cutoff() {
			s.prune(cur.bound)
			cur = nil
			continue
		}
		if s.limitReached() {
			s.push(cur)
			break
		}
		cur = s.process(cur)
		if s.stopped {
			if cur != nil {
				s.push(cur)
			}
			break
		}
		if s.opt.Verbose != nil && s.nodes%1000 == 0 {
			s.logf("mip: %d nodes, %d open, bound %.10g, incumbent %.10g", s.nodes, len(s.open), s.bestBound(), s.incObj)
		}
	}
	if !s.stopped {
		s.status = solvers.Optimal
		if s.incumbent == nil {
			s.status = solvers.Infeasible
		}
		if !math.IsInf(s.lost, 1) && s.lost < s.cutoff() {
			s.logf("mip: an LP failed at a node with bound %g; optimality not proven", s.lost)
			s.status = solvers.NumericalError
		}
	}
	s.logf("mip: %s after %d nodes, %d LP iterations; incumbent %.10g, bound %.10g", s.status, s.nodes, s.iters, s.incObj, s.bestBound())
}

// process solves node n and branches; it returns the child to plunge into, or nil.
func (s *search) process(n *node) *node {
	lo, up := s.nodeBounds(n)
	var r lpResult
	if n.lp != nil {
		r = *n.lp
		n.lp = nil
	} else {
		warm := n.basis
		if n.plunge && s.sess != nil {
			warm = nil // continue from the session's basis: its parent's or a sibling's
		}
		r = s.solveLP(lo, up, warm, 0)
		s.nodes++
		if r.status == solvers.NumericalError || r.status == solvers.Other && s.ctx.Err() == nil {
			r = s.solveLP(lo, up, nil, 0) // a cold start, in case the warm start misled it
		}
	}
	switch r.status {
	case solvers.Optimal:
	case solvers.Infeasible:
		return nil
	default:
		if s.lpStop(r.status) {
			return n
		}
		s.lost = math.Min(s.lost, n.bound)
		return nil
	}
	if n.pcCol >= 0 {
		s.pc.update(n.pcCol, n.pcUp, math.Max(0, r.obj-n.parentObj)/n.pcDist)
	}
	if r.obj >= s.cutoff() {
		s.prune(r.obj)
		return nil
	}
	frac := s.fractional(r.x)
	if len(frac) == 0 {
		if !s.tryIncumbent(r.x) {
			// Integral within tolerance but not feasible once rounded: branch on the
			// column farthest from its integer anyway would loop; close the node.
			s.lost = math.Min(s.lost, r.obj)
		}
		return nil
	}
	if !s.sv.NoHeuristics {
		s.tryRounding(r.x, false)
		if r.obj >= s.cutoff() {
			s.prune(r.obj)
			return nil
		}
	}
	n.tight = s.localFixing(lo, up, r)
	j, fix := s.selectBranch(lo, up, r, frac)
	switch {
	case fix == fixInfeasible:
		return nil
	case fix == fixStopped:
		return n
	case fix != nil:
		// Strong branching closed one side: continue in the node with the column fixed
		// to the other.
		c := &node{parent: n, col: j, lo: fix.lo, up: fix.up, depth: n.depth + 1, bound: math.Max(r.obj, fix.bound), basis: r.basis, pcCol: -1, plunge: true}
		return c
	}
	v := r.x[j]
	fl := math.Floor(v)
	down := &node{parent: n, col: j, lo: math.Inf(-1), up: fl, depth: n.depth + 1, bound: r.obj, basis: r.basis,
		pcCol: j, pcUp: false, pcDist: v - fl, parentObj: r.obj}
	upn := &node{parent: n, col: j, lo: fl + 1, up: math.Inf(1), depth: n.depth + 1, bound: r.obj, basis: r.basis,
		pcCol: j, pcUp: true, pcDist: fl + 1 - v, parentObj: r.obj}
	first, second := down, upn
	if v-fl >= 0.5 {
		first, second = upn, down
	}
	s.push(second)
	s.siblings = append(s.siblings, second)
	best := r.obj
	if len(s.open) > 0 {
		best = math.Min(best, s.open[0].bound)
	}
	if s.incumbent != nil && r.obj > best+plungeFraction*(s.incObj-best) {
		s.push(first)
		return nil
	}
	first.plunge = true
	return first
}

// tryIncumbent rounds the integer columns of an LP solution that is integral within
// tolerance, re-solves the continuous columns with the integers fixed, and keeps the
// point if it is feasible for the original problem and better than the incumbent.
func (s *search) tryIncumbent(x []float64) bool {
	xr := slices.Clone(x)
	for j := range xr {
		if s.isInt[j] {
			xr[j] = math.Round(xr[j]) + 0 // + 0 turns −0 into 0
		}
	}
	if s.hasCont {
		if xp := s.polish(xr); xp != nil {
			xr = xp
		}
	}
	if !s.feasible(xr, s.intTol) {
		return false
	}
	obj := s.wobj(xr)
	if s.incumbent == nil || obj < s.incObj {
		s.incumbent, s.incObj = xr, obj
		s.logf("mip: incumbent %.10g at node %d", obj, s.nodes)
		s.reducedCostFix()
	}
	return true
}

// polish solves the original problem's LP with the integer columns fixed at xr's values.
func (s *search) polish(xr []float64) []float64 {
	q := *s.orig
	q.Integrality = nil
	q.ColLower, q.ColUpper = slices.Clone(s.orig.ColLower), slices.Clone(s.orig.ColUpper)
	for j := range xr {
		if s.isInt[j] {
			q.ColLower[j], q.ColUpper[j] = xr[j], xr[j]
		}
	}
	sol, err := s.lp.Solve(s.ctx, &q, solvers.Options{PrimalTol: s.opt.PrimalTol, DualTol: s.opt.DualTol})
	if err != nil || sol.Status != solvers.Optimal {
		return nil
	}
	s.iters += sol.Iterations
	for j := range sol.X {
		if s.isInt[j] {
			sol.X[j] = xr[j]
		}
	}
	return sol.X
}

// feasible checks x against the original problem's bounds and rows, relative to
// max(1, |bound|).
func (s *search) feasible(x []float64, tol float64) bool {
	p := s.orig
	ok := func(v, lo, up float64) bool {
		return v >= lo-tol*math.Max(1, math.Abs(lo)) && v <= up+tol*math.Max(1, math.Abs(up))
	}
	for j, v := range x {
		if math.IsNaN(v) || !ok(v, p.ColLower[j], p.ColUpper[j]) {
			return false
		}
	}
	for i, a := range p.RowActivity(x) {
		if !ok(a, p.RowLower[i], p.RowUpper[i]) {
			return false
		}
	}
	return true
}

// localFixing is reduced-cost fixing at a node: with the node's LP bound z and reduced
// costs, an integer column at its lower bound l with d > 0 cannot exceed
// l + ⌊(cutoff − z)/d⌋ in the subtree without its bound passing the cutoff (and likewise
// at the upper bound).
func (s *search) localFixing(lo, up []float64, r lpResult) []colBound {
	if s.incumbent == nil || r.d == nil {
		return nil
	}
	room := s.cutoff() - r.obj
	if room < 0 {
		return nil
	}
	var out []colBound
	for j, d := range r.d {
		if !s.isInt[j] || math.Abs(d) <= 1e-7 || lo[j] == up[j] {
			continue
		}
		t := math.Floor(room/math.Abs(d) + 1e-9)
		switch {
		case d > 0 && r.x[j] == lo[j] && lo[j]+t < up[j]:
			out = append(out, colBound{j, lo[j], lo[j] + t})
		case d < 0 && r.x[j] == up[j] && up[j]-t > lo[j]:
			out = append(out, colBound{j, up[j] - t, up[j]})
		}
	}
	return out
}

// reducedCostFix tightens the global bounds of integer columns with the root LP's
// reduced costs: moving column j by t from the bound it sits at raises the LP bound by at
// least |d_j|·t, which must stay below the incumbent.
func (s *search) reducedCostFix() {
	if s.rootX == nil || s.rootD == nil || s.incumbent == nil {
		return
	}
	room := s.incObj - s.rootObj
	if s.intObj {
		room = s.incObj - 1 + intObjSlack - s.rootObj
	}
	if room < 0 {
		room = 0
	}
	fixed := 0
	for j, d := range s.rootD {
		if !s.isInt[j] || math.Abs(d) <= 1e-7 {
			continue
		}
		x := s.rootX[j]
		t := math.Floor(room/math.Abs(d) + 1e-9)
		switch {
		case d > 0 && x == s.lo[j] && s.lo[j]+t < s.up[j]:
			s.up[j] = s.lo[j] + t
			fixed++
		case d < 0 && x == s.up[j] && s.up[j]-t > s.lo[j]:
			s.lo[j] = s.up[j] - t
			fixed++
		}
	}
	if fixed > 0 {
		s.logf("mip: reduced-cost fixing tightened %d columns", fixed)
	}
}
