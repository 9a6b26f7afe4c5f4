package mps

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"

	"github.com/coraopt/coraopt/model"
)

// freeRowRHS is the right-hand side written for a row free on both sides: an L row with
// this RHS reads back as (−Inf, +Inf) under any Infinity up to 1e30.
const freeRowRHS = "1e+30"

// Write writes p in MPS format: free MPS unless opt.Format is Fixed. Read(Write(p))
// reproduces p exactly, names included, with generated names (C1…, R1…, obj) for
// unnamed columns, rows and objective (and, in free MPS, the problem's name with its
// words joined by '_'). Finite bounds, and ranged rows as wide as 1e20 or
// more, read back as infinite (see Options.Infinity). Names that the dialect cannot carry (empty after
// generation, containing whitespace in free MPS, longer than 8 characters in fixed MPS,
// containing control characters) and duplicate names are errors.
func Write(w io.Writer, p *model.Problem, opt Options) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("mps: %w", err)
	}
	fixed := opt.Format == Fixed
	nm, err := writeNames(p, fixed)
	if err != nil {
		return err
	}
	mw := &mpsWriter{w: bufio.NewWriter(w), fixed: fixed}
	mw.write(p, nm)
	if err := mw.w.Flush(); err != nil {
		return fmt.Errorf("mps: %w", err)
	}
	return nil
}

// names are the names Write uses.
type names struct {
	problem    string
	obj        string
	cols, rows []string
}

// writeNames validates p's names and invents the missing ones.
func writeNames(p *model.Problem, fixed bool) (names, error) {
	if strings.ContainsFunc(p.Name, isControl) {
		return names{}, fmt.Errorf("mps: problem name %q contains a control character", p.Name)
	}
	nm := names{problem: p.Name, cols: make([]string, p.NumCols()), rows: make([]string, p.NumRows())}
	if !fixed {
		// Free MPS reads one word after NAME: join the words.
		nm.problem = strings.Join(strings.Fields(p.Name), "_")
	}
	if p.ColNames != nil {
		copy(nm.cols, p.ColNames)
	}
	if p.RowNames != nil {
		copy(nm.rows, p.RowNames)
	}
	check := func(kind, name string) error {
		switch {
		case strings.ContainsFunc(name, isControl):
			return fmt.Errorf("mps: %s name %q contains a control character", kind, name)
		case !fixed && strings.ContainsFunc(name, unicode.IsSpace):
			return fmt.Errorf("mps: %s name %q contains whitespace; free MPS cannot carry it (fixed MPS can, up to 8 characters)", kind, name)
		case fixed && len(name) > 8:
			return fmt.Errorf("mps: %s name %q is longer than 8 characters; fixed MPS cannot carry it (use free MPS)", kind, name)
		case fixed && strings.TrimSpace(name) != name:
			return fmt.Errorf("mps: %s name %q starts or ends with a space; fixed MPS cannot carry it", kind, name)
		case kind == "row" && name == "'MARKER'":
			return fmt.Errorf("mps: row name %q would read as an integer marker", name)
		}
		return nil
	}
	fill := func(kind, prefix string, list []string) error {
		used := make(map[string]bool, len(list))
		for _, s := range list {
			if s == "" {
				continue
			}
			if err := check(kind, s); err != nil {
				return err
			}
			if used[s] {
				return fmt.Errorf("mps: duplicate %s name %q", kind, s)
			}
			used[s] = true
		}
		for k, s := range list {
			if s == "" {
				list[k] = unique(fmt.Sprintf("%s%d", prefix, k+1), used)
			}
		}
		return nil
	}
	if err := fill("column", "C", nm.cols); err != nil {
		return names{}, err
	}
	if err := fill("row", "R", nm.rows); err != nil {
		return names{}, err
	}
	rowSet := make(map[string]bool, len(nm.rows))
	for _, s := range nm.rows {
		rowSet[s] = true
	}
	switch nm.obj = p.ObjName; {
	case nm.obj == "":
		nm.obj = unique("obj", rowSet)
	case rowSet[nm.obj]:
		return names{}, fmt.Errorf("mps: the objective's name %q is also a row's", nm.obj)
	default:
		if err := check("objective", nm.obj); err != nil {
			return names{}, err
		}
	}
	return nm, nil
}

// unique returns base, or base_1, base_2, … — the first not in used — and marks it used.
func unique(base string, used map[string]bool) string {
	s := base
	for k := 1; used[s]; k++ {
		s = fmt.Sprintf("%s_%d", base, k)
	}
	used[s] = true
	return s
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

type mpsWriter struct {
	w     *bufio.Writer
	fixed bool
	wName int // free format: width names are padded to
}

// line writes one line without trailing spaces.
func (mw *mpsWriter) line(s string) {
	mw.w.WriteString(strings.TrimRight(s, " "))
	mw.w.WriteByte('\n')
}

// entry writes a data line of two names and a value (COLUMNS, RHS, RANGES, QUADOBJ).
func (mw *mpsWriter) entry(a, b, value string) {
	if mw.fixed {
		mw.line(fmt.Sprintf("    %-8s  %-8s  %s", a, b, value))
		return
	}
	mw.line(fmt.Sprintf("    %-*s  %-*s  %s", mw.wName, a, mw.wName, b, value))
}

// bound writes a BOUNDS line.
func (mw *mpsWriter) bound(typ, col, value string) {
	if mw.fixed {
		mw.line(fmt.Sprintf(" %-2s %-8s  %-8s  %s", typ, "BND", col, value))
		return
	}
	mw.line(fmt.Sprintf(" %-2s %-8s  %-*s  %s", typ, "BND", mw.wName, col, value))
}

func (mw *mpsWriter) marker(kind string) {
	if mw.fixed {
		mw.line(fmt.Sprintf("    %-8s  %-8s%17s%s", "MARKER", "'MARKER'", "", kind))
		return
	}
	mw.line(fmt.Sprintf("    %-*s  %-*s  %s", mw.wName, "MARKER", mw.wName, "'MARKER'", kind))
}

func (mw *mpsWriter) write(p *model.Problem, nm names) {
	if !mw.fixed {
		mw.wName = max(len(nm.obj), len("'MARKER'"))
		for _, s := range nm.cols {
			mw.wName = max(mw.wName, len(s))
		}
		for _, s := range nm.rows {
			mw.wName = max(mw.wName, len(s))
		}
	}
	if nm.problem == "" {
		mw.line("NAME")
	} else {
		mw.line(fmt.Sprintf("NAME          %s", nm.problem))
	}
	if p.Sense == model.Maximize {
		mw.line("OBJSENSE")
		mw.line("    MAX")
	}

	// Rows: types and right-hand sides; ranged rows also get a RANGES value.
	type rhs struct {
		row, value string
	}
	var rhsList, rangeList []rhs
	mw.line("ROWS")
	mw.line(" N  " + nm.obj)
	if p.Offset != 0 {
		rhsList = append(rhsList, rhs{nm.obj, formatNumber(-p.Offset)})
	}
	for i := range p.NumRows() {
		lo, hi := p.RowLower[i], p.RowUpper[i]
		typ, b := byte(rowE), 0.0
		switch {
		case lo == hi:
			typ, b = rowE, lo
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			typ = rowL
			rhsList = append(rhsList, rhs{nm.rows[i], freeRowRHS})
		case math.IsInf(lo, -1):
			typ, b = rowL, hi
		case math.IsInf(hi, 1):
			typ, b = rowG, lo
		default:
			// Ranged: one bound is the RHS, the width the range, in a form that reads
			// back exactly: the shortest width as an L or a G row when either works,
			// else the exact width (see rangeText).
			var r string
			var ok bool
			if r, ok = shortRangeText(hi, lo, -1); ok {
				typ, b = rowL, hi
			} else if r, ok = shortRangeText(lo, hi, +1); ok {
				typ, b = rowG, lo
			} else {
				r, _ = rangeText(hi, lo, -1)
				typ, b = rowL, hi
			}
			rangeList = append(rangeList, rhs{nm.rows[i], r})
		}
		if b != 0 {
			rhsList = append(rhsList, rhs{nm.rows[i], formatNumber(b)})
		}
		mw.line(fmt.Sprintf(" %c  %s", typ, nm.rows[i]))
	}

	mw.line("COLUMNS")
	integer := false
	for j := range p.NumCols() {
		isInt := p.Integrality != nil && p.Integrality[j]
		if isInt != integer {
			if isInt {
				mw.marker("'INTORG'")
			} else {
				mw.marker("'INTEND'")
			}
			integer = isInt
		}
		col := nm.cols[j]
		start, end := p.AStart[j], p.AStart[j+1]
		if c := p.ColCost[j]; c != 0 || start == end {
			// A column with no entries is declared by a zero objective entry.
			mw.entry(col, nm.obj, formatNumber(c))
		}
		for k := start; k < end; k++ {
			mw.entry(col, nm.rows[p.AIndex[k]], formatNumber(p.AValue[k]))
		}
	}
	if integer {
		mw.marker("'INTEND'")
	}

	mw.line("RHS")
	for _, e := range rhsList {
		mw.entry("RHS", e.row, e.value)
	}
	if len(rangeList) > 0 {
		mw.line("RANGES")
		for _, e := range rangeList {
			mw.entry("RNG", e.row, e.value)
		}
	}

	mw.writeBounds(p, nm)

	if p.HasQuadratic() {
		mw.line("QUADOBJ")
		for j := range p.NumCols() {
			for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
				mw.entry(nm.cols[j], nm.cols[p.QIndex[k]], formatNumber(p.QValue[k]))
			}
		}
	}
	mw.line("ENDATA")
}

// writeBounds writes every column whose bounds are not the default [0, +Inf), and every
// integer column: readers disagree on the default bounds of integer columns (see the
// package documentation). A lower bound is always written before the upper bound, so
// no reader applies the negative-upper-bound rule.
func (mw *mpsWriter) writeBounds(p *model.Problem, nm names) {
	started := false
	bound := func(typ, col, value string) {
		if !started {
			mw.line("BOUNDS")
			started = true
		}
		mw.bound(typ, col, value)
	}
	for j := range p.NumCols() {
		lo, hi, col := p.ColLower[j], p.ColUpper[j], nm.cols[j]
		isInt := p.Integrality != nil && p.Integrality[j]
		switch {
		case lo == hi:
			bound("FX", col, formatNumber(lo))
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			bound("FR", col, "")
		case math.IsInf(lo, -1):
			bound("MI", col, "")
			bound("UP", col, formatNumber(hi))
		default:
			if lo != 0 {
				bound("LO", col, formatNumber(lo))
			}
			if !math.IsInf(hi, 1) {
				bound("UP", col, formatNumber(hi))
			} else if isInt && lo == 0 {
				bound("PL", col, "")
			}
		}
	}
}
