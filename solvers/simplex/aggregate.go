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
)

// aggOp records one substitution: row i, column k with pivot a, right-hand side r,
// the row's other entries (entry.row holds the column), the column's other entries and
// x_k's cost at the time.
type aggOp struct {
	i, k     int
	a, r, c  float64
	rowOther []entry
	colOther []entry
}

// aggStage is the result of the aggregator on a reducedLP.
type aggStage struct {
	in, out        *reducedLP
	colMap, rowMap []int // out index → in index
	ops            []aggOp
}

// sortedKeys returns m's keys in increasing order: every sum over a row or column runs in
// index order, so the result does not depend on map iteration (same seed, same bytes).
func sortedKeys(m map[int]float64) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// aggregate applies the aggregator to r; it returns nil when nothing applies.
func aggregate(r *reducedLP) *aggStage {
	n, m := r.n, r.m
	rows := make([]map[int]float64, m)
	cols := make([]map[int]float64, n)
	for i := range m {
		rows[i] = map[int]float64{}
	}
	for j := range n {
		cols[j] = make(map[int]float64, r.a.start[j+1]-r.a.start[j])
		for p := r.a.start[j]; p < r.a.start[j+1]; p++ {
			i, v := r.a.index[p], r.a.value[p]
			cols[j][i] = v
			rows[i][j] = v
		}
	}
	cost := append([]float64(nil), r.cost...)
	rlo := append([]float64(nil), r.rowLower...)
	rup := append([]float64(nil), r.rowUpper...)
	lo, up := r.lower, r.upper
	rowGone := make([]bool, m)
	colGone := make([]bool, n)
	st := &aggStage{in: r}

	for i := range m {
		if rlo[i] != rup[i] || len(rows[i]) < 2 || len(rows[i]) > aggMaxRow {
			continue
		}
		rhs := rlo[i]
		js := sortedKeys(rows[i])
		amax := 0.0
		for _, j := range js {
			amax = math.Max(amax, math.Abs(rows[i][j]))
		}
		best, bestFill := -1, 0
		for _, k := range js {
			a := rows[i][k]
			if math.Abs(a) < aggPivotRel*amax || len(cols[k]) > aggMaxCol {
				continue
			}
			implLo, implUp := math.Inf(-1), math.Inf(1)
			for _, l := range sortedKeys(cols[k]) {
				il, iu := impliedBounds(rows[l], k, rlo[l], rup[l], lo, up)
				implLo, implUp = math.Max(implLo, il), math.Min(implUp, iu)
			}
			// NaN fails both comparisons and leaves k alone.
			if !(implLo >= lo[k]-aggDrop*math.Max(1, math.Abs(lo[k])) || math.IsInf(lo[k], -1)) ||
				!(implUp <= up[k]+aggDrop*math.Max(1, math.Abs(up[k])) || math.IsInf(up[k], 1)) {
				continue
			}
			fill := (len(js) - 1) * (len(cols[k]) - 1)
			if best < 0 || fill < bestFill {
				best, bestFill = k, fill
			}
		}
		if best < 0 {
			continue
		}
		k, a := best, rows[i][best]
		op := aggOp{i: i, k: k, a: a, r: rhs, c: cost[k]}
		for _, j := range js {
			if j != k {
				op.rowOther = append(op.rowOther, entry{j, rows[i][j]})
			}
		}
		for _, l := range sortedKeys(cols[k]) {
			if l != i {
				op.colOther = append(op.colOther, entry{l, cols[k][l]})
			}
		}
		for _, e := range op.rowOther {
			cost[e.row] -= op.c * e.val / a
		}
		for _, el := range op.colOther {
			l, ratio := el.row, el.val/a
			for _, e := range op.rowOther {
				j := e.row
				old, delta := rows[l][j], ratio*e.val
				v := old - delta
				if math.Abs(v) <= aggDrop*math.Max(math.Abs(old), math.Abs(delta)) {
					delete(rows[l], j)
					delete(cols[j], l)
					continue
				}
				rows[l][j] = v
				cols[j][l] = v
			}
			delete(rows[l], k)
			if !math.IsInf(rlo[l], 0) {
				rlo[l] -= ratio * rhs
			}
			if !math.IsInf(rup[l], 0) {
				rup[l] -= ratio * rhs
			}
		}
		for _, e := range op.rowOther {
			delete(cols[e.row], i)
		}
		rows[i], cols[k] = nil, nil
		rowGone[i], colGone[k] = true, true
		st.ops = append(st.ops, op)
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
		for _, i := range sortedKeys(cols[j]) {
			out.a.index = append(out.a.index, rowNew[i])
			out.a.value = append(out.a.value, cols[j][i])
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

// impliedBounds returns the bounds on x_k that row (its entries by column) with bounds
// [rl, ru] implies given the other columns' bounds lo, up: a_k·x_k = act − Σ_{j≠k} a_j·x_j
// with act in [rl, ru]. A side that is not implied is infinite.
func impliedBounds(row map[int]float64, k int, rl, ru float64, lo, up []float64) (float64, float64) {
	restLo, restUp := 0.0, 0.0
	for _, j := range sortedKeys(row) {
		if j == k {
			continue
		}
		v := row[j]
		l, u := lo[j]*v, up[j]*v
		if v < 0 {
			l, u = u, l
		}
		// restLo sums only −∞ and finite terms, restUp only +∞ and finite ones.
		restLo += l
		restUp += u
	}
	a := row[k]
	implLo, implUp := (rl-restUp)/a, (ru-restLo)/a
	if a < 0 {
		implLo, implUp = (ru-restLo)/a, (rl-restUp)/a
	}
	// ∞ − ∞ cannot occur, but a −∞ row bound less +∞ activity is −∞: nothing implied.
	if math.IsNaN(implLo) {
		implLo = math.Inf(-1)
	}
	if math.IsNaN(implUp) {
		implUp = math.Inf(1)
	}
	return implLo, implUp
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
