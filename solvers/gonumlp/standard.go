package gonumlp

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// presolveOutcome is what the conversion alone proved.
type presolveOutcome int

const (
	needsSolve     presolveOutcome = iota // the standard form has rows: run lp.Simplex
	solvedByPresol                        // no rows are left: x is determined
	infeasibleRows                        // an empty or dependent row contradicts its bounds
)

// colMap recovers an original column from the standard-form solution:
// x_j = base + x′[plus] − x′[minus], an index of −1 meaning "absent".
type colMap struct {
	base        float64
	plus, minus int
}

// standardForm is min cᵀx′ s.t. Ax′ = b, x′ ≥ 0, and how to map x′ back.
type standardForm struct {
	c    []float64
	a    *mat.Dense // nil when there are no rows
	b    []float64
	cols []colMap // one per original column
	// unboundedCol is an original column whose cost improves without bound and that
	// appears in no kept row, or −1. With it the problem is Unbounded exactly when the
	// standard form is feasible, so c is all zero in that case.
	unboundedCol int
}

// depTol is the relative size below which a reduced equality row counts as dependent.
const depTol = 1e-9

// toStandardForm converts p (already validated, LP only). feasTol is the tolerance for
// the rows presolve decides on its own.
func toStandardForm(p *model.Problem, feasTol float64) (*standardForm, presolveOutcome) {
	n, m := p.NumCols(), p.NumRows()
	sigma := float64(p.Sense)
	fixed := make([]bool, n)
	for j := range n {
		fixed[j] = p.ColLower[j] == p.ColUpper[j]
	}
	// Row bounds after substituting the fixed columns, and the dense rows over the rest.
	lo := append([]float64(nil), p.RowLower...)
	up := append([]float64(nil), p.RowUpper...)
	rows := make([][]float64, m)
	nnz := make([]int, m)
	for j := range n {
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			i, v := p.AIndex[k], p.AValue[k]
			if fixed[j] {
				lo[i] -= v * p.ColLower[j]
				up[i] -= v * p.ColLower[j]
				continue
			}
			if rows[i] == nil {
				rows[i] = make([]float64, n)
			}
			rows[i][j] = v
			nnz[i]++
		}
	}
	keep := make([]bool, m)
	for i := range m {
		free := math.IsInf(lo[i], -1) && math.IsInf(up[i], 1)
		switch {
		case free:
		case nnz[i] == 0:
			if lo[i] > feasTol*scale(p.RowLower[i]) || up[i] < -feasTol*scale(p.RowUpper[i]) {
				return nil, infeasibleRows
			}
		default:
			keep[i] = true
		}
	}
	if !dropDependentEqualities(rows, lo, up, keep, feasTol) {
		return nil, infeasibleRows
	}

	sf := &standardForm{cols: make([]colMap, n), unboundedCol: -1}
	inKept := make([]bool, n)
	for i := range m {
		if keep[i] {
			for j, v := range rows[i] {
				if v != 0 {
					inKept[j] = true
				}
			}
		}
	}
	// Columns: fixed and empty ones get their value now; the others become one or two
	// standard columns with the row shifts their bounds imply.
	type stdCol struct {
		orig  int
		sign  float64 // +1: x′ enters like x; −1: mirrored or the negative part
		upper float64 // finite: x′ ≤ upper needs a row
	}
	var scols []stdCol
	for j := range n {
		l, u, c := p.ColLower[j], p.ColUpper[j], sigma*p.ColCost[j]
		cm := colMap{plus: -1, minus: -1}
		switch {
		case fixed[j]:
			cm.base = l
		case !inKept[j]:
			switch {
			case c > 0:
				cm.base = l
			case c < 0:
				cm.base = u
			default:
				cm.base = math.Max(l, math.Min(u, 0))
			}
			if math.IsInf(cm.base, 0) {
				sf.unboundedCol = j
				cm.base = math.Max(l, math.Min(u, 0))
			}
		case !math.IsInf(l, -1):
			cm.base, cm.plus = l, len(scols)
			scols = append(scols, stdCol{orig: j, sign: 1, upper: u - l})
		case !math.IsInf(u, 1):
			cm.base, cm.minus = u, len(scols)
			scols = append(scols, stdCol{orig: j, sign: -1, upper: inf})
		default:
			cm.plus = len(scols)
			scols = append(scols, stdCol{orig: j, sign: 1, upper: inf})
			cm.minus = len(scols)
			scols = append(scols, stdCol{orig: j, sign: -1, upper: inf})
		}
		sf.cols[j] = cm
		if cm.plus < 0 && cm.minus < 0 || cm.base == 0 {
			continue
		}
		for i := range m {
			if keep[i] && rows[i][j] != 0 {
				lo[i] -= rows[i][j] * cm.base
				up[i] -= rows[i][j] * cm.base
			}
		}
	}

	// Standard rows: kept rows, then one per ranged row, then one per bounded column.
	var keptRows []int
	nRanged, nUpper := 0, 0
	for i := range m {
		if keep[i] {
			keptRows = append(keptRows, i)
			if lo[i] != up[i] && !math.IsInf(lo[i], -1) && !math.IsInf(up[i], 1) {
				nRanged++
			}
		}
	}
	for _, sc := range scols {
		if !math.IsInf(sc.upper, 1) {
			nUpper++
		}
	}
	ms := len(keptRows) + nRanged + nUpper
	if ms == 0 {
		return sf, solvedByPresol
	}
	// Columns: structural, then one slack per inequality row, ranged row and bounded column.
	nSlack := 0
	for _, i := range keptRows {
		if lo[i] != up[i] {
			nSlack++
		}
	}
	ns := len(scols) + nSlack + nRanged + nUpper
	a := mat.NewDense(ms, ns, nil)
	b := make([]float64, ms)
	c := make([]float64, ns)
	if sf.unboundedCol < 0 {
		for k, sc := range scols {
			c[k] = sc.sign * sigma * p.ColCost[sc.orig]
		}
	}
	next := len(scols) // next slack column
	extra := len(keptRows)
	for r, i := range keptRows {
		for k, sc := range scols {
			if v := rows[i][sc.orig]; v != 0 {
				a.Set(r, k, sc.sign*v)
			}
		}
		switch {
		case lo[i] == up[i]:
			b[r] = lo[i]
		case math.IsInf(up[i], 1):
			a.Set(r, next, -1)
			b[r] = lo[i]
			next++
		case math.IsInf(lo[i], -1):
			a.Set(r, next, 1)
			b[r] = up[i]
			next++
		default: // ranged: aᵀx − s = lo, s + t = up − lo
			a.Set(r, next, -1)
			b[r] = lo[i]
			a.Set(extra, next, 1)
			a.Set(extra, next+1, 1)
			b[extra] = up[i] - lo[i]
			next += 2
			extra++
		}
	}
	for k, sc := range scols {
		if !math.IsInf(sc.upper, 1) {
			a.Set(extra, k, 1)
			a.Set(extra, next, 1)
			b[extra] = sc.upper
			next++
			extra++
		}
	}
	// Row equilibration: x′ is unchanged, the basis matrices gonum factors are better
	// conditioned.
	for r := range ms {
		row := a.RawRowView(r)
		s := 0.0
		for _, v := range row {
			s = math.Max(s, math.Abs(v))
		}
		if s != 0 && s != 1 {
			for k := range row {
				row[k] /= s
			}
			b[r] /= s
		}
	}
	sf.a, sf.b, sf.c = a, b, c
	return sf, needsSolve
}

// dropDependentEqualities clears keep[i] for every kept equality row that is a linear
// combination of earlier ones, by incremental Gaussian elimination with partial pivoting.
// It returns false when such a row's bound disagrees with the combination (no point
// satisfies both). Rows with a slack need no test: their slack columns make them
// independent.
func dropDependentEqualities(rows [][]float64, lo, up []float64, keep []bool, feasTol float64) bool {
	type pivotRow struct {
		v   []float64
		rhs float64
		col int
	}
	var basis []pivotRow
	for i := range rows {
		if !keep[i] || lo[i] != up[i] {
			continue
		}
		v := append([]float64(nil), rows[i]...)
		rhs := lo[i]
		norm := 0.0
		for _, x := range v {
			norm = math.Max(norm, math.Abs(x))
		}
		for _, pr := range basis {
			if f := v[pr.col] / pr.v[pr.col]; f != 0 {
				for k, x := range pr.v {
					v[k] -= f * x
				}
				v[pr.col] = 0
				rhs -= f * pr.rhs
			}
		}
		piv, big := -1, depTol*norm
		for k, x := range v {
			if math.Abs(x) > big {
				piv, big = k, math.Abs(x)
			}
		}
		if piv >= 0 {
			basis = append(basis, pivotRow{v: v, rhs: rhs, col: piv})
			continue
		}
		if math.Abs(rhs) > feasTol*scale(lo[i]) {
			return false
		}
		keep[i] = false
	}
	return true
}

// solveSquare handles a standard form with as many rows as columns: its rows are
// independent, so Ax′ = b has one solution, and the problem is feasible exactly when that
// solution is nonnegative (within feasTol).
func (sf *standardForm) solveSquare(feasTol float64) ([]float64, solvers.Status) {
	n, _ := sf.a.Dims()
	var lu mat.LU
	lu.Factorize(sf.a)
	var x mat.VecDense
	if err := lu.SolveVecTo(&x, false, mat.NewVecDense(n, sf.b)); err != nil {
		return nil, solvers.NumericalError
	}
	xs := make([]float64, n)
	for k := range n {
		v := x.AtVec(k)
		if math.IsNaN(v) || v < -feasTol*scale(v) {
			return nil, solvers.Infeasible
		}
		xs[k] = math.Max(0, v)
	}
	return xs, solvers.Optimal
}

// recover maps a standard-form solution back to the original columns.
func (sf *standardForm) recover(xs []float64) []float64 {
	x := make([]float64, len(sf.cols))
	for j, cm := range sf.cols {
		x[j] = cm.base
		if cm.plus >= 0 {
			x[j] += math.Max(0, xs[cm.plus])
		}
		if cm.minus >= 0 {
			x[j] -= math.Max(0, xs[cm.minus])
		}
	}
	return x
}

var inf = math.Inf(1)

func scale(v float64) float64 {
	if math.IsInf(v, 0) {
		return 1
	}
	return math.Max(1, math.Abs(v))
}
