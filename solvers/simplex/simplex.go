package simplex

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"
)

// lpData is the LP the simplex method works on, after presolve and scaling:
//
//	minimize cᵀz  subject to  [A I] z = 0,  lower ≤ z ≤ upper
//
// where z = (x, s) holds the n structural variables and the m logicals; logical i is the
// negated activity of row i, so its bounds are [−rowUpper_i, −rowLower_i] (HiGHS's
// convention: the logical columns form an identity and a slack basis is B = I).
type lpData struct {
	m, n  int
	a     sparseMatrix // CSC, m×n
	ar    sparseMatrix // CSR copy of a: start per row, index = column
	cost  []float64    // n+m; logicals cost 0
	lower []float64    // n+m
	upper []float64    // n+m
}

// buildRowCopy fills lp.ar from lp.a.
func (lp *lpData) buildRowCopy() {
	m := lp.m
	start := make([]int, m+1)
	for _, i := range lp.a.index {
		start[i+1]++
	}
	for i := 0; i < m; i++ {
		start[i+1] += start[i]
	}
	next := make([]int, m)
	copy(next, start[:m])
	idx := make([]int, len(lp.a.index))
	val := make([]float64, len(lp.a.index))
	for j := 0; j < lp.n; j++ {
		for p := lp.a.start[j]; p < lp.a.start[j+1]; p++ {
			i := lp.a.index[p]
			idx[next[i]] = j
			val[next[i]] = lp.a.value[p]
			next[i]++
		}
	}
	lp.ar = sparseMatrix{start: start, index: idx, value: val}
}

// workVec is a dense vector with a list of its nonzero positions.
type workVec struct {
	val []float64
	idx []int
}

func newWorkVec(n int) workVec { return workVec{val: make([]float64, n), idx: make([]int, 0, n)} }

func (v *workVec) clearAll() {
	if len(v.idx)*4 < len(v.val) {
		for _, i := range v.idx {
			v.val[i] = 0
		}
	} else {
		clear(v.val)
	}
	v.idx = v.idx[:0]
}

// add accumulates x into entry i, recording i in idx the first time (mark tracks
// membership; the caller clears it).
func (v *workVec) add(i int, x float64, mark []bool) {
	if !mark[i] {
		mark[i] = true
		v.idx = append(v.idx, i)
	}
	v.val[i] += x
}

// compact clears the marks of idx and drops entries that are (numerically) zero.
func (v *workVec) compact(mark []bool) {
	k := 0
	for _, i := range v.idx {
		mark[i] = false
		x := v.val[i]
		if math.Abs(x) <= luDropTol {
			v.val[i] = 0
			continue
		}
		v.idx[k] = i
		k++
	}
	v.idx = v.idx[:k]
}

// collect rebuilds idx from val, flushing values below the drop tolerance to zero.
//
// Dense results are often about half nonzero, where a branch on each entry mispredicts
// half the time: every index and value is written and only the count depends on the
// entry (conditional moves; a −0 is stored as +0). dfl001 took 11.1 s instead of
// 11.9–12.8 (two runs each, interleaved).
func (v *workVec) collect() {
	val := v.val
	idx := v.idx[:len(val)] // cap(idx) ≥ len(val): see newWorkVec
	k := 0
	for i, x := range val {
		idx[k] = i
		b := math.Float64bits(x)
		if math.Abs(x) <= luDropTol { // NaN is kept, as a nonzero
			b = 0
		}
		val[i] = math.Float64frombits(b)
		if b != 0 {
			k++
		}
	}
	v.idx = idx[:k]
}

// outcome of one simplex phase.
type outcome int

const (
	outOptimal      outcome = iota // no (primal or dual) infeasibility left for this phase
	outInfeasible                  // dual unbounded: the primal has no feasible point
	outUnbounded                   // primal unbounded ray
	outDualInfeas                  // dual phase 1 could not reach dual feasibility
	outIterLimit                   //
	outTimeLimit                   //
	outCancelled                   //
	outNumerical                   //
	outPrimalInfeas                // primal phase saw primal infeasibility (back to dual)
)

// settings are the tolerances and limits of one solve.
type settings struct {
	primalTol, dualTol float64
	iterLimit          int
	deadline           time.Time // zero: none
	ctx                context.Context
	verbose            io.Writer
	seed               uint64
	noDoubletons       bool // skip presolve's second stage (doubleton equations)
	noColumnStage      bool // skip its third (implied-free singletons, dominated columns)
}

func (set settings) logf(format string, args ...any) {
	if set.verbose != nil {
		fmt.Fprintf(set.verbose, format+"\n", args...)
	}
}

// Tolerances and schedule.
const (
	pivotTolerance   = 1e-9  // |α| below this does not pivot, unless nothing else can
	tinyPivot        = 1e-14 // the last resort before a dual ray is declared
	stabilityTol     = 1e-7  // relative mismatch of the pivot from the row and the column
	refactorInterval = 100   // updates between factorizations
	perturbBase      = 5e-7  // cost perturbation, relative to 1+|c_j|
	phase1Free       = 1000. // box given to free variables in the dual phase-1 subproblem
)

// simplex is the state of the bounded revised simplex method on an lpData.
type simplex struct {
	lp       *lpData
	m, n, nt int
	set      settings

	cost, lower, upper []float64 // working copies (perturbed costs, phase-1 bounds)
	x                  []float64 // values of nonbasic variables
	d                  []float64 // reduced costs (0 for basic variables)
	y                  []float64 // row duals of the last computeDual
	basic              []int     // variable at each basis position
	pos                []int     // position of each variable, −1 when nonbasic
	move               []int8    // +1 at lower, −1 at upper, moveFree, 0 for fixed and basic
	xB, lB, uB         []float64 // basic values and bounds by position
	w                  []float64 // dual steepest-edge weights by position
	loThr, hiThr       []float64 // by position: lB − thrTol·pL and uB + thrTol·pU (see chuzr)
	thrTol             float64   // the primal tolerance loThr and hiThr are for

	lu            luFactor
	col, row, tau workVec // m-vectors
	flip          workVec
	alpha         workVec // pivotal row over all n+m variables
	cands         []cand
	dv            []float64 // primal Devex weights
	taboo         []bool    // variables barred from entering until the next refactorization
	tabooList     []int

	scratch                             []int
	phase1                              bool             // the dual simplex runs on the phase-1 subproblem
	forceRefactor                       bool             // the last update failed its stability check
	fresh                               bool             // primal and dual values were computed from scratch since the last change
	fL, fU                              []float64        // per variable: its bounds' feasibility tolerance is primalTol·fL, primalTol·fU
	pL, pU                              []float64        // fL and fU of the basic variables, by position
	recent                              [64]recentChange // last basis changes, to detect cycling
	recentPos                           int
	inPrimal                            bool // the primal simplex runs (its objective decreases)
	cycling                             bool // the last basis change repeated a recent one twice
	cycleEvents                         int
	perturbScale                        float64 // multiplies the cost perturbation (raised to escape cycling)
	phase1Check                         int     // iterations between checks for dual feasibility in phase 1
	iters                               int
	densCol, densRow, densTau, densFlip float64
	perturbed                           bool // working costs differ from lp.cost
	rng                                 *rand.Rand
	invertions                          int
	keepFactor                          bool // run may skip the first refactorization (see run)
	coldStart                           bool // the solve starts from the slack basis (see run)
	primalIters                         int  // the iterations of the primal simplex, of iters
}

// recentChange records a basis change for the cycling detector; obj is the objective
// before it, recorded only for a change that had already happened recently.
type recentChange struct {
	key    uint64
	obj    float64
	hasObj bool
}

// moveFree marks a nonbasic free variable (it may move either way).
const moveFree int8 = 2

type cand struct {
	j     int
	ratio float64
	alpha float64 // |α_rj|
}

func newSimplex(lp *lpData, set settings) *simplex {
	m, n := lp.m, lp.n
	nt := n + m
	s := &simplex{
		lp: lp, m: m, n: n, nt: nt, set: set,
		cost:         append([]float64(nil), lp.cost...),
		lower:        append([]float64(nil), lp.lower...),
		upper:        append([]float64(nil), lp.upper...),
		x:            make([]float64, nt),
		d:            make([]float64, nt),
		y:            make([]float64, m),
		basic:        make([]int, m),
		pos:          make([]int, nt),
		move:         make([]int8, nt),
		xB:           make([]float64, m),
		lB:           make([]float64, m),
		uB:           make([]float64, m),
		w:            make([]float64, m),
		loThr:        make([]float64, m),
		hiThr:        make([]float64, m),
		thrTol:       set.primalTol,
		col:          newWorkVec(m),
		row:          newWorkVec(m),
		tau:          newWorkVec(m),
		flip:         newWorkVec(m),
		alpha:        newWorkVec(nt),
		taboo:        make([]bool, nt),
		scratch:      make([]int, m),
		rng:          rand.New(rand.NewPCG(set.seed, 0x5eed)),
		perturbScale: 1,
	}
	s.fL = make([]float64, nt)
	s.fU = make([]float64, nt)
	s.pL = make([]float64, m)
	s.pU = make([]float64, m)
	for j := 0; j < nt; j++ {
		s.fL[j], s.fU[j] = boundScale(lp.lower[j]), boundScale(lp.upper[j])
	}
	return s
}

// boundScale is max(1, |b|) (1 for an infinite bound): the feasibility tolerance of
// bound b is primalTol times it.
func boundScale(b float64) float64 {
	if math.IsInf(b, 0) {
		return 1
	}
	return math.Max(1, math.Abs(b))
}

// setPos records variable v at basis position p with its bounds and tolerances.
func (s *simplex) setPos(p, v int) {
	s.basic[p] = v
	s.pos[v] = p
	s.lB[p], s.uB[p] = s.lower[v], s.upper[v]
	s.pL[p], s.pU[p] = s.fL[v], s.fU[v]
	s.setThresholds(p)
}

// setThresholds sets CHUZR's bounds beyond the tolerance for position p, with the
// tolerance they are kept for (thrTol; chuzr recomputes them all when it changes).
func (s *simplex) setThresholds(p int) {
	s.loThr[p] = s.lB[p] - s.thrTol*s.pL[p]
	s.hiThr[p] = s.uB[p] + s.thrTol*s.pU[p]
}

// setSlackBasis makes every logical basic and puts each structural at a bound.
func (s *simplex) setSlackBasis() {
	for j := 0; j < s.n; j++ {
		s.pos[j] = -1
		s.placeNonbasic(j, 0)
	}
	for i := 0; i < s.m; i++ {
		s.basic[i] = s.n + i
		s.pos[s.n+i] = i
		s.move[s.n+i] = 0
		s.w[i] = 1
	}
}

// placeNonbasic puts nonbasic variable j at the bound suggested by its reduced cost dj
// (lower when dj ≥ 0) when it has both, else at its only bound, else at zero.
func (s *simplex) placeNonbasic(j int, dj float64) {
	lo, up := s.lower[j], s.upper[j]
	switch {
	case lo == up:
		s.x[j], s.move[j] = lo, 0
	case !math.IsInf(lo, -1) && (math.IsInf(up, 1) || dj >= 0):
		s.x[j], s.move[j] = lo, 1
	case !math.IsInf(up, 1):
		s.x[j], s.move[j] = up, -1
	default:
		s.x[j], s.move[j] = 0, moveFree
	}
}

// placeNonbasicNear puts nonbasic variable j at the bound nearest to v.
func (s *simplex) placeNonbasicNear(j int, v float64) {
	lo, up := s.lower[j], s.upper[j]
	switch {
	case lo == up:
		s.x[j], s.move[j] = lo, 0
	case math.IsInf(lo, -1) && math.IsInf(up, 1):
		s.x[j], s.move[j] = 0, moveFree
	case math.IsInf(up, 1) || (!math.IsInf(lo, -1) && v-lo <= up-v):
		s.x[j], s.move[j] = lo, 1
	default:
		s.x[j], s.move[j] = up, -1
	}
}

func (s *simplex) isBoxed(j int) bool {
	return !math.IsInf(s.lower[j], -1) && !math.IsInf(s.upper[j], 1)
}

// invert refactorizes the basis, repairs singularity by swapping in logicals, and
// permutes the basis so that positions equal pivot rows. It returns the number of
// columns replaced.
func (s *simplex) invert() int {
	s.invertions++
	s.forceRefactor = false
	k := s.lu.factorize(s.m, s.n, &s.lp.a, s.basic)
	for t, p := range s.lu.singularPos {
		old := s.basic[p]
		nv := s.n + s.lu.singularRow[t]
		s.pos[old] = -1
		s.placeNonbasicNear(old, s.xB[p])
		s.d[old] = 0
		s.basic[p] = nv
		s.pos[nv] = p
		s.move[nv] = 0
		s.d[nv] = 0
		s.w[p] = 1
	}
	// Permute by rowOfPos: the variable factorized at old position k goes to its row.
	perm := s.lu.rowOfPos
	tmpI := s.scratch
	copy(tmpI, s.basic)
	for k, v := range tmpI {
		s.basic[perm[k]] = v
	}
	permuteFloats(s.xB, perm, s.col.val)
	permuteFloats(s.w, perm, s.col.val)
	clear(s.col.val)
	for p, v := range s.basic {
		s.setPos(p, v)
	}
	for _, j := range s.tabooList {
		s.taboo[j] = false
	}
	s.tabooList = s.tabooList[:0]
	return k
}

func permuteFloats(v []float64, perm []int, tmp []float64) {
	copy(tmp, v)
	for k := range v {
		v[perm[k]] = tmp[k]
	}
}

// computePrimal sets the basic values from the nonbasic ones: B x_B = −N x_N.
func (s *simplex) computePrimal() {
	rhs := s.col.val
	clear(rhs)
	a := &s.lp.a
	for j := 0; j < s.nt; j++ {
		if s.pos[j] >= 0 {
			continue
		}
		v := s.x[j]
		if v == 0 {
			continue
		}
		if j < s.n {
			for p := a.start[j]; p < a.start[j+1]; p++ {
				rhs[a.index[p]] -= a.value[p] * v
			}
		} else {
			rhs[j-s.n] -= v
		}
	}
	s.lu.ftran(rhs, false)
	copy(s.xB, rhs)
	clear(rhs)
	s.col.idx = s.col.idx[:0]
}

// computeDual sets y = B⁻ᵀc_B and the reduced costs d = c − [A I]ᵀy.
func (s *simplex) computeDual() {
	for p, v := range s.basic {
		s.y[p] = s.cost[v]
	}
	s.lu.btran(s.y)
	a := &s.lp.a
	for j := 0; j < s.n; j++ {
		if s.pos[j] >= 0 {
			s.d[j] = 0
			continue
		}
		dj := s.cost[j]
		for p := a.start[j]; p < a.start[j+1]; p++ {
			dj -= a.value[p] * s.y[a.index[p]]
		}
		s.d[j] = dj
	}
	for i := 0; i < s.m; i++ {
		j := s.n + i
		if s.pos[j] >= 0 {
			s.d[j] = 0
		} else {
			s.d[j] = s.cost[j] - s.y[i]
		}
	}
}

// refine improves the final primal and dual values by one step of iterative refinement:
// the residuals of B x_B = −N x_N and Bᵀy = c_B, computed from the original matrix, are
// solved with the factors and added. (Badly scaled bases lose digits in one solve; the
// refinement gets most of them back.) The reduced costs are recomputed from the new y.
func (s *simplex) refine() {
	a := &s.lp.a
	// Primal residual, by row: −(Σ_j a_ij z_j + z_{n+i}).
	r := s.col.val
	clear(r)
	for j := 0; j < s.nt; j++ {
		v := s.x[j]
		if p := s.pos[j]; p >= 0 {
			v = s.xB[p]
		}
		if v == 0 {
			continue
		}
		if j < s.n {
			for k := a.start[j]; k < a.start[j+1]; k++ {
				r[a.index[k]] -= a.value[k] * v
			}
		} else {
			r[j-s.n] -= v
		}
	}
	s.lu.ftran(r, false)
	for p := range s.xB {
		s.xB[p] += r[p]
	}
	clear(r)
	// Dual residual, by position: c_B − Bᵀy.
	for p, v := range s.basic {
		rv := s.cost[v]
		if v < s.n {
			for k := a.start[v]; k < a.start[v+1]; k++ {
				rv -= a.value[k] * s.y[a.index[k]]
			}
		} else {
			rv -= s.y[v-s.n]
		}
		r[p] = rv
	}
	s.lu.btran(r)
	for i := range s.y {
		s.y[i] += r[i]
	}
	clear(r)
	s.col.idx = s.col.idx[:0]
	for j := 0; j < s.n; j++ {
		if s.pos[j] >= 0 {
			continue
		}
		dj := s.cost[j]
		for k := a.start[j]; k < a.start[j+1]; k++ {
			dj -= a.value[k] * s.y[a.index[k]]
		}
		s.d[j] = dj
	}
	for i := 0; i < s.m; i++ {
		if j := s.n + i; s.pos[j] < 0 {
			s.d[j] = s.cost[j] - s.y[i]
		}
	}
}

// refresh refactorizes and recomputes primal and dual values from scratch.
func (s *simplex) refresh() {
	s.invert()
	s.computePrimal()
	s.computeDual()
	s.fresh = true
}

// freshUpdates is how many updates recompute tolerates before it refactorizes: below it,
// values recomputed through the updated factors are as good as through new ones.
const freshUpdates = 20

// recompute recomputes the primal and dual values from scratch, refactorizing first when
// many updates have accumulated.
func (s *simplex) recompute() {
	if s.lu.numUpdates() > freshUpdates || s.forceRefactor {
		s.refresh()
		return
	}
	s.computePrimal()
	s.computeDual()
	s.fresh = true
}

// primalInfeasibility returns the number of basic variables outside their bounds by more
// than the tolerance, and the largest violation.
func (s *simplex) primalInfeasibility() (int, float64) {
	cnt, mx := 0, 0.0
	tol := s.set.primalTol
	for p := 0; p < s.m; p++ {
		v := s.xB[p]
		var e float64
		if lb := s.lB[p]; v < lb-tol*s.pL[p] {
			e = lb - v
		} else if ub := s.uB[p]; v > ub+tol*s.pU[p] {
			e = v - ub
		} else {
			continue
		}
		cnt++
		mx = math.Max(mx, e)
	}
	return cnt, mx
}

// dualInfeasibility counts nonbasic variables whose reduced cost has the wrong sign for
// their position, separately for boxed variables (which a bound flip repairs) and the
// others, and returns the largest violation.
func (s *simplex) dualInfeasibility() (boxed, other int, mx float64) {
	tol := s.set.dualTol
	for j := 0; j < s.nt; j++ {
		if s.pos[j] >= 0 || s.lower[j] == s.upper[j] {
			continue
		}
		dj := s.d[j]
		var e float64
		switch s.move[j] {
		case 1:
			e = -dj
		case -1:
			e = dj
		case moveFree:
			e = math.Abs(dj)
		}
		if e <= tol {
			continue
		}
		if s.isBoxed(j) {
			boxed++
		} else {
			other++
		}
		mx = math.Max(mx, e)
	}
	return boxed, other, mx
}

// flipToDualFeasible moves boxed nonbasic variables to the bound their reduced cost asks
// for; it reports whether any moved (the caller recomputes the primal values).
func (s *simplex) flipToDualFeasible() bool {
	tol := s.set.dualTol
	changed := false
	for j := 0; j < s.nt; j++ {
		if s.pos[j] >= 0 || !s.isBoxed(j) || s.lower[j] == s.upper[j] {
			continue
		}
		if s.move[j] == 1 && s.d[j] < -tol {
			s.x[j], s.move[j] = s.upper[j], -1
			changed = true
		} else if s.move[j] == -1 && s.d[j] > tol {
			s.x[j], s.move[j] = s.lower[j], 1
			changed = true
		}
	}
	return changed
}

// correctDual restores dual feasibility after a recomputation: boxed variables flip,
// others get their cost shifted so that the reduced cost is zero. Reports whether any
// flip happened.
func (s *simplex) correctDual() bool {
	tol := s.set.dualTol
	flipped := false
	for j := 0; j < s.nt; j++ {
		if s.pos[j] >= 0 || s.lower[j] == s.upper[j] {
			continue
		}
		dj := s.d[j]
		bad := false
		switch s.move[j] {
		case 1:
			bad = dj < -tol
		case -1:
			bad = dj > tol
		case moveFree:
			bad = math.Abs(dj) > tol
		}
		if !bad {
			continue
		}
		if s.isBoxed(j) {
			if s.move[j] == 1 {
				s.x[j], s.move[j] = s.upper[j], -1
			} else {
				s.x[j], s.move[j] = s.lower[j], 1
			}
			flipped = true
			continue
		}
		s.cost[j] -= dj
		s.d[j] = 0
		s.perturbed = true
	}
	return flipped
}

// maxCycleRecoveries bounds how often a phase may restart after cycling was detected
// before it gives up with a numerical error.
const maxCycleRecoveries = 4

// recoverFromCycling reacts to a basis change that repeated one made twice within the
// last 64 iterations (which in exact arithmetic the perturbed dual simplex cannot do, so
// numerical error drives it): the costs get a fresh perturbation ten times stronger each
// time, which changes the path. It reports false when the recoveries are used up.
func (s *simplex) recoverFromCycling() bool {
	s.cycling = false
	s.recent = [64]recentChange{}
	s.cycleEvents++
	if s.cycleEvents > maxCycleRecoveries {
		return false
	}
	s.logf("cycling detected at iteration %d: perturbing the costs again", s.iters)
	s.perturbScale = math.Pow(10, float64(s.cycleEvents))
	s.perturbCosts()
	s.perturbScale = 1
	s.refreshDual()
	return true
}

// perturbCosts adds small random amounts to the costs in the direction that keeps the
// current nonbasic positions dual feasible, so that dual degenerate ties break and the
// dual simplex does not stall or cycle (Koberstein §6.2; the perturbation is removed and
// cleaned up with the primal simplex at the end).
func (s *simplex) perturbCosts() {
	// Scale with the costs (HiGHS's rule: the largest cost, damped by a fourth root when
	// above 100); logicals are not perturbed.
	maxCost := 0.0
	for j := 0; j < s.n; j++ {
		if s.lower[j] != s.upper[j] {
			maxCost = math.Max(maxCost, math.Abs(s.cost[j]))
		}
	}
	if maxCost > 100 {
		maxCost = math.Sqrt(math.Sqrt(maxCost))
	}
	base := perturbBase * math.Max(maxCost, 1e-3) * s.perturbScale
	for j := 0; j < s.n; j++ {
		lo, up := s.lower[j], s.upper[j]
		if lo == up {
			continue
		}
		c := s.cost[j]
		p := base * (1 + math.Abs(c)) * (1 + s.rng.Float64())
		loInf, upInf := math.IsInf(lo, -1), math.IsInf(up, 1)
		switch {
		case loInf && upInf:
			continue
		case upInf:
			s.cost[j] += p
		case loInf:
			s.cost[j] -= p
		default:
			if s.pos[j] < 0 && s.move[j] == -1 {
				s.cost[j] -= p
			} else if s.pos[j] < 0 {
				s.cost[j] += p
			} else if c >= 0 {
				s.cost[j] += p
			} else {
				s.cost[j] -= p
			}
		}
	}
	s.perturbed = true
}

// restoreCosts removes perturbation and shifts.
func (s *simplex) restoreCosts() {
	copy(s.cost, s.lp.cost)
	s.perturbed = false
}

// checkLimits reports a limit outcome, or −1 to continue.
func (s *simplex) checkLimits() outcome {
	if s.set.iterLimit > 0 && s.iters >= s.set.iterLimit {
		return outIterLimit
	}
	// A safety net against a solve that never ends (stalling without repeating a basis
	// change): far beyond what any LP of this size needs.
	if s.iters >= 50*s.nt+100000 {
		s.logf("giving up after %d iterations", s.iters)
		return outNumerical
	}
	if s.iters&15 != 0 {
		return -1
	}
	if s.set.ctx != nil {
		if err := s.set.ctx.Err(); err != nil {
			if err == context.DeadlineExceeded {
				return outTimeLimit
			}
			return outCancelled
		}
	}
	if !s.set.deadline.IsZero() && time.Now().After(s.set.deadline) {
		return outTimeLimit
	}
	return -1
}

func (s *simplex) logf(format string, args ...any) {
	if s.set.verbose != nil {
		fmt.Fprintf(s.set.verbose, format+"\n", args...)
	}
}

// objective is cᵀz with the working costs.
func (s *simplex) objective() float64 {
	z := 0.0
	for j := 0; j < s.nt; j++ {
		if s.pos[j] < 0 {
			z += s.cost[j] * s.x[j]
		}
	}
	for p, v := range s.basic {
		z += s.cost[v] * s.xB[p]
	}
	return z
}

// loadColumn scatters column j of [A I] into v (cleared first).
func (s *simplex) loadColumn(j int, v *workVec) {
	v.clearAll()
	if j >= s.n {
		v.val[j-s.n] = 1
		v.idx = append(v.idx, j-s.n)
		return
	}
	a := &s.lp.a
	for p := a.start[j]; p < a.start[j+1]; p++ {
		v.val[a.index[p]] = a.value[p]
		v.idx = append(v.idx, a.index[p])
	}
}

// ftranColumn sets s.col = B⁻¹ a_j.
func (s *simplex) ftranColumn(j int) {
	s.loadColumn(j, &s.col)
	s.lu.ftranVec(&s.col, s.densCol, true)
	s.densCol = updateDensity(s.densCol, len(s.col.idx), s.m)
}

// btranUnit sets s.row = B⁻ᵀ e_r.
func (s *simplex) btranUnit(r int) {
	s.row.clearAll()
	s.row.val[r] = 1
	s.row.idx = append(s.row.idx, r)
	s.lu.btranVec(&s.row, s.densRow)
	s.densRow = updateDensity(s.densRow, len(s.row.idx), s.m)
}

// updateDensity is a running average of result densities, which decides between the
// dense and the hyper-sparse solves.
func updateDensity(d float64, nnz, m int) float64 {
	if m == 0 {
		return d
	}
	return 0.95*d + 0.05*float64(nnz)/float64(m)
}

// price computes the pivotal row α_r = ρᵀ[A I] over the nonbasic variables into s.alpha,
// row-wise when ρ is sparse and column-wise otherwise.
func (s *simplex) price(rho *workVec) {
	al := &s.alpha
	val := al.val
	for _, j := range al.idx {
		val[j] = 0
	}
	idx := al.idx[:0]
	ar := &s.lp.ar
	work := 0
	for _, i := range rho.idx {
		work += ar.start[i+1] - ar.start[i]
	}
	if work*3 < len(s.lp.a.index) {
		// Row-wise: a touched entry is never left at exactly zero (a cancellation leaves
		// a tiny value instead), so val[j] == 0 means "not yet in the index".
		for _, i := range rho.idx {
			ri := *elem(rho.val, i)
			a, b := ar.start[i], ar.start[i+1]
			index, value := ar.index[a:b], ar.value[a:b]
			value = value[:len(index)]
			for p, j := range index {
				vj := elem(val, j)
				v := *vj
				if v == 0 {
					idx = append(idx, j)
				}
				v += ri * value[p]
				if v == 0 {
					v = tinyValue
				}
				*vj = v
			}
		}
	} else {
		a := &s.lp.a
		rv := rho.val
		for j := 0; j < s.n; j++ {
			if s.move[j] == 0 {
				continue // basic or fixed: never priced
			}
			v := 0.0
			lo, hi := a.start[j], a.start[j+1]
			index, value := a.index[lo:hi], a.value[lo:hi]
			value = value[:len(index)]
			for p, i := range index {
				v += value[p] * *elem(rv, i)
			}
			if v != 0 {
				val[j] = v
				idx = append(idx, j)
			}
		}
	}
	for _, i := range rho.idx {
		j := s.n + i
		if val[j] == 0 {
			idx = append(idx, j)
		}
		val[j] = rho.val[i]
	}
	al.idx = idx
}

// tinyValue stands for an exact zero produced by cancellation in a sparse accumulation.
const tinyValue = 1e-100

// basisChange makes q basic at position r; the leaving variable becomes nonbasic at
// value xLeave (a bound) and gets reduced cost dLeave.
func (s *simplex) basisChange(r, q int, xq, xLeave, dLeave float64) {
	leave := s.basic[r]
	s.fresh = false
	// Cycling: the same basis change again, with the objective not better than the last
	// time it repeated. Degenerate but progressing runs repeat changes too; only the
	// objective tells them apart, and it is computed only for repeats.
	key := uint64(leave)<<32 | uint64(q) + 1
	seen := false
	var prev *recentChange
	for k := range s.recent {
		if e := &s.recent[k]; e.key == key {
			seen = true
			if e.hasObj {
				prev = e
			}
		}
	}
	entry := recentChange{key: key}
	if seen {
		entry.obj, entry.hasObj = s.objective(), true
		if prev != nil {
			gain := entry.obj - prev.obj // the dual simplex raises the objective
			if s.inPrimal {
				gain = -gain
			}
			if gain <= 1e-9*(1+math.Abs(entry.obj)) {
				s.cycling = true
			}
		}
	}
	s.recent[s.recentPos] = entry
	s.recentPos = (s.recentPos + 1) % len(s.recent)
	if !s.lu.update(r, s.col.val[r]) {
		s.forceRefactor = true
	}
	s.move[q] = 0
	s.pos[leave] = -1
	s.setPos(r, q)
	s.xB[r] = xq
	s.d[q] = 0
	s.d[leave] = dLeave
	lo, up := s.lower[leave], s.upper[leave]
	switch {
	case lo == up:
		s.x[leave], s.move[leave] = lo, 0
	case xLeave == lo:
		s.x[leave], s.move[leave] = lo, 1
	case xLeave == up:
		s.x[leave], s.move[leave] = up, -1
	default: // a free variable: nonbasic where it is
		s.x[leave], s.move[leave] = xLeave, moveFree
	}
}

func (s *simplex) needRefactor() bool {
	if s.forceRefactor {
		return true
	}
	u := s.lu.numUpdates()
	return u >= refactorInterval || (u > 10 && float64(s.lu.etaNonzeros()) > 2*float64(s.lu.luNonzeros+s.m))
}

func (s *simplex) setTaboo(j int) {
	if !s.taboo[j] {
		s.taboo[j] = true
		s.tabooList = append(s.tabooList, j)
	}
}
