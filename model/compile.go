package model

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrEmpty is returned by Compile when the model has no variables.
var ErrEmpty = errors.New("model: no variables")

// Compile validates the model and returns its Problem. Every problem recorded while
// building is returned together; the model is left unchanged and may be modified and
// compiled again.
func (m *Model) Compile() (*Problem, error) {
	errs := slices.Clone(m.errs)
	if len(m.vars) == 0 {
		errs = append(errs, ErrEmpty)
	}
	n, nr := len(m.vars), len(m.cons)
	p := &Problem{
		Name:     m.Name,
		Sense:    m.sense,
		Offset:   m.obj.Const,
		ColCost:  make([]float64, n),
		ColLower: make([]float64, n),
		ColUpper: make([]float64, n),
		RowLower: make([]float64, nr),
		RowUpper: make([]float64, nr),
		ColNames: make([]string, n),
		RowNames: make([]string, nr),
	}
	if math.IsNaN(p.Offset) || math.IsInf(p.Offset, 0) {
		errs = append(errs, fmt.Errorf("model: objective constant %g is not finite", p.Offset))
	}
	for j, v := range m.vars {
		lb, ub := v.lb, v.ub
		if v.typ == Binary {
			lb, ub = math.Max(lb, 0), math.Min(ub, 1)
			if lb > ub {
				errs = append(errs, fmt.Errorf("model: binary variable %q: bounds [%g, %g] exclude 0 and 1", v.name, v.lb, v.ub))
			}
		}
		if v.typ != Continuous {
			if p.Integrality == nil {
				p.Integrality = make([]bool, n)
			}
			p.Integrality[j] = true
		}
		p.ColLower[j], p.ColUpper[j], p.ColNames[j] = lb, ub, v.name
	}
	check := func(where string, t Term) bool {
		if t.Var.m != m || !t.Var.Valid() || t.Var.Index() >= n {
			owner := "no model"
			if t.Var.m != nil {
				owner = fmt.Sprintf("model %q", t.Var.m.Name)
			}
			errs = append(errs, fmt.Errorf("model: %s: variable %s belongs to %s, not %q", where, t.Var, owner, m.Name))
			return false
		}
		if math.IsNaN(t.Coef) || math.IsInf(t.Coef, 0) {
			errs = append(errs, fmt.Errorf("model: %s: coefficient %g of %s is not finite", where, t.Coef, t.Var))
			return false
		}
		return true
	}
	for _, t := range m.obj.Terms {
		if check("objective", t) {
			p.ColCost[t.Var.Index()] += t.Coef
		}
	}
	// Count entries per column first so A is built in one pass without per-column slices.
	rows := make([]Expr, nr)
	nnzCol := make([]int, n+1)
	for i, c := range m.cons {
		p.RowLower[i], p.RowUpper[i], p.RowNames[i] = c.lo, c.hi, c.name
		where := fmt.Sprintf("constraint %d", i)
		if c.name != "" {
			where = fmt.Sprintf("constraint %q", c.name)
		}
		ok := true
		for _, t := range c.expr.Terms {
			ok = check(where, t) && ok
		}
		if !ok {
			continue
		}
		rows[i] = c.expr.Canonical()
		for _, t := range rows[i].Terms {
			nnzCol[t.Var.Index()+1]++
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	for j := range n {
		nnzCol[j+1] += nnzCol[j]
	}
	p.AStart = nnzCol
	p.AIndex = make([]int, nnzCol[n])
	p.AValue = make([]float64, nnzCol[n])
	next := slices.Clone(nnzCol[:n])
	// Rows are visited in increasing order, so each column's row indices come out sorted.
	for i, e := range rows {
		for _, t := range e.Terms {
			j := t.Var.Index()
			p.AIndex[next[j]] = i
			p.AValue[next[j]] = t.Coef
			next[j]++
		}
	}
	if len(m.quad) > 0 {
		if err := p.compileQuad(m.quad); err != nil {
			return nil, err
		}
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// compileQuad turns objective terms coef·x_i·x_j into the lower triangle of the symmetric Q
// with objective ½xᵀQx: a diagonal term c·x_i² contributes Q_ii += 2c, an off-diagonal term
// c·x_i·x_j contributes Q_ij = Q_ji += c.
func (p *Problem) compileQuad(terms []QuadTerm) error {
	type key struct{ i, j int }
	acc := make(map[key]float64, len(terms))
	for _, t := range terms {
		i, j := t.I.Index(), t.J.Index()
		if i < j {
			i, j = j, i
		}
		if i == j {
			acc[key{i, j}] += 2 * t.Coef
		} else {
			acc[key{i, j}] += t.Coef
		}
	}
	keys := make([]key, 0, len(acc))
	for k, v := range acc {
		if v != 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.j != b.j {
			return a.j - b.j
		}
		return a.i - b.i
	})
	n := p.NumCols()
	p.QStart = make([]int, n+1)
	p.QIndex = make([]int, len(keys))
	p.QValue = make([]float64, len(keys))
	for k, kk := range keys {
		p.QStart[kk.j+1]++
		p.QIndex[k] = kk.i
		p.QValue[k] = acc[kk]
	}
	for j := range n {
		p.QStart[j+1] += p.QStart[j]
	}
	return nil
}
