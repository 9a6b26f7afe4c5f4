package qp

import (
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/model"
)

// Size limits: the solver keeps dense matrices, so it refuses problems whose dense parts
// would not fit comfortably in memory.
const (
	// MaxDenseBlock is the largest number of variables coupled through the Hessian (one
	// connected component of its sparsity graph) that the solver accepts: each component
	// gets a dense Cholesky factor, O(size²) memory and O(size²) work per active-set change.
	MaxDenseBlock = 5000
	// MaxWorkingEntries bounds n·k + k², the dense storage of the working-set matrices,
	// where k = min(n, number of constrained rows) is the most general rows that can be
	// active at once (25e6 float64s = 200 MB).
	MaxWorkingEntries = 25_000_000
)

// problem is a model.Problem turned into the solver's internal minimization form
//
//	minimize ½xᵀHx + cᵀx  s.t.  rlo ≤ Ax ≤ rup,  lo ≤ x ≤ up
//
// with H = sense·Q and c = sense·ColCost. H's diagonal is in hDiag and its off-diagonal
// entries in CSC (hStart, hIndex, hValue) with both triangles, so that column j lists
// every neighbour of variable j.
type problem struct {
	n, m   int
	c      []float64
	hStart []int
	hIndex []int
	hValue []float64
	hDiag  []float64
	lo, up []float64
	rlo    []float64
	rup    []float64
	aStart []int
	aIndex []int
	aValue []float64
	rStart []int
	rIndex []int
	rValue []float64
	// rowNorm is the Euclidean norm of each row of A; violations are compared after
	// dividing by it so that scaling a row does not change which row is picked.
	rowNorm []float64
	hMax    float64 // largest |H_jj|
	cMax    float64 // largest |c_j|
}

func newProblem(p *model.Problem) (*problem, error) {
	n, m := p.NumCols(), p.NumRows()
	sense := float64(p.Sense)
	q := &problem{
		n: n, m: m,
		c:      make([]float64, n),
		hDiag:  make([]float64, n),
		lo:     p.ColLower,
		up:     p.ColUpper,
		rlo:    p.RowLower,
		rup:    p.RowUpper,
		aStart: p.AStart,
		aIndex: p.AIndex,
		aValue: p.AValue,
	}
	for j, cj := range p.ColCost {
		q.c[j] = sense * cj
		q.cMax = max(q.cMax, math.Abs(cj))
	}
	q.rStart, q.rIndex, q.rValue = p.Transpose()
	q.rowNorm = make([]float64, m)
	for i := range m {
		s := 0.0
		for k := q.rStart[i]; k < q.rStart[i+1]; k++ {
			s += q.rValue[k] * q.rValue[k]
		}
		q.rowNorm[i] = math.Sqrt(s)
	}
	// Full symmetric H from the lower triangle.
	cnt := make([]int, n+1)
	if p.QStart != nil {
		for j := range n {
			for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
				if i := p.QIndex[k]; i != j {
					cnt[j+1]++
					cnt[i+1]++
				}
			}
		}
	}
	for j := range n {
		cnt[j+1] += cnt[j]
	}
	q.hStart = slices.Clone(cnt)
	q.hIndex = make([]int, cnt[n])
	q.hValue = make([]float64, cnt[n])
	next := slices.Clone(cnt[:n])
	put := func(col, row int, v float64) {
		q.hIndex[next[col]] = row
		q.hValue[next[col]] = v
		next[col]++
	}
	if p.QStart != nil {
		// Visiting columns in order and emitting the transposed (upper) entries of earlier
		// columns first keeps every column's row indices sorted.
		for j := range n {
			for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
				i, v := p.QIndex[k], sense*p.QValue[k]
				if i == j {
					q.hDiag[j] = v
					q.hMax = max(q.hMax, math.Abs(v))
				} else {
					put(i, j, v)
				}
			}
		}
		for j := range n {
			for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
				if i := p.QIndex[k]; i != j {
					put(j, i, sense*p.QValue[k])
				}
			}
		}
	}
	return q, nil
}

// components partitions the variables into the connected components of H's sparsity
// graph (union-find), each listed in increasing order.
func (q *problem) components() [][]int {
	parent := make([]int, q.n)
	for j := range parent {
		parent[j] = j
	}
	var find func(int) int
	find = func(a int) int {
		for parent[a] != a {
			parent[a] = parent[parent[a]]
			a = parent[a]
		}
		return a
	}
	for j := range q.n {
		for k := q.hStart[j]; k < q.hStart[j+1]; k++ {
			a, b := find(j), find(q.hIndex[k])
			if a != b {
				parent[max(a, b)] = min(a, b)
			}
		}
	}
	id := make([]int, q.n)
	for j := range id {
		id[j] = -1
	}
	var comps [][]int
	for j := range q.n {
		r := find(j)
		if id[r] < 0 {
			id[r] = len(comps)
			comps = append(comps, nil)
		}
		comps[id[r]] = append(comps[id[r]], j)
	}
	return comps
}

// checkSize enforces MaxDenseBlock and MaxWorkingEntries.
func (q *problem) checkSize(comps [][]int) error {
	big := 0
	for _, c := range comps {
		big = max(big, len(c))
	}
	if big > MaxDenseBlock {
		return fmt.Errorf("qp: %d variables are coupled through the Hessian; the dense Cholesky factor is limited to %d", big, MaxDenseBlock)
	}
	constrained := 0
	for i := range q.m {
		if !math.IsInf(q.rlo[i], -1) || !math.IsInf(q.rup[i], 1) {
			constrained++
		}
	}
	k := min(q.n, constrained)
	if w := float64(q.n)*float64(k) + float64(k)*float64(k); w > MaxWorkingEntries {
		return fmt.Errorf("qp: %d variables and %d constrained rows need up to %.3g dense working entries; the limit is %d", q.n, constrained, w, MaxWorkingEntries)
	}
	return nil
}
