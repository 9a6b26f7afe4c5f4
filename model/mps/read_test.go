package mps

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/modeltest"
)

var inf = math.Inf(1)

func read(t *testing.T, text string, opt Options) (*model.Problem, []string) {
	t.Helper()
	var warnings []string
	opt.Warn = func(w Warning) { warnings = append(warnings, w.String()) }
	p, err := Read(strings.NewReader(text), opt)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return p, warnings
}

// A small model touching every section, in free MPS.
const freeModel = `* comment
NAME          small model
OBJSENSE
    MAXIMIZE
ROWS
 N  profit
 L  cap
 G  demand
 E  balance
 N  extra
 L  ranged
COLUMNS
    x         profit    3          cap       1
    x         demand    1          extra     99
    MARKER    'MARKER'  'INTORG'
    y         profit    2.5D0      cap       2
    y         balance   1
    MARKER    'MARKER'  'INTEND'
    z         balance   -1         ranged    1
    z         profit    -0
RHS
    RHS       profit    -10        cap       8
    RHS       demand    1          balance   0
    RHS       ranged    5
RANGES
    RNG       ranged    2          balance   -3
BOUNDS
 UP BND       x         4
 MI BND       z
 UP BND       z         1e30
QUADOBJ
    x         x         2
    z         x         1
ENDATA
`

func TestReadFreeModel(t *testing.T) {
	p, warnings := read(t, freeModel, Options{})
	want := &model.Problem{
		Name: "small", ObjName: "profit", Sense: model.Maximize, Offset: 10, // free MPS: NAME's first word
		ColCost:     []float64{3, 2.5, 0},
		ColLower:    []float64{0, 0, -inf},
		ColUpper:    []float64{4, 1, inf}, // y: integer, no BOUNDS entry → [0, 1]; 1e30 → +Inf
		RowLower:    []float64{-inf, 1, -3, 3},
		RowUpper:    []float64{8, inf, 0, 5},
		AStart:      []int{0, 2, 4, 6},
		AIndex:      []int{0, 1, 0, 2, 2, 3},
		AValue:      []float64{1, 1, 2, 1, -1, 1},
		QStart:      []int{0, 2, 2, 2},
		QIndex:      []int{0, 2},
		QValue:      []float64{2, 1},
		Integrality: []bool{false, true, false},
		ColNames:    []string{"x", "y", "z"},
		RowNames:    []string{"cap", "demand", "balance", "ranged"},
	}
	if d := cmp.Diff(want, p); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `line 10: ROWS: N row "extra" is not the first N row`) {
		t.Errorf("warnings = %q", warnings)
	}
}

func TestReadFixedModel(t *testing.T) {
	// Names with spaces need the fixed columns; Auto falls back to fixed.
	text := `NAME          FIXED ONE
ROWS
 N  COST
 L  LIM 1
 G  LIM 2
COLUMNS
    MY VAR    COST      1.5            LIM 1     1
    MY VAR    LIM 2     1
    OTHER     COST      -1             LIM 1     1
RHS
    RHS       LIM 1     10             LIM 2     2
RANGES
    RNG       LIM 2     3
BOUNDS
 UP BND       OTHER     7.25
ENDATA
`
	for _, f := range []Format{Auto, Fixed} {
		p, _ := read(t, text, Options{Format: f})
		want := &model.Problem{
			Name: "FIXED ONE", ObjName: "COST", Sense: model.Minimize,
			ColCost: []float64{1.5, -1}, ColLower: []float64{0, 0}, ColUpper: []float64{inf, 7.25},
			RowLower: []float64{-inf, 2}, RowUpper: []float64{10, 5},
			AStart: []int{0, 2, 3}, AIndex: []int{0, 1, 0}, AValue: []float64{1, 1, 1},
			ColNames: []string{"MY VAR", "OTHER"}, RowNames: []string{"LIM 1", "LIM 2"},
		}
		if d := modeltest.Diff(want, p); d != "" {
			t.Errorf("%v: (-want +got):\n%s", f, d)
		}
	}
	if _, err := Read(strings.NewReader(text), Options{Format: Free}); err == nil {
		t.Error("free MPS read names with spaces")
	}
}

// model builds the MPS text of a one-column problem with the given rows, RHS, RANGES
// and BOUNDS lines.
func oneColumn(rows, columns, rhs, ranges, bounds string) string {
	s := "NAME t\nROWS\n N obj\n" + rows + "COLUMNS\n" + columns
	if rhs != "" {
		s += "RHS\n" + rhs
	}
	if ranges != "" {
		s += "RANGES\n" + ranges
	}
	if bounds != "" {
		s += "BOUNDS\n" + bounds
	}
	return s + "ENDATA\n"
}

func TestRanges(t *testing.T) {
	// RANGES sign rules: L [b-|R|, b], G [b, b+|R|], E: R>0 [b, b+|R|], R<0 [b-|R|, b].
	cases := []struct {
		typ    string
		r      string
		lo, hi float64
	}{
		{"L", "3", 7, 10}, {"L", "-3", 7, 10},
		{"G", "3", 10, 13}, {"G", "-3", 10, 13},
		{"E", "3", 10, 13}, {"E", "-3", 7, 10}, {"E", "0", 10, 10},
		{"L", "1e30", -inf, 10}, {"G", "1e30", 10, inf},
	}
	for _, c := range cases {
		text := oneColumn(" "+c.typ+" r\n", " x r 1\n", " RHS r 10\n", " RNG r "+c.r+"\n", "")
		p, _ := read(t, text, Options{})
		if p.RowLower[0] != c.lo || p.RowUpper[0] != c.hi {
			t.Errorf("%s row, R = %s: [%g, %g], want [%g, %g]", c.typ, c.r, p.RowLower[0], p.RowUpper[0], c.lo, c.hi)
		}
	}
}

func TestBounds(t *testing.T) {
	cases := []struct {
		name     string
		marker   bool
		bounds   string
		lo, hi   float64
		integer  bool
		warnings int
	}{
		{"default", false, "", 0, inf, false, 0},
		{"UP", false, " UP B x 4\n", 0, 4, false, 0},
		{"LO", false, " LO B x -2\n", -2, inf, false, 0},
		{"LO and UP", false, " LO B x -2\n UP B x -1\n", -2, -1, false, 0},
		{"FX", false, " FX B x 3.5\n", 3.5, 3.5, false, 0},
		{"FR", false, " FR B x\n", -inf, inf, false, 0},
		{"MI", false, " MI B x\n", -inf, inf, false, 0},
		{"MI and UP", false, " MI B x\n UP B x -5\n", -inf, -5, false, 0},
		{"PL", false, " PL B x\n", 0, inf, false, 0},
		{"BV", false, " BV B x\n", 0, 1, true, 0},
		{"LI", false, " LI B x 2\n", 2, inf, true, 0},
		{"UI", false, " UI B x 9\n", 0, 9, true, 0},
		{"no set name", false, " UP x 4\n", 0, 4, false, 0},
		{"negative UP", false, " UP B x -4\n", -inf, -4, false, 1},
		{"negative UP after LO", false, " LO B x -9\n UP B x -4\n", -9, -4, false, 0},
		{"UP then LO", false, " UP B x -4\n LO B x -9\n", -9, -4, false, 1},
		{"second UP ignored", false, " UP B x 4\n UP B x 5\n", 0, 4, false, 1},
		{"infinite UP", false, " UP B x 1e+20\n", 0, inf, false, 0},
		{"infinite LO", false, " LO B x -1e30\n", -inf, inf, false, 0},
		{"fractional LI", false, " LI B x 1.5\n", 1.5, inf, true, 1},
		{"integer marker, no bounds: binary", true, "", 0, 1, true, 0},
		{"integer marker, UP", true, " UP B x 7\n", 0, 7, true, 0},
		{"integer marker, PL", true, " PL B x\n", 0, inf, true, 0},
		{"integer marker, LO", true, " LO B x 2\n", 2, inf, true, 0},
		{"integer marker, MI", true, " MI B x\n", -inf, inf, true, 0},
	}
	for _, c := range cases {
		col := " x obj 1\n"
		if c.marker {
			col = " M 'MARKER' 'INTORG'\n" + col + " M 'MARKER' 'INTEND'\n"
		}
		p, warnings := read(t, oneColumn("", col, "", "", c.bounds), Options{})
		if p.ColLower[0] != c.lo || p.ColUpper[0] != c.hi || p.HasInteger() != c.integer || len(warnings) != c.warnings {
			t.Errorf("%s: [%g, %g] integer %v warnings %q; want [%g, %g] %v and %d warnings",
				c.name, p.ColLower[0], p.ColUpper[0], p.HasInteger(), warnings, c.lo, c.hi, c.integer, c.warnings)
		}
	}
}

func TestObjSense(t *testing.T) {
	for text, want := range map[string]model.Sense{
		"OBJSENSE\n    MAX\n":      model.Maximize,
		"OBJSENSE\n  maximize\n":   model.Maximize,
		"OBJSENSE MAX\n":           model.Maximize,
		"OBJSENSE    MINIMIZE\n":   model.Minimize,
		"OBJSENSE\n    MIN\n":      model.Minimize,
		"":                         model.Minimize,
		"OBJSENSE MIN\n    MAX\n":  model.Maximize,
		"OBJSENSE\n    MAXIMISE\n": model.Maximize,
	} {
		p, _ := read(t, "NAME s\n"+text+"ROWS\n N obj\nCOLUMNS\n x obj 1\nENDATA\n", Options{})
		if p.Sense != want {
			t.Errorf("%q: sense %v, want %v", text, p.Sense, want)
		}
	}
}

func TestNumbers(t *testing.T) {
	for text, want := range map[string]float64{
		"1.5": 1.5, "-2": -2, "1e3": 1000, "1.5D+03": 1500, "2d-1": 0.2, ".5": 0.5, "-0": 0,
		"+7": 7, "1E400": inf, "0.1": 0.1,
	} {
		p, _ := read(t, oneColumn(" L r\n", " x r 1\n", " RHS r "+text+"\n", "", ""), Options{})
		if got := p.RowUpper[0]; got != want || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("%q read as %g, want %g", text, got, want)
		}
	}
}

func TestOffsetAndDroppedEntries(t *testing.T) {
	text := "NAME\nROWS\n N obj\n N free\n L r\nCOLUMNS\n x obj 2 free 5\n x r 1 undefined 4\n" +
		" x r 3\nRHS\n RHS obj 4.5 r 1\n RHS r 2\n RHS free 3\nENDATA\n"
	p, warnings := read(t, text, Options{})
	if p.Offset != -4.5 || p.ColCost[0] != 2 || p.NumNonzeros() != 1 || p.AValue[0] != 1 || p.RowUpper[0] != 1 {
		t.Errorf("offset %g cost %g A %v rhs %g", p.Offset, p.ColCost[0], p.AValue, p.RowUpper[0])
	}
	want := []string{
		`line 4: ROWS: N row "free" is not the first N row`,
		`line 8: COLUMNS: column "x": row "undefined" is not defined`,
		`line 9: COLUMNS: column "x": second entry 3 in row "r" ignored`,
		`line 12: RHS: second value 2 for row "r" ignored`,
	}
	if len(warnings) != len(want) {
		t.Fatalf("warnings %q", warnings)
	}
	for k, w := range want {
		if !strings.HasPrefix(warnings[k], w) {
			t.Errorf("warning %d = %q, want prefix %q", k, warnings[k], w)
		}
	}
}

func TestQuadratic(t *testing.T) {
	cols := " x obj 1\n y obj 1\n"
	// Q = [[2, 1], [1, 4]] in each spelling.
	for name, section := range map[string]string{
		"QUADOBJ lower":     "QUADOBJ\n x x 2\n x y 1\n y y 4\n",
		"QUADOBJ upper":     "QUADOBJ\n x x 2\n y x 1\n y y 4\n",
		"QMATRIX":           "QMATRIX\n x x 2\n x y 1\n y x 1\n y y 4\n",
		"QMATRIX upper":     "QMATRIX\n x x 2\n y x 1\n y y 4\n",
		"QSECTION":          "QSECTION obj\n x x 2 y 1\n y y 4\n",
		"QUADOBJ two pairs": "QUADOBJ\n x x 2 y 1\n y y 4\n",
	} {
		text := "NAME\nROWS\n N obj\nCOLUMNS\n" + cols + section + "ENDATA\n"
		p, _ := read(t, text, Options{})
		if d := cmp.Diff([]any{[]int{0, 2, 3}, []int{0, 1, 1}, []float64{2, 1, 4}}, []any{p.QStart, p.QIndex, p.QValue}); d != "" {
			t.Errorf("%s: Q (-want +got):\n%s", name, d)
		}
	}
	// An asymmetric QMATRIX keeps the lower triangle and says so.
	_, warnings := read(t, "NAME\nROWS\n N obj\nCOLUMNS\n"+cols+"QMATRIX\n x y 1\n y x 3\nENDATA\n", Options{})
	if len(warnings) != 1 || !strings.Contains(warnings[0], "differ") {
		t.Errorf("warnings %q", warnings)
	}
}

func TestEmptyColumnAndBoundsOnlyColumn(t *testing.T) {
	p, warnings := read(t, oneColumn(" L r\n", " x obj 0\n", "", "", " UP B y 3\n"), Options{})
	if p.NumCols() != 2 || p.ColNames[1] != "y" || p.ColUpper[1] != 3 || p.NumNonzeros() != 0 {
		t.Errorf("columns %q bounds %v", p.ColNames, p.ColUpper)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `column "y" is not in COLUMNS`) {
		t.Errorf("warnings %q", warnings)
	}
}

func TestKeywordNamedColumnsAndBlankLines(t *testing.T) {
	// A column named RHS, one named BOUNDS, and a free-format data line starting in
	// column 1 whose first word is a keyword: all data, as in HiGHS.
	text := "NAME\n\nROWS\n N obj\n G r\nCOLUMNS\n    RHS r 1 obj 1\n    BOUNDS r 1\nRANGES obj 2\n" +
		"RHS\n    rhs r 1\n\nENDATA\n"
	p, _ := read(t, text, Options{Format: Free})
	if d := cmp.Diff([]string{"RHS", "BOUNDS", "RANGES"}, p.ColNames); d != "" || p.ColCost[2] != 2 || p.RowLower[0] != 1 {
		t.Errorf("columns (-want +got):\n%s costs %v", d, p.ColCost)
	}
}

func TestReadErrors(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"empty", "", "line 1: unexpected end of input: missing ENDATA"},
		{"garbage", "hello world\n", `line 1: unknown section "hello"`},
		{"no ENDATA", "NAME\nROWS\n N obj\nCOLUMNS\n x obj 1\n", "line 6: unexpected end of input: missing ENDATA"},
		{"data first", "  x obj 1\n", "line 1: data before the first section"},
		{"unknown row type", "NAME\nROWS\n X r\nENDATA\n", `line 3: ROWS: unknown row type "X"`},
		{"duplicate row", "NAME\nROWS\n L r\n G r\nENDATA\n", `line 4: ROWS: row "r" defined twice`},
		{"ROWS fields", "NAME\nROWS\n L\nENDATA\n", "line 3: ROWS: want a row type and a name, found 1 fields"},
		{"COLUMNS before ROWS", "NAME\nCOLUMNS\n", "line 2: COLUMNS: COLUMNS before ROWS"},
		{"bad number", oneColumn("", " x obj abc\n", "", "", ""), `line 5: COLUMNS: column "x", row "obj": "abc" is not a number`},
		{"NaN coefficient", oneColumn("", " x obj NaN\n", "", "", ""), `line 5: COLUMNS: column "x", row "obj": value "NaN" is NaN`},
		{"infinite coefficient", oneColumn("", " x obj 1e999\n", "", "", ""), `line 5: COLUMNS: column "x", row "obj": coefficient 1e999 is not finite`},
		{"COLUMNS fields", oneColumn("", " x obj\n", "", "", ""), "line 5: COLUMNS: want a column name and one or two (row, value) pairs, found 2 fields"},
		{"non-consecutive column", oneColumn("", " x obj 1\n y obj 1\n x obj 2\n", "", "", ""), `line 7: COLUMNS: column "x" appears again`},
		{"bad marker", oneColumn("", " M 'MARKER' 'INTFOO'\n", "", "", ""), `line 5: COLUMNS: unknown marker "'INTFOO'"`},
		{"INTEND without INTORG", oneColumn("", " M 'MARKER' 'INTEND'\n", "", "", ""), "line 5: COLUMNS: INTEND marker without INTORG"},
		{"unknown bound type", oneColumn("", " x obj 1\n", "", "", " XX B x 1\n"), `line 7: BOUNDS: unknown bound type "XX"`},
		{"SC", oneColumn("", " x obj 1\n", "", "", " SC B x 1\n"), "line 7: BOUNDS: bound type SC (semi-continuous) is not supported"},
		{"bound without value", oneColumn("", " x obj 1\n", "", "", " UP B\n"), "line 7: BOUNDS: bound type UP: want an optional set name, a column and a value, found 2 fields"},
		{"NaN bound", oneColumn("", " x obj 1\n", "", "", " UP B x nan\n"), `line 7: BOUNDS: column "x": value "nan" is NaN`},
		{"inconsistent bounds", oneColumn("", " x obj 1\n", "", "", " LO B x 5\n UP B x 1\n"), `line 8: BOUNDS: column "x": lower bound 5 > upper bound 1`},
		{"infinite lower bound", oneColumn("", " x obj 1\n", "", "", " LO B x 1e30\n"), `line 7: BOUNDS: column "x": bounds [+Inf, +Inf] admit no finite value`},
		{"E row at infinity", oneColumn(" E r\n", " x r 1\n", " RHS r 1e30\n", "", ""), `line 8: RHS: row "r": bounds [+Inf, +Inf] admit no finite value`},
		{"infinite objective constant", oneColumn("", " x obj 1\n", " RHS obj inf\n", "", ""), "line 7: RHS: objective constant inf is not finite"},
		{"RHS fields", oneColumn(" L r\n", " x r 1\n", " RHS r 1 r 2 x\n", "", ""), "line 8: RHS: want an optional set name and one or two (row, value) pairs, found 6 fields"},
		{"unsupported section", "NAME\nROWS\n N obj\nSOS\n", "line 4: section SOS is not supported: coraopt does not model special ordered sets"},
		{"quadratic constraint", "NAME\nROWS\n N obj\n L c\nCOLUMNS\n x c 1\nQCMATRIX c\n", "line 7: section QCMATRIX is not supported"},
		{"QSECTION of a row", "NAME\nROWS\n N obj\n L c\nCOLUMNS\n x c 1\nQSECTION c\n", "line 7: QSECTION for a row other than the objective"},
		{"section twice", "NAME\nROWS\n N obj\nROWS\n", "line 4: section ROWS appears twice"},
		{"QUADOBJ and QMATRIX", "NAME\nROWS\n N o\nCOLUMNS\n x o 1\nQUADOBJ\n x x 1\nQMATRIX\n", "line 8: both QUADOBJ and QMATRIX"},
		{"unknown sense", "NAME\nOBJSENSE\n    UP\n", `line 3: OBJSENSE: unknown sense "UP"`},
		{"no ROWS", "NAME\nENDATA\n", "line 2: no ROWS section"},
		{"data after NAME", "NAME x\n  junk\n", `line 2: NAME: unexpected data after NAME: "junk"`},
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.text), Options{})
		var pe *ParseError
		if err == nil || !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want a *ParseError starting %q", c.name, err, c.want)
		}
	}
	text := "NAME\nROWS\n N o\nCOLUMNS\n x o 1\nQUADOBJ\n x y 1\nENDATA\n"
	if _, err := Read(strings.NewReader(text), Options{}); err == nil || err.Error() != `line 7: QUADOBJ: column "y" is not defined in COLUMNS` {
		t.Errorf("QUADOBJ with an unknown column: %v", err)
	}
}

func TestFixedFormatErrorsReportTheFurtherDialect(t *testing.T) {
	// A fixed file with spaces in names and an error late on: Auto reports the fixed
	// dialect's error, which got further, not the free dialect's at line 4.
	text := "NAME\nROWS\n N  COST\n L  LIM 1\nCOLUMNS\n    MY VAR    COST      1.5\nBOUNDS\n XX BND       MY VAR    1\nENDATA\n"
	_, err := Read(strings.NewReader(text), Options{})
	if err == nil || !strings.HasPrefix(err.Error(), `line 8: BOUNDS: unknown bound type "XX"`) {
		t.Errorf("error %v", err)
	}
}

func TestReadFileErrorsNameThePath(t *testing.T) {
	_, err := ReadFile("testdata/does-not-exist.mps", Options{})
	if err == nil || !strings.Contains(err.Error(), "does-not-exist.mps") {
		t.Errorf("error %v", err)
	}
}
