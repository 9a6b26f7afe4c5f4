package simplex

import (
	"math"

	"github.com/coraopt/coraopt/solvers"
)

// Doubleton equations (Andersen and Andersen, "Presolving in linear programming", Math.
// Programming 71, 1995, §5.2; HiGHS's presolve does the same): a row a·x_j + b·x_k = r
// with two entries determines x_k = (r − a·x_j)/b. x_k is substituted out of every other
// row and the objective, its bounds become bounds on x_j, and the row and x_k leave the
// problem. The column with the larger coefficient is the one eliminated, so that
// |a/b| ≤ 1 and postsolve's x_k carries no more error than x_j. This runs as a second
// stage after presolve, on its reduced problem; its postsolve returns to that problem's
// rows and columns.

// Doubleton parameters.
const (
	// doubletonMaxFill: a column with more entries than this is not substituted (each
	// entry may add one to x_j's column).
	doubletonMaxFill = 50
	// doubletonMinRatio: |a/b| below this is left alone (x_j's implied bounds and, when
	// one of them binds, the row's dual would be divided by a tiny a).
	doubletonMinRatio = 1e-3
)

// entry is one coefficient of a column.
type entry struct {
	row int
	val float64
}

// doubletonOp records one elimination: row i, kept column j (coefficient a), eliminated
// column k (coefficient b), right-hand side r. colJ and colK are the two columns' other
// entries and costJ, costK their costs as they were just before the elimination (the
// postsolve's dual formulas need them). loFromK and upFromK say which of x_j's bounds
// x_k's bounds set; loK, upK are x_k's bounds; kUpForJLo says whether x_j's lower bound
// corresponds to x_k at its upper bound. tolLo, tolUp are the accuracies of the bounds of
// x_j taken from x_k, in x_j's units.
type doubletonOp struct {
	i, j, k          int
	a, b, r          float64
	colJ, colK       []entry
	costJ, costK     float64
	loFromK, upFromK bool
	loK, upK         float64
	kUpForJLo        bool
	tolLo, tolUp     float64
}

// doubletonStage is the result of eliminating doubleton equations from a reducedLP.
type doubletonStage struct {
	in             *reducedLP
	out            *reducedLP
	colMap, rowMap []int // out index → in index
	ops            []doubletonOp
	// den for the columns whose bounds came from an eliminated column: the magnitude the
	// relative tolerance of that bound uses, in the kept column's units (see solveLP).
	denLo, denUp map[int]float64
}

// eliminateDoubletons removes the doubleton equations of r that qualify (see the
// parameters); den holds the tolerance magnitudes of r's bounds, 2j and 2j+1 for column
// j's lower and upper bound. It returns nil when there is none.
func eliminateDoubletons(r *reducedLP, den []float64, tol float64) *doubletonStage {
	n, m := r.n, r.m
	// Columns and row patterns are slices of two pools sized to the matrix (one
	// allocation each instead of one per growing slice); a slice's capacity ends where
	// its neighbour's begins, so the fill a substitution appends moves only that slice.
	nnz := r.a.start[n]
	pool := make([]entry, nnz)
	rowLen := make([]int, m+1)
	for _, i := range r.a.index[:nnz] {
		rowLen[i+1]++
	}
	for i := range m {
		rowLen[i+1] += rowLen[i]
	}
	rowPool := make([]int, nnz)
	cols := make([][]entry, n)
	rowCols := make([][]int, m)
	for i := range m {
		rowCols[i] = rowPool[rowLen[i]:rowLen[i]:rowLen[i+1]]
	}
	for j := range n {
		a, b := r.a.start[j], r.a.start[j+1]
		cols[j] = pool[a:a:b]
		for p := a; p < b; p++ {
			i := r.a.index[p]
			cols[j] = append(cols[j], entry{i, r.a.value[p]})
			rowCols[i] = append(rowCols[i], j)
		}
	}
	cost := append([]float64(nil), r.cost...)
	lo := append([]float64(nil), r.lower...)
	up := append([]float64(nil), r.upper...)
	rlo := append([]float64(nil), r.rowLower...)
	rup := append([]float64(nil), r.rowUpper...)
	colGone := make([]bool, n)
	rowGone := make([]bool, m)
	st := &doubletonStage{in: r, denLo: map[int]float64{}, denUp: map[int]float64{}}
	coef := func(j, i int) (float64, int) {
		for t, e := range cols[j] {
			if e.row == i {
				return e.val, t
			}
		}
		return 0, -1
	}
	// liveEntries returns the two live columns of row i, or false.
	liveEntries := func(i int) (int, int, bool) {
		first, second, cnt := -1, -1, 0
		for _, j := range rowCols[i] {
			if colGone[j] {
				continue
			}
			if v, _ := coef(j, i); v == 0 {
				continue
			}
			if j == first || j == second {
				continue
			}
			cnt++
			if cnt > 2 {
				return -1, -1, false // long rows are the common case: stop at the third
			}
			if first < 0 {
				first = j
			} else {
				second = j
			}
		}
		return first, second, cnt == 2
	}
	for i := range m {
		if rowGone[i] || rlo[i] != rup[i] || math.IsInf(rlo[i], 0) {
			continue
		}
		j, k, ok := liveEntries(i)
		if !ok {
			continue
		}
		a, _ := coef(j, i)
		b, _ := coef(k, i)
		if math.Abs(a) > math.Abs(b) {
			j, k, a, b = k, j, b, a
		}
		if math.Abs(a) < doubletonMinRatio*math.Abs(b) || len(cols[k]) > doubletonMaxFill {
			continue
		}
		rhs := rlo[i]
		// x_j = (rhs − b·x_k)/a: x_k's bounds imply bounds on x_j.
		slope := -b / a
		implAt := func(xk float64) float64 {
			if math.IsInf(xk, 0) {
				if slope > 0 {
					return xk
				}
				return -xk
			}
			return (rhs - b*xk) / a
		}
		kUpForJLo := slope < 0
		implLo, implUp := implAt(lo[k]), implAt(up[k])
		if kUpForJLo {
			implLo, implUp = implAt(up[k]), implAt(lo[k])
		}
		newLo, newUp := lo[j], up[j]
		loFromK, upFromK := false, false
		if implLo > newLo {
			newLo, loFromK = implLo, true
		}
		if implUp < newUp {
			newUp, upFromK = implUp, true
		}
		if newLo > newUp-tol*math.Max(1, math.Abs(newUp)) && (loFromK || upFromK) {
			// An empty or nearly empty range: left to the simplex, which decides it with
			// its own tolerances.
			continue
		}
		op := doubletonOp{i: i, j: j, k: k, a: a, b: b, r: rhs, costJ: cost[j], costK: cost[k],
			loFromK: loFromK, upFromK: upFromK, loK: lo[k], upK: up[k], kUpForJLo: kUpForJLo}
		for _, e := range cols[j] {
			if e.row != i && !rowGone[e.row] {
				op.colJ = append(op.colJ, e)
			}
		}
		for _, e := range cols[k] {
			if e.row != i && !rowGone[e.row] {
				op.colK = append(op.colK, e)
			}
		}
		// The accuracy of a bound taken from x_k: x_k's own tolerance magnitude times
		// |b/a| (x_k moves by |a/b| per unit of x_j).
		if loFromK {
			d := den[2*k]
			if kUpForJLo {
				d = den[2*k+1]
			}
			op.tolLo = tol * d * math.Abs(b/a)
			st.denLo[j] = d * math.Abs(b/a)
		}
		if upFromK {
			d := den[2*k+1]
			if kUpForJLo {
				d = den[2*k]
			}
			op.tolUp = tol * d * math.Abs(b/a)
			st.denUp[j] = d * math.Abs(b/a)
		}
		lo[j], up[j] = newLo, newUp
		// Substitute x_k = (rhs − a·x_j)/b into the objective and the other rows.
		cost[j] -= cost[k] * a / b
		for _, e := range op.colK {
			l := e.row
			shift := e.val * rhs / b
			rlo[l] -= shift
			rup[l] -= shift
			delta := -e.val * a / b
			if old, t := coef(j, l); t >= 0 {
				v := old + delta
				if math.Abs(v) <= 1e-12*math.Max(math.Abs(old), math.Abs(delta)) {
					v = 0
				}
				cols[j][t].val = v
			} else {
				cols[j] = append(cols[j], entry{l, delta})
				rowCols[l] = append(rowCols[l], j)
			}
		}
		// Drop row i from x_j's column and remove x_k and row i.
		if _, t := coef(j, i); t >= 0 {
			cols[j][t].val = 0
		}
		colGone[k], rowGone[i] = true, true
		st.ops = append(st.ops, op)
	}
	if len(st.ops) == 0 {
		return nil
	}
	out := sizedReducedLP(n, m, r.a.start[n]+r.a.start[n]/8)
	rowNew, rowMap := keptRows(rowGone)
	st.rowMap = rowMap
	st.colMap = make([]int, 0, n)
	for j := range n {
		if colGone[j] {
			continue
		}
		st.colMap = append(st.colMap, j)
		es := cols[j]
		// Rows in increasing order, as the simplex's column copies expect.
		sortEntries(es)
		for _, e := range es {
			if e.val == 0 || rowGone[e.row] {
				continue
			}
			out.a.index = append(out.a.index, rowNew[e.row])
			out.a.value = append(out.a.value, e.val)
		}
		out.closeColumn(cost[j], lo[j], up[j])
	}
	out.closeRows(st.rowMap, rlo, rup)
	st.out = out
	return st
}

// sortEntries sorts a column's entries by row (insertion sort: columns are short and
// nearly sorted).
func sortEntries(es []entry) {
	for a := 1; a < len(es); a++ {
		for b := a; b > 0 && es[b].row < es[b-1].row; b-- {
			es[b], es[b-1] = es[b-1], es[b]
		}
	}
}

// postsolve maps a solution of the stage's output problem (x, row duals y in
// minimization sense, basis b) to its input problem. For each elimination, in reverse:
// x_k = (r − a·x_j)/b. If x_j sits at a bound that x_k's bounds set, x_j becomes basic
// (d_j = 0 fixes the row's dual) and x_k nonbasic at the bound that set it; otherwise
// x_k is basic (d_k = 0 fixes the row's dual). The row, an equality, is nonbasic.
func (st *doubletonStage) postsolve(xo, yo []float64, bo *solvers.Basis) ([]float64, []float64, *solvers.Basis) {
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
		xj := x[op.j]
		b.Rows[op.i] = solvers.Fixed
		st := b.Cols[op.j]
		nonbasic := st != solvers.Basic
		jLoBound, jUpBound := xj, xj
		if op.loFromK {
			jLoBound = implied(op, op.kUpForJLo)
		}
		if op.upFromK {
			jUpBound = implied(op, !op.kUpForJLo)
		}
		atLo := nonbasic && op.loFromK && math.Abs(xj-jLoBound) <= math.Max(op.tolLo, 1e-12)
		atUp := nonbasic && op.upFromK && math.Abs(xj-jUpBound) <= math.Max(op.tolUp, 1e-12)
		if atLo || atUp {
			// x_k at the bound that set x_j's; x_j basic with d_j = 0.
			kUp := op.kUpForJLo
			if !atLo {
				kUp = !kUp
			}
			if kUp {
				x[op.k], b.Cols[op.k] = op.upK, solvers.AtUpper
			} else {
				x[op.k], b.Cols[op.k] = op.loK, solvers.AtLower
			}
			if op.loK == op.upK {
				b.Cols[op.k] = solvers.Fixed
			}
			b.Cols[op.j] = solvers.Basic
			dj := op.costJ
			for _, e := range op.colJ {
				dj -= e.val * y[e.row]
			}
			y[op.i] = dj / op.a
			continue
		}
		x[op.k] = (op.r - op.a*xj) / op.b
		b.Cols[op.k] = solvers.Basic
		dk := op.costK
		for _, e := range op.colK {
			dk -= e.val * y[e.row]
		}
		y[op.i] = dk / op.b
	}
	return x, y, b
}

// implied is the bound of x_j that x_k at its upper (kUp) or lower bound implies.
func implied(op *doubletonOp, kUp bool) float64 {
	xk := op.loK
	if kUp {
		xk = op.upK
	}
	return (op.r - op.b*xk) / op.a
}
