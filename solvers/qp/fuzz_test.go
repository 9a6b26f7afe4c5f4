package qp

import (
	"context"
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// fuzzValues is the palette fuzz bytes index into: ordinary numbers, ties, extremes and
// values Validate must reject.
var fuzzValues = []float64{0, 1, -1, 0.5, -2, 3, 1e-9, -1e9, 2, -0.25, math.Inf(1), math.Inf(-1), math.NaN(), 1e12, 7, -3}

// fuzzProblem decodes bytes into a small problem, options and a warm start. Every byte
// string decodes to something; invalid problems are part of the domain.
func fuzzProblem(data []byte) (*model.Problem, solvers.Options) {
	pos := 0
	next := func() byte {
		if pos >= len(data) {
			pos++
			return byte(pos * 37)
		}
		b := data[pos]
		pos++
		return b
	}
	val := func() float64 { return fuzzValues[int(next())%len(fuzzValues)] }
	n, m := int(next())%5+1, int(next())%4
	p := &model.Problem{Sense: model.Minimize, AStart: make([]int, n+1)}
	if next()%2 == 1 {
		p.Sense = model.Maximize
	}
	for range n {
		p.ColCost = append(p.ColCost, val())
		lo, up := val(), val()
		if next()%3 == 0 {
			lo = up
		}
		p.ColLower, p.ColUpper = append(p.ColLower, lo), append(p.ColUpper, up)
	}
	for range m {
		lo, up := val(), val()
		if next()%3 == 0 {
			lo = up
		}
		p.RowLower, p.RowUpper = append(p.RowLower, lo), append(p.RowUpper, up)
	}
	if m == 0 {
		p.RowLower, p.RowUpper = []float64{}, []float64{}
	}
	for j := range n {
		for i := range m {
			if next()%2 == 1 {
				if v := val(); v != 0 {
					p.AIndex = append(p.AIndex, i)
					p.AValue = append(p.AValue, v)
				}
			}
		}
		p.AStart[j+1] = len(p.AIndex)
	}
	if next()%2 == 1 {
		p.QStart = make([]int, n+1)
		for j := range n {
			for i := j; i < n; i++ {
				if next()%2 == 1 {
					v := val()
					if i == j {
						v = math.Abs(v) // mostly convex, but off-diagonals can break it
					}
					if v != 0 {
						p.QIndex = append(p.QIndex, i)
						p.QValue = append(p.QValue, v)
					}
				}
			}
			p.QStart[j+1] = len(p.QIndex)
		}
		if p.Sense == model.Maximize {
			for k := range p.QValue {
				p.QValue[k] = -p.QValue[k]
			}
		}
	}
	var opt solvers.Options
	opt.IterationLimit = int(next()) % 8 // 0: none
	if next()%2 == 1 {
		b := &solvers.Basis{Cols: make([]solvers.BasisStatus, n)}
		for j := range b.Cols {
			b.Cols[j] = solvers.BasisStatus(next() % 5)
		}
		for range int(next()) % (m + 1) {
			b.Rows = append(b.Rows, solvers.BasisStatus(next()%5))
		}
		opt.WarmStart = b
	}
	return p, opt
}

// FuzzSolve feeds random small problems to the solver: it must never panic, and every
// Solution must be structurally sound (vectors of the right length and finite for an
// optimum, nil X otherwise).
func FuzzSolve(f *testing.F) {
	for _, seed := range [][]byte{
		{},
		{2, 1, 0, 1, 0, 3, 0, 1, 2, 5, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0},
		{4, 3, 1, 2, 9, 4, 0, 14, 3, 2, 1, 1, 0, 0, 8, 8, 2, 5, 5, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9},
		{1, 0, 0, 8, 10, 11, 1, 1, 1, 7, 0, 0},
		{3, 2, 1, 9, 0, 1, 2, 3, 0, 1, 5, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 2},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, opt := fuzzProblem(data)
		sol, err := New().Solve(context.Background(), p, opt)
		if err != nil {
			return
		}
		n, m := p.NumCols(), p.NumRows()
		if sol.Status != solvers.Optimal {
			if sol.X != nil {
				t.Fatalf("status %v with X set", sol.Status)
			}
			return
		}
		if len(sol.X) != n || len(sol.RowDual) != m || len(sol.ReducedCost) != n || len(sol.RowActivity) != m {
			t.Fatalf("lengths x %d, y %d, d %d, Ax %d for n=%d m=%d", len(sol.X), len(sol.RowDual), len(sol.ReducedCost), len(sol.RowActivity), n, m)
		}
		for _, v := range [][]float64{sol.X, sol.RowDual, sol.RowActivity} {
			for _, x := range v {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("non-finite value in an optimal solution: x=%v y=%v", sol.X, sol.RowDual)
				}
			}
		}
	})
}
