package solvertest

import (
	"fmt"
	"math"

	"github.com/coraopt/coraopt/model"
)

var inf = math.Inf(1)

// row is one constraint lo ≤ a·x ≤ up of a dense case model.
type row struct {
	a      []float64
	lo, up float64
}

func le(up float64, a ...float64) row      { return row{a: a, lo: -inf, up: up} }
func ge(lo float64, a ...float64) row      { return row{a: a, lo: lo, up: inf} }
func eq(b float64, a ...float64) row       { return row{a: a, lo: b, up: b} }
func rng(lo, up float64, a ...float64) row { return row{a: a, lo: lo, up: up} }
func free(a ...float64) row                { return row{a: a, lo: -inf, up: inf} }
func vec(v ...float64) []float64           { return v }
func fill(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// dense is a case model written out in full; problem() turns it into the CSC Problem a
// solver sees, exactly as model.Compile would (zeros dropped, names filled in).
type dense struct {
	name   string
	sense  model.Sense // zero means Minimize
	offset float64
	c      []float64
	lo, up []float64 // column bounds; nil means [0, +Inf) for every column
	rows   []row
	q      [][]float64 // symmetric Hessian, full; the lower triangle is stored
	ints   []int       // integer columns
}

func (d dense) problem() *model.Problem {
	n := len(d.c)
	p := &model.Problem{
		Name:     d.name,
		Sense:    d.sense,
		Offset:   d.offset,
		ColCost:  append([]float64(nil), d.c...),
		ColLower: append([]float64(nil), d.lo...),
		ColUpper: append([]float64(nil), d.up...),
		ColNames: make([]string, n),
		RowNames: make([]string, len(d.rows)),
	}
	if p.Sense == 0 {
		p.Sense = model.Minimize
	}
	if d.lo == nil {
		p.ColLower = make([]float64, n)
	}
	if d.up == nil {
		p.ColUpper = fill(n, inf)
	}
	for j := range n {
		p.ColNames[j] = fmt.Sprintf("x%d", j)
	}
	for i, r := range d.rows {
		if len(r.a) > n {
			panic(fmt.Sprintf("solvertest: case %s: row %d has %d coefficients for %d columns", d.name, i, len(r.a), n))
		}
		p.RowLower = append(p.RowLower, r.lo)
		p.RowUpper = append(p.RowUpper, r.up)
		p.RowNames[i] = fmt.Sprintf("r%d", i)
	}
	if p.RowLower == nil {
		p.RowLower, p.RowUpper = []float64{}, []float64{}
	}
	p.AStart = make([]int, n+1)
	for j := range n {
		for i, r := range d.rows {
			if j < len(r.a) && r.a[j] != 0 {
				p.AIndex = append(p.AIndex, i)
				p.AValue = append(p.AValue, r.a[j])
			}
		}
		p.AStart[j+1] = len(p.AIndex)
	}
	if d.q != nil {
		p.QStart = make([]int, n+1)
		for j := range n {
			for i := j; i < n; i++ {
				if v := d.q[i][j]; v != 0 {
					if d.q[j][i] != v {
						panic(fmt.Sprintf("solvertest: case %s: Q is not symmetric at (%d, %d)", d.name, i, j))
					}
					p.QIndex = append(p.QIndex, i)
					p.QValue = append(p.QValue, v)
				}
			}
			p.QStart[j+1] = len(p.QIndex)
		}
	}
	if d.ints != nil {
		p.Integrality = make([]bool, n)
		for _, j := range d.ints {
			p.Integrality[j] = true
		}
	}
	if err := p.Validate(); err != nil {
		panic(fmt.Sprintf("solvertest: case %s is not a valid problem: %v", d.name, err))
	}
	return p
}
