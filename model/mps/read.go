package mps

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/coraopt/coraopt/internal/gzfile"
	"github.com/coraopt/coraopt/model"
)

// Format selects the MPS dialect.
type Format int

const (
	// Auto reads free MPS and, when the file does not parse as free MPS, fixed MPS (names
	// with spaces need the fixed columns). Write writes free MPS.
	Auto Format = iota
	// Free MPS: fields are separated by whitespace; names have no spaces.
	Free
	// Fixed MPS: fields in columns 2-3, 5-12, 15-22, 25-36, 40-47 and 50-61; names are at
	// most 8 characters and may contain spaces.
	Fixed
)

func (f Format) String() string {
	switch f {
	case Auto:
		return "auto"
	case Free:
		return "free"
	case Fixed:
		return "fixed"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// DefaultInfinity is the magnitude from which bounds, right-hand sides and ranges are
// read as infinite, as HiGHS's default infinite_bound.
const DefaultInfinity = 1e20

// Options control reading and writing.
type Options struct {
	// Format is the dialect; see Format.
	Format Format
	// Infinity: when reading, a bound, right-hand side or range of magnitude at least
	// Infinity is ±Inf (0 means DefaultInfinity; +Inf disables the rule). Many files
	// write 1e30 for "no bound".
	Infinity float64
	// Warn, when not nil, receives the reader's warnings: entries that are ignored
	// (duplicates, undefined rows, N rows other than the objective), defaults applied
	// (a negative UP bound), fractional integer bounds.
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
	Section string // "" outside any section
	Msg     string
}

func (e *ParseError) Error() string {
	if e.Section == "" {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.Section, e.Msg)
}

// ReadFile reads an MPS file; a name ending in ".gz" is decompressed. Errors are prefixed
// with the path.
func ReadFile(path string, opt Options) (*model.Problem, error) {
	r, err := gzfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mps: %w", err)
	}
	defer r.Close()
	p, err := Read(r, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Read reads a model in MPS format. A malformed input gives a *ParseError naming the
// line; nothing panics. See the package documentation for the dialect.
func Read(r io.Reader, opt Options) (*model.Problem, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("mps: %w", err)
	}
	inf := opt.Infinity
	if inf <= 0 || math.IsNaN(inf) {
		inf = DefaultInfinity
	}
	emit := func(ws []Warning) {
		if opt.Warn != nil {
			for _, w := range ws {
				opt.Warn(w)
			}
		}
	}
	switch opt.Format {
	case Free, Fixed:
		p, ws, err := parse(data, opt.Format == Fixed, inf)
		emit(ws)
		return p, err
	case Auto:
		p, ws, err := parse(data, false, inf)
		if err == nil {
			emit(ws)
			return p, nil
		}
		pf, wsf, errf := parse(data, true, inf)
		if errf == nil {
			emit(wsf)
			return pf, nil
		}
		// Report the dialect that got further: it is more likely the file's.
		var e, ef *ParseError
		if errors.As(err, &e) && errors.As(errf, &ef) && ef.Line > e.Line {
			return nil, errf
		}
		return nil, err
	}
	return nil, fmt.Errorf("mps: unknown format %v", opt.Format)
}

// Row types as in the ROWS section.
const (
	rowN = 'N'
	rowL = 'L'
	rowG = 'G'
	rowE = 'E'
)

// rowIndex values for rows that are not constraints.
const (
	objectiveRow = -1
	ignoredRow   = -2
)

// maxWarnings caps the warnings kept; a summary replaces the rest.
const maxWarnings = 1000

type parser struct {
	fixed bool
	inf   float64

	line     int
	section  string
	seen     map[string]bool
	warnings []Warning
	dropped  int

	name     string
	sense    model.Sense
	objName  string
	hasObj   bool
	offset   float64
	objRHS   bool
	objLine  int
	rowIndex map[string]int
	rows     []rowData

	colIndex map[string]int
	cols     []colData
	aStart   []int
	aIndex   []int
	aValue   []float64
	current  int   // column being read in COLUMNS, -1 before the first
	rowMark  []int // rowMark[i] == current: row i already has an entry in this column
	costSet  bool
	integer  bool // inside an INTORG/INTEND pair
	anyInt   bool
	qmatrix  bool
	qLower   map[[2]int]float64
	qUpper   map[[2]int]float64
	qOrder   [][2]int
	qLine    map[[2]int]int
	finished bool
}

type rowData struct {
	name      string
	typ       byte
	rhs       float64
	rhsSet    bool
	rhsLine   int
	rangeText string
	rangeVal  float64
	rangeSet  bool
	rangeLine int
}

type colData struct {
	name          string
	cost          float64
	lower, upper  float64
	hasLower      bool
	hasUpper      bool
	integer       bool
	binaryDefault bool // integer from markers with no BOUNDS entry yet: [0, 1] as HiGHS
	line          int  // where the column's bounds were last set (or where it appeared)
}

func parse(data []byte, fixed bool, inf float64) (*model.Problem, []Warning, error) {
	p := &parser{
		fixed:    fixed,
		inf:      inf,
		seen:     map[string]bool{},
		sense:    model.Minimize,
		rowIndex: map[string]int{},
		colIndex: map[string]int{},
		aStart:   []int{0},
		current:  -1,
	}
	prob, err := p.run(data)
	if p.dropped > 0 {
		p.warnings = append(p.warnings, Warning{Line: p.line, Msg: fmt.Sprintf("%d more warnings not shown", p.dropped)})
	}
	return prob, p.warnings, err
}

func (p *parser) errorf(format string, args ...any) error {
	return &ParseError{Line: p.line, Section: p.section, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) warnf(format string, args ...any) {
	if len(p.warnings) >= maxWarnings {
		p.dropped++
		return
	}
	msg := fmt.Sprintf(format, args...)
	if p.section != "" {
		msg = p.section + ": " + msg
	}
	p.warnings = append(p.warnings, Warning{Line: p.line, Msg: msg})
}

// Section keywords. The unsupported ones are recognised so that the error says so.
var sections = map[string]bool{
	"NAME": true, "OBJSENSE": true, "ROWS": true, "COLUMNS": true, "RHS": true,
	"RANGES": true, "BOUNDS": true, "QUADOBJ": true, "QMATRIX": true, "QSECTION": true,
	"ENDATA": true,
}

var unsupportedSections = map[string]string{
	"QCMATRIX":    "quadratic constraints",
	"CSECTION":    "conic constraints",
	"SOS":         "special ordered sets",
	"SETS":        "special ordered sets",
	"INDICATORS":  "indicator constraints",
	"GENCONS":     "general constraints",
	"DELAYEDROWS": "lazy constraints",
	"LAZYCONS":    "lazy constraints",
	"USERCUTS":    "user cuts",
	"MODELCUTS":   "model cuts",
	"PWLOBJ":      "piecewise-linear objectives",
	"PWLNAM":      "piecewise-linear objectives",
	"PWLCON":      "piecewise-linear constraints",
	"OBJSENCE":    "the misspelt OBJSENCE (write OBJSENSE)",
	"OBJNAME":     "choosing the objective by name (the first N row is the objective)",
	"BRANCH":      "branching priorities",
}

func (p *parser) run(data []byte) (*model.Problem, error) {
	for len(data) > 0 {
		var raw []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			raw, data = data[:i], data[i+1:]
		} else {
			raw, data = data, nil
		}
		p.line++
		raw = bytes.TrimRight(raw, "\r")
		if len(bytes.TrimSpace(raw)) == 0 || raw[0] == '*' {
			continue
		}
		line := string(raw)
		if line[0] != ' ' && line[0] != '\t' {
			header, err := p.header(line)
			if err != nil {
				return nil, err
			}
			if header {
				if p.finished {
					return p.finish()
				}
				continue
			}
		}
		if err := p.data(line); err != nil {
			return nil, err
		}
	}
	p.line++
	p.section = ""
	return nil, p.errorf("unexpected end of input: missing ENDATA")
}

// header handles a line that starts in column 1. It reports false for a free-format data
// line that starts in column 1 (HiGHS accepts those; a keyword followed by more fields,
// as in a column named RHS, is data too).
func (p *parser) header(line string) (bool, error) {
	fields := strings.Fields(line)
	key := strings.ToUpper(fields[0])
	takesArg := key == "NAME" || key == "OBJSENSE" || key == "QSECTION" || key == "QCMATRIX" || key == "CSECTION"
	if what, ok := unsupportedSections[key]; ok && (len(fields) == 1 || takesArg) {
		p.section = ""
		return false, p.errorf("section %s is not supported: coraopt does not model %s", key, what)
	}
	if !sections[key] || (len(fields) > 1 && !takesArg) {
		if !p.fixed && p.section != "" && p.section != "NAME" {
			return false, nil
		}
		p.section = ""
		return false, p.errorf("unknown section %q (data lines start with a space)", fields[0])
	}
	if key == "QSECTION" {
		// QSECTION <row>: the Hessian of the objective row is QUADOBJ by another name;
		// of any other row, a quadratic constraint.
		if len(fields) < 2 || p.rowIndex[fields[1]] != objectiveRow || !p.hasObj {
			p.section = ""
			return false, p.errorf("QSECTION for a row other than the objective (a quadratic constraint) is not supported")
		}
		key = "QUADOBJ"
	}
	if p.seen[key] {
		p.section = ""
		return false, p.errorf("section %s appears twice", key)
	}
	if key == "QUADOBJ" && p.seen["QMATRIX"] || key == "QMATRIX" && p.seen["QUADOBJ"] {
		p.section = ""
		return false, p.errorf("both QUADOBJ and QMATRIX: give the Hessian once")
	}
	p.closeColumns()
	p.seen[key] = true
	p.section = key
	switch key {
	case "NAME":
		// Free MPS: the first word (Netlib files add comments after it). Fixed MPS: the
		// rest of the line, which may contain spaces.
		if p.fixed {
			p.name = strings.TrimSpace(line[len(fields[0]):])
		} else if len(fields) > 1 {
			p.name = fields[1]
		}
	case "OBJSENSE":
		if len(fields) > 1 {
			if err := p.objSense(fields[1]); err != nil {
				return false, err
			}
		}
	case "COLUMNS":
		if !p.seen["ROWS"] {
			return false, p.errorf("COLUMNS before ROWS")
		}
		p.rowMark = make([]int, len(p.rows))
		for i := range p.rowMark {
			p.rowMark[i] = -1
		}
	case "RHS", "RANGES":
		if !p.seen["ROWS"] {
			return false, p.errorf("%s before ROWS", key)
		}
	case "BOUNDS", "QUADOBJ", "QMATRIX":
		if !p.seen["COLUMNS"] {
			return false, p.errorf("%s before COLUMNS", key)
		}
		if key == "QMATRIX" {
			p.qmatrix = true
		}
	case "ENDATA":
		p.finished = true
	}
	return true, nil
}

func (p *parser) data(line string) error {
	switch p.section {
	case "":
		return p.errorf("data before the first section: %q", strings.TrimSpace(line))
	case "NAME":
		return p.errorf("unexpected data after NAME: %q", strings.TrimSpace(line))
	case "OBJSENSE":
		return p.objSense(strings.Fields(line)[0])
	case "ROWS":
		return p.rowLine(line)
	case "COLUMNS":
		return p.columnLine(line)
	case "RHS", "RANGES":
		return p.rhsLine(line)
	case "BOUNDS":
		return p.boundLine(line)
	case "QUADOBJ", "QMATRIX":
		return p.quadLine(line)
	}
	return p.errorf("unexpected data")
}

func (p *parser) objSense(word string) error {
	switch strings.ToUpper(word) {
	case "MAX", "MAXIMIZE", "MAXIMISE":
		p.sense = model.Maximize
	case "MIN", "MINIMIZE", "MINIMISE":
		p.sense = model.Minimize
	default:
		return p.errorf("unknown sense %q (want MIN or MAX)", word)
	}
	return nil
}

// field extracts fixed-format columns [from, to) (0-based), trimmed.
func field(line string, from, to int) string {
	if from >= len(line) {
		return ""
	}
	return strings.TrimSpace(line[from:min(to, len(line))])
}

// numberField extracts the number that starts within the 12 columns from `from`; it may
// run past the field (values with all their digits do), ending at whitespace.
func numberField(line string, from int) (string, int) {
	if from >= len(line) {
		return "", len(line)
	}
	i := from
	for i < len(line) && i < from+12 && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	j := i
	for j < len(line) && line[j] != ' ' && line[j] != '\t' {
		j++
	}
	return line[i:j], j
}

// pair is a (name, value) field pair.
type pair struct{ name, value string }

// fixedPairs reads fields 3-4 and, when present, 5-6 of a fixed-format line.
func (p *parser) fixedPairs(line string) ([]pair, error) {
	v1, end := numberField(line, 24)
	pairs := []pair{{field(line, 14, 22), v1}}
	if end > 39 {
		if strings.TrimSpace(line[end:]) != "" {
			return nil, p.errorf("unexpected text after the value in column %d", end+1)
		}
		return pairs, nil
	}
	if n2 := field(line, 39, 47); n2 != "" {
		v2, end2 := numberField(line, 49)
		if strings.TrimSpace(line[end2:]) != "" {
			return nil, p.errorf("unexpected text after the value in column %d", end2+1)
		}
		pairs = append(pairs, pair{n2, v2})
	} else if strings.TrimSpace(line[min(end, len(line)):]) != "" {
		return nil, p.errorf("unexpected text in columns 37-61")
	}
	return pairs, nil
}

// freePairs reads name/value pairs from fields.
func (p *parser) freePairs(fields []string) []pair {
	out := make([]pair, 0, 2)
	for k := 0; k+1 < len(fields); k += 2 {
		out = append(out, pair{fields[k], fields[k+1]})
	}
	return out
}

func (p *parser) rowLine(line string) error {
	var typ, name string
	if p.fixed {
		typ, name = field(line, 1, 3), field(line, 4, 12)
		if len(line) > 12 && strings.TrimSpace(line[12:]) != "" {
			return p.errorf("text after column 12 (fixed MPS names have at most 8 characters)")
		}
	} else {
		f := strings.Fields(line)
		if len(f) != 2 {
			return p.errorf("want a row type and a name, found %d fields", len(f))
		}
		typ, name = f[0], f[1]
	}
	if name == "" {
		return p.errorf("row without a name")
	}
	t := strings.ToUpper(typ)
	if len(t) != 1 || !strings.Contains("NLGE", t) {
		return p.errorf("unknown row type %q (want N, L, G or E)", typ)
	}
	if _, dup := p.rowIndex[name]; dup {
		return p.errorf("row %q defined twice", name)
	}
	if t[0] == rowN {
		if p.hasObj {
			p.warnf("N row %q is not the first N row: it and its entries are ignored", name)
			p.rowIndex[name] = ignoredRow
			return nil
		}
		p.hasObj, p.objName = true, name
		p.rowIndex[name] = objectiveRow
		return nil
	}
	p.rowIndex[name] = len(p.rows)
	p.rows = append(p.rows, rowData{name: name, typ: t[0]})
	return nil
}

func (p *parser) columnLine(line string) error {
	var col string
	var pairs []pair
	if p.fixed {
		col = field(line, 4, 12)
		// Marker lines have 'MARKER' in field 3 or, as many writers place it, further
		// right: take them by words.
		if f := strings.Fields(line); len(f) >= 2 && f[1] == "'MARKER'" {
			return p.marker(strings.Join(f[2:], " "))
		}
		var err error
		if pairs, err = p.fixedPairs(line); err != nil {
			return err
		}
	} else {
		f := strings.Fields(line)
		if len(f) >= 2 && f[1] == "'MARKER'" {
			return p.marker(strings.Join(f[2:], " "))
		}
		if len(f) != 3 && len(f) != 5 {
			return p.errorf("want a column name and one or two (row, value) pairs, found %d fields", len(f))
		}
		col, pairs = f[0], p.freePairs(f[1:])
	}
	if col == "" {
		return p.errorf("entry without a column name")
	}
	if p.current < 0 || p.cols[p.current].name != col {
		if _, seen := p.colIndex[col]; seen {
			return p.errorf("column %q appears again after other columns: its entries must be consecutive", col)
		}
		p.closeColumns()
		p.current = p.addColumn(col)
		if p.integer {
			c := &p.cols[p.current]
			c.integer, c.binaryDefault = true, true
			p.anyInt = true
		}
	}
	for _, e := range pairs {
		if e.name == "" || e.value == "" {
			return p.errorf("column %q: incomplete (row, value) pair", col)
		}
		v, err := parseNumber(e.value)
		if err != nil {
			return p.errorf("column %q, row %q: %v", col, e.name, err)
		}
		if math.IsInf(v, 0) {
			return p.errorf("column %q, row %q: coefficient %s is not finite", col, e.name, e.value)
		}
		i, ok := p.rowIndex[e.name]
		switch {
		case !ok:
			p.warnf("column %q: row %q is not defined in ROWS: entry ignored", col, e.name)
		case i == ignoredRow || v == 0:
		case i == objectiveRow:
			if p.costSet {
				p.warnf("column %q: second objective entry %s ignored", col, e.value)
				continue
			}
			p.costSet = true
			p.cols[p.current].cost = v
		default:
			if p.rowMark[i] == p.current {
				p.warnf("column %q: second entry %s in row %q ignored", col, e.value, e.name)
				continue
			}
			p.rowMark[i] = p.current
			p.aIndex = append(p.aIndex, i)
			p.aValue = append(p.aValue, v)
		}
	}
	return nil
}

func (p *parser) marker(rest string) error {
	switch {
	case strings.Contains(rest, "INTORG"):
		if p.integer {
			return p.errorf("INTORG marker inside an integer block (missing INTEND)")
		}
		p.integer = true
	case strings.Contains(rest, "INTEND"):
		if !p.integer {
			return p.errorf("INTEND marker without INTORG")
		}
		p.integer = false
	default:
		return p.errorf("unknown marker %q (want 'INTORG' or 'INTEND')", strings.TrimSpace(rest))
	}
	return nil
}

// addColumn appends a continuous column with the default bounds [0, +Inf).
func (p *parser) addColumn(name string) int {
	j := len(p.cols)
	p.colIndex[name] = j
	p.cols = append(p.cols, colData{name: name, upper: math.Inf(1), line: p.line})
	return j
}

// closeColumns ends the column being read: its entries are sorted by row.
func (p *parser) closeColumns() {
	if p.current < 0 {
		return
	}
	start := p.aStart[len(p.aStart)-1]
	seg := entries{p.aIndex[start:], p.aValue[start:]}
	if !sort.IsSorted(seg) {
		sort.Sort(seg)
	}
	p.aStart = append(p.aStart, len(p.aIndex))
	p.current = -1
	p.costSet = false
}

type entries struct {
	index []int
	value []float64
}

func (e entries) Len() int           { return len(e.index) }
func (e entries) Less(a, b int) bool { return e.index[a] < e.index[b] }
func (e entries) Swap(a, b int) {
	e.index[a], e.index[b] = e.index[b], e.index[a]
	e.value[a], e.value[b] = e.value[b], e.value[a]
}

// rhsLine reads an RHS or RANGES line: an optional set name, then one or two (row,
// value) pairs. Every set is read; a second value for a row is ignored, as HiGHS does.
func (p *parser) rhsLine(line string) error {
	var pairs []pair
	if p.fixed {
		var err error
		if pairs, err = p.fixedPairs(line); err != nil {
			return err
		}
	} else {
		f := strings.Fields(line)
		switch len(f) {
		case 2, 4:
			pairs = p.freePairs(f)
		case 3, 5:
			pairs = p.freePairs(f[1:])
		default:
			return p.errorf("want an optional set name and one or two (row, value) pairs, found %d fields", len(f))
		}
	}
	for _, e := range pairs {
		if e.name == "" || e.value == "" {
			return p.errorf("incomplete (row, value) pair")
		}
		v, err := parseNumber(e.value)
		if err != nil {
			return p.errorf("row %q: %v", e.name, err)
		}
		i, ok := p.rowIndex[e.name]
		switch {
		case !ok:
			p.warnf("row %q is not defined in ROWS: entry ignored", e.name)
		case i == ignoredRow:
		case i == objectiveRow && p.section == "RANGES":
			p.warnf("range on the objective row %q ignored", e.name)
		case i == objectiveRow:
			if p.objRHS {
				p.warnf("second value %s for the objective row ignored", e.value)
				continue
			}
			if math.IsInf(v, 0) {
				return p.errorf("objective constant %s is not finite", e.value)
			}
			// An RHS on the objective row is minus the objective constant (HiGHS, CPLEX).
			p.objRHS, p.offset, p.objLine = true, -v, p.line
			if p.offset == 0 {
				p.offset = 0
			}
		case p.section == "RHS":
			r := &p.rows[i]
			if r.rhsSet {
				p.warnf("second value %s for row %q ignored", e.value, e.name)
				continue
			}
			r.rhs, r.rhsSet, r.rhsLine = p.clampInf(v), true, p.line
		default:
			r := &p.rows[i]
			if r.rangeSet {
				p.warnf("second range %s for row %q ignored", e.value, e.name)
				continue
			}
			r.rangeText, r.rangeVal, r.rangeSet, r.rangeLine = e.value, p.clampInf(v), true, p.line
		}
	}
	return nil
}

// clampInf applies Options.Infinity.
func (p *parser) clampInf(v float64) float64 {
	if v >= p.inf {
		return math.Inf(1)
	}
	if v <= -p.inf {
		return math.Inf(-1)
	}
	return v
}

// Bound types and whether they take a value.
var boundTypes = map[string]bool{
	"UP": true, "LO": true, "FX": true, "LI": true, "UI": true,
	"MI": false, "PL": false, "FR": false, "BV": false,
}

func (p *parser) boundLine(line string) error {
	var typ, col, val string
	if p.fixed {
		typ, col = field(line, 1, 3), field(line, 14, 22)
		var end int
		val, end = numberField(line, 24)
		if end < len(line) && strings.TrimSpace(line[end:]) != "" {
			return p.errorf("unexpected text after the value in column %d", end+1)
		}
	} else {
		f := strings.Fields(line)
		typ = f[0]
		needsValue, known := boundTypes[strings.ToUpper(typ)]
		switch {
		case !known:
			// reported below
		case needsValue && len(f) == 3:
			col, val = f[1], f[2]
		case needsValue && len(f) == 4:
			col, val = f[2], f[3]
		case !needsValue && len(f) == 2:
			col = f[1]
		case !needsValue && (len(f) == 3 || len(f) == 4):
			col = f[2] // a value after MI, PL, FR or BV is ignored
		case needsValue:
			return p.errorf("bound type %s: want an optional set name, a column and a value, found %d fields", typ, len(f))
		default:
			return p.errorf("bound type %s: want an optional set name and a column, found %d fields", typ, len(f))
		}
	}
	t := strings.ToUpper(typ)
	needsValue, known := boundTypes[t]
	switch {
	case t == "SC":
		return p.errorf("bound type SC (semi-continuous) is not supported")
	case t == "SI":
		return p.errorf("bound type SI (semi-integer) is not supported")
	case !known:
		return p.errorf("unknown bound type %q", typ)
	case col == "":
		return p.errorf("bound type %s without a column name", t)
	case needsValue && val == "":
		return p.errorf("bound type %s for column %q without a value", t, col)
	}
	var v float64
	if needsValue {
		var err error
		if v, err = parseNumber(val); err != nil {
			return p.errorf("column %q: %v", col, err)
		}
		v = p.clampInf(v)
	}
	j, ok := p.colIndex[col]
	if !ok {
		p.warnf("column %q is not in COLUMNS: added as a new column", col)
		j = p.addColumn(col)
		p.aStart = append(p.aStart, len(p.aIndex))
	}
	c := &p.cols[j]
	setsLower := t == "LO" || t == "FX" || t == "LI" || t == "MI" || t == "FR" || t == "BV"
	setsUpper := t == "UP" || t == "FX" || t == "UI" || t == "PL" || t == "FR" || t == "BV"
	// A second definition of a side is ignored, as HiGHS does.
	if setsLower && c.hasLower || setsUpper && c.hasUpper {
		side := "upper"
		if setsLower && c.hasLower {
			side = "lower"
		}
		p.warnf("column %q: second %s bound ignored (%s)", col, side, t)
		return nil
	}
	c.binaryDefault = false
	c.line = p.line
	switch t {
	case "UP", "UI":
		if v < 0 && !c.hasLower {
			// The classic MPS rule (CPLEX, Gurobi, lp_solve): a negative upper bound on a
			// column with no lower bound makes the column unbounded below.
			p.warnf("column %q: negative upper bound %s with no lower bound: lower bound set to -infinity", col, val)
			c.lower = math.Inf(-1)
		}
		c.upper, c.hasUpper = v, true
	case "LO", "LI":
		c.lower, c.hasLower = v, true
	case "FX":
		c.lower, c.upper, c.hasLower, c.hasUpper = v, v, true, true
	case "MI":
		c.lower, c.hasLower = math.Inf(-1), true
	case "PL":
		c.upper, c.hasUpper = math.Inf(1), true
	case "FR":
		c.lower, c.upper, c.hasLower, c.hasUpper = math.Inf(-1), math.Inf(1), true, true
	case "BV":
		c.lower, c.upper, c.hasLower, c.hasUpper = 0, 1, true, true
	}
	if t == "LI" || t == "UI" || t == "BV" {
		if !math.IsInf(v, 0) && v != math.Trunc(v) {
			p.warnf("column %q: integer bound %s is not an integer", col, val)
		}
		c.integer, p.anyInt = true, true
	}
	return nil
}

// quadLine reads a QUADOBJ or QMATRIX line: column, column, value, and optionally a
// second (column, value) pair.
func (p *parser) quadLine(line string) error {
	var col string
	var pairs []pair
	if p.fixed {
		col = field(line, 4, 12)
		var err error
		if pairs, err = p.fixedPairs(line); err != nil {
			return err
		}
	} else {
		f := strings.Fields(line)
		if len(f) != 3 && len(f) != 5 {
			return p.errorf("want a column and one or two (column, value) pairs, found %d fields", len(f))
		}
		col, pairs = f[0], p.freePairs(f[1:])
	}
	j, ok := p.colIndex[col]
	if !ok {
		return p.errorf("column %q is not defined in COLUMNS", col)
	}
	if p.qLower == nil {
		p.qLower, p.qUpper, p.qLine = map[[2]int]float64{}, map[[2]int]float64{}, map[[2]int]int{}
	}
	for _, e := range pairs {
		if e.name == "" || e.value == "" {
			return p.errorf("incomplete (column, value) pair")
		}
		i, ok := p.colIndex[e.name]
		if !ok {
			return p.errorf("column %q is not defined in COLUMNS", e.name)
		}
		v, err := parseNumber(e.value)
		if err != nil {
			return p.errorf("entry (%q, %q): %v", col, e.name, err)
		}
		if math.IsInf(v, 0) {
			return p.errorf("entry (%q, %q): %s is not finite", col, e.name, e.value)
		}
		if v == 0 {
			continue
		}
		// Key (row, column) of the lower triangle.
		key, upper := [2]int{i, j}, false
		if i < j {
			key = [2]int{j, i}
			upper = p.qmatrix // QMATRIX lists both triangles; QUADOBJ either one
		}
		m := p.qLower
		if upper {
			m = p.qUpper
		}
		if _, dup := m[key]; dup {
			p.warnf("second entry for (%q, %q) ignored", col, e.name)
			continue
		}
		m[key] = v
		if _, listed := p.qLine[key]; !listed {
			p.qOrder = append(p.qOrder, key)
			p.qLine[key] = p.line
		}
	}
	return nil
}

// finish checks the bounds and assembles the Problem.
func (p *parser) finish() (*model.Problem, error) {
	p.closeColumns()
	p.section = ""
	if !p.seen["ROWS"] {
		return nil, p.errorf("no ROWS section")
	}
	if !p.hasObj {
		p.warnf("no N row: the objective is zero")
	}
	n, m := len(p.cols), len(p.rows)
	prob := &model.Problem{
		Name:     p.name,
		ObjName:  p.objName,
		Sense:    p.sense,
		Offset:   p.offset,
		ColCost:  make([]float64, n),
		ColLower: make([]float64, n),
		ColUpper: make([]float64, n),
		RowLower: make([]float64, m),
		RowUpper: make([]float64, m),
		AStart:   p.aStart,
		AIndex:   p.aIndex,
		AValue:   p.aValue,
		ColNames: make([]string, n),
		RowNames: make([]string, m),
	}
	if p.anyInt {
		prob.Integrality = make([]bool, n)
	}
	for j, c := range p.cols {
		if c.binaryDefault {
			// HiGHS 1.10: an integer column from markers with no BOUNDS entry is binary.
			c.lower, c.upper = 0, 1
		}
		if msg := boundsProblem(c.lower, c.upper); msg != "" {
			return nil, &ParseError{Line: c.line, Section: "BOUNDS", Msg: fmt.Sprintf("column %q: %s", c.name, msg)}
		}
		prob.ColCost[j], prob.ColLower[j], prob.ColUpper[j], prob.ColNames[j] = c.cost, c.lower, c.upper, c.name
		if c.integer {
			prob.Integrality[j] = true
		}
	}
	for i, r := range p.rows {
		lo, hi := rowBounds(r)
		if msg := boundsProblem(lo, hi); msg != "" {
			line, section := r.rhsLine, "RHS"
			if r.rangeLine > line {
				line, section = r.rangeLine, "RANGES"
			}
			return nil, &ParseError{Line: line, Section: section, Msg: fmt.Sprintf("row %q: %s", r.name, msg)}
		}
		prob.RowLower[i], prob.RowUpper[i], prob.RowNames[i] = lo, hi, r.name
	}
	p.hessian(prob)
	if err := prob.Validate(); err != nil {
		return nil, fmt.Errorf("mps: %w", err)
	}
	return prob, nil
}

// rowBounds turns a row's type, RHS and range into [lower, upper]:
//
//	L: [rhs − |R|, rhs]   G: [rhs, rhs + |R|]   E: R > 0: [rhs, rhs + |R|], R < 0: [rhs − |R|, rhs]
func rowBounds(r rowData) (lo, hi float64) {
	inf := math.Inf(1)
	switch r.typ {
	case rowL:
		lo, hi = -inf, r.rhs
		if r.rangeSet {
			lo = offsetByRange(r.rhs, r.rangeText, r.rangeVal, -1)
		}
	case rowG:
		lo, hi = r.rhs, inf
		if r.rangeSet {
			hi = offsetByRange(r.rhs, r.rangeText, r.rangeVal, +1)
		}
	default: // E
		lo, hi = r.rhs, r.rhs
		if r.rangeSet && r.rangeVal > 0 {
			hi = offsetByRange(r.rhs, r.rangeText, r.rangeVal, +1)
		} else if r.rangeSet && r.rangeVal < 0 {
			lo = offsetByRange(r.rhs, r.rangeText, r.rangeVal, -1)
		}
	}
	if math.IsNaN(lo) { // rhs = ±Inf meets an infinite range
		lo = -inf
	}
	if math.IsNaN(hi) {
		hi = inf
	}
	return lo, hi
}

// boundsProblem mirrors the bound checks of Problem.Validate.
func boundsProblem(lo, hi float64) string {
	switch {
	case lo > hi:
		return fmt.Sprintf("lower bound %g > upper bound %g", lo, hi)
	case math.IsInf(lo, 1) || math.IsInf(hi, -1):
		return fmt.Sprintf("bounds [%g, %g] admit no finite value", lo, hi)
	}
	return ""
}

// hessian assembles the lower triangle of Q in CSC. QMATRIX lists both triangles: the
// lower entry is used, and an entry given only above the diagonal stands for its mirror.
func (p *parser) hessian(prob *model.Problem) {
	if len(p.qOrder) == 0 {
		return
	}
	keys := p.qOrder
	vals := make(map[[2]int]float64, len(keys))
	for _, k := range keys {
		lo, hasLo := p.qLower[k]
		up, hasUp := p.qUpper[k]
		switch {
		case hasLo && hasUp && lo != up:
			p.line = p.qLine[k]
			p.section = "QMATRIX"
			p.warnf("entries (%q, %q) = %g and (%q, %q) = %g differ: the lower triangle's is used",
				prob.ColNames[k[0]], prob.ColNames[k[1]], lo, prob.ColNames[k[1]], prob.ColNames[k[0]], up)
			vals[k] = lo
		case hasLo:
			vals[k] = lo
		default:
			vals[k] = up
		}
	}
	sorted := append([][2]int(nil), keys...)
	sort.Slice(sorted, func(a, b int) bool {
		if sorted[a][1] != sorted[b][1] {
			return sorted[a][1] < sorted[b][1]
		}
		return sorted[a][0] < sorted[b][0]
	})
	n := prob.NumCols()
	prob.QStart = make([]int, n+1)
	prob.QIndex = make([]int, len(sorted))
	prob.QValue = make([]float64, len(sorted))
	for k, key := range sorted {
		prob.QStart[key[1]+1]++
		prob.QIndex[k] = key[0]
		prob.QValue[k] = vals[key]
	}
	for j := range n {
		prob.QStart[j+1] += prob.QStart[j]
	}
}
