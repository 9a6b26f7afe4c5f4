package simplex_test

import (
	"context"
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/simplex"
)

// byteSource hands out the fuzzer's bytes, then zeros.
type byteSource struct {
	b []byte
	i int
}

func (s *byteSource) next() byte {
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return s.b[s.i-1]
}

// value maps one or two bytes to a number, including the awkward ones: infinities, zero,
// huge, tiny, NaN.
func (s *byteSource) value() float64 {
	switch b := s.next(); b % 16 {
	case 0:
		return math.Inf(1)
	case 1:
		return math.Inf(-1)
	case 2:
		return 1e30
	case 3:
		return -1e-30
	case 4:
		return 0
	case 5:
		return math.NaN()
	case 6:
		return 1e-9 * float64(int8(s.next()))
	default:
		return float64(int8(s.next())) / 4
	}
}

// decodeProblem builds a small Problem (up to 7 columns and 7 rows) and maybe a warm
// start basis from fuzz bytes. The Problem may be invalid; Solve must say so with an error.
func decodeProblem(data []byte) (*model.Problem, *solvers.Basis) {
	s := &byteSource{b: data}
	n, m := int(s.next()%8), int(s.next()%8)
	p := &model.Problem{Name: "fuzz", Sense: model.Minimize}
	if s.next()%2 == 1 {
		p.Sense = model.Maximize
	}
	for range n {
		p.ColCost = append(p.ColCost, s.value())
		lo, up := s.value(), s.value()
		if s.next()%4 != 0 && lo > up {
			lo, up = up, lo
		}
		p.ColLower = append(p.ColLower, lo)
		p.ColUpper = append(p.ColUpper, up)
	}
	for range m {
		lo, up := s.value(), s.value()
		if s.next()%4 != 0 && lo > up {
			lo, up = up, lo
		}
		p.RowLower = append(p.RowLower, lo)
		p.RowUpper = append(p.RowUpper, up)
	}
	p.AStart = []int{0}
	for range n {
		for i := range m {
			if s.next()%3 == 0 {
				if v := s.value(); v != 0 {
					p.AIndex = append(p.AIndex, i)
					p.AValue = append(p.AValue, v)
				}
			}
		}
		p.AStart = append(p.AStart, len(p.AIndex))
	}
	if s.next()%2 == 0 {
		return p, nil
	}
	b := &solvers.Basis{}
	nc, nr := int(s.next()%9), int(s.next()%9)
	for range nc {
		b.Cols = append(b.Cols, solvers.BasisStatus(int8(s.next()%7)-1))
	}
	for range nr {
		b.Rows = append(b.Rows, solvers.BasisStatus(int8(s.next()%7)-1))
	}
	return p, b
}

// FuzzSolve: no Problem and no warm start basis panics the solver; a valid Problem gets a
// Solution whose vectors have the right lengths and finite entries when it is optimal.
func FuzzSolve(f *testing.F) {
	f.Add([]byte{2, 1, 0, 7, 4, 7, 8, 7, 0, 7, 2, 7, 4, 7, 4, 7, 12, 1, 0, 7, 3, 0, 7, 5})
	f.Add([]byte{3, 3, 1, 9, 9, 1, 7, 7, 9, 4, 0, 7, 2, 8, 200, 9, 9, 9, 0, 0, 0, 0, 7, 1, 7, 1, 0, 7, 3, 0, 7, 5, 0, 7, 7, 1, 3, 3, 1, 1, 2, 0, 1, 2})
	f.Add([]byte{1, 0, 0, 7, 250, 4, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, b := decodeProblem(data)
		// Bounded by IterationLimit, never by a clock.
		sol, err := simplex.New().Solve(context.Background(), p, solvers.Options{IterationLimit: 5000, WarmStart: b})
		if err != nil {
			if p.Validate() == nil && p.Kind() == "LP" {
				t.Fatalf("valid LP rejected: %v", err)
			}
			return
		}
		if p.Validate() != nil {
			t.Fatalf("invalid problem accepted: %v", p.Validate())
		}
		if sol.Status != solvers.Optimal {
			return
		}
		if len(sol.X) != p.NumCols() || len(sol.RowDual) != p.NumRows() || len(sol.ReducedCost) != p.NumCols() || len(sol.RowActivity) != p.NumRows() {
			t.Fatalf("vector lengths: x %d, duals %d, reduced costs %d, activity %d", len(sol.X), len(sol.RowDual), len(sol.ReducedCost), len(sol.RowActivity))
		}
		for _, v := range [][]float64{sol.X, sol.RowDual, sol.ReducedCost} {
			for _, x := range v {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("non-finite value in the solution: %v", sol)
				}
			}
		}
		if sol.Basis == nil || len(sol.Basis.Cols) != p.NumCols() || len(sol.Basis.Rows) != p.NumRows() {
			t.Fatalf("basis missing or of the wrong shape")
		}
	})
}
