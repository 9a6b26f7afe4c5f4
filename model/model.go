package model

import (
	"errors"
	"fmt"
	"math"
)

// VarType is the domain of a variable.
type VarType uint8

const (
	Continuous VarType = iota
	Integer
	Binary // integer in [0, 1]; Compile narrows the bounds to [max(lb,0), min(ub,1)]
)

func (t VarType) String() string {
	switch t {
	case Continuous:
		return "continuous"
	case Integer:
		return "integer"
	case Binary:
		return "binary"
	}
	return fmt.Sprintf("VarType(%d)", uint8(t))
}

// Sense is the direction of optimization.
type Sense int8

const (
	Minimize Sense = 1
	Maximize Sense = -1
)

func (s Sense) String() string {
	if s == Maximize {
		return "max"
	}
	return "min"
}

// Inf is +∞, the bound of an unbounded side.
var Inf = math.Inf(1)

// Var is a handle to a variable of one Model. The zero Var is invalid.
type Var struct {
	m  *Model
	id int32 // index + 1, so the zero value is recognisably unset
}

// Index is the column of v in the compiled Problem.
func (v Var) Index() int { return int(v.id) - 1 }

// Valid reports whether v was created by a Model.
func (v Var) Valid() bool { return v.m != nil && v.id > 0 }

// Model returns the model v belongs to.
func (v Var) Model() *Model { return v.m }

// Name of the variable ("" when unnamed).
func (v Var) Name() string {
	if !v.Valid() || v.Index() >= len(v.m.vars) {
		return ""
	}
	return v.m.vars[v.Index()].name
}

func (v Var) String() string {
	if n := v.Name(); n != "" {
		return n
	}
	return fmt.Sprintf("x%d", v.Index())
}

type varData struct {
	lb, ub float64
	typ    VarType
	name   string
}

// Constr is a handle to a linear constraint of one Model.
type Constr struct {
	m  *Model
	id int32
}

// Index is the row of c in the compiled Problem.
func (c Constr) Index() int { return int(c.id) - 1 }

// Valid reports whether c was created by a Model.
func (c Constr) Valid() bool { return c.m != nil && c.id > 0 }

type conData struct {
	expr   Expr // constant already folded into lo/hi by AddRange and friends
	lo, hi float64
	name   string
}

// QuadTerm is a term coef·x_i·x_j of the quadratic part of the objective, before the ½:
// the objective gets + coef·x_i·x_j (for i ≠ j) or + coef·x_i² (for i = j).
type QuadTerm struct {
	I, J Var
	Coef float64
}

// Model is a mutable optimization model. It is not safe for concurrent mutation.
type Model struct {
	Name  string
	vars  []varData
	cons  []conData
	obj   Expr
	sense Sense
	quad  []QuadTerm
	errs  []error
}

// New returns an empty minimization model.
func New(name string) *Model { return &Model{Name: name, sense: Minimize} }

// NumVars is the number of variables added so far.
func (m *Model) NumVars() int { return len(m.vars) }

// NumConstrs is the number of constraints added so far.
func (m *Model) NumConstrs() int { return len(m.cons) }

// Err reports the problems recorded while building (also returned by Compile).
func (m *Model) Err() error { return errors.Join(m.errs...) }

func (m *Model) fail(format string, args ...any) {
	// Cap the list: a loop that adds a million bad coefficients should not build a
	// million-line error.
	if len(m.errs) < 50 {
		m.errs = append(m.errs, fmt.Errorf(format, args...))
	} else if len(m.errs) == 50 {
		m.errs = append(m.errs, errors.New("model: further errors omitted"))
	}
}

// AddVar adds a variable with bounds [lb, ub] (either may be infinite) and returns it.
func (m *Model) AddVar(lb, ub float64, typ VarType, name string) Var {
	if math.IsNaN(lb) || math.IsNaN(ub) {
		m.fail("model: variable %q: NaN bound", name)
	} else if lb > ub {
		m.fail("model: variable %q: lower bound %g > upper bound %g", name, lb, ub)
	} else if math.IsInf(lb, 1) || math.IsInf(ub, -1) {
		m.fail("model: variable %q: bounds [%g, %g] leave no finite value", name, lb, ub)
	}
	if typ > Binary {
		m.fail("model: variable %q: unknown type %d", name, typ)
	}
	m.vars = append(m.vars, varData{lb: lb, ub: ub, typ: typ, name: name})
	return Var{m: m, id: int32(len(m.vars))}
}

// Continuous adds a continuous variable.
func (m *Model) Continuous(lb, ub float64, name string) Var {
	return m.AddVar(lb, ub, Continuous, name)
}

// Integer adds an integer variable.
func (m *Model) Integer(lb, ub float64, name string) Var { return m.AddVar(lb, ub, Integer, name) }

// Binary adds a 0/1 variable.
func (m *Model) Binary(name string) Var { return m.AddVar(0, 1, Binary, name) }

// Vars1 adds n variables named name[i] (via format, e.g. "x[%d]"; "" leaves them unnamed).
func (m *Model) Vars1(n int, lb, ub float64, typ VarType, format string) []Var {
	out := make([]Var, n)
	for i := range out {
		var name string
		if format != "" {
			name = fmt.Sprintf(format, i)
		}
		out[i] = m.AddVar(lb, ub, typ, name)
	}
	return out
}

// Vars2 adds an n1×n2 family x[i][j]; format receives (i, j), e.g. "x[%d,%d]".
func (m *Model) Vars2(n1, n2 int, lb, ub float64, typ VarType, format string) [][]Var {
	out := make([][]Var, n1)
	for i := range out {
		out[i] = make([]Var, n2)
		for j := range out[i] {
			var name string
			if format != "" {
				name = fmt.Sprintf(format, i, j)
			}
			out[i][j] = m.AddVar(lb, ub, typ, name)
		}
	}
	return out
}

// VarsFunc adds n variables whose bounds, type and name come from f (for families whose
// bounds differ per index, e.g. x[i][t] ≤ min(C_t, p_i)).
func (m *Model) VarsFunc(n int, f func(i int) (lb, ub float64, typ VarType, name string)) []Var {
	out := make([]Var, n)
	for i := range out {
		lb, ub, typ, name := f(i)
		out[i] = m.AddVar(lb, ub, typ, name)
	}
	return out
}

// Bounds returns a variable's current bounds.
func (m *Model) Bounds(v Var) (lb, ub float64) {
	if !m.owns(v, "Bounds") {
		return math.NaN(), math.NaN()
	}
	d := m.vars[v.Index()]
	return d.lb, d.ub
}

// SetBounds changes a variable's bounds.
func (m *Model) SetBounds(v Var, lb, ub float64) {
	if !m.owns(v, "SetBounds") {
		return
	}
	d := &m.vars[v.Index()]
	if math.IsNaN(lb) || math.IsNaN(ub) || lb > ub {
		m.fail("model: variable %q: invalid bounds [%g, %g]", d.name, lb, ub)
		return
	}
	d.lb, d.ub = lb, ub
}

// Type returns a variable's type.
func (m *Model) Type(v Var) VarType {
	if !m.owns(v, "Type") {
		return Continuous
	}
	return m.vars[v.Index()].typ
}

// SetType changes a variable's type (e.g. to relax a MIP).
func (m *Model) SetType(v Var, typ VarType) {
	if m.owns(v, "SetType") {
		m.vars[v.Index()].typ = typ
	}
}

// HasInteger reports whether any variable is integer or binary.
func (m *Model) HasInteger() bool {
	for _, v := range m.vars {
		if v.typ != Continuous {
			return true
		}
	}
	return false
}

func (m *Model) owns(v Var, op string) bool {
	if !v.Valid() {
		m.fail("model: %s: invalid (zero) variable", op)
		return false
	}
	if v.m != m {
		m.fail("model: %s: variable %s belongs to model %q, not %q", op, v, v.m.Name, m.Name)
		return false
	}
	return true
}

// AddConstr adds lo <= e <= hi. Use -Inf or +Inf for a one-sided row. The constant of e
// is moved to the bounds.
func (m *Model) AddConstr(e Expr, lo, hi float64, name string) Constr {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		m.fail("model: constraint %q: NaN bound", name)
	} else if lo > hi {
		m.fail("model: constraint %q: lower bound %g > upper bound %g", name, lo, hi)
	} else if math.IsInf(lo, 1) || math.IsInf(hi, -1) {
		m.fail("model: constraint %q: bounds [%g, %g] cannot be met", name, lo, hi)
	}
	if math.IsNaN(e.Const) || math.IsInf(e.Const, 0) {
		m.fail("model: constraint %q: constant %g is not finite", name, e.Const)
	}
	lo -= e.Const
	hi -= e.Const
	terms := make([]Term, len(e.Terms))
	copy(terms, e.Terms)
	m.cons = append(m.cons, conData{expr: Expr{Terms: terms}, lo: lo, hi: hi, name: name})
	return Constr{m: m, id: int32(len(m.cons))}
}

// AddLe adds e <= rhs.
func (m *Model) AddLe(e Expr, rhs float64, name string) Constr {
	return m.AddConstr(e, math.Inf(-1), rhs, name)
}

// AddGe adds e >= rhs.
func (m *Model) AddGe(e Expr, rhs float64, name string) Constr {
	return m.AddConstr(e, rhs, math.Inf(1), name)
}

// AddEq adds e == rhs.
func (m *Model) AddEq(e Expr, rhs float64, name string) Constr {
	return m.AddConstr(e, rhs, rhs, name)
}

// AddRange adds lo <= e <= hi (same as AddConstr; the name says what it is).
func (m *Model) AddRange(e Expr, lo, hi float64, name string) Constr {
	return m.AddConstr(e, lo, hi, name)
}

// ConstrBounds returns a row's bounds (after moving the expression's constant).
func (m *Model) ConstrBounds(c Constr) (lo, hi float64) {
	if !m.ownsC(c, "ConstrBounds") {
		return math.NaN(), math.NaN()
	}
	d := m.cons[c.Index()]
	return d.lo, d.hi
}

// SetConstrBounds changes a row's bounds.
func (m *Model) SetConstrBounds(c Constr, lo, hi float64) {
	if !m.ownsC(c, "SetConstrBounds") {
		return
	}
	d := &m.cons[c.Index()]
	if math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
		m.fail("model: constraint %q: invalid bounds [%g, %g]", d.name, lo, hi)
		return
	}
	d.lo, d.hi = lo, hi
}

// ConstrName returns a row's name.
func (m *Model) ConstrName(c Constr) string {
	if !m.ownsC(c, "ConstrName") {
		return ""
	}
	return m.cons[c.Index()].name
}

func (m *Model) ownsC(c Constr, op string) bool {
	if !c.Valid() || c.m != m || c.Index() >= len(m.cons) {
		m.fail("model: %s: constraint does not belong to model %q", op, m.Name)
		return false
	}
	return true
}

// SetObjective sets the linear objective and its sense; the constant of e is the offset.
// Quadratic terms added with AddQuadObj are kept.
func (m *Model) SetObjective(e Expr, sense Sense) {
	if sense != Minimize && sense != Maximize {
		m.fail("model: unknown objective sense %d", sense)
		sense = Minimize
	}
	terms := make([]Term, len(e.Terms))
	copy(terms, e.Terms)
	m.obj = Expr{Terms: terms, Const: e.Const}
	m.sense = sense
}

// Minimize sets a minimization objective.
func (m *Model) Minimize(e Expr) { m.SetObjective(e, Minimize) }

// Maximize sets a maximization objective.
func (m *Model) Maximize(e Expr) { m.SetObjective(e, Maximize) }

// Objective returns a copy of the linear objective and its sense.
func (m *Model) Objective() (Expr, Sense) { return m.obj.Clone(), m.sense }

// AddQuadObj adds coef·x_i·x_j to the objective (coef·x_i² when i == j), in the
// objective's own sense. A maximization with a quadratic part must be concave for the QP
// solvers; Compile does not check convexity.
func (m *Model) AddQuadObj(i, j Var, coef float64) {
	if !m.owns(i, "AddQuadObj") || !m.owns(j, "AddQuadObj") {
		return
	}
	if math.IsNaN(coef) || math.IsInf(coef, 0) {
		m.fail("model: quadratic objective term %s·%s: coefficient %g is not finite", i, j, coef)
		return
	}
	m.quad = append(m.quad, QuadTerm{I: i, J: j, Coef: coef})
}

// ClearQuadObj removes every quadratic objective term.
func (m *Model) ClearQuadObj() { m.quad = nil }

// Clone returns a deep copy; handles of the original are not valid in the copy (use
// Var.Index with CloneVar to translate).
func (m *Model) Clone() *Model {
	c := &Model{Name: m.Name, sense: m.sense}
	c.vars = append([]varData(nil), m.vars...)
	c.cons = make([]conData, len(m.cons))
	for i, d := range m.cons {
		c.cons[i] = conData{expr: d.expr.rebind(m, c), lo: d.lo, hi: d.hi, name: d.name}
	}
	c.obj = m.obj.rebind(m, c)
	c.quad = make([]QuadTerm, len(m.quad))
	for i, q := range m.quad {
		c.quad[i] = QuadTerm{I: Var{m: c, id: q.I.id}, J: Var{m: c, id: q.J.id}, Coef: q.Coef}
	}
	c.errs = append([]error(nil), m.errs...)
	return c
}

// VarAt returns the handle of variable (column) i.
func (m *Model) VarAt(i int) Var {
	if i < 0 || i >= len(m.vars) {
		m.fail("model: VarAt(%d): out of range [0, %d)", i, len(m.vars))
		return Var{}
	}
	return Var{m: m, id: int32(i + 1)}
}

// ConstrAt returns the handle of constraint (row) i.
func (m *Model) ConstrAt(i int) Constr {
	if i < 0 || i >= len(m.cons) {
		m.fail("model: ConstrAt(%d): out of range [0, %d)", i, len(m.cons))
		return Constr{}
	}
	return Constr{m: m, id: int32(i + 1)}
}
