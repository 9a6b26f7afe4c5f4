package lpformat

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/coraopt/coraopt/internal/gzfile"
	"github.com/coraopt/coraopt/model"
)

// DefaultInfinity is the magnitude from which bounds and right-hand sides are read as
// infinite, as HiGHS's default infinite_bound and CPLEX do.
const DefaultInfinity = 1e20

// Options control reading.
type Options struct {
	// Infinity: a bound or right-hand side of magnitude at least Infinity is ±Inf (0
	// means DefaultInfinity; +Inf disables the rule). The words inf and infinity are
	// always infinite.
	Infinity float64
	// Warn, when not nil, receives the reader's warnings (columns first named in Bounds,
	// General or Binary; a negative upper bound turned into a free lower bound; text
	// after End).
	Warn func(Warning)
}

// Warning is something the reader accepted but the user should know about.
type Warning struct {
	Line int
	Msg  string
}

func (w Warning) String() string { return fmt.Sprintf("line %d: %s", w.Line, w.Msg) }

// ParseError is a malformed input, located by line (1-based) and section.
type ParseError struct {
	Line    int
	Section string // "" before the first section
	Msg     string
}

func (e *ParseError) Error() string {
	if e.Section == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.Section, e.Msg)
}

func newError(line int32, section, format string, args ...any) *ParseError {
	return &ParseError{Line: int(line), Section: section, Msg: fmt.Sprintf(format, args...)}
}

// ReadFile reads an LP file; a name ending in ".gz" is decompressed. Errors are prefixed
// with the path.
func ReadFile(path string, opt Options) (*model.Problem, error) {
	r, err := gzfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lpformat: %w", err)
	}
	defer r.Close()
	p, err := Read(r, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Read reads a model in CPLEX LP format. A malformed input gives a *ParseError naming
// the line; nothing panics. See the package documentation for the dialect.
func Read(r io.Reader, opt Options) (*model.Problem, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("lpformat: %w", err)
	}
	lx := &lexer{src: string(data)}
	toks, err := lx.tokens()
	if err != nil {
		return nil, err
	}
	inf := opt.Infinity
	if inf <= 0 || math.IsNaN(inf) {
		inf = DefaultInfinity
	}
	p := &parser{toks: toks, warn: opt.Warn, inf: inf, colIndex: map[string]int{}, rowNames: map[string]bool{}, sense: model.Minimize}
	prob, err := p.parse()
	if err != nil {
		return nil, err
	}
	prob.Name = lx.problemName
	return prob, nil
}

type column struct {
	name         string
	cost         float64
	lower, upper float64
	hasLower     bool // a lower bound was given in Bounds
	integer      bool
	line         int32 // where the bounds were last set, or the column appeared
}

type row struct {
	name   string
	lo, hi float64
	expr   *expr
	line   int32
}

type parser struct {
	toks    []token
	pos     int
	section string
	warn    func(Warning)
	inf     float64

	sense    model.Sense
	objName  string
	offset   float64
	seenObj  bool
	colIndex map[string]int
	cols     []column
	rows     []row
	rowNames map[string]bool
	quad     map[[2]int]float64
	quadKeys [][2]int
}

func (p *parser) peek() token { return p.toks[p.pos] }
func (p *parser) peekAt(k int) token {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k]
	}
	return p.toks[len(p.toks)-1] // tEOF
}
func (p *parser) advance() token {
	t := p.toks[p.pos]
	if t.kind != tEOF {
		p.pos++
	}
	return t
}

func (p *parser) errorf(t token, format string, args ...any) error {
	return newError(t.line, p.section, format, args...)
}

func (p *parser) warnf(line int32, format string, args ...any) {
	if p.warn != nil {
		msg := fmt.Sprintf(format, args...)
		if p.section != "" {
			msg = p.section + ": " + msg
		}
		p.warn(Warning{Line: int(line), Msg: msg})
	}
}

// describe names a token in messages.
func describe(t token) string {
	if t.kind == tEOF {
		return "end of input"
	}
	if t.kind == tName && t.colon {
		return fmt.Sprintf("%q", t.text+":")
	}
	return fmt.Sprintf("%q", t.text)
}

// column returns the index of the named column, creating it on first sight.
func (p *parser) column(name string, line int32) int {
	if j, ok := p.colIndex[name]; ok {
		return j
	}
	j := len(p.cols)
	p.colIndex[name] = j
	p.cols = append(p.cols, column{name: name, upper: math.Inf(1), line: line})
	return j
}

func (p *parser) parse() (*model.Problem, error) {
	first := p.peek()
	if first.kind != tKeyword || first.op != kwMin && first.op != kwMax {
		return nil, p.errorf(first, "the model must start with Minimize or Maximize, found %s", describe(first))
	}
	for {
		t := p.advance()
		if t.kind == tEOF {
			break
		}
		if t.kind != tKeyword {
			return nil, p.errorf(t, "unexpected %s", describe(t))
		}
		p.section = keywordNames[t.op]
		var err error
		switch t.op {
		case kwMin, kwMax:
			if p.seenObj {
				return nil, p.errorf(t, "a second objective section")
			}
			p.seenObj = true
			if t.op == kwMax {
				p.sense = model.Maximize
			}
			err = p.objective()
		case kwSubjectTo:
			err = p.constraints()
		case kwBounds:
			err = p.bounds()
		case kwGeneral, kwBinary:
			err = p.integers(t.op == kwBinary)
		case kwSemi, kwSOS:
			// Empty sections are harmless (HiGHS writes an empty "semi").
			if !p.atSectionEnd() {
				what := map[uint8]string{kwSemi: "semi-continuous variables", kwSOS: "SOS constraints"}[t.op]
				return nil, p.errorf(t, "%s are not supported", what)
			}
		case kwEnd:
			if rest := p.peek(); rest.kind != tEOF {
				p.warnf(rest.line, "text after End ignored")
			}
			return p.build()
		}
		if err != nil {
			return nil, err
		}
	}
	return p.build()
}

// atSectionEnd reports whether the next token ends the current section.
func (p *parser) atSectionEnd() bool {
	k := p.peek().kind
	return k == tKeyword || k == tEOF
}

func (p *parser) objective() error {
	if t := p.peek(); t.kind == tName && t.colon {
		p.objName = t.text
		p.advance()
	}
	if p.atSectionEnd() {
		return nil
	}
	e, err := p.expression(true)
	if err != nil {
		return err
	}
	if !p.atSectionEnd() {
		t := p.peek()
		return p.errorf(t, "unexpected %s after the objective (terms are separated by + or -)", describe(t))
	}
	for k, j := range e.cols {
		p.cols[j].cost = e.coefs[k]
	}
	p.offset = e.constant
	for _, q := range e.quad {
		// The quadratic part of the objective is the bracket divided by d, and equals
		// ½xᵀQx: a square c·x_i² adds 2c/d to Q_ii, a product c·x_i·x_j (i ≠ j) adds c/d
		// to Q_ij. Doubling before dividing keeps Write's Q_ii x_i^2 … / 2 exact.
		key := [2]int{max(q.i, q.j), min(q.i, q.j)}
		v := q.coef / q.div
		if q.i == q.j {
			if v = 2 * q.coef; math.IsInf(v, 0) {
				v = 2 * (q.coef / q.div)
			} else {
				v /= q.div
			}
		}
		if p.quad == nil {
			p.quad = map[[2]int]float64{}
		}
		if _, ok := p.quad[key]; !ok {
			p.quadKeys = append(p.quadKeys, key)
		}
		p.quad[key] += v
	}
	return nil
}

// expr is a parsed expression: linear terms in order of first appearance (repeats
// summed), a constant, and quadratic terms.
type expr struct {
	cols     []int
	coefs    []float64
	pos      map[int]int
	constant float64
	quad     []quadTerm
}

// quadTerm is coef·x_i·x_j / div.
type quadTerm struct {
	i, j      int
	coef, div float64
}

func (e *expr) add(j int, c float64) {
	// Short expressions (most rows) find repeats by scanning; long ones by a map.
	if e.pos == nil && len(e.cols) >= 16 {
		e.pos = make(map[int]int, 2*len(e.cols))
		for k, col := range e.cols {
			e.pos[col] = k
		}
	}
	if e.pos != nil {
		if k, ok := e.pos[j]; ok {
			e.coefs[k] += c
			return
		}
		e.pos[j] = len(e.cols)
	} else {
		for k, col := range e.cols {
			if col == j {
				e.coefs[k] += c
				return
			}
		}
	}
	e.cols = append(e.cols, j)
	e.coefs = append(e.coefs, c)
}

// signs consumes any run of + and - and returns the resulting sign and whether there
// was one.
func (p *parser) signs() (float64, bool) {
	s, any := 1.0, false
	for {
		switch p.peek().kind {
		case tPlus:
		case tMinus:
			s = -s
		default:
			return s, any
		}
		p.advance()
		any = true
	}
}

// expression parses terms separated by + and -: constants, [number] name, and (when
// quadOK) brackets of quadratic terms with an optional "/ d".
func (p *parser) expression(quadOK bool) (*expr, error) {
	e := &expr{}
	if p.peek().kind == tCmp {
		return e, nil // an empty constraint, "c: = 0" (HiGHS writes these)
	}
	for first := true; ; first = false {
		if !first {
			if k := p.peek().kind; k != tPlus && k != tMinus {
				return e, nil
			}
		}
		sign, _ := p.signs()
		t := p.peek()
		switch {
		case t.kind == tNumber:
			p.advance()
			c := sign * t.num
			switch n := p.peek(); {
			case n.kind == tName && !n.colon:
				p.advance()
				e.add(p.column(n.text, n.line), c)
			case n.kind == tLBracket:
				return nil, p.errorf(n, "a number cannot multiply a [ … ] bracket")
			default:
				if math.IsInf(c, 0) {
					return nil, p.errorf(t, "an infinite constant in an expression")
				}
				e.constant += c
			}
		case t.kind == tName && !t.colon:
			p.advance()
			e.add(p.column(t.text, t.line), sign)
		case t.kind == tLBracket:
			if !quadOK {
				return nil, p.errorf(t, "quadratic constraints are not supported")
			}
			if err := p.bracket(e, sign); err != nil {
				return nil, err
			}
		default:
			return nil, p.errorf(t, "expected a term, found %s", describe(t))
		}
	}
}

// bracket parses [ terms ] [/ d]: squares [c] x ^ 2 and products [c] x * y.
func (p *parser) bracket(e *expr, sign float64) error {
	open := p.advance()
	var terms []quadTerm
	for first := true; ; first = false {
		if t := p.peek(); t.kind == tRBracket {
			p.advance()
			break
		} else if !first && t.kind != tPlus && t.kind != tMinus {
			return p.errorf(t, "expected + or - or ] in the quadratic terms, found %s", describe(t))
		}
		s, _ := p.signs()
		c := s * sign
		if t := p.peek(); t.kind == tNumber {
			if math.IsInf(t.num, 0) {
				return p.errorf(t, "an infinite quadratic coefficient")
			}
			c *= t.num
			p.advance()
		}
		x := p.advance()
		if x.kind != tName || x.colon {
			return p.errorf(x, "expected a variable in the quadratic terms, found %s", describe(x))
		}
		i := p.column(x.text, x.line)
		switch op := p.advance(); op.kind {
		case tCaret:
			if two := p.advance(); two.kind != tNumber || two.num != 2 {
				return p.errorf(two, "only squares (^ 2) are allowed, found %s", describe(two))
			}
			terms = append(terms, quadTerm{i: i, j: i, coef: c})
		case tStar:
			y := p.advance()
			if y.kind != tName || y.colon {
				return p.errorf(y, "expected a variable after *, found %s", describe(y))
			}
			terms = append(terms, quadTerm{i: i, j: p.column(y.text, y.line), coef: c})
		default:
			return p.errorf(op, "expected ^ 2 or * after %q in the quadratic terms, found %s", x.text, describe(op))
		}
		if p.peek().kind == tEOF {
			return p.errorf(open, "[ is not closed")
		}
	}
	d := 1.0
	if p.peek().kind == tSlash {
		p.advance()
		t := p.advance()
		if t.kind != tNumber || t.num == 0 || math.IsInf(t.num, 0) {
			return p.errorf(t, "expected a nonzero number after /, found %s", describe(t))
		}
		d = t.num
	}
	for _, q := range terms {
		q.div = d
		e.quad = append(e.quad, q)
	}
	return nil
}

// signedNumber parses [+|-]… number (inf included) for a bound or right-hand side;
// magnitudes of at least Options.Infinity are infinite.
func (p *parser) signedNumber(what string) (float64, error) {
	s, _ := p.signs()
	t := p.advance()
	if t.kind != tNumber {
		return 0, p.errorf(t, "expected %s, found %s", what, describe(t))
	}
	v := s * t.num
	switch {
	case v >= p.inf:
		v = math.Inf(1)
	case v <= -p.inf:
		v = math.Inf(-1)
	case v == 0:
		v = 0 // no negative zeros
	}
	return v, nil
}

// startsWithNumberThenCmp reports whether the next tokens are [signs] number comparison.
func (p *parser) startsWithNumberThenCmp() bool {
	k := 0
	for p.peekAt(k).kind == tPlus || p.peekAt(k).kind == tMinus {
		k++
	}
	return p.peekAt(k).kind == tNumber && p.peekAt(k+1).kind == tCmp
}

func (p *parser) constraints() error {
	for !p.atSectionEnd() {
		start := p.peek()
		name := ""
		if start.kind == tName && start.colon {
			name = start.text
			p.advance()
			if p.rowNames[name] {
				return p.errorf(start, "constraint name %q used twice", name)
			}
			p.rowNames[name] = true
		}
		r := row{name: name, line: start.line, lo: math.Inf(-1), hi: math.Inf(1)}
		if p.startsWithNumberThenCmp() {
			// lo op expr [op hi]
			lhs, _ := p.signedNumber("a number")
			op1 := p.advance()
			e, err := p.expression(false)
			if err != nil {
				return err
			}
			r.expr = e
			if p.peek().kind == tCmp {
				op2 := p.advance()
				rhs, err := p.signedNumber("a right-hand side")
				if err != nil {
					return err
				}
				switch {
				case op1.op == cmpLE && op2.op == cmpLE:
					r.lo, r.hi = lhs, rhs
				case op1.op == cmpGE && op2.op == cmpGE:
					r.lo, r.hi = rhs, lhs
				default:
					return p.errorf(op2, "a ranged constraint needs two <= or two >=, found %s and %s", op1.text, op2.text)
				}
			} else {
				switch op1.op {
				case cmpLE:
					r.lo = lhs
				case cmpGE:
					r.hi = lhs
				default:
					r.lo, r.hi = lhs, lhs
				}
			}
		} else {
			e, err := p.expression(false)
			if err != nil {
				return err
			}
			r.expr = e
			op := p.advance()
			if op.kind != tCmp {
				return p.errorf(op, "expected <=, >= or = after the expression, found %s", describe(op))
			}
			rhs, err := p.signedNumber("a right-hand side")
			if err != nil {
				return err
			}
			switch op.op {
			case cmpLE:
				r.hi = rhs
			case cmpGE:
				r.lo = rhs
			default:
				r.lo, r.hi = rhs, rhs
			}
		}
		// Constants on the expression side move to the bounds.
		if c := r.expr.constant; c != 0 {
			r.lo -= c
			r.hi -= c
		}
		if msg := boundsProblem(r.lo, r.hi); msg != "" {
			return p.errorf(start, "constraint %s: %s", rowLabel(name, len(p.rows)), msg)
		}
		p.rows = append(p.rows, r)
	}
	return nil
}

func rowLabel(name string, i int) string {
	if name != "" {
		return fmt.Sprintf("%q", name)
	}
	return fmt.Sprintf("%d", i+1)
}

func (p *parser) bounds() error {
	for !p.atSectionEnd() {
		t := p.peek()
		switch {
		case t.kind == tName && !t.colon:
			p.advance()
			j := p.boundColumn(t)
			if n := p.peek(); n.kind == tName && strings.EqualFold(n.text, "free") {
				p.advance()
				p.setLower(j, math.Inf(-1), t.line)
				p.setUpper(j, math.Inf(1), t.line)
				continue
			}
			op := p.advance()
			if op.kind != tCmp {
				return p.errorf(op, "expected <=, >=, = or free after %q, found %s", t.text, describe(op))
			}
			v, err := p.signedNumber("a bound")
			if err != nil {
				return err
			}
			p.apply(j, op.op, v, false, t.line)
		case t.kind == tNumber || t.kind == tPlus || t.kind == tMinus:
			v, err := p.signedNumber("a bound")
			if err != nil {
				return err
			}
			op := p.advance()
			if op.kind != tCmp {
				return p.errorf(op, "expected <=, >= or = after the bound, found %s", describe(op))
			}
			x := p.advance()
			if x.kind != tName || x.colon {
				return p.errorf(x, "expected a variable, found %s", describe(x))
			}
			j := p.boundColumn(x)
			if p.peek().kind != tCmp {
				p.apply(j, op.op, v, true, t.line)
				continue
			}
			op2 := p.advance()
			v2, err := p.signedNumber("a bound")
			if err != nil {
				return err
			}
			switch {
			case op.op == cmpLE && op2.op == cmpLE:
				p.setLower(j, v, t.line)
				p.setUpper(j, v2, t.line)
			case op.op == cmpGE && op2.op == cmpGE:
				p.setLower(j, v2, t.line)
				p.setUpper(j, v, t.line)
			default:
				return p.errorf(op2, "a two-sided bound needs two <= or two >=, found %s and %s", op.text, op2.text)
			}
		default:
			return p.errorf(t, "expected a bound, found %s", describe(t))
		}
	}
	return nil
}

// boundColumn returns the column named by t, creating it with a warning when it has
// not appeared before (a typo, most likely).
func (p *parser) boundColumn(t token) int {
	if j, ok := p.colIndex[t.text]; ok {
		return j
	}
	p.warnf(t.line, "%q does not appear in the objective or the constraints", t.text)
	return p.column(t.text, t.line)
}

// apply sets a one-sided bound: x op v, or v op x when reversed.
func (p *parser) apply(j int, op uint8, v float64, reversed bool, line int32) {
	if reversed && op != cmpEQ {
		op = cmpLE + cmpGE - op // v <= x is x >= v
	}
	switch op {
	case cmpLE:
		if v < 0 && !p.cols[j].hasLower && p.cols[j].lower == 0 {
			p.warnf(line, "%q: negative upper bound %g with no lower bound: lower bound set to -infinity", p.cols[j].name, v)
			p.cols[j].lower = math.Inf(-1)
		}
		p.setUpper(j, v, line)
	case cmpGE:
		p.setLower(j, v, line)
	default:
		p.setLower(j, v, line)
		p.setUpper(j, v, line)
	}
}

func (p *parser) setLower(j int, v float64, line int32) {
	p.cols[j].lower, p.cols[j].hasLower, p.cols[j].line = v, true, line
}

func (p *parser) setUpper(j int, v float64, line int32) {
	p.cols[j].upper, p.cols[j].line = v, line
}

func (p *parser) integers(binary bool) error {
	for !p.atSectionEnd() {
		t := p.advance()
		if t.kind != tName || t.colon {
			return p.errorf(t, "expected a variable name, found %s", describe(t))
		}
		j, known := p.colIndex[t.text]
		if !known {
			p.warnf(t.line, "%q does not appear in the objective or the constraints", t.text)
			j = p.column(t.text, t.line)
		}
		c := &p.cols[j]
		c.integer = true
		if binary && math.IsInf(c.upper, 1) {
			c.upper = 1
		}
	}
	return nil
}

// boundsProblem mirrors the bound checks of Problem.Validate.
func boundsProblem(lo, hi float64) string {
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

func (p *parser) build() (*model.Problem, error) {
	p.section = ""
	n, m := len(p.cols), len(p.rows)
	prob := &model.Problem{
		ObjName:  p.objName,
		Sense:    p.sense,
		Offset:   p.offset,
		ColCost:  make([]float64, n),
		ColLower: make([]float64, n),
		ColUpper: make([]float64, n),
		RowLower: make([]float64, m),
		RowUpper: make([]float64, m),
		ColNames: make([]string, n),
		RowNames: make([]string, m),
		AStart:   make([]int, n+1),
	}
	if math.IsInf(p.offset, 0) || math.IsNaN(p.offset) {
		return nil, newError(p.toks[0].line, "", "the objective constant is not finite")
	}
	for j, c := range p.cols {
		if msg := boundsProblem(c.lower, c.upper); msg != "" {
			return nil, newError(c.line, "Bounds", "%q: %s", c.name, msg)
		}
		if math.IsInf(c.cost, 0) || math.IsNaN(c.cost) {
			return nil, newError(c.line, "", "%q: the objective coefficient is not finite", c.name)
		}
		prob.ColCost[j], prob.ColLower[j], prob.ColUpper[j], prob.ColNames[j] = c.cost, c.lower, c.upper, c.name
		if c.integer {
			if prob.Integrality == nil {
				prob.Integrality = make([]bool, n)
			}
			prob.Integrality[j] = true
		}
	}
	// A in CSC: count, then fill row by row so each column's row indices increase.
	for i, r := range p.rows {
		prob.RowLower[i], prob.RowUpper[i], prob.RowNames[i] = r.lo, r.hi, r.name
		for k, j := range r.expr.cols {
			c := r.expr.coefs[k]
			if math.IsInf(c, 0) || math.IsNaN(c) {
				return nil, newError(r.line, "Subject To", "constraint %s: coefficient of %q is not finite", rowLabel(r.name, i), p.cols[j].name)
			}
			if c != 0 {
				prob.AStart[j+1]++
			}
		}
	}
	for j := range n {
		prob.AStart[j+1] += prob.AStart[j]
	}
	prob.AIndex = make([]int, prob.AStart[n])
	prob.AValue = make([]float64, prob.AStart[n])
	next := append([]int(nil), prob.AStart[:n]...)
	for i, r := range p.rows {
		for k, j := range r.expr.cols {
			if c := r.expr.coefs[k]; c != 0 {
				prob.AIndex[next[j]], prob.AValue[next[j]] = i, c
				next[j]++
			}
		}
	}
	if err := p.hessian(prob); err != nil {
		return nil, err
	}
	if err := prob.Validate(); err != nil {
		return nil, fmt.Errorf("lpformat: %w", err)
	}
	return prob, nil
}

func (p *parser) hessian(prob *model.Problem) error {
	var keys [][2]int
	for _, k := range p.quadKeys {
		v := p.quad[k]
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return newError(p.toks[0].line, "", "quadratic coefficient of %q·%q is not finite", p.cols[k[0]].name, p.cols[k[1]].name)
		}
		if v != 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	sort.Slice(keys, func(a, b int) bool {
		if keys[a][1] != keys[b][1] {
			return keys[a][1] < keys[b][1]
		}
		return keys[a][0] < keys[b][0]
	})
	n := prob.NumCols()
	prob.QStart = make([]int, n+1)
	prob.QIndex = make([]int, len(keys))
	prob.QValue = make([]float64, len(keys))
	for k, key := range keys {
		prob.QStart[key[1]+1]++
		prob.QIndex[k], prob.QValue[k] = key[0], p.quad[key]
	}
	for j := range n {
		prob.QStart[j+1] += prob.QStart[j]
	}
	return nil
}
