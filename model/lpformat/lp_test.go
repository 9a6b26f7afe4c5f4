package lpformat

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/modeltest"
	"github.com/coraopt/coraopt/model/mps"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var inf = math.Inf(1)

type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

func read(t tb, text string) (*model.Problem, []string) {
	t.Helper()
	var warnings []string
	p, err := Read(strings.NewReader(text), Options{Warn: func(w Warning) { warnings = append(warnings, w.String()) }})
	if err != nil {
		t.Fatalf("Read: %v\n%s", err, text)
	}
	return p, warnings
}

// roundTrip writes p and reads it back.
func roundTrip(t tb, p *model.Problem) (*model.Problem, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		t.Fatalf("Write: %v", err)
	}
	q, err := Read(bytes.NewReader(buf.Bytes()), Options{})
	if err != nil {
		t.Fatalf("Read(Write(p)): %v\n%s", err, buf.String())
	}
	return q, buf.String()
}

// withNames is p with the names Write uses.
func withNames(p *model.Problem) *model.Problem {
	nm := NamesFor(p)
	q := p.Clone()
	q.ObjName, q.ColNames, q.RowNames = nm.Objective, nm.Cols, nm.Rows
	return q
}

func TestReadSmall(t *testing.T) {
	text := `\ Problem name: small one
\ a comment
Maximize
 profit: 3 x + 2.5y - z + [ 2 x ^ 2 + 3 x * y - y^2 ] / 2 + 10
Subject To
 cap: x + 2 y <= 8
 demand: x >= 1
 balance: y - z = 0
 -3 <= y + z <= 5
 c5: 2 >= x
 c6: x - 1 >= 2 \ constant moves right
 c7: z + x >= -inf
Bounds
 x <= 4
 -inf <= z <= 1e30
 y free
 w >= -2
Generals
 y
Binary
 b
End
`
	p, warnings := read(t, text)
	want := &model.Problem{
		Name: "small one", ObjName: "profit", Sense: model.Maximize, Offset: 10,
		ColCost: []float64{3, 2.5, -1, 0, 0}, ColLower: []float64{0, -inf, -inf, -2, 0},
		ColUpper: []float64{4, inf, inf, inf, 1},
		RowLower: []float64{-inf, 1, 0, -3, -inf, 3, -inf},
		RowUpper: []float64{8, inf, 0, 5, 2, inf, inf},
		AStart:   []int{0, 5, 8, 11, 11, 11},
		AIndex:   []int{0, 1, 4, 5, 6, 0, 2, 3, 2, 3, 6},
		AValue:   []float64{1, 1, 1, 1, 1, 2, 1, 1, -1, 1, 1},
		// ½xᵀQx = (2x² + 3xy − y²)/2: Q_xx = 2, Q_yx = 1.5, Q_yy = −1.
		QStart: []int{0, 2, 3, 3, 3, 3}, QIndex: []int{0, 1, 1}, QValue: []float64{2, 1.5, -1},
		Integrality: []bool{false, true, false, false, true},
		ColNames:    []string{"x", "y", "z", "w", "b"},
		RowNames:    []string{"cap", "demand", "balance", "", "c5", "c6", "c7"},
	}
	if d := cmp.Diff(want, p); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if len(warnings) != 2 {
		t.Errorf("warnings %q", warnings)
	}
}

func TestReadForms(t *testing.T) {
	// Each variant must read as the same model: min x + 2y s.t. x + y >= 1, x <= 3.
	base := "min\n obj: x + 2 y\nst\n c: x + y >= 1\nbounds\n x <= 3\nend\n"
	for name, text := range map[string]string{
		"keywords in capitals": "MINIMIZE\n obj: x + 2 y\nSUBJECT TO\n c: x + y >= 1\nBOUNDS\n x <= 3\nEND\n",
		"such that":            "minimum\n obj: x + 2 y\nsuch that\n c: x + y >= 1\nbound\n x <= 3\n",
		"s.t. on one line":     "Minimize obj: x + 2 y s.t. c: x + y >= 1 Bounds x <= 3 End",
		"comments":             "\\* block\ncomment *\\\nmin /* here */ obj: x + 2 y ; HiGHS line end\nst\n c: x + y >= 1 \\ trailing\nbounds\n x <= 3\nend\n",
		"operators":            "min\n obj: x + 2 y\nst\n c: x + y => 1\nbounds\n 3 >= x\nend\n",
		"greater sign":         "min\n obj: x + 2 y\nst\n c: 1 <= x + y\nbounds\n x < 3\nend\n",
		"double signs":         "min\n obj: - - x + + 2 y\nst\n c: x - -y >= 1\nbounds\n x <= 3\nend\n",
		"repeated terms":       "min\n obj: x + y + y\nst\n c: 2 x - x + y >= 1\nbounds\n x <= 3\nend\n",
		"CRLF":                 strings.ReplaceAll(base, "\n", "\r\n"),
		"no final newline":     strings.TrimSuffix(base, "\n"),
		"exponent":             "min\n obj: 1e0 x + 0.2e1 y\nst\n c: x + y >= 10E-1\nbounds\n x <= 3.\nend\n",
	} {
		p, _ := read(t, text)
		if d := modeltest.Diff(mustRead(t, base), p); d != "" {
			t.Errorf("%s: (-want +got):\n%s", name, d)
		}
	}
}

func mustRead(t *testing.T, text string) *model.Problem {
	p, _ := read(t, text)
	return p
}

func TestReadBounds(t *testing.T) {
	cases := []struct {
		bounds   string
		lo, hi   float64
		warnings int
	}{
		{"", 0, inf, 0},
		{"x <= 4", 0, 4, 0},
		{"x >= -1", -1, inf, 0},
		{"x = 2.5", 2.5, 2.5, 0},
		{"x free", -inf, inf, 0},
		{"x FREE", -inf, inf, 0},
		{"-inf <= x <= -1", -inf, -1, 0},
		{"-infinity <= x <= +infinity", -inf, inf, 0},
		{"x <= -5", -inf, -5, 1}, // the classic rule, with a warning
		{"x >= -9\n x <= -5", -9, -5, 0},
		{"x <= 4\n x <= 6", 0, 6, 0}, // the last bound wins
		{"1 <= x", 1, inf, 0},
		{"4 >= x >= 1", 1, 4, 0},
		{"x <= 1e25", 0, inf, 0}, // beyond Options.Infinity
	}
	for _, c := range cases {
		p, warnings := read(t, "min\n x\nst\nbounds\n "+c.bounds+"\nend\n")
		if p.ColLower[0] != c.lo || p.ColUpper[0] != c.hi || len(warnings) != c.warnings {
			t.Errorf("%q: [%g, %g] with warnings %q; want [%g, %g] and %d warnings", c.bounds, p.ColLower[0], p.ColUpper[0], warnings, c.lo, c.hi, c.warnings)
		}
	}
}

func TestReadErrors(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"empty", "", `line 1: the model must start with Minimize or Maximize, found end of input`},
		{"garbage", "\\ c\nblah blah", `line 2: the model must start with Minimize or Maximize, found "blah"`},
		{"two objectives", "min\n x\nmax\n y\n", "line 3: Maximize: a second objective section"},
		{"missing operator", "min\n x\nst\n c: x + y\n 3\nend", `line 5: Subject To: expected <=, >= or = after the expression, found "3"`},
		{"missing rhs", "min\n x\nst\n c: x + y <=\nend", `line 5: Subject To: expected a right-hand side, found "end"`},
		{"juxtaposed terms", "min\n x y\n", `line 2: Minimize: unexpected "y" after the objective`},
		{"quadratic constraint", "min\n x\nst\n c: [ x * y ] <= 1\n", "line 4: Subject To: quadratic constraints are not supported"},
		{"cube", "min\n [ x ^ 3 ] / 2\n", `line 2: Minimize: only squares (^ 2) are allowed, found "3"`},
		{"unclosed bracket", "min\n [ x ^ 2 + y * z\n", "line 2: Minimize: [ is not closed"},
		{"divide by zero", "min\n [ x ^ 2 ] / 0\n", `line 2: Minimize: expected a nonzero number after /, found "0"`},
		{"mixed range", "min\n x\nst\n c: 1 <= x >= 0\n", "line 4: Subject To: a ranged constraint needs two <= or two >=, found <= and >="},
		{"empty range", "min\n x\nst\n c: 3 <= x <= 1\n", `line 4: Subject To: constraint "c": lower bound 3 > upper bound 1`},
		{"duplicate name", "min\n x\nst\n c: x >= 1\n c: x <= 2\n", `line 5: Subject To: constraint name "c" used twice`},
		{"bad bound", "min\n x\nbounds\n x 3\n", `line 4: Bounds: expected <=, >=, = or free after "x", found "3"`},
		{"inconsistent bounds", "min\n x\nbounds\n x >= 3\n x <= 1\n", `line 5: Bounds: "x": lower bound 3 > upper bound 1`},
		{"semi-continuous", "min\n x\nsemi-continuous\n x\n", "line 3: Semi-continuous: semi-continuous variables are not supported"},
		{"sos", "min\n x\nsos\n s1: S1:: x:1\n", "line 3: SOS: SOS constraints are not supported"},
		{"unclosed comment", "min\n x /* forever\n", "line 2: comment is not closed with */"},
		{"label in general", "min\n x\ngeneral\n x:\n", `line 4: General: expected a variable name, found "x:"`},
		{"infinite constant", "min\n x + inf\n", "line 2: Minimize: an infinite constant in an expression"},
		{"bracket times number", "min\n 2 [ x ^ 2 ]\n", "line 2: Minimize: a number cannot multiply a [ … ] bracket"},
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.text), Options{})
		var pe *ParseError
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want a *ParseError containing %q", c.name, err, c.want)
		}
	}
}

func TestWriteGolden(t *testing.T) {
	p := modeltest.Sample()
	var buf bytes.Buffer
	if err := Write(&buf, p); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "sample.lp")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if buf.String() != string(want) {
		t.Errorf("output differs from %s (run with -update after checking):\n%s", path, buf.String())
	}
	q, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := modeltest.Diff(withNames(p), q); d != "" {
		t.Errorf("%s reads back differently (-want +got):\n%s", path, d)
	}
}

func TestNames(t *testing.T) {
	p := &model.Problem{
		Sense: model.Minimize, ObjName: "cap",
		ColCost: make([]float64, 9), ColLower: make([]float64, 9), ColUpper: make([]float64, 9),
		RowLower: make([]float64, 2), RowUpper: make([]float64, 2), AStart: make([]int, 10),
		ColNames: []string{"a b", "a_b", "2x", "e1", "End", "x:y", "", "C7", "infeasible"},
		RowNames: []string{"cap", "st"},
	}
	nm := NamesFor(p)
	want := Names{
		Objective: "cap_1",
		Cols:      []string{"a_b_1", "a_b", "_2x", "_e1", "_End", "x_y", "C7_1", "C7", "_infeasible"},
		Rows:      []string{"cap", "_st"},
	}
	if d := cmp.Diff(want, nm); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	// Whatever the names, the file reads back with NamesFor's names.
	q, text := roundTrip(t, p)
	if d := modeltest.Diff(withNames(p), q); d != "" {
		t.Errorf("(-want +got):\n%s\n%s", d, text)
	}
}

func TestWriteErrors(t *testing.T) {
	p := &model.Problem{Sense: model.Minimize, RowLower: []float64{0}, RowUpper: []float64{1}, AStart: []int{0}}
	if err := Write(&bytes.Buffer{}, p); err == nil || !strings.Contains(err.Error(), "rows without columns") {
		t.Errorf("rows without columns: %v", err)
	}
	p = modeltest.Sample()
	p.ColLower[0] = 5
	if err := Write(&bytes.Buffer{}, p); err == nil || !strings.Contains(err.Error(), "lower bound 5 > upper bound 4") {
		t.Errorf("invalid problem: %v", err)
	}
}

func TestRoundTripRandom(t *testing.T) {
	for name, cfg := range map[string]modeltest.Config{
		"lp":       {},
		"mip":      {Integer: true},
		"qp":       {Quadratic: true},
		"unnamed":  {Names: modeltest.NamesNone, Integer: true, Quadratic: true},
		"some":     {Names: modeltest.NamesSome, Quadratic: true},
		"wide":     {MinMagnitude: 1e-300, MaxMagnitude: 1e19, Integer: true, Quadratic: true},
		"integral": {Integral: true, Integer: true, Quadratic: true},
		"large":    {MaxCols: 60, MaxRows: 40, Density: 0.3},
		"norows":   {MaxRows: -1, Quadratic: true},
	} {
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				p := modeltest.Problem(rt, cfg)
				q, text := roundTrip(rt, p)
				if d := modeltest.Diff(withNames(p), q); d != "" {
					rt.Fatalf("Read(Write(p)) != p (-want +got):\n%s\n%s", d, text)
				}
			})
		})
	}
}

// Models of HiGHS's check/instances in LP format. The first group must read; each of the
// second must fail with the error given.
var (
	cachedLP = []string{"1449a.lp", "1449b.lp", "1451.lp", "2122.lp", "fixed-binary.lp", "no-newline-eof.lp",
		"qjh.lp", "qjh_uncon.lp", "qpinfeasible.lp", "qptestnw.lp", "qpunbounded.lp"}
	cachedLPFailures = map[string]string{
		"1448.lp":            `line 1: the model must start with Minimize or Maximize, found "blah"`,
		"garbage.lp":         "line 2: the model must start with Minimize or Maximize",
		"qcqp.lp":            "line 4: Subject To: quadratic constraints are not supported",
		"semi-continuous.lp": "line 11: Semi-continuous: semi-continuous variables are not supported",
		"semi-integer.lp":    "line 11: Semi-continuous: semi-continuous variables are not supported",
	}
)

func TestCachedModels(t *testing.T) {
	dir := testmodels.RequireDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.lp"))
	if len(files) != len(cachedLP)+len(cachedLPFailures) {
		t.Fatalf("%d LP files in %s, the test knows %d", len(files), dir, len(cachedLP)+len(cachedLPFailures))
	}
	for _, name := range cachedLP {
		t.Run(name, func(t *testing.T) {
			p, err := ReadFile(filepath.Join(dir, name), Options{})
			if err != nil {
				t.Fatal(err)
			}
			q, text := roundTrip(t, p)
			if d := modeltest.Diff(withNames(p), q); d != "" {
				t.Fatalf("round trip (-want +got):\n%s\n%.3000s", d, text)
			}
		})
	}
	for name, want := range cachedLPFailures {
		_, err := ReadFile(filepath.Join(dir, name), Options{})
		var pe *ParseError
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a *ParseError containing %q", name, err, want)
		}
	}
}

func TestCachedModelDetails(t *testing.T) {
	dir := testmodels.RequireDir(t)
	read := func(name string) *model.Problem {
		p, err := ReadFile(filepath.Join(dir, name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	// HiGHS: "MIP 2122 has 1060 rows; 855 cols; 2342 nonzeros; 257 integer variables
	// (229 binary)".
	p := read("2122.lp")
	ints, bins := 0, 0
	for j, isInt := range p.Integrality {
		if isInt {
			ints++
			if p.ColLower[j] == 0 && p.ColUpper[j] == 1 {
				bins++
			}
		}
	}
	if p.NumRows() != 1060 || p.NumCols() != 855 || p.NumNonzeros() != 2342 || ints != 257 || bins != 229 {
		t.Errorf("2122.lp: %d rows, %d columns, %d nonzeros, %d integer (%d binary)", p.NumRows(), p.NumCols(), p.NumNonzeros(), ints, bins)
	}
	// The same QPs in LP and MPS format read as the same Problem.
	for _, name := range []string{"qjh", "qjh_uncon"} {
		lp := read(name + ".lp")
		m, err := mps.ReadFile(filepath.Join(dir, name+".mps"), mps.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// The LP file names x2 and x3 before x1: order its columns as the MPS file does.
		lp = permuteColumns(t, lp, m.ColNames)
		lp.Name, lp.ObjName = m.Name, m.ObjName
		if d := modeltest.Diff(m, lp); d != "" {
			t.Errorf("%s: LP and MPS differ (-mps +lp):\n%s", name, d)
		}
	}
	// qptestnw: min -2x1 - 5x2 + x1² + x2², optimum -6.45 at (1.4, 1.7) per HiGHS.
	p = read("qptestnw.lp")
	if got := p.Objective([]float64{1.4, 1.7}); math.Abs(got+6.45) > 1e-12 {
		t.Errorf("qptestnw objective at (1.4, 1.7) = %g, want -6.45", got)
	}
	// qpinfeasible and qpunbounded maximize x2 - x1²/2.
	p = permuteColumns(t, read("qpunbounded.lp"), []string{"x1", "x2"})
	if p.Sense != model.Maximize || p.ObjName != "obj" || p.Objective([]float64{2, 3}) != 1 || p.ColUpper[0] != 40 {
		t.Errorf("qpunbounded: sense %v, objective name %q, f(2,3) = %g, x1 ≤ %g", p.Sense, p.ObjName, p.Objective([]float64{2, 3}), p.ColUpper[0])
	}
	// 1451: x - 1 >= 2 is x >= 3 (HiGHS 1.10 drops the constant and reads x >= 2).
	if p = read("1451.lp"); p.RowLower[0] != 3 || !p.Integrality[0] {
		t.Errorf("1451: row lower %g", p.RowLower[0])
	}
	// 1449a: a >= 1 with bounds a <= 0: valid data, an infeasible model.
	if p = read("1449a.lp"); p.ColUpper[0] != 0 || p.RowLower[0] != 1 {
		t.Errorf("1449a: %v %v", p.ColUpper, p.RowLower)
	}
}

// permuteColumns returns p with its columns in the order of names.
func permuteColumns(t *testing.T, p *model.Problem, names []string) *model.Problem {
	t.Helper()
	if len(names) != p.NumCols() {
		t.Fatalf("%d names for %d columns", len(names), p.NumCols())
	}
	m := model.New(p.Name)
	old := map[string]int{}
	for j, s := range p.ColNames {
		old[s] = j
	}
	vars := make([]model.Var, p.NumCols()) // by old index
	for _, s := range names {
		j, ok := old[s]
		if !ok {
			t.Fatalf("no column %q", s)
		}
		typ := model.Continuous
		if p.Integrality != nil && p.Integrality[j] {
			typ = model.Integer
		}
		vars[j] = m.AddVar(p.ColLower[j], p.ColUpper[j], typ, s)
	}
	rs, ri, rv := p.Transpose()
	for i := range p.NumRows() {
		var e model.Expr
		for k := rs[i]; k < rs[i+1]; k++ {
			e.AddTerm(vars[ri[k]], rv[k])
		}
		m.AddRange(e, p.RowLower[i], p.RowUpper[i], p.RowNames[i])
	}
	obj := model.Dot(p.ColCost, vars)
	obj.AddConst(p.Offset)
	if p.Sense == model.Maximize {
		m.Maximize(obj)
	} else {
		m.Minimize(obj)
	}
	for j := range p.NumCols() {
		for k := p.QStart[j]; p.QStart != nil && k < p.QStart[j+1]; k++ {
			i, v := p.QIndex[k], p.QValue[k]
			if i == j {
				v /= 2 // AddQuadObj(x, x, c) adds c·x², that is Q_jj = 2c
			}
			m.AddQuadObj(vars[i], vars[j], v)
		}
	}
	q, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	q.ObjName = p.ObjName
	return q
}

func TestWriteHugeOffDiagonal(t *testing.T) {
	// 2·Q_ij overflows: the entry goes into its own bracket without "/ 2".
	p := &model.Problem{
		Sense: model.Minimize, ColCost: []float64{0, 0}, ColLower: []float64{-inf, -inf}, ColUpper: []float64{inf, inf},
		AStart: []int{0, 0, 0}, QStart: []int{0, 2, 3}, QIndex: []int{0, 1, 1}, QValue: []float64{1, 1e308, 5e-324},
		ColNames: []string{"x", "y"},
	}
	q, text := roundTrip(t, p)
	if d := modeltest.Diff(withNames(p), q); d != "" {
		t.Errorf("(-want +got):\n%s\n%s", d, text)
	}
	if !strings.Contains(text, "+ [ 1e+308 x * y ]") {
		t.Errorf("no separate bracket:\n%s", text)
	}
}
