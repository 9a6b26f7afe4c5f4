package modeltest

import (
	"fmt"
	"math"

	"github.com/coraopt/coraopt/model"
)

// Sample returns a small Problem with one of everything a file format must carry:
// maximization, an objective constant, integer and binary columns, every kind of row
// (<=, >=, =, ranged, free on both sides, and one unnamed), every kind of column bound
// (default, boxed, free and unnamed, fixed, negative, upper only), a column in no row,
// and a concave quadratic part (a convex maximization).
func Sample() *model.Problem {
	m := model.New("sample")
	x := m.Continuous(0, 4, "x")
	y := m.Integer(0, 10, "y")
	b := m.Binary("b")
	z := m.Continuous(math.Inf(-1), math.Inf(1), "")
	w := m.Continuous(-2, -0.5, "w")
	u := m.Continuous(math.Inf(-1), 3, "u")
	f := m.Continuous(1.25, 1.25, "f")
	m.Continuous(0, math.Inf(1), "empty")
	m.AddLe(model.Sum(x, y).Plus(b.Mul(2)), 8, "cap")
	m.AddGe(x.Mul(0.1).Plus(z.E()), 1e-7, "")
	m.AddEq(model.Sum(y, w, f), 3, "bal")
	m.AddRange(model.Sum(u, z), -1.5, 2.5, "band")
	m.AddRange(z.Mul(3).Plus(x.E()), math.Inf(-1), math.Inf(1), "free")
	obj := model.SumExpr(x.Mul(3), y.Mul(2), b.Mul(-1), u.E())
	obj.AddConst(12.5)
	m.Maximize(obj)
	m.AddQuadObj(x, x, -1)
	m.AddQuadObj(x, z, 0.5)
	m.AddQuadObj(z, z, -1) // Q = [[-2, 0.5], [0.5, -2]] on (x, z): concave
	p, err := m.Compile()
	if err != nil {
		panic("modeltest: Sample does not compile: " + err.Error()) // fixed data: a bug here
	}
	return p
}

// DiffTol is Diff with numbers compared to a relative tolerance rel and names ignored:
// for comparing a Problem with one that went through a lossy writer (HiGHS writes 10
// significant digits).
func DiffTol(a, b *model.Problem, rel float64) string {
	near := func(x, y float64) bool {
		return x == y || math.Abs(x-y) <= rel*math.Max(math.Abs(x), math.Abs(y))
	}
	switch {
	case a.NumRows() != b.NumRows() || a.NumCols() != b.NumCols() || a.NumNonzeros() != b.NumNonzeros() || len(a.QValue) != len(b.QValue):
		return fmt.Sprintf("sizes: %d rows, %d columns, %d nonzeros, %d Hessian entries versus %d, %d, %d, %d",
			a.NumRows(), a.NumCols(), a.NumNonzeros(), len(a.QValue), b.NumRows(), b.NumCols(), b.NumNonzeros(), len(b.QValue))
	case a.Sense != b.Sense:
		return fmt.Sprintf("sense %v versus %v", a.Sense, b.Sense)
	case !near(a.Offset, b.Offset):
		return fmt.Sprintf("offset %g versus %g", a.Offset, b.Offset)
	}
	for j := range a.NumCols() {
		ai := a.Integrality != nil && a.Integrality[j]
		bi := b.Integrality != nil && b.Integrality[j]
		if !near(a.ColCost[j], b.ColCost[j]) || !near(a.ColLower[j], b.ColLower[j]) || !near(a.ColUpper[j], b.ColUpper[j]) || ai != bi {
			return fmt.Sprintf("column %d: cost %g, bounds [%g, %g], integer %v versus %g, [%g, %g], %v",
				j, a.ColCost[j], a.ColLower[j], a.ColUpper[j], ai, b.ColCost[j], b.ColLower[j], b.ColUpper[j], bi)
		}
	}
	for i := range a.NumRows() {
		if !near(a.RowLower[i], b.RowLower[i]) || !near(a.RowUpper[i], b.RowUpper[i]) {
			return fmt.Sprintf("row %d: [%g, %g] versus [%g, %g]", i, a.RowLower[i], a.RowUpper[i], b.RowLower[i], b.RowUpper[i])
		}
	}
	for j := range a.NumCols() {
		if a.AStart[j] != b.AStart[j] {
			return fmt.Sprintf("column %d of A starts at %d versus %d", j, a.AStart[j], b.AStart[j])
		}
	}
	for k := range a.AValue {
		if a.AIndex[k] != b.AIndex[k] || !near(a.AValue[k], b.AValue[k]) {
			return fmt.Sprintf("entry %d of A: row %d, %g versus row %d, %g", k, a.AIndex[k], a.AValue[k], b.AIndex[k], b.AValue[k])
		}
	}
	for k := range a.QValue {
		if a.QIndex[k] != b.QIndex[k] || !near(a.QValue[k], b.QValue[k]) {
			return fmt.Sprintf("entry %d of Q: row %d, %g versus row %d, %g", k, a.QIndex[k], a.QValue[k], b.QIndex[k], b.QValue[k])
		}
	}
	if a.HasQuadratic() {
		for j := range a.NumCols() {
			if a.QStart[j] != b.QStart[j] {
				return fmt.Sprintf("column %d of Q starts at %d versus %d", j, a.QStart[j], b.QStart[j])
			}
		}
	}
	return ""
}
