package simplex

import (
	"math"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// reducedLP is the problem the simplex solves after presolve, in minimization form.
type reducedLP struct {
	m, n               int
	a                  sparseMatrix
	cost               []float64
	lower, upper       []float64
	rowLower, rowUpper []float64
}

// sizedReducedLP returns an empty reducedLP with room for n columns, m rows and nnz
// entries: the stages build their output by appends, and growing the arrays entry by
// entry cost a third of the bytes a mid-size solve allocated.
func sizedReducedLP(n, m, nnz int) *reducedLP {
	return &reducedLP{
		a: sparseMatrix{
			start: append(make([]int, 0, n+1), 0),
			index: make([]int, 0, nnz),
			value: make([]float64, 0, nnz),
		},
		cost:     make([]float64, 0, n),
		lower:    make([]float64, 0, n),
		upper:    make([]float64, 0, n),
		rowLower: make([]float64, 0, m),
		rowUpper: make([]float64, 0, m),
	}
}

// keptRows numbers the rows a stage keeps: rowNew[i] is row i's index in the stage's
// output (−1 when it is gone), rowMap the kept rows in order.
func keptRows(rowGone []bool) (rowNew, rowMap []int) {
	rowNew = make([]int, len(rowGone))
	rowMap = make([]int, 0, len(rowGone))
	for i, gone := range rowGone {
		rowNew[i] = -1
		if !gone {
			rowNew[i] = len(rowMap)
			rowMap = append(rowMap, i)
		}
	}
	return rowNew, rowMap
}

// closeColumn ends the column whose entries were just appended to r.a, with its cost and
// bounds.
func (r *reducedLP) closeColumn(cost, lo, up float64) {
	r.a.start = append(r.a.start, len(r.a.index))
	r.cost = append(r.cost, cost)
	r.lower = append(r.lower, lo)
	r.upper = append(r.upper, up)
}

// closeRows gives r the bounds of the kept rows rowMap (from rlo, rup of the stage's
// input) and sets its size.
func (r *reducedLP) closeRows(rowMap []int, rlo, rup []float64) {
	for _, i := range rowMap {
		r.rowLower = append(r.rowLower, rlo[i])
		r.rowUpper = append(r.rowUpper, rup[i])
	}
	r.n, r.m = len(r.cost), len(rowMap)
}

type presolveStatus int

const (
	presolveReduced    presolveStatus = iota // solve the reduced problem
	presolveInfeasible                       // a reduction proved infeasibility
)

type opKind int8

const (
	opEmptyRow     opKind = iota // row with no entries left: dual 0, logical basic
	opFixedCol                   // column with equal bounds: substituted out
	opEmptyCol                   // column with no entries left: set to its best bound
	opSingletonRow               // row with one entry: turned into bounds on its column
)

// presolveOp records one reduction for the postsolve. For a singleton row,
// lowerFromRow and upperFromRow say which of the column's bounds the row set, implLo and
// implUp are the bounds it implies and tolLo, tolUp its accuracy in the column's units.
type presolveOp struct {
	kind                       opKind
	row, col                   int
	coef                       float64
	value                      float64
	lowerFromRow, upperFromRow bool
	implLo, implUp             float64
	tolLo, tolUp               float64
}

// presolveResult holds the reduced problem and what it takes to return to the original.
type presolveResult struct {
	status              presolveStatus
	reduced             *reducedLP
	colMap, rowMap      []int // reduced index → original index
	ops                 []presolveOp
	unboundedIfFeasible bool // an empty column improves without bound
	fixedValue          []float64
	cost                []float64 // original costs, minimization sense
}

// identityPresolve wraps p without reductions (used for warm starts, whose basis refers
// to the original rows and columns).
func identityPresolve(p *model.Problem) *presolveResult {
	n, m := p.NumCols(), p.NumRows()
	sense := float64(p.Sense)
	r := &reducedLP{m: m, n: n,
		a:        sparseMatrix{start: p.AStart, index: p.AIndex, value: p.AValue},
		cost:     make([]float64, n),
		lower:    p.ColLower,
		upper:    p.ColUpper,
		rowLower: p.RowLower,
		rowUpper: p.RowUpper,
	}
	for j, c := range p.ColCost {
		r.cost[j] = sense * c
	}
	pr := &presolveResult{status: presolveReduced, reduced: r, colMap: identity(n), rowMap: identity(m), cost: r.cost}
	return pr
}

func identity(n int) []int {
	v := make([]int, n)
	for i := range v {
		v[i] = i
	}
	return v
}

// presolve applies the light reductions until none applies: empty rows, empty columns,
// fixed columns and singleton rows (which become column bounds). It never changes the
// optimal value; postsolve recovers primal values, row duals and a basis of the original
// problem.
func presolve(p *model.Problem, tol float64) *presolveResult {
	n, m := p.NumCols(), p.NumRows()
	sense := float64(p.Sense)
	pr := &presolveResult{status: presolveReduced, fixedValue: make([]float64, n)}
	cost := make([]float64, n)
	for j, c := range p.ColCost {
		cost[j] = sense * c
	}
	pr.cost = cost
	lo := append([]float64(nil), p.ColLower...)
	up := append([]float64(nil), p.ColUpper...)
	// The accuracy each column bound carries: its own tolerance, or that of the singleton
	// row it came from, in the column's units.
	ltol := make([]float64, n)
	utol := make([]float64, n)
	rlo := append([]float64(nil), p.RowLower...)
	rup := append([]float64(nil), p.RowUpper...)
	// Each row keeps the count and the xor of its remaining columns: when one is left,
	// the xor names it (no transposed copy of A needed).
	colCount := make([]int, n)
	rowCount := make([]int, m)
	rowXor := make([]int, m)
	colGone := make([]bool, n)
	rowGone := make([]bool, m)
	// A free row constrains nothing: it goes first (dual 0, logical basic).
	for i := 0; i < m; i++ {
		if math.IsInf(rlo[i], -1) && math.IsInf(rup[i], 1) {
			rowGone[i] = true
			pr.ops = append(pr.ops, presolveOp{kind: opEmptyRow, row: i})
		}
	}
	for j := 0; j < n; j++ {
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			if i := p.AIndex[k]; !rowGone[i] {
				colCount[j]++
				rowCount[i]++
				rowXor[i] ^= j
			}
		}
	}

	removeCol := func(j int, v float64, kind opKind) {
		colGone[j] = true
		pr.fixedValue[j] = v
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			i := p.AIndex[k]
			if rowGone[i] {
				continue
			}
			rowCount[i]--
			rowXor[i] ^= j
			if v != 0 {
				rlo[i] -= p.AValue[k] * v
				rup[i] -= p.AValue[k] * v
			}
		}
		pr.ops = append(pr.ops, presolveOp{kind: kind, col: j, value: v})
	}
	feasTol := func(b float64) float64 {
		if math.IsInf(b, 0) {
			return tol
		}
		return tol * math.Max(1, math.Abs(b))
	}
	for j := range n {
		ltol[j], utol[j] = feasTol(lo[j]), feasTol(up[j])
	}

	for changed := true; changed; {
		changed = false
		for i := 0; i < m; i++ {
			if rowGone[i] {
				continue
			}
			switch rowCount[i] {
			case 0:
				if rlo[i] > feasTol(rlo[i]) || rup[i] < -feasTol(rup[i]) {
					pr.status = presolveInfeasible
					return pr
				}
				rowGone[i] = true
				pr.ops = append(pr.ops, presolveOp{kind: opEmptyRow, row: i})
				changed = true
			case 1:
				j, a := rowXor[i], 0.0
				for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
					if p.AIndex[k] == i {
						a = p.AValue[k]
						break
					}
				}
				implLo, implUp := rlo[i]/a, rup[i]/a
				// The row's accuracy in the column's units: the tolerance of the row
				// bound that implies each column bound, divided by |a|.
				tolLo, tolUp := feasTol(p.RowLower[i])/math.Abs(a), feasTol(p.RowUpper[i])/math.Abs(a)
				if a < 0 {
					implLo, implUp = rup[i]/a, rlo[i]/a
					tolLo, tolUp = tolUp, tolLo
				}
				op := presolveOp{kind: opSingletonRow, row: i, col: j, coef: a,
					implLo: implLo, implUp: implUp, tolLo: tolLo, tolUp: tolUp}
				// A bound tighter by less than a tenth of that accuracy is left alone: the
				// row is then redundant within its tolerance (and, with a tiny a, carrying
				// its column's reduced cost would need a huge dual). A bound that crosses
				// the opposite one by less than the looser of their accuracies fixes the
				// column at the tighter of the two: the looser source is then met within
				// its own tolerance, and postsolve still finds it active.
				if implLo > lo[j]+0.1*tolLo {
					switch {
					case implLo <= up[j]:
						lo[j], ltol[j] = implLo, tolLo
						op.lowerFromRow = true
					case implLo-up[j] > math.Max(tolLo, utol[j]):
						pr.status = presolveInfeasible
						return pr
					case tolLo < utol[j]:
						lo[j], ltol[j], up[j] = implLo, tolLo, implLo
						op.lowerFromRow = true
					default:
						lo[j], ltol[j] = up[j], tolLo
						op.lowerFromRow = true
					}
				}
				if implUp < up[j]-0.1*tolUp {
					switch {
					case implUp >= lo[j]:
						up[j], utol[j] = implUp, tolUp
						op.upperFromRow = true
					case lo[j]-implUp > math.Max(tolUp, ltol[j]):
						pr.status = presolveInfeasible
						return pr
					case tolUp < ltol[j]:
						up[j], utol[j], lo[j] = implUp, tolUp, implUp
						op.upperFromRow = true
					default:
						up[j], utol[j] = lo[j], tolUp
						op.upperFromRow = true
					}
				}
				rowGone[i] = true
				colCount[j]--
				pr.ops = append(pr.ops, op)
				changed = true
			}
		}
		for j := 0; j < n; j++ {
			if colGone[j] {
				continue
			}
			switch {
			case lo[j] == up[j]:
				removeCol(j, lo[j], opFixedCol)
				changed = true
			case colCount[j] == 0:
				c := cost[j]
				var v float64
				switch {
				case c > 0:
					v = lo[j]
				case c < 0:
					v = up[j]
				case !math.IsInf(lo[j], -1):
					v = lo[j]
				case !math.IsInf(up[j], 1):
					v = up[j]
				}
				if math.IsInf(v, 0) {
					pr.unboundedIfFeasible = true
					v = 0
					if !math.IsInf(lo[j], -1) {
						v = lo[j]
					} else if !math.IsInf(up[j], 1) {
						v = up[j]
					}
				}
				removeCol(j, v, opEmptyCol)
				changed = true
			}
		}
	}

	if len(pr.ops) == 0 {
		id := identityPresolve(p)
		id.cost = cost
		id.reduced.cost = cost
		return id
	}
	// Build the reduced problem.
	pr.colMap = make([]int, 0, n)
	pr.rowMap = make([]int, 0, m)
	colNew := make([]int, n)
	for j := 0; j < n; j++ {
		colNew[j] = -1
		if !colGone[j] {
			colNew[j] = len(pr.colMap)
			pr.colMap = append(pr.colMap, j)
		}
	}
	rowNew := make([]int, m)
	for i := 0; i < m; i++ {
		rowNew[i] = -1
		if !rowGone[i] {
			rowNew[i] = len(pr.rowMap)
			pr.rowMap = append(pr.rowMap, i)
		}
	}
	r := &reducedLP{m: len(pr.rowMap), n: len(pr.colMap)}
	r.a.start = make([]int, 1, r.n+1)
	r.a.index = make([]int, 0, len(p.AIndex))
	r.a.value = make([]float64, 0, len(p.AIndex))
	r.cost = make([]float64, 0, r.n)
	r.lower = make([]float64, 0, r.n)
	r.upper = make([]float64, 0, r.n)
	r.rowLower = make([]float64, 0, r.m)
	r.rowUpper = make([]float64, 0, r.m)
	for _, j := range pr.colMap {
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			if i := rowNew[p.AIndex[k]]; i >= 0 {
				r.a.index = append(r.a.index, i)
				r.a.value = append(r.a.value, p.AValue[k])
			}
		}
		r.a.start = append(r.a.start, len(r.a.index))
		r.cost = append(r.cost, cost[j])
		r.lower = append(r.lower, lo[j])
		r.upper = append(r.upper, up[j])
	}
	for _, i := range pr.rowMap {
		r.rowLower = append(r.rowLower, rlo[i])
		r.rowUpper = append(r.rowUpper, rup[i])
	}
	pr.reduced = r
	return pr
}

// postsolve maps the reduced solution (primal xr, row duals yr in minimization sense,
// basis b) back to the original problem: removed columns get their fixed values, removed
// rows their duals (a singleton row whose implied bound is active takes over its
// column's reduced cost, and its column becomes basic in its place).
func (pr *presolveResult) postsolve(p *model.Problem, xr, yr []float64, b *solvers.Basis) ([]float64, []float64, *solvers.Basis) {
	n, m := p.NumCols(), p.NumRows()
	x := make([]float64, n)
	y := make([]float64, m)
	basis := &solvers.Basis{Cols: make([]solvers.BasisStatus, n), Rows: make([]solvers.BasisStatus, m)}
	for k, j := range pr.colMap {
		x[j] = xr[k]
		basis.Cols[j] = b.Cols[k]
	}
	for k, i := range pr.rowMap {
		y[i] = yr[k]
		basis.Rows[i] = b.Rows[k]
	}
	if len(pr.ops) == 0 {
		return x, y, basis
	}
	colStatusAt := func(j int, v float64) solvers.BasisStatus {
		lo, up := p.ColLower[j], p.ColUpper[j]
		switch {
		case lo == up:
			return solvers.Fixed
		case v == lo:
			return solvers.AtLower
		case v == up:
			return solvers.AtUpper
		case math.IsInf(lo, -1) && math.IsInf(up, 1) && v == 0:
			return solvers.AtZero
		}
		// Strictly inside its own bounds: a singleton row's bound holds it there, and
		// that row's postsolve makes it basic.
		return solvers.AtLower
	}
	rowStatusAt := func(i int, side int) solvers.BasisStatus {
		if p.RowLower[i] == p.RowUpper[i] {
			return solvers.Fixed
		}
		if side < 0 {
			return solvers.AtLower
		}
		return solvers.AtUpper
	}
	for k := len(pr.ops) - 1; k >= 0; k-- {
		op := &pr.ops[k]
		switch op.kind {
		case opEmptyRow:
			y[op.row] = 0
			basis.Rows[op.row] = solvers.Basic
		case opFixedCol, opEmptyCol:
			x[op.col] = op.value
			basis.Cols[op.col] = colStatusAt(op.col, op.value)
		case opSingletonRow:
			i, j, a := op.row, op.col, op.coef
			y[i] = 0
			basis.Rows[i] = solvers.Basic
			if basis.Cols[j] == solvers.Basic {
				continue
			}
			xj := x[j]
			loAct := op.lowerFromRow && math.Abs(xj-op.implLo) <= op.tolLo
			upAct := op.upperFromRow && math.Abs(xj-op.implUp) <= op.tolUp
			if !loAct && !upAct {
				continue
			}
			dj, mag := pr.cost[j], math.Abs(pr.cost[j])
			for t := p.AStart[j]; t < p.AStart[j+1]; t++ {
				v := p.AValue[t] * y[p.AIndex[t]]
				dj -= v
				mag += math.Abs(v)
			}
			// The sign of the reduced cost says which side is active: d > 0 the lower
			// bound, d < 0 the upper (a value at rounding level counts as zero, either
			// side). This row takes the dual when it set that side; otherwise the dual
			// belongs to another source and the row stays basic.
			zero := math.Abs(dj) <= 1e-9*math.Max(1, mag)
			lowerSide := false
			switch {
			case loAct && (dj > 0 || zero):
				lowerSide = true
			case upAct && (dj < 0 || zero):
			default:
				continue
			}
			y[i] = dj / a
			basis.Cols[j] = solvers.Basic
			// The row's activity a·x_j sits at the row bound that implied the column bound.
			if (a > 0) == lowerSide {
				basis.Rows[i] = rowStatusAt(i, -1)
			} else {
				basis.Rows[i] = rowStatusAt(i, 1)
			}
		}
	}
	return x, y, basis
}

// settleFixedStatuses gives every row and column that postsolve marked Fixed but whose
// own bounds differ the bound its dual (y, minimization sense) or reduced cost says is
// active. A presolve stage decides "equation" on its reduced problem, where shifting a
// row by fixed columns can round a range of a few ulps (say [7, 7 + 2e-15]) to one
// value; marked Fixed in the original problem, such a row reads as dual infeasible to a
// warm start, which then spends an iteration moving it to the bound it was at.
func settleFixedStatuses(p *model.Problem, x, y []float64, b *solvers.Basis) {
	if b == nil {
		return
	}
	side := func(mult, v, lo, up float64) solvers.BasisStatus {
		switch {
		case mult > 0 || math.IsInf(up, 1):
			return solvers.AtLower
		case mult < 0 || math.IsInf(lo, -1):
			return solvers.AtUpper
		case v-lo <= up-v:
			return solvers.AtLower
		}
		return solvers.AtUpper
	}
	var act []float64 // the activities, computed for the first row to settle
	for i, st := range b.Rows {
		if lo, up := p.RowLower[i], p.RowUpper[i]; st == solvers.Fixed && lo != up {
			if act == nil {
				act = p.RowActivity(x)
			}
			b.Rows[i] = side(y[i], act[i], lo, up)
		}
	}
	sense := float64(p.Sense)
	if sense == 0 {
		sense = 1
	}
	for j, st := range b.Cols {
		if lo, up := p.ColLower[j], p.ColUpper[j]; st == solvers.Fixed && lo != up {
			d := sense * p.ColCost[j]
			for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
				d -= p.AValue[k] * y[p.AIndex[k]]
			}
			b.Cols[j] = side(d, x[j], lo, up)
		}
	}
}
