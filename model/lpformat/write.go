package lpformat

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/coraopt/coraopt/model"
)

// Names are the names Write gives the objective, the columns and the rows of a Problem.
type Names struct {
	Objective string
	Cols      []string
	Rows      []string
}

// NamesFor returns the names Write uses for p: p's own names where the LP format can
// carry them, sanitised versions where it cannot, and C1…, R1…, obj for the unnamed,
// all unique (columns among columns; rows and the objective among themselves).
func NamesFor(p *model.Problem) Names {
	nm := Names{Cols: make([]string, p.NumCols()), Rows: make([]string, p.NumRows())}
	get := func(names []string, k int) string {
		if k < len(names) {
			return names[k]
		}
		return ""
	}
	cols := make([]string, p.NumCols())
	for j := range cols {
		cols[j] = get(p.ColNames, j)
	}
	assign(cols, "C", nm.Cols)
	rows := make([]string, p.NumRows()+1)
	for i := range p.NumRows() {
		rows[i] = get(p.RowNames, i)
	}
	rows[len(rows)-1] = p.ObjName
	out := make([]string, len(rows))
	assign(rows, "R", out)
	if p.ObjName == "" {
		// assign named it R<m+1>; the objective is "obj" unless a row has that name.
		used := map[string]bool{}
		for _, s := range out[:len(out)-1] {
			used[s] = true
		}
		out[len(out)-1] = unique("obj", used)
	}
	copy(nm.Rows, out[:len(out)-1])
	nm.Objective = out[len(out)-1]
	return nm
}

// assign fills out with valid unique names for in: valid names are kept, then the
// others are sanitised (or generated from prefix and position) and made unique.
func assign(in []string, prefix string, out []string) {
	used := make(map[string]bool, len(in))
	for k, s := range in {
		if s != "" && sanitize(s) == s && !used[s] {
			out[k] = s
			used[s] = true
		}
	}
	for k, s := range in {
		if out[k] != "" {
			continue
		}
		base := sanitize(s)
		if s == "" {
			base = fmt.Sprintf("%s%d", prefix, k+1)
		}
		out[k] = unique(base, used)
	}
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

// nameSymbols are the characters besides letters and digits that Write keeps in names:
// CPLEX's list without those other readers treat specially (HiGHS ends a line at ';',
// '/' and '"' confuse some readers).
const nameSymbols = "_.()!#$%&,?@{}~'|"

// sanitize maps a name to one the LP format can carry (see the package documentation).
func sanitize(s string) string {
	if s == "" {
		return ""
	}
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(nameSymbols, c) >= 0) {
			b[i] = '_'
		}
	}
	out := string(b)
	if reserved(out) {
		out = "_" + out
	}
	return out
}

// reserved reports names a reader could take for something else: a number (starting
// with a digit or a period, or e/E followed by a digit or another e, which CPLEX reserves
// for exponents; inf…/nan…, which HiGHS's number parser takes), or a keyword.
func reserved(s string) bool {
	c := s[0]
	if c >= '0' && c <= '9' || c == '.' {
		return true
	}
	lower := strings.ToLower(s)
	if lower[0] == 'e' && (len(lower) == 1 || lower[1] == 'e' || lower[1] >= '0' && lower[1] <= '9') {
		return true
	}
	if strings.HasPrefix(lower, "inf") || strings.HasPrefix(lower, "nan") {
		return true
	}
	if _, ok := keywords[lower]; ok {
		return true
	}
	switch lower {
	case "free", "subject", "such", "to", "that", "semi-continuous":
		return true
	}
	return false
}

// maxLine is where Write breaks long expressions (CPLEX reads lines of up to 510 bytes).
const maxLine = 250

// Write writes p in CPLEX LP format with the names NamesFor gives. Read(Write(p)) is p
// exactly, with those names. A Problem with rows but no columns cannot be written (a
// constraint needs a variable).
func Write(w io.Writer, p *model.Problem) error {
	if err := p.Validate(); err != nil {
		return fmt.Errorf("lpformat: %w", err)
	}
	if p.NumCols() == 0 && p.NumRows() > 0 {
		return errors.New("lpformat: rows without columns cannot be written in LP format")
	}
	if strings.ContainsFunc(p.Name, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Errorf("lpformat: problem name %q contains a control character", p.Name)
	}
	nm := NamesFor(p)
	lw := &lineWriter{w: bufio.NewWriter(w)}
	if p.Name != "" {
		lw.line(`\ Problem name: ` + p.Name)
	}
	if p.Sense == model.Maximize {
		lw.line("Maximize")
	} else {
		lw.line("Minimize")
	}
	writeObjective(lw, p, nm)
	lw.line("Subject To")
	rowStart, rowIndex, rowValue := p.Transpose()
	for i := range p.NumRows() {
		lo, hi := p.RowLower[i], p.RowUpper[i]
		lw.start(" " + nm.Rows[i] + ":")
		if !math.IsInf(lo, 0) && !math.IsInf(hi, 0) && lo != hi {
			lw.word(formatNumber(lo) + " <=")
		}
		if rowStart[i] == rowStart[i+1] {
			lw.word("0 " + nm.Cols[0]) // a constraint needs a variable
		}
		for k := rowStart[i]; k < rowStart[i+1]; k++ {
			lw.term(rowValue[k], nm.Cols[rowIndex[k]], k == rowStart[i])
		}
		switch {
		case lo == hi:
			lw.word("= " + formatNumber(lo))
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			lw.word(">= -inf")
		case math.IsInf(lo, -1):
			lw.word("<= " + formatNumber(hi))
		case math.IsInf(hi, 1):
			lw.word(">= " + formatNumber(lo))
		default:
			lw.word("<= " + formatNumber(hi))
		}
		lw.end()
	}
	writeBounds(lw, p, nm)
	writeIntegers(lw, p, nm)
	lw.line("End")
	if err := lw.w.Flush(); err != nil {
		return fmt.Errorf("lpformat: %w", err)
	}
	return nil
}

func writeObjective(lw *lineWriter, p *model.Problem, nm Names) {
	lw.start(" " + nm.Objective + ":")
	// Every column, in order, so that a reader numbers them as p does.
	for j := range p.NumCols() {
		lw.term(p.ColCost[j], nm.Cols[j], j == 0)
	}
	if p.HasQuadratic() {
		// [ … ] / 2 holds Q_jj x_j ^ 2 and 2 Q_ij x_i * x_j. An off-diagonal entry too
		// large to double goes, undoubled, into a bracket of its own without "/ 2".
		var huge []int
		lw.word("+ [")
		first := true
		for j := range p.NumCols() {
			for k := p.QStart[j]; k < p.QStart[j+1]; k++ {
				i, v := p.QIndex[k], p.QValue[k]
				switch {
				case i == j:
					lw.term(v, nm.Cols[j]+" ^ 2", first)
				case math.IsInf(2*v, 0):
					huge = append(huge, j, k)
					continue
				default:
					lw.term(2*v, nm.Cols[j]+" * "+nm.Cols[i], first)
				}
				first = false
			}
		}
		lw.word("] / 2")
		if len(huge) > 0 {
			lw.word("+ [")
			for h := 0; h < len(huge); h += 2 {
				j, k := huge[h], huge[h+1]
				lw.term(p.QValue[k], nm.Cols[j]+" * "+nm.Cols[p.QIndex[k]], h == 0)
			}
			lw.word("]")
		}
	}
	if p.Offset != 0 {
		if p.Offset < 0 {
			lw.word("- " + formatNumber(-p.Offset))
		} else {
			lw.word("+ " + formatNumber(p.Offset))
		}
	}
	lw.end()
}

func writeBounds(lw *lineWriter, p *model.Problem, nm Names) {
	started := false
	for j := range p.NumCols() {
		lo, hi, x := p.ColLower[j], p.ColUpper[j], nm.Cols[j]
		isInt := p.Integrality != nil && p.Integrality[j]
		var s string
		switch {
		case lo == 0 && math.IsInf(hi, 1):
			continue // the default
		case lo == 0 && hi == 1 && isInt:
			continue // Binary says it
		case lo == hi:
			s = x + " = " + formatNumber(lo)
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			s = x + " free"
		case math.IsInf(hi, 1):
			s = x + " >= " + formatNumber(lo)
		case lo == 0:
			s = x + " <= " + formatNumber(hi)
		default: // both bounds, or −Inf and a finite upper bound
			s = formatNumber(lo) + " <= " + x + " <= " + formatNumber(hi)
		}
		if !started {
			lw.line("Bounds")
			started = true
		}
		lw.line(" " + s)
	}
}

func writeIntegers(lw *lineWriter, p *model.Problem, nm Names) {
	if !p.HasInteger() {
		return
	}
	var general, binary []string
	for j, isInt := range p.Integrality {
		switch {
		case !isInt:
		case p.ColLower[j] == 0 && p.ColUpper[j] == 1:
			binary = append(binary, nm.Cols[j])
		default:
			general = append(general, nm.Cols[j])
		}
	}
	for _, sec := range []struct {
		title string
		names []string
	}{{"General", general}, {"Binary", binary}} {
		if len(sec.names) == 0 {
			continue
		}
		lw.line(sec.title)
		lw.start("")
		for _, s := range sec.names {
			lw.word(s)
		}
		lw.end()
	}
}

// formatNumber writes v so that strconv.ParseFloat reads back the same float64, with
// the words the LP format uses for infinity.
func formatNumber(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+inf"
	case math.IsInf(v, -1):
		return "-inf"
	case v == 0:
		return "0"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// lineWriter writes lines, breaking long ones between words.
type lineWriter struct {
	w   *bufio.Writer
	len int
}

func (lw *lineWriter) line(s string) {
	lw.w.WriteString(s)
	lw.w.WriteByte('\n')
}

func (lw *lineWriter) start(s string) {
	lw.w.WriteString(s)
	lw.len = len(s)
}

// word appends " s", first breaking the line when it would grow past maxLine.
func (lw *lineWriter) word(s string) {
	if lw.len > 0 && lw.len+1+len(s) > maxLine {
		lw.w.WriteString("\n ")
		lw.len = 1
	}
	lw.w.WriteByte(' ')
	lw.w.WriteString(s)
	lw.len += 1 + len(s)
}

// term appends c·x as "[+|-] [|c|] x" (the first term without "+").
func (lw *lineWriter) term(c float64, x string, first bool) {
	sign := "+ "
	if c < 0 || c == 0 && math.Signbit(c) {
		sign, c = "- ", -c
	} else if first {
		sign = ""
	}
	if c == 1 {
		lw.word(sign + x)
		return
	}
	lw.word(sign + formatNumber(c) + " " + x)
}

func (lw *lineWriter) end() {
	lw.w.WriteByte('\n')
	lw.len = 0
}
