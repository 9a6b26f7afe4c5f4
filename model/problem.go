package model

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Problem is a compiled model in compressed sparse column form:
//
//	minimize or maximize  Σ_j ColCost[j]·x_j + ½ xᵀQx + Offset
//	subject to            RowLower[i] ≤ Σ_j A[i,j]·x_j ≤ RowUpper[i]
//	                      ColLower[j] ≤ x_j ≤ ColUpper[j]
//	                      x_j integer where Integrality[j]
//
// Column j of A has its row indices in AIndex[AStart[j]:AStart[j+1]] (strictly increasing)
// and values in AValue at the same positions; no stored value is zero. Infinite bounds are
// ±Inf. Q is symmetric and stored as its lower triangle in the same CSC layout (QStart
// nil when there is no quadratic part). Integrality is nil when no column is integer.
// ColNames and RowNames have one entry per column and row ("" when unnamed).
type Problem struct {
	Name    string
	ObjName string
	Sense   Sense
	Offset  float64

	ColCost  []float64
	ColLower []float64
	ColUpper []float64
	RowLower []float64
	RowUpper []float64

	AStart []int
	AIndex []int
	AValue []float64

	QStart []int
	QIndex []int
	QValue []float64

	Integrality []bool
	ColNames    []string
	RowNames    []string
}

// NumCols is the number of variables.
func (p *Problem) NumCols() int { return len(p.ColCost) }

// NumRows is the number of constraints.
func (p *Problem) NumRows() int { return len(p.RowLower) }

// NumNonzeros is the number of stored entries of A.
func (p *Problem) NumNonzeros() int { return len(p.AIndex) }

// HasQuadratic reports whether the objective has a nonzero quadratic part.
func (p *Problem) HasQuadratic() bool { return len(p.QValue) > 0 }

// HasInteger reports whether any column is integer.
func (p *Problem) HasInteger() bool { return slices.Contains(p.Integrality, true) }

// Kind is "LP", "MIP", "QP" or "MIQP".
func (p *Problem) Kind() string {
	switch q, i := p.HasQuadratic(), p.HasInteger(); {
	case q && i:
		return "MIQP"
	case q:
		return "QP"
	case i:
		return "MIP"
	}
	return "LP"
}

// Clone returns a deep copy.
func (p *Problem) Clone() *Problem {
	c := *p
	c.ColCost = slices.Clone(p.ColCost)
	c.ColLower = slices.Clone(p.ColLower)
	c.ColUpper = slices.Clone(p.ColUpper)
	c.RowLower = slices.Clone(p.RowLower)
	c.RowUpper = slices.Clone(p.RowUpper)
	c.AStart = slices.Clone(p.AStart)
	c.AIndex = slices.Clone(p.AIndex)
	c.AValue = slices.Clone(p.AValue)
	c.QStart = slices.Clone(p.QStart)
	c.QIndex = slices.Clone(p.QIndex)
	c.QValue = slices.Clone(p.QValue)
	c.Integrality = slices.Clone(p.Integrality)
	c.ColNames = slices.Clone(p.ColNames)
	c.RowNames = slices.Clone(p.RowNames)
	return &c
}

// Objective returns cᵀx + ½xᵀQx + Offset.
func (p *Problem) Objective(x []float64) float64 {
	s := p.Offset
	for j, c := range p.ColCost {
		s += c * x[j]
	}
	if p.QStart != nil {
		for j := range p.NumCols() {
			for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
				i := p.QIndex[k]
				if i == j {
					s += 0.5 * p.QValue[k] * x[j] * x[j]
				} else {
					s += p.QValue[k] * x[i] * x[j]
				}
			}
		}
	}
	return s
}

// RowActivity returns Ax.
func (p *Problem) RowActivity(x []float64) []float64 {
	r := make([]float64, p.NumRows())
	for j := range p.NumCols() {
		xj := x[j]
		if xj == 0 {
			continue
		}
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			r[p.AIndex[k]] += p.AValue[k] * xj
		}
	}
	return r
}

// Transpose returns A in compressed sparse row form (start has NumRows+1 entries).
func (p *Problem) Transpose() (start, index []int, value []float64) {
	m := p.NumRows()
	start = make([]int, m+1)
	for _, i := range p.AIndex {
		start[i+1]++
	}
	for i := range m {
		start[i+1] += start[i]
	}
	next := slices.Clone(start[:m])
	index = make([]int, len(p.AIndex))
	value = make([]float64, len(p.AValue))
	for j := range p.NumCols() {
		for k := p.AStart[j]; k < p.AStart[j+1]; k++ {
			i := p.AIndex[k]
			index[next[i]] = j
			value[next[i]] = p.AValue[k]
			next[i]++
		}
	}
	return start, index, value
}

// Validate checks the structural invariants documented on Problem and that every number
// is usable: finite costs and coefficients, no NaN bounds, lower ≤ upper, no bound of +Inf
// below or −Inf above. Solvers call it before they start.
func (p *Problem) Validate() error {
	var errs []error
	add := func(format string, args ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	n, m := len(p.ColCost), len(p.RowLower)
	if p.Sense != Minimize && p.Sense != Maximize {
		add("problem: unknown sense %d", p.Sense)
	}
	if len(p.ColLower) != n || len(p.ColUpper) != n {
		add("problem: %d costs but %d lower and %d upper column bounds", n, len(p.ColLower), len(p.ColUpper))
	}
	if len(p.RowUpper) != m {
		add("problem: %d row lower bounds but %d upper", m, len(p.RowUpper))
	}
	if len(p.AStart) != n+1 {
		add("problem: AStart has %d entries, want %d", len(p.AStart), n+1)
	}
	if len(p.AIndex) != len(p.AValue) {
		add("problem: AIndex has %d entries, AValue %d", len(p.AIndex), len(p.AValue))
	}
	if p.Integrality != nil && len(p.Integrality) != n {
		add("problem: Integrality has %d entries, want %d", len(p.Integrality), n)
	}
	if p.ColNames != nil && len(p.ColNames) != n {
		add("problem: ColNames has %d entries, want %d", len(p.ColNames), n)
	}
	if p.RowNames != nil && len(p.RowNames) != m {
		add("problem: RowNames has %d entries, want %d", len(p.RowNames), m)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if math.IsNaN(p.Offset) || math.IsInf(p.Offset, 0) {
		add("problem: objective offset %g is not finite", p.Offset)
	}
	for j := range n {
		if c := p.ColCost[j]; math.IsNaN(c) || math.IsInf(c, 0) {
			add("problem: column %s: cost %g is not finite", p.colName(j), c)
		}
		if err := checkBounds(p.ColLower[j], p.ColUpper[j]); err != "" {
			add("problem: column %s: %s", p.colName(j), err)
		}
	}
	for i := range m {
		if err := checkBounds(p.RowLower[i], p.RowUpper[i]); err != "" {
			add("problem: row %s: %s", p.rowName(i), err)
		}
	}
	if err := checkCSC("A", p.AStart, p.AIndex, p.AValue, n, m, false); err != nil {
		add("%v", err)
	}
	if p.QStart != nil || len(p.QIndex) > 0 || len(p.QValue) > 0 {
		if len(p.QStart) != n+1 {
			add("problem: QStart has %d entries, want %d", len(p.QStart), n+1)
		} else if err := checkCSC("Q", p.QStart, p.QIndex, p.QValue, n, n, true); err != nil {
			add("%v", err)
		}
	}
	return errors.Join(errs...)
}

func checkBounds(lo, hi float64) string {
	switch {
	case math.IsNaN(lo) || math.IsNaN(hi):
		return "NaN bound"
	case lo > hi:
		return fmt.Sprintf("lower bound %g > upper bound %g", lo, hi)
	case math.IsInf(lo, 1) || math.IsInf(hi, -1):
		return fmt.Sprintf("bounds [%g, %g] admit no finite value", lo, hi)
	}
	return ""
}

func checkCSC(name string, start, index []int, value []float64, ncol, nrow int, lower bool) error {
	if start[0] != 0 || start[ncol] != len(index) || len(index) != len(value) {
		return fmt.Errorf("problem: %s: start[0]=%d, start[n]=%d, %d indices, %d values", name, start[0], start[ncol], len(index), len(value))
	}
	for j := range ncol {
		if start[j+1] < start[j] {
			return fmt.Errorf("problem: %s: column %d: start decreases", name, j)
		}
		prev := -1
		for k := start[j]; k < start[j+1]; k++ {
			i := index[k]
			if i < 0 || i >= nrow {
				return fmt.Errorf("problem: %s: column %d: row index %d out of range [0, %d)", name, j, i, nrow)
			}
			if i <= prev {
				return fmt.Errorf("problem: %s: column %d: row indices not strictly increasing", name, j)
			}
			if lower && i < j {
				return fmt.Errorf("problem: %s: entry (%d, %d) above the diagonal; store the lower triangle", name, i, j)
			}
			prev = i
			if v := value[k]; v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("problem: %s: entry (%d, %d) = %g; stored entries must be finite and nonzero", name, i, j, v)
			}
		}
	}
	return nil
}

func (p *Problem) colName(j int) string {
	if j < len(p.ColNames) && p.ColNames[j] != "" {
		return fmt.Sprintf("%d (%s)", j, p.ColNames[j])
	}
	return fmt.Sprint(j)
}

func (p *Problem) rowName(i int) string {
	if i < len(p.RowNames) && p.RowNames[i] != "" {
		return fmt.Sprintf("%d (%s)", i, p.RowNames[i])
	}
	return fmt.Sprint(i)
}
