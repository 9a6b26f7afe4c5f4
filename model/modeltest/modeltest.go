package modeltest

import (
	"fmt"
	"math"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
)

// NameMode says which parts of a generated Problem carry names.
type NameMode int

const (
	// NamesAll names the problem, the objective, every column and every row. The names are
	// valid in free MPS and in the CPLEX LP format (a letter, then letters, digits and
	// '_'), unique, and never an LP keyword.
	NamesAll NameMode = iota
	// NamesNone leaves every name empty, so writers must invent them.
	NamesNone
	// NamesSome names a random subset.
	NamesSome
)

// Config chooses what Problem may generate. The zero value is useful: LPs with 1–6
// columns and 0–6 rows, every kind of column bound and row, coefficient magnitudes
// log-uniform in [1e-6, 1e6], everything named.
type Config struct {
	// MaxCols bounds the number of columns, drawn from [1, MaxCols]; 0 means 6.
	MaxCols int
	// MaxRows bounds the number of rows, drawn from [0, MaxRows]; 0 means 6 and a
	// negative value means no rows at all (for example an unconstrained QP).
	MaxRows int
	// Density is the probability that an entry of A (and of the factor L of Q) is
	// nonzero; 0 means each Problem draws its own density from [0.1, 1].
	Density float64
	// MinMagnitude and MaxMagnitude bound |v| for every nonzero number drawn (costs,
	// coefficients, bounds, right-hand sides, offset); 0 means 1e-6 and 1e6. Numbers are
	// log-uniform in between, or small integers, with a random sign.
	MinMagnitude, MaxMagnitude float64
	// Integral makes every number a small integer (|v| ≤ 10, Q's factor |v| ≤ 3) and
	// overrides the magnitudes: well-conditioned problems whose optima solvers should
	// agree on to tight tolerances.
	Integral bool
	// Integer lets columns be integer (about one in three); their bounds are integral.
	Integer bool
	// Quadratic adds, most of the time, an objective ½xᵀQx with Q = LᵀL for a random
	// sparse L with 1..n rows when minimizing and Q = −LᵀL when maximizing, so the
	// problem is convex (Q positive, respectively negative, semidefinite up to the
	// rounding of the products). Q is stored as its lower triangle.
	Quadratic bool
	// Feasible plants a point x0 inside the column bounds (integral on integer columns)
	// and places every row's bounds around its activity A·x0, so the problem is
	// feasible (up to the rounding of A·x0).
	Feasible bool
	// Boxed gives every column finite lower and upper bounds (boxed or fixed), so a
	// feasible problem has a finite optimum.
	Boxed bool
	// Names says which names are set.
	Names NameMode
}

// Problem draws a random valid Problem (Validate passes) from t under cfg. Equal seeds
// give equal Problems.
func Problem(t *rapid.T, cfg Config) *model.Problem {
	p, _ := ProblemAndPoint(t, cfg)
	return p
}

// Generator wraps Problem as a rapid generator, for composing with other generators or
// for drawing one deterministic example outside a property: Generator(cfg).Example(seed).
func Generator(cfg Config) *rapid.Generator[*model.Problem] {
	return rapid.Custom(func(t *rapid.T) *model.Problem { return Problem(t, cfg) })
}

// ProblemAndPoint is Problem that also returns the planted point x0 when cfg.Feasible is
// set (nil otherwise): x0 lies within the column bounds, is integral on integer columns,
// and every row's bounds contain its activity A·x0 as computed by Problem.RowActivity.
// A minimization's optimum is therefore at most Objective(x0).
func ProblemAndPoint(t *rapid.T, cfg Config) (*model.Problem, []float64) {
	g := newGen(t, cfg)
	p, x0 := g.problem()
	if err := p.Validate(); err != nil {
		t.Fatalf("modeltest: generated an invalid Problem (generator bug): %v", err)
	}
	return p, x0
}

type gen struct {
	t          *rapid.T
	cfg        Config
	logLo      float64
	logHi      float64
	density    float64
	maxCols    int
	maxRows    int
	inf, ninf  float64
	integerCol []bool
}

func newGen(t *rapid.T, cfg Config) *gen {
	lo, hi := cfg.MinMagnitude, cfg.MaxMagnitude
	if lo <= 0 {
		lo = 1e-6
	}
	if hi <= 0 {
		hi = 1e6
	}
	if hi < lo {
		lo, hi = hi, lo
	}
	g := &gen{t: t, cfg: cfg, logLo: math.Log10(lo), logHi: math.Log10(hi),
		maxCols: cfg.MaxCols, maxRows: cfg.MaxRows, inf: math.Inf(1), ninf: math.Inf(-1)}
	if g.maxCols <= 0 {
		g.maxCols = 6
	}
	switch {
	case g.maxRows == 0:
		g.maxRows = 6
	case g.maxRows < 0:
		g.maxRows = 0
	}
	g.density = cfg.Density
	if g.density <= 0 || g.density > 1 {
		g.density = rapid.Float64Range(0.1, 1).Draw(t, "density")
	}
	return g
}

// magnitude draws a positive number within the configured magnitudes.
func (g *gen) magnitude(label string) float64 {
	if g.cfg.Integral {
		return float64(rapid.IntRange(1, 10).Draw(g.t, label))
	}
	lo, hi := math.Pow(10, g.logLo), math.Pow(10, g.logHi)
	var m float64
	if rapid.IntRange(0, 3).Draw(g.t, label+"-kind") == 0 {
		// Small integers: the values people write by hand, and exact in any format.
		m = float64(rapid.IntRange(1, 100).Draw(g.t, label))
	} else {
		// Log-uniform: full-precision binary fractions that only round trip when every
		// digit is kept.
		m = math.Pow(10, rapid.Float64Range(g.logLo, g.logHi).Draw(g.t, label))
	}
	return math.Min(math.Max(m, lo), hi)
}

// coef draws a nonzero number with a random sign.
func (g *gen) coef(label string) float64 {
	m := g.magnitude(label)
	if rapid.Bool().Draw(g.t, label+"-neg") {
		return -m
	}
	return m
}

// value draws a number that is zero about one time in five.
func (g *gen) value(label string) float64 {
	if rapid.IntRange(0, 4).Draw(g.t, label+"-zero") == 0 {
		return 0
	}
	return g.coef(label)
}

// Column bound kinds.
const (
	boundDefault = iota // [0, +Inf)
	boundFree
	boundFixed
	boundBoxed
	boundLower
	boundUpper
)

// Row kinds.
const (
	rowLe = iota
	rowGe
	rowEq
	rowRanged
	rowFree
)

func (g *gen) problem() (*model.Problem, []float64) {
	t := g.t
	n := rapid.IntRange(1, g.maxCols).Draw(t, "cols")
	m := rapid.IntRange(0, g.maxRows).Draw(t, "rows")
	p := &model.Problem{
		Sense:    model.Minimize,
		ColCost:  make([]float64, n),
		ColLower: make([]float64, n),
		ColUpper: make([]float64, n),
		RowLower: make([]float64, m),
		RowUpper: make([]float64, m),
		ColNames: make([]string, n),
		RowNames: make([]string, m),
	}
	if rapid.Bool().Draw(t, "maximize") {
		p.Sense = model.Maximize
	}
	if rapid.Bool().Draw(t, "has-offset") {
		p.Offset = g.coef("offset")
	}
	g.integerCol = make([]bool, n)
	if g.cfg.Integer {
		for j := range n {
			g.integerCol[j] = rapid.IntRange(0, 2).Draw(t, "integer") == 0
		}
		if slices.Contains(g.integerCol, true) {
			p.Integrality = slices.Clone(g.integerCol)
		}
	}
	for j := range n {
		p.ColCost[j] = g.value("cost")
		p.ColLower[j], p.ColUpper[j] = g.colBounds(j)
	}
	var x0 []float64
	if g.cfg.Feasible {
		x0 = make([]float64, n)
		for j := range n {
			x0[j] = g.pointIn(j, p.ColLower[j], p.ColUpper[j])
		}
	}
	g.matrix(p, n, m)
	var activity []float64
	if x0 != nil {
		activity = p.RowActivity(x0)
	}
	for i := range m {
		p.RowLower[i], p.RowUpper[i] = g.rowBounds(activity, i)
	}
	if g.cfg.Quadratic && rapid.IntRange(0, 3).Draw(t, "has-q") > 0 {
		g.hessian(p, n)
	}
	g.names(p)
	return p, x0
}

// colBounds draws the bounds of column j.
func (g *gen) colBounds(j int) (lo, hi float64) {
	kind := rapid.IntRange(boundDefault, boundUpper).Draw(g.t, "bound-kind")
	if g.cfg.Boxed && kind != boundFixed {
		kind = boundBoxed
	}
	switch kind {
	case boundDefault:
		lo, hi = 0, g.inf
	case boundFree:
		lo, hi = g.ninf, g.inf
	case boundFixed:
		lo = g.value("fixed")
		hi = lo
	case boundBoxed:
		lo = g.value("lower")
		hi = lo + g.magnitude("width")
		if hi <= lo { // a width below half an ulp of lo
			hi = math.Nextafter(lo, g.inf)
		}
	case boundLower:
		lo, hi = g.value("lower"), g.inf
	case boundUpper:
		lo, hi = g.ninf, g.value("upper")
	}
	if g.integerCol[j] {
		lo, hi = math.Ceil(lo), math.Floor(hi)
		if lo > hi { // no integer inside a narrow box: widen it to one
			hi = lo
		}
	}
	return lo, hi
}

// pointIn draws a point within [lo, hi], integral for integer columns.
func (g *gen) pointIn(j int, lo, hi float64) float64 {
	frac := rapid.Float64Range(0, 1).Draw(g.t, "x0-frac")
	var x float64
	switch {
	case !math.IsInf(lo, 0) && !math.IsInf(hi, 0):
		x = lo + frac*(hi-lo)
	case !math.IsInf(lo, 0):
		x = lo + frac*g.magnitude("x0-step")
	case !math.IsInf(hi, 0):
		x = hi - frac*g.magnitude("x0-step")
	default:
		x = g.value("x0")
	}
	if g.integerCol[j] {
		x = math.Round(x)
	}
	return math.Min(math.Max(x, lo), hi)
}

// matrix fills A column by column; row indices come out increasing.
func (g *gen) matrix(p *model.Problem, n, m int) {
	p.AStart = make([]int, n+1)
	for j := range n {
		for i := range m {
			if rapid.Float64Range(0, 1).Draw(g.t, "a-present") < g.density {
				p.AIndex = append(p.AIndex, i)
				p.AValue = append(p.AValue, g.coef("a"))
			}
		}
		p.AStart[j+1] = len(p.AIndex)
	}
}

// rowBounds draws the bounds of row i, around activity[i] when a point was planted.
func (g *gen) rowBounds(activity []float64, i int) (lo, hi float64) {
	kind := rapid.IntRange(0, 9).Draw(g.t, "row-kind")
	switch {
	case kind < 3:
		kind = rowLe
	case kind < 6:
		kind = rowGe
	case kind < 8:
		kind = rowEq
	case kind < 9:
		kind = rowRanged
	default:
		kind = rowFree
	}
	if activity != nil {
		a := activity[i]
		slack := func(label string) float64 { return math.Abs(g.value(label)) }
		switch kind {
		case rowLe:
			return g.ninf, a + slack("slack")
		case rowGe:
			return a - slack("slack"), g.inf
		case rowEq:
			return a, a
		case rowRanged:
			lo, hi = a-slack("slack-lo"), a+g.magnitude("slack-hi")
			if hi <= lo {
				hi = math.Nextafter(lo, g.inf)
			}
			return lo, hi
		}
		return g.ninf, g.inf
	}
	switch kind {
	case rowLe:
		return g.ninf, g.value("rhs")
	case rowGe:
		return g.value("rhs"), g.inf
	case rowEq:
		v := g.value("rhs")
		return v, v
	case rowRanged:
		lo = g.value("rhs-lo")
		hi = lo + g.magnitude("range")
		if hi <= lo {
			hi = math.Nextafter(lo, g.inf)
		}
		return lo, hi
	}
	return g.ninf, g.inf
}

// hessian sets Q = ±LᵀL (lower triangle) for a random sparse k×n factor L, with the
// sign that makes the objective convex in p's sense.
func (g *gen) hessian(p *model.Problem, n int) {
	k := rapid.IntRange(1, n).Draw(g.t, "q-rank")
	l := make([][]float64, k)
	for r := range k {
		l[r] = make([]float64, n)
		for j := range n {
			if rapid.Float64Range(0, 1).Draw(g.t, "l-present") >= g.density {
				continue
			}
			if g.cfg.Integral {
				v := float64(rapid.IntRange(1, 3).Draw(g.t, "l"))
				if rapid.Bool().Draw(g.t, "l-neg") {
					v = -v
				}
				l[r][j] = v
				continue
			}
			// Entries of L at the square root of the magnitudes keep Q within them.
			lo, hi := g.logLo, g.logHi
			g.logLo, g.logHi = lo/2, hi/2
			l[r][j] = g.coef("l")
			g.logLo, g.logHi = lo, hi
		}
	}
	start := make([]int, n+1)
	var index []int
	var value []float64
	for j := range n {
		for i := j; i < n; i++ {
			s := 0.0
			for r := range k {
				s += l[r][i] * l[r][j]
			}
			if s != 0 && !math.IsInf(s, 0) {
				index = append(index, i)
				value = append(value, float64(p.Sense)*s)
			}
		}
		start[j+1] = len(index)
	}
	if len(index) > 0 {
		p.QStart, p.QIndex, p.QValue = start, index, value
	}
}

const nameChars = "abcxyzABCXYZ0189_"

// suffix draws a short tail for names so that they are not all of one pattern.
func (g *gen) suffix(label string) string {
	k := rapid.IntRange(0, 3).Draw(g.t, label+"-len")
	b := make([]byte, k)
	for i := range b {
		b[i] = nameChars[rapid.IntRange(0, len(nameChars)-1).Draw(g.t, label)]
	}
	return string(b)
}

func (g *gen) names(p *model.Problem) {
	named := func(label string) bool {
		switch g.cfg.Names {
		case NamesNone:
			return false
		case NamesSome:
			return rapid.Bool().Draw(g.t, label)
		}
		return true
	}
	if named("name-problem") {
		p.Name = "prob_" + g.suffix("problem-name")
	}
	if named("name-objective") {
		p.ObjName = "obj_" + g.suffix("objective-name")
	}
	// The index keeps names unique; "_" separates it from the random tail.
	for j := range p.ColNames {
		if named("name-col") {
			p.ColNames[j] = fmt.Sprintf("x%d_%s", j+1, g.suffix("col-name"))
		}
	}
	for i := range p.RowNames {
		if named("name-row") {
			p.RowNames[i] = fmt.Sprintf("r%d_%s", i+1, g.suffix("row-name"))
		}
	}
}

// Diff reports the differences between two Problems ("" when they are equal), in the
// "-a +b" form of go-cmp. Numbers must be equal exactly (0 and -0 count as equal);
// names must be equal. Representation choices that do not change the problem are not
// differences: nil versus empty slices, nil Integrality versus all false, no Hessian
// versus an all-empty one, nil name slices versus all-empty names.
func Diff(a, b *model.Problem) string {
	if a == nil || b == nil {
		if a == nil && b == nil {
			return ""
		}
		return fmt.Sprintf("one Problem is nil (a: %v, b: %v)", a == nil, b == nil)
	}
	return cmp.Diff(normalize(a), normalize(b), cmpopts.EquateEmpty())
}

func normalize(p *model.Problem) *model.Problem {
	c := p.Clone()
	if !c.HasInteger() {
		c.Integrality = nil
	}
	if len(c.QValue) == 0 && len(c.QIndex) == 0 {
		c.QStart, c.QIndex, c.QValue = nil, nil, nil
	}
	empty := func(s []string) bool {
		for _, v := range s {
			if v != "" {
				return false
			}
		}
		return true
	}
	if empty(c.ColNames) {
		c.ColNames = nil
	}
	if empty(c.RowNames) {
		c.RowNames = nil
	}
	return c
}
