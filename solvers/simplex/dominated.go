package simplex

import (
	"math"

	"github.com/coraopt/coraopt/solvers"
)

// Presolve's third stage, on the problem the doubleton stage leaves: implied-free column
// singletons and dominated columns (Andersen and Andersen, "Presolving in linear
// programming", Math. Programming 71, 1995, §3.3–3.4 and §4; HiGHS's presolve has both).
//
//   - A column x_k with one entry b, in row i (b·x_k + Σ a_j·x_j = r, r within the row's
//     bounds), whose bounds the row already implies — the other columns' bounds and the
//     row's keep (r − Σ a_j·x_j)/b inside [l_k, u_k] — is free in effect, so d_k = 0 and
//     the row's dual is c_k/b at an optimum. In an inequality row that sign says which
//     bound the row sits at, and the row becomes that equality. Then the row only defines
//     x_k: row and column leave the problem and c_k·x_k = c_k·(r − Σ a_j·x_j)/b moves
//     onto the other columns' costs. Postsolve sets x_k from the row, makes it basic and
//     the row's dual c_k/b.
//   - A column singleton that stays bounds its row's dual: x_k ≥ l_k with no upper bound
//     needs d_k = c_k − b·y_i ≥ 0 at an optimum, so b·y_i ≤ c_k; a one-sided row bounds
//     the sign of its dual. A column whose reduced cost c_j − Σ a_ij·y_i keeps one sign
//     over every y in those bounds is dominated: its bound on that side holds at every
//     optimum, and it is fixed there. Postsolve restores its value; the duals need nothing.
//
// maros-r7 is what this stage is for: every row is an equality with two singleton goal
// columns (−u_i + v_i, both of cost 1); where the other entries and the right-hand side
// keep u_i ≥ 0 without its bound (984 of 3,136 rows), u_i is substituted out, v_i is left
// empty at cost 2 and fixed, and the costs the substitution moves onto the structural
// columns make 835 of them dominated by the goal columns' dual bounds y_i ∈ [−1, 1].

// Parameters of the stage.
const (
	// singletonMinRatio: a singleton's coefficient must be at least this fraction of its
	// row's largest (the row's dual c_k/b and the moved costs c_k·a_j/b are divided by
	// it).
	singletonMinRatio = 1e-2
	// dominatedMargin: a reduced cost counts as keeping its sign when it stays beyond this
	// times the magnitude of the terms that make it up (the simplex meets the dual bounds
	// the singletons set only within its dual tolerance).
	dominatedMargin = 1e-6
	// impliedSlack: an implied bound may pass the column's own by this (relative), a
	// hundredth of the default primal tolerance, which covers the rounding of the row's
	// activity bounds.
	impliedSlack = 1e-9
	// rowNoise: a redundant or forcing row's margin is at most this times its largest
	// activity term (see the column stage's row tests): the rounding of a sum of a few
	// dozen such terms, not a tolerance.
	rowNoise = 1e-13
	// colStageMaxRounds bounds the alternation of the two reductions (each round can
	// enable the other's next one).
	colStageMaxRounds = 8
)

type colOpKind int8

const (
	colOpImpliedFree  colOpKind = iota // implied-free column singleton substituted out
	colOpDominated                     // dominated column fixed at a bound
	colOpRedundantRow                  // row no point within the column bounds violates
	colOpForcingRow                    // row met only at one extreme: its columns fixed
)

// forcedCol is a column a forcing row fixed: its coefficient in the row, value (and
// whether that is its upper bound), and its cost and live entries in the other rows when
// it was fixed (postsolve's choice of the row's dual needs its reduced cost).
type forcedCol struct {
	col    int
	a      float64
	value  float64
	upper  bool
	c      float64
	others []entry
}

// colOp records one reduction of the stage. For an implied-free singleton: column k =
// col in row i = row with coefficient b, right-hand side r, cost c (when eliminated) and
// the row's other live entries (column, coefficient). For a dominated column: col, its
// value and whether that is its upper bound. For a forcing row: row, whether its upper
// bound is the one met (upper), and the columns it fixed.
type colOp struct {
	kind   colOpKind
	col    int
	row    int
	b, r   float64
	c      float64
	others []entry // entry.row holds the column index here
	value  float64
	upper  bool
	fixed  []forcedCol // forcing row
}

// colStage is the result of the stage on a reducedLP.
type colStage struct {
	in, out        *reducedLP
	colMap, rowMap []int // out index → in index
	ops            []colOp
	impliedFree    int
	dominated      int
	redundant      int
	forcing        int
}

// reduceColumns applies the stage to r; it returns nil when nothing applies.
func reduceColumns(r *reducedLP) *colStage {
	n, m := r.n, r.m
	cost := append([]float64(nil), r.cost...)
	rlo := append([]float64(nil), r.rowLower...)
	rup := append([]float64(nil), r.rowUpper...)
	// Row-wise copy of the matrix (the stage only removes rows and columns, so the copy
	// never gains entries).
	rowStart := make([]int, m+1)
	for _, i := range r.a.index {
		rowStart[i+1]++
	}
	for i := range m {
		rowStart[i+1] += rowStart[i]
	}
	rowCol := make([]int, len(r.a.index))
	rowVal := make([]float64, len(r.a.index))
	next := append([]int(nil), rowStart[:m]...)
	for j := range n {
		for p := r.a.start[j]; p < r.a.start[j+1]; p++ {
			i := r.a.index[p]
			rowCol[next[i]], rowVal[next[i]] = j, r.a.value[p]
			next[i]++
		}
	}
	colGone := make([]bool, n)
	rowGone := make([]bool, m)
	colCount := make([]int, n)
	for j := range n {
		for p := r.a.start[j]; p < r.a.start[j+1]; p++ {
			if r.a.value[p] != 0 {
				colCount[j]++
			}
		}
	}
	// protected: columns whose dual bound a dominated column's fixing relied on; they stay
	// (substituted or not), so that bound holds at the end.
	protected := make([]bool, n)
	st := &colStage{in: r}
	// singleton returns column j's one live entry (row, coefficient).
	singleton := func(j int) (int, float64) {
		for p := r.a.start[j]; p < r.a.start[j+1]; p++ {
			if i := r.a.index[p]; !rowGone[i] && r.a.value[p] != 0 {
				return i, r.a.value[p]
			}
		}
		return -1, 0
	}
	removeRow := func(i int) {
		rowGone[i] = true
		for p := rowStart[i]; p < rowStart[i+1]; p++ {
			if j := rowCol[p]; !colGone[j] && rowVal[p] != 0 {
				colCount[j]--
			}
		}
	}
	// activity returns the range of row i's activity without column skip (minimum,
	// maximum, each with its count of infinite terms) and the row's largest coefficient.
	activity := func(i, skip int) (minAct, maxAct float64, minInf, maxInf int, big float64) {
		for p := rowStart[i]; p < rowStart[i+1]; p++ {
			j, a := rowCol[p], rowVal[p]
			if colGone[j] || a == 0 {
				continue
			}
			big = math.Max(big, math.Abs(a))
			if j == skip {
				continue
			}
			lo, up := r.lower[j], r.upper[j]
			if a < 0 {
				lo, up = up, lo
			}
			if math.IsInf(lo, 0) {
				minInf++
			} else {
				minAct += a * lo
			}
			if math.IsInf(up, 0) {
				maxInf++
			} else {
				maxAct += a * up
			}
		}
		return minAct, maxAct, minInf, maxInf, big
	}
	slack := func(b float64) float64 { return impliedSlack * math.Max(1, math.Abs(b)) }
	// rowMagnitude is the largest |a_j·v| over row i's live columns and their finite
	// bounds v: the scale of the rounding in its activity.
	rowMagnitude := func(i int) float64 {
		mag := 0.0
		for p := rowStart[i]; p < rowStart[i+1]; p++ {
			j, a := rowCol[p], rowVal[p]
			if colGone[j] || a == 0 {
				continue
			}
			for _, v := range [2]float64{r.lower[j], r.upper[j]} {
				if !math.IsInf(v, 0) {
					mag = math.Max(mag, math.Abs(a*v))
				}
			}
		}
		return mag
	}

	ylo := make([]float64, m)
	yup := make([]float64, m)
	yloBy := make([]int, m)
	yupBy := make([]int, m)
	var relied []int
	for round := 0; round < colStageMaxRounds; round++ {
		changed := false
		// Redundant and forcing rows.
		for i := range m {
			if rowGone[i] {
				continue
			}
			minAct, maxAct, minInf, maxInf, _ := activity(i, -1)
			// A row removed as redundant or forcing may end violated by the margin its
			// test allowed. Earlier stages can have shifted this row by multiples of
			// others (a doubleton equation substituted out), so its bound here can be
			// orders of magnitude above the original row's, and a margin relative to it
			// (slack) can be far above the original row's tolerance: a property test found
			// a bound of −5.6e11 here, a margin of 562, and the original row of 1.5e5 left
			// 11 above its bound. So the margin is also held to the rounding of the
			// activity sum itself (rowNoise times its largest term), which no
			// transformation amplifies beyond what the solve's own arithmetic does.
			tol := func(b float64) float64 { return math.Min(slack(b), rowNoise*math.Max(1, rowMagnitude(i))) }
			loMet := math.IsInf(rlo[i], -1) || (minInf == 0 && minAct >= rlo[i]-tol(rlo[i]))
			upMet := math.IsInf(rup[i], 1) || (maxInf == 0 && maxAct <= rup[i]+tol(rup[i]))
			atUp := minInf == 0 && !math.IsInf(rup[i], 1) && math.Abs(minAct-rup[i]) <= tol(rup[i])
			atLo := maxInf == 0 && !math.IsInf(rlo[i], -1) && math.Abs(maxAct-rlo[i]) <= tol(rlo[i])
			switch {
			case loMet && upMet:
				// Redundant: no point within the column bounds violates the row.
				removeRow(i)
				st.ops = append(st.ops, colOp{kind: colOpRedundantRow, row: i})
				st.redundant++
				changed = true
			case atUp != atLo:
				// Forcing: the row's bound is met only with every column at the bound
				// that extremizes the activity. They are fixed there and the row goes.
				op := colOp{kind: colOpForcingRow, row: i, upper: atUp}
				for p := rowStart[i]; p < rowStart[i+1]; p++ {
					j, a := rowCol[p], rowVal[p]
					if colGone[j] || a == 0 {
						continue
					}
					fc := forcedCol{col: j, a: a, c: cost[j], upper: (a < 0) == atUp}
					fc.value = r.lower[j]
					if fc.upper {
						fc.value = r.upper[j]
					}
					for q := r.a.start[j]; q < r.a.start[j+1]; q++ {
						if l := r.a.index[q]; l != i && !rowGone[l] && r.a.value[q] != 0 {
							fc.others = append(fc.others, entry{l, r.a.value[q]})
						}
					}
					op.fixed = append(op.fixed, fc)
				}
				removeRow(i)
				for _, fc := range op.fixed {
					colGone[fc.col] = true
					if fc.value == 0 {
						continue
					}
					for _, e := range fc.others {
						rlo[e.row] -= e.val * fc.value
						rup[e.row] -= e.val * fc.value
					}
				}
				st.ops = append(st.ops, op)
				st.forcing++
				changed = true
			}
		}
		// Implied-free column singletons.
		for k := range n {
			if colGone[k] || colCount[k] != 1 {
				continue
			}
			i, b := singleton(k)
			if i < 0 {
				continue
			}
			minAct, maxAct, minInf, maxInf, big := activity(i, k)
			if math.Abs(b) < singletonMinRatio*big {
				continue
			}
			// x_k = (r − act)/b for a row activity r in [rlo, rup]: its range.
			implLo, implUp := math.Inf(-1), math.Inf(1)
			if b > 0 {
				if !math.IsInf(rlo[i], 0) && maxInf == 0 {
					implLo = (rlo[i] - maxAct) / b
				}
				if !math.IsInf(rup[i], 0) && minInf == 0 {
					implUp = (rup[i] - minAct) / b
				}
			} else {
				if !math.IsInf(rup[i], 0) && minInf == 0 {
					implLo = (rup[i] - minAct) / b
				}
				if !math.IsInf(rlo[i], 0) && maxInf == 0 {
					implUp = (rlo[i] - maxAct) / b
				}
			}
			if implLo < r.lower[k]-impliedSlack*math.Max(1, math.Abs(r.lower[k])) ||
				implUp > r.upper[k]+impliedSlack*math.Max(1, math.Abs(r.upper[k])) {
				continue
			}
			// x_k free in effect has d_k = 0 at an optimum, so the row's dual is c_k/b, and
			// in an inequality row its sign says which bound the row sits at (y > 0 the
			// lower, y < 0 the upper, 0 either): the row is that equality. A sign whose
			// bound is infinite leaves the row to the simplex (no dual feasible point).
			rhs, atUpper := rlo[i], false
			if rlo[i] != rup[i] {
				yi := cost[k] / b
				switch {
				case yi < 0 || (yi == 0 && math.IsInf(rlo[i], -1)):
					rhs, atUpper = rup[i], true
				}
				if math.IsInf(rhs, 0) {
					continue
				}
			}
			op := colOp{kind: colOpImpliedFree, col: k, row: i, b: b, r: rhs, c: cost[k], upper: atUpper}
			for p := rowStart[i]; p < rowStart[i+1]; p++ {
				if j, a := rowCol[p], rowVal[p]; j != k && !colGone[j] && a != 0 {
					op.others = append(op.others, entry{j, a})
					cost[j] -= cost[k] * a / b
				}
			}
			removeRow(i)
			colGone[k] = true
			st.ops = append(st.ops, op)
			st.impliedFree++
			changed = true
		}

		// The dual bounds the remaining singletons and the rows' senses imply.
		for i := range m {
			ylo[i], yup[i], yloBy[i], yupBy[i] = math.Inf(-1), math.Inf(1), -1, -1
			if rowGone[i] || rlo[i] == rup[i] {
				continue
			}
			if math.IsInf(rup[i], 1) {
				ylo[i] = 0
			}
			if math.IsInf(rlo[i], -1) {
				yup[i] = 0
			}
		}
		for k := range n {
			if colGone[k] || colCount[k] != 1 {
				continue
			}
			i, b := singleton(k)
			if i < 0 {
				continue
			}
			loFin, upFin := !math.IsInf(r.lower[k], 0), !math.IsInf(r.upper[k], 0)
			bound := cost[k] / b
			// d_k ≥ 0 (no upper bound) means b·y ≤ c_k, d_k ≤ 0 (no lower) b·y ≥ c_k.
			var tightUp, tightLo bool
			switch {
			case loFin && !upFin:
				tightUp, tightLo = b > 0, b < 0
			case upFin && !loFin:
				tightUp, tightLo = b < 0, b > 0
			case !loFin && !upFin:
				tightUp, tightLo = true, true
			}
			if tightUp && bound < yup[i] {
				yup[i], yupBy[i] = bound, k
			}
			if tightLo && bound > ylo[i] {
				ylo[i], yloBy[i] = bound, k
			}
		}

		// Dominated columns, unless the dual bounds conflict (the LP has no dual feasible
		// point, and the simplex is to say so on the whole problem).
		conflict := false
		for i := range m {
			conflict = conflict || ylo[i] > yup[i]
		}
		for j := 0; j < n && !conflict; j++ {
			if colGone[j] || protected[j] {
				continue
			}
			loFin, upFin := !math.IsInf(r.lower[j], 0), !math.IsInf(r.upper[j], 0)
			if !loFin && !upFin {
				continue
			}
			// d_j = c_j − Σ a_ij·y_i over y in its bounds: [dmin, dmax].
			dmin, dmax, mag := cost[j], cost[j], math.Abs(cost[j])
			for p := r.a.start[j]; p < r.a.start[j+1] && (dmin > 0 || dmax < 0); p++ {
				i, a := r.a.index[p], r.a.value[p]
				if rowGone[i] || a == 0 {
					continue
				}
				hi, lo := a*yup[i], a*ylo[i]
				if a < 0 {
					hi, lo = lo, hi
				}
				dmin -= hi
				dmax -= lo
				mag += math.Max(math.Abs(hi), math.Abs(lo))
			}
			if math.IsNaN(dmin) || math.IsNaN(dmax) {
				continue
			}
			margin := dominatedMargin * math.Max(1, mag)
			var v float64
			var upper bool
			switch {
			case loFin && dmin > margin:
				v = r.lower[j]
			case upFin && dmax < -margin:
				v, upper = r.upper[j], true
			default:
				continue
			}
			// The dual bounds it relied on must hold at the end: the columns that set them
			// stay in the problem. (None is fixed in the pass that finds its bound: its
			// reduced cost reaches 0 there.)
			relied = relied[:0]
			for p := r.a.start[j]; p < r.a.start[j+1]; p++ {
				i, a := r.a.index[p], r.a.value[p]
				if rowGone[i] || a == 0 {
					continue
				}
				k := yloBy[i]
				if (a > 0) != upper {
					k = yupBy[i]
				}
				if k >= 0 {
					relied = append(relied, k)
				}
			}
			for _, k := range relied {
				protected[k] = true
			}
			for p := r.a.start[j]; p < r.a.start[j+1]; p++ {
				i, a := r.a.index[p], r.a.value[p]
				if rowGone[i] || a == 0 || v == 0 {
					continue
				}
				rlo[i] -= a * v
				rup[i] -= a * v
			}
			colGone[j] = true
			st.ops = append(st.ops, colOp{kind: colOpDominated, col: j, value: v, upper: upper})
			st.dominated++
			changed = true
		}
		if !changed {
			break
		}
	}
	if len(st.ops) == 0 {
		return nil
	}
	out := sizedReducedLP(n, m, r.a.start[n])
	rowNew, rowMap := keptRows(rowGone)
	st.rowMap = rowMap
	st.colMap = make([]int, 0, n)
	for j := range n {
		if colGone[j] {
			continue
		}
		st.colMap = append(st.colMap, j)
		for p := r.a.start[j]; p < r.a.start[j+1]; p++ {
			if i := rowNew[r.a.index[p]]; i >= 0 && r.a.value[p] != 0 {
				out.a.index = append(out.a.index, i)
				out.a.value = append(out.a.value, r.a.value[p])
			}
		}
		out.closeColumn(cost[j], r.lower[j], r.upper[j])
	}
	out.closeRows(st.rowMap, rlo, rup)
	st.out = out
	return st
}

// postsolve maps a solution of the stage's output problem (x, row duals y in
// minimization sense, basis b) to its input problem, undoing the reductions in reverse:
// a dominated column returns at its bound, nonbasic; an implied-free singleton is set
// from its row, basic, and the row (an equality, nonbasic) takes the dual c_k/b.
func (st *colStage) postsolve(xo, yo []float64, bo *solvers.Basis) ([]float64, []float64, *solvers.Basis) {
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
		switch op.kind {
		case colOpDominated:
			x[op.col] = op.value
			b.Cols[op.col] = solvers.AtLower
			if op.upper {
				b.Cols[op.col] = solvers.AtUpper
			}
		case colOpRedundantRow:
			y[op.row] = 0
			b.Rows[op.row] = solvers.Basic
		case colOpForcingRow:
			st.postsolveForcing(op, x, y, b)
		case colOpImpliedFree:
			act := 0.0
			for _, e := range op.others {
				act += e.val * x[e.row]
			}
			x[op.col] = (op.r - act) / op.b
			b.Cols[op.col] = solvers.Basic
			switch {
			case in.rowLower[op.row] == in.rowUpper[op.row]:
				b.Rows[op.row] = solvers.Fixed
			case op.upper:
				b.Rows[op.row] = solvers.AtUpper
			default:
				b.Rows[op.row] = solvers.AtLower
			}
			y[op.row] = op.c / op.b
		}
	}
	return x, y, b
}

// postsolveForcing restores a forcing row's columns at their bounds and chooses the row's
// dual: each column's reduced cost d_j = d0_j − a_j·y_i (d0_j without the row) must keep
// the sign its bound needs, which for every column bounds y_i on the side the row's met
// bound allows (y_i ≤ 0 at the upper bound, ≥ 0 at the lower, in minimization form). The
// row takes the least |y_i| that meets them all; when that is not 0, the column that sets
// it becomes basic (d_j = 0) and the row nonbasic at its bound.
func (st *colStage) postsolveForcing(op *colOp, x, y []float64, b *solvers.Basis) {
	yi, basic := 0.0, -1
	for t, fc := range op.fixed {
		x[fc.col] = fc.value
		b.Cols[fc.col] = solvers.AtLower
		if fc.upper {
			b.Cols[fc.col] = solvers.AtUpper
		}
		d0 := fc.c
		for _, e := range fc.others {
			d0 -= e.val * y[e.row]
		}
		bound := d0 / fc.a
		if (op.upper && bound < yi) || (!op.upper && bound > yi) {
			yi, basic = bound, t
		}
	}
	y[op.row] = yi
	if basic < 0 {
		b.Rows[op.row] = solvers.Basic
		return
	}
	b.Cols[op.fixed[basic].col] = solvers.Basic
	in := st.in
	switch {
	case in.rowLower[op.row] == in.rowUpper[op.row]:
		b.Rows[op.row] = solvers.Fixed
	case op.upper:
		b.Rows[op.row] = solvers.AtUpper
	default:
		b.Rows[op.row] = solvers.AtLower
	}
}
