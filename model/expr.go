package model

import (
	"math"
	"slices"
)

// Term is coef·var.
type Term struct {
	Var  Var
	Coef float64
}

// Expr is a linear expression Σ coef·var + Const. The zero Expr is 0 and ready to use.
//
// Methods with pointer receivers (AddTerm, AddExpr, AddConst) grow an expression in place,
// which is how large sums should be built; Plus, Minus and Scale return new expressions.
// Duplicate variables are allowed; Compile merges them.
type Expr struct {
	Terms []Term
	Const float64
}

// E returns the expression 1·v.
func (v Var) E() Expr { return Expr{Terms: []Term{{Var: v, Coef: 1}}} }

// Mul returns the expression c·v.
func (v Var) Mul(c float64) Expr { return Expr{Terms: []Term{{Var: v, Coef: c}}} }

// Const returns the constant expression c.
func Const(c float64) Expr { return Expr{Const: c} }

// Sum returns Σ vs.
func Sum(vs ...Var) Expr {
	e := Expr{Terms: make([]Term, len(vs))}
	for i, v := range vs {
		e.Terms[i] = Term{Var: v, Coef: 1}
	}
	return e
}

// Dot returns Σ coefs[i]·vs[i]; the slices must have equal length (extra entries of the
// longer one are ignored).
func Dot(coefs []float64, vs []Var) Expr {
	n := min(len(coefs), len(vs))
	e := Expr{Terms: make([]Term, n)}
	for i := range n {
		e.Terms[i] = Term{Var: vs[i], Coef: coefs[i]}
	}
	return e
}

// SumExpr returns Σ es.
func SumExpr(es ...Expr) Expr {
	n := 0
	for _, e := range es {
		n += len(e.Terms)
	}
	out := Expr{Terms: make([]Term, 0, n)}
	for _, e := range es {
		out.Terms = append(out.Terms, e.Terms...)
		out.Const += e.Const
	}
	return out
}

// AddTerm adds c·v in place and returns e for chaining.
func (e *Expr) AddTerm(v Var, c float64) *Expr {
	e.Terms = append(e.Terms, Term{Var: v, Coef: c})
	return e
}

// AddExpr adds scale·f in place and returns e.
func (e *Expr) AddExpr(f Expr, scale float64) *Expr {
	for _, t := range f.Terms {
		e.Terms = append(e.Terms, Term{Var: t.Var, Coef: scale * t.Coef})
	}
	e.Const += scale * f.Const
	return e
}

// AddConst adds c in place and returns e.
func (e *Expr) AddConst(c float64) *Expr {
	e.Const += c
	return e
}

// Clone returns a copy that shares no memory with e.
func (e Expr) Clone() Expr {
	return Expr{Terms: slices.Clone(e.Terms), Const: e.Const}
}

// Plus returns e + f.
func (e Expr) Plus(f Expr) Expr { return SumExpr(e, f) }

// Minus returns e − f.
func (e Expr) Minus(f Expr) Expr {
	out := e.Clone()
	out.AddExpr(f, -1)
	return out
}

// Scale returns c·e.
func (e Expr) Scale(c float64) Expr {
	out := Expr{Terms: make([]Term, len(e.Terms)), Const: c * e.Const}
	for i, t := range e.Terms {
		out.Terms[i] = Term{Var: t.Var, Coef: c * t.Coef}
	}
	return out
}

// Eval returns the value of e at x, where x is indexed by Var.Index (a Solution's X).
// Terms whose variable is out of range of x count as NaN.
func (e Expr) Eval(x []float64) float64 {
	s := e.Const
	for _, t := range e.Terms {
		i := t.Var.Index()
		if i < 0 || i >= len(x) {
			return math.NaN()
		}
		s += t.Coef * x[i]
	}
	return s
}

// Canonical returns e with duplicate variables merged, exact zeros dropped and terms
// sorted by variable index. Variables of different models are kept apart (and rejected
// later by Compile).
func (e Expr) Canonical() Expr {
	ts := slices.Clone(e.Terms)
	slices.SortStableFunc(ts, func(a, b Term) int { return int(a.Var.id) - int(b.Var.id) })
	out := ts[:0]
	for _, t := range ts {
		if n := len(out); n > 0 && out[n-1].Var == t.Var {
			out[n-1].Coef += t.Coef
			continue
		}
		out = append(out, t)
	}
	k := 0
	for _, t := range out {
		if t.Coef != 0 {
			out[k] = t
			k++
		}
	}
	return Expr{Terms: out[:k], Const: e.Const}
}

// rebind moves the terms that refer to from onto to (for Clone); others stay foreign.
func (e Expr) rebind(from, to *Model) Expr {
	out := Expr{Terms: make([]Term, len(e.Terms)), Const: e.Const}
	for i, t := range e.Terms {
		v := t.Var
		if v.m == from {
			v.m = to
		}
		out.Terms[i] = Term{Var: v, Coef: t.Coef}
	}
	return out
}
