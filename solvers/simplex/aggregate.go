package simplex

import (
	"math"
	"slices"

	"github.com/coraopt/coraopt/solvers"
)

// Presolve's fourth stage, the aggregator: a short equation a_i·x = r whose column k is
// implied free — its rows, each with the bounds of its other columns, keep x_k within
// x_k's own bounds — determines x_k = (r − Σ_{j≠k} a_ij·x_j)/a_ik. x_k is substituted out
// of its other rows and the objective and leaves the problem with the row; its bounds
// need no transfer because the remaining rows still imply them (the bounds used are those
// of columns still in the problem, whose own bounds hold for the same reason). This is Gaussian elimination on the equation
// rows, limited to short rows and short columns so the fill stays small. The doubleton
// stage covers two-entry equations whose column is not implied free (it moves the bounds);
// this one covers longer ones, such as stocfor2's three-entry balance equations that
// HiGHS's presolve removes in bulk and ours left to the simplex.
//
// Substitution keeps every other column's reduced cost: with row l' = row l −
// (a_lk/a_ik)·row i and c' = c − (c_k/a_ik)·row i, d'_j = d_j once row i's dual is
// y_i = (c_k − Σ_{l≠i} a_lk·y_l)/a_ik, which makes d_k = 0. So postsolve sets x_k from the
// row, makes it basic, the row nonbasic at its (equal) bounds with that dual.

// Aggregator parameters.
const (
	// aggMaxRow: an equation with more entries is not used (each entry is fill in every
	// other row of the eliminated column).
	aggMaxRow = 8
	// aggMaxCol: a column with more entries is not eliminated.
	aggMaxCol = 10
	// aggPivotRel: the pivot must be at least this fraction of the row's largest entry,
	// so that x_k's postsolve and the substituted coefficients carry no large multiple of
	// the other columns' errors.
	aggPivotRel = 0.1
	// aggDrop: a substituted coefficient below this fraction of the terms it came from is
	// cancellation and is dropped.
	aggDrop = 1e-11
	// aggImpliedMargin: how far inside x_k's own bounds (relative) a bound implied by a
	// row other than the equation must lie to count (see aggregate).
	aggImpliedMargin = 1e-6
)

// aggOp records one substitution: row i, column k with pivot a, right-hand side r,
// the row's other entries (entry.row holds the column), the column's other entries and
// x_k's cost at the time.
type aggOp struct {
	i, k     int
	a, r, c  float64
	rowOther []entry
	colOther []entry
	// slack: k was a column singleton of the equation, which stays as an inequality
	// (see slackSingletons); colOther is then empty.
	slack bool
}

// aggStage is the result of the aggregator on a reducedLP.
type aggStage struct {
	in, out        *reducedLP
	colMap, rowMap []int // out index → in index
	ops            []aggOp
	substituted    int // implied-free columns substituted with their equations
	slacks         int // column singletons of equations turned into the row's range
	// den for the rows whose range came from a slack's bounds (input row index): a
	// violation e of that side is a violation e/|a_k| of the slack's bound, so the side
	// carries the slack's tolerance magnitude times |a_k| (see solveLP).
	denLo, denUp map[int]float64
}

// sparseLists holds a matrix as row and column entry lists that substitutions edit in
// place (entry.row is the column in a row's list). Lists keep a deterministic order —
// built in index order, fill appended — so every sum runs the same way each time (same
// seed, same bytes).
type sparseLists struct {
	rows, cols [][]entry
}

func (s *sparseLists) get(i, j int) (float64, int) {
	for t, e := range s.rows[i] {
		if e.row == j {
			return e.val, t
		}
	}
	return 0, -1
}

// set stores a_ij = v (v ≠ 0), adding the entry when it is new.
func (s *sparseLists) set(i, j int, v float64) {
	if _, t := s.get(i, j); t >= 0 {
		s.rows[i][t].val = v
		for u := range s.cols[j] {
			if s.cols[j][u].row == i {
				s.cols[j][u].val = v
				break
			}
		}
		return
	}
	s.rows[i] = append(s.rows[i], entry{j, v})
	s.cols[j] = append(s.cols[j], entry{i, v})
}

// remove deletes a_ij from both lists, keeping the others' order.
func (s *sparseLists) remove(i, j int) {
	if _, t := s.get(i, j); t >= 0 {
		s.rows[i] = slices.Delete(s.rows[i], t, t+1)
	}
	for u := range s.cols[j] {
		if s.cols[j][u].row == i {
			s.cols[j] = slices.Delete(s.cols[j], u, u+1)
			break
		}
	}
}

// activity is the range of a row's activity over the column bounds: the finite parts of
// its two ends and how many infinite terms each has (so one column's term can be taken
// out exactly).
type activity struct {
	lo, up       float64
	nInfLo, nInf int
	valid        bool
}

func rowActivity(row []entry, lo, up []float64) activity {
	var a activity
	for _, e := range row {
		l, u := lo[e.row]*e.val, up[e.row]*e.val
		if e.val < 0 {
			l, u = u, l
		}
		if math.IsInf(l, -1) {
			a.nInfLo++
		} else {
			a.lo += l
		}
		if math.IsInf(u, 1) {
			a.nInf++
		} else {
			a.up += u
		}
	}
	a.valid = true
	return a
}

// aggregate applies the aggregator to r; den holds the tolerance magnitudes of r's
// column bounds (2j, 2j+1 for column j's lower and upper). It returns nil when nothing
// applies.
func aggregate(r *reducedLP, den []float64) *aggStage {
	n, m := r.n, r.m
	// One backing array for the rows and one for the columns, each list capped at its
	// length so that fill reallocates it rather than run into its neighbour (this stage
	// runs on every presolved LP, most of which it leaves alone: allocation per list was
	// half its time).
	nnz := r.a.start[n]
	rowLen := make([]int, m)
	for _, i := range r.a.index[:nnz] {
		rowLen[i]++
	}
	sp := &sparseLists{rows: make([][]entry, m), cols: make([][]entry, n)}
	rowBuf, colBuf := make([]entry, nnz), make([]entry, nnz)
	off := 0
	for i := range m {
		sp.rows[i] = rowBuf[off : off : off+rowLen[i]]
		off += rowLen[i]
	}
	for j := range n {
		sp.cols[j] = colBuf[r.a.start[j]:r.a.start[j]:r.a.start[j+1]]
		for p := r.a.start[j]; p < r.a.start[j+1]; p++ {
			i, v := r.a.index[p], r.a.value[p]
			sp.cols[j] = append(sp.cols[j], entry{i, v})
			sp.rows[i] = append(sp.rows[i], entry{j, v})
		}
	}
	cost := append([]float64(nil), r.cost...)
	rlo := append([]float64(nil), r.rowLower...)
	rup := append([]float64(nil), r.rowUpper...)
	lo, up := r.lower, r.upper
	rowGone := make([]bool, m)
	colGone := make([]bool, n)
	acts := make([]activity, m)
	st := &aggStage{in: r, denLo: map[int]float64{}, denUp: map[int]float64{}}

	// implied returns the bounds row l implies on column k (coefficient a).
	implied := func(l, k int, a float64) (float64, float64) {
		if !acts[l].valid {
			acts[l] = rowActivity(sp.rows[l], lo, up)
		}
		act := acts[l]
		// Take k's own term out of the range.
		kl, ku := lo[k]*a, up[k]*a
		if a < 0 {
			kl, ku = ku, kl
		}
		restLo, restUp := math.Inf(-1), math.Inf(1)
		switch {
		case !math.IsInf(kl, -1) && act.nInfLo == 0:
			restLo = act.lo - kl
		case math.IsInf(kl, -1) && act.nInfLo == 1:
			restLo = act.lo
		}
		switch {
		case !math.IsInf(ku, 1) && act.nInf == 0:
			restUp = act.up - ku
		case math.IsInf(ku, 1) && act.nInf == 1:
			restUp = act.up
		}
		// a·x_k = activity − rest, activity in [rlo, rup].
		implLo, implUp := (rlo[l]-restUp)/a, (rup[l]-restLo)/a
		if a < 0 {
			implLo, implUp = (rup[l]-restLo)/a, (rlo[l]-restUp)/a
		}
		if math.IsNaN(implLo) {
			implLo = math.Inf(-1)
		}
		if math.IsNaN(implUp) {
			implUp = math.Inf(1)
		}
		return implLo, implUp
	}

	for i := range m {
		if rlo[i] != rup[i] || len(sp.rows[i]) < 2 || len(sp.rows[i]) > aggMaxRow {
			continue
		}
		rhs := rlo[i]
		amax := 0.0
		for _, e := range sp.rows[i] {
			amax = math.Max(amax, math.Abs(e.val))
		}
		best, bestFill := -1, 0
		for _, ek := range sp.rows[i] {
			k, a := ek.row, ek.val
			if math.Abs(a) < aggPivotRel*amax || len(sp.cols[k]) > aggMaxCol {
				continue
			}
			implLo, implUp := math.Inf(-1), math.Inf(1)
			for _, el := range sp.cols[k] {
				il, iu := implied(el.row, k, el.val)
				if el.row != i {
					// Another row's implication counts only with a margin: the simplex meets
					// that row within its primal tolerance, and a bound implied exactly at
					// x_k's own would then let x_k (set from the equation in postsolve)
					// leave it by as much (a property test: 6.6e-7 below a bound of −1).
					il -= aggImpliedMargin * math.Max(1, math.Abs(il))
					iu += aggImpliedMargin * math.Max(1, math.Abs(iu))
				}
				implLo, implUp = math.Max(implLo, il), math.Min(implUp, iu)
			}
			if !(implLo >= lo[k]-aggDrop*math.Max(1, math.Abs(lo[k])) || math.IsInf(lo[k], -1)) ||
				!(implUp <= up[k]+aggDrop*math.Max(1, math.Abs(up[k])) || math.IsInf(up[k], 1)) {
				continue
			}
			fill := (len(sp.rows[i]) - 1) * (len(sp.cols[k]) - 1)
			if best < 0 || fill < bestFill {
				best, bestFill = k, fill
			}
		}
		if best < 0 {
			continue
		}
		k := best
		a, _ := sp.get(i, k)
		op := aggOp{i: i, k: k, a: a, r: rhs, c: cost[k]}
		for _, e := range sp.rows[i] {
			if e.row != k {
				op.rowOther = append(op.rowOther, e)
			}
		}
		for _, e := range sp.cols[k] {
			if e.row != i {
				op.colOther = append(op.colOther, e)
			}
		}
		for _, e := range op.rowOther {
			cost[e.row] -= op.c * e.val / a
		}
		for _, el := range op.colOther {
			l, ratio := el.row, el.val/a
			for _, e := range op.rowOther {
				j := e.row
				old, _ := sp.get(l, j)
				delta := ratio * e.val
				v := old - delta
				if math.Abs(v) <= aggDrop*math.Max(math.Abs(old), math.Abs(delta)) {
					if old != 0 {
						sp.remove(l, j)
					}
					continue
				}
				sp.set(l, j, v)
			}
			sp.remove(l, k)
			if !math.IsInf(rlo[l], 0) {
				rlo[l] -= ratio * rhs
			}
			if !math.IsInf(rup[l], 0) {
				rup[l] -= ratio * rhs
			}
			acts[l].valid = false
		}
		for _, e := range op.rowOther {
			sp.remove(i, e.row)
		}
		sp.rows[i], sp.cols[k] = nil, nil
		rowGone[i], colGone[k] = true, true
		st.ops = append(st.ops, op)
	}
	st.substituted = len(st.ops)

	// A cost-free column singleton k of an equation that is not implied free acts as the
	// row's slack: a_i·x + a_k·x_k = r with x_k ∈ [l, u] is a·x ∈ [r − a_k·u, r − a_k·l]
	// (a_k > 0). x_k leaves and the row stays as that range; seba's 360 cost-free
	// singletons in equations are such slacks. Postsolve: x_k from the row; the row's
	// dual is the range's, which gives d_k = −a_k·y the sign x_k's bound needs. (A
	// singleton with a cost works the same way with its cost moved onto the row's
	// columns and c_k/a_k added to the dual — the code keeps that general — but on
	// dfl001 that took 83,168 iterations instead of 16,805, and greenbeb 8,065 instead
	// of 4,009, so only cost-free ones are taken.)
	for i := range m {
		if rowGone[i] || rlo[i] != rup[i] || len(sp.rows[i]) < 2 {
			continue
		}
		amax := 0.0
		for _, e := range sp.rows[i] {
			amax = math.Max(amax, math.Abs(e.val))
		}
		k, a := -1, 0.0
		for _, e := range sp.rows[i] {
			j := e.row
			if len(sp.cols[j]) == 1 && cost[j] == 0 && lo[j] < up[j] && (!math.IsInf(lo[j], -1) || !math.IsInf(up[j], 1)) &&
				math.Abs(e.val) >= aggPivotRel*amax {
				k, a = j, e.val
				break
			}
		}
		if k < 0 {
			continue
		}
		rhs := rlo[i]
		op := aggOp{i: i, k: k, a: a, r: rhs, c: cost[k], slack: true}
		for _, e := range sp.rows[i] {
			if e.row != k {
				op.rowOther = append(op.rowOther, e)
				cost[e.row] -= op.c * e.val / a
			}
		}
		if a > 0 {
			rlo[i], rup[i] = rhs-a*up[k], rhs-a*lo[k]
			st.denLo[i], st.denUp[i] = a*den[2*k+1], a*den[2*k]
		} else {
			rlo[i], rup[i] = rhs-a*lo[k], rhs-a*up[k]
			st.denLo[i], st.denUp[i] = -a*den[2*k], -a*den[2*k+1]
		}
		sp.remove(i, k)
		colGone[k] = true
		st.ops = append(st.ops, op)
		st.slacks++
	}
	if len(st.ops) == 0 {
		return nil
	}

	rowNew := make([]int, m)
	for i := range m {
		rowNew[i] = -1
		if !rowGone[i] {
			rowNew[i] = len(st.rowMap)
			st.rowMap = append(st.rowMap, i)
		}
	}
	out := &reducedLP{m: len(st.rowMap)}
	out.a.start = []int{0}
	for j := range n {
		if colGone[j] {
			continue
		}
		st.colMap = append(st.colMap, j)
		col := slices.Clone(sp.cols[j])
		slices.SortFunc(col, func(x, y entry) int { return x.row - y.row })
		for _, e := range col {
			out.a.index = append(out.a.index, rowNew[e.row])
			out.a.value = append(out.a.value, e.val)
		}
		out.a.start = append(out.a.start, len(out.a.index))
		out.cost = append(out.cost, cost[j])
		out.lower = append(out.lower, lo[j])
		out.upper = append(out.upper, up[j])
	}
	out.n = len(st.colMap)
	for _, i := range st.rowMap {
		out.rowLower = append(out.rowLower, rlo[i])
		out.rowUpper = append(out.rowUpper, rup[i])
	}
	st.out = out
	return st
}

// postsolve maps a solution of the stage's output problem (x, row duals y in
// minimization sense, basis b) to its input problem, undoing the substitutions in
// reverse: x_k from its row, basic; the row nonbasic with the dual that zeroes d_k.
func (st *aggStage) postsolve(xo, yo []float64, bo *solvers.Basis) ([]float64, []float64, *solvers.Basis) {
	in := st.in
	x := make([]float64, in.n)
	y := make([]float64, in.m)
	b := &solvers.Basis{Cols: make([]solvers.BasisStatus, in.n), Rows: make([]solvers.BasisStatus, in.m)}
	for t, j := range st.colMap {
		x[j] = xo[t]
		b.Cols[j] = bo.Cols[t]
	}
	for t, i := range st.rowMap {
		y[i] = yo[t]
		b.Rows[i] = bo.Rows[t]
	}
	for t := len(st.ops) - 1; t >= 0; t-- {
		op := &st.ops[t]
		act := 0.0
		for _, e := range op.rowOther {
			act += e.val * x[e.row]
		}
		x[op.k] = (op.r - act) / op.a
		if op.slack {
			// The row's status in the output problem says where x_k is: basic with the
			// row, or at the bound the range's side came from.
			switch rs := b.Rows[op.i]; {
			case rs == solvers.Basic:
				b.Cols[op.k] = solvers.Basic
			case (rs == solvers.AtUpper) == (op.a > 0):
				b.Cols[op.k] = solvers.AtLower
			default:
				b.Cols[op.k] = solvers.AtUpper
			}
			y[op.i] += op.c / op.a
			b.Rows[op.i] = solvers.Fixed
			continue
		}
		dk := op.c
		for _, e := range op.colOther {
			dk -= e.val * y[e.row]
		}
		y[op.i] = dk / op.a
		b.Cols[op.k] = solvers.Basic
		b.Rows[op.i] = solvers.Fixed
	}
	return x, y, b
}
