package mps

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/modeltest"
)

// The models in HiGHS's check/instances that are meant not to load in coraopt, with the
// error each must give. Every other *.mps there must read.
var cachedFailures = map[string]string{
	"comment.mps":         "line 5: ROWS: want a row type and a name, found 3 fields", // "$" comments; HiGHS fails too
	"garbage.mps":         `line 2: unknown section "dvhfalkmnthry6v54y76m87yq,x,^%(^%(T&*)(lksz"`,
	"nan0.mps":            `line 8: COLUMNS: column "P1", row "INCOME": value "nan" is NaN`,
	"nan1.mps":            `line 9: COLUMNS: column "P2", row "FINISHNG": value "nan" is NaN`,
	"nan2.mps":            `line 12: RHS: row "ASSEMBLY": value "nan" is NaN`,
	"semi-continuous.mps": "line 22: BOUNDS: bound type SC (semi-continuous) is not supported",
	"semi-integer.mps":    "line 20: BOUNDS: bound type SI (semi-integer) is not supported",
	"warnings.mps":        "line 47: BOUNDS: bound type SI (semi-integer) is not supported",
}

// Sizes from the PROBLEM SUMMARY TABLE of Netlib's lp/data/readme: rows and nonzeros
// include the objective row.
var netlibSizes = map[string][3]int{
	"afiro.mps":    {28, 32, 88},
	"adlittle.mps": {57, 97, 465},
	"25fv47.mps":   {822, 1571, 11127},
	"80bau3b.mps":  {2263, 9799, 29063},
	"e226.mps":     {224, 282, 2767},
	"etamacro.mps": {401, 688, 2489},
	"greenbea.mps": {2393, 5405, 31499},
	"israel.mps":   {175, 142, 2358},
	"scrs8.mps":    {491, 1169, 4029},
	"shell.mps":    {537, 1775, 4900},
	"stair.mps":    {357, 467, 3857},
	"standata.mps": {360, 1075, 3038},
	"standmps.mps": {468, 1075, 3686},
}

// Sizes (constraint rows, columns, nonzeros of A) that the HiGHS 1.10 command-line
// program reports for the other models (`highs --time_limit 0 FILE`). gas11's count is
// ours: HiGHS drops 12 entries of magnitude 1e-9 after reading. silly-names is ours too:
// HiGHS stops reading COLUMNS at the column named OBJSENSE.
var highsSizes = map[string][3]int{
	"2171.mps": {98, 5, 490}, "avgas.mps": {10, 8, 30}, "bell5.mps": {91, 104, 266},
	"bgetam.mps": {400, 688, 2409}, "blending.mps": {2, 2, 4}, "box1.mps": {231, 261, 651},
	"chip.mps": {2, 2, 4}, "dD2e.mps": {0, 2, 0}, "dcmulti.mps": {290, 548, 1315},
	"egout.mps": {98, 141, 282}, "ex72a.mps": {197, 215, 467}, "flugpl.mps": {18, 18, 46},
	"forest6.mps": {66, 95, 210}, "galenet.mps": {8, 8, 16}, "gams10am.mps": {114, 61, 297},
	"gas11.mps": {459, 862, 2166}, "gesa2.mps": {1392, 1224, 5064}, "gt2.mps": {29, 188, 376},
	"infeasible.mps": {38, 22, 281}, "issue-2095.mps": {29, 66, 637}, "klein1.mps": {54, 54, 696},
	"lseu.mps": {28, 89, 309}, "p01.mps": {30, 210, 420}, "p0548.mps": {176, 548, 1711},
	"primal1.mps": {85, 325, 5815}, "qap04.mps": {104, 88, 416}, "qjh.mps": {1, 3, 2},
	"qjh_qmatrix.mps": {1, 3, 2}, "qjh_quadobj.mps": {1, 3, 2}, "qjh_uncon.mps": {0, 3, 0},
	"refinery.mps": {323, 464, 1626}, "rgn.mps": {24, 180, 460}, "sctest.mps": {10, 6, 29},
	"silly-names.mps": {1, 5, 5}, "small_mip.mps": {5, 8, 14}, "sp150x300d.mps": {450, 600, 1200},
	"standgub.mps": {361, 1184, 3139}, "test.mps": {7, 7, 16}, "woodinfe.mps": {35, 89, 140},
}

// TestCachedModels reads every MPS model of the HiGHS test set: each either reads, has
// the published size, and round-trips exactly through Write, or fails with the expected
// line-numbered error.
func TestCachedModels(t *testing.T) {
	dir := testmodels.RequireDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.mps"))
	if err != nil || len(files) < 50 {
		t.Fatalf("found %d models in %s (%v)", len(files), dir, err)
	}
	read := 0
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			p, err := ReadFile(path, Options{})
			if want, bad := cachedFailures[name]; bad {
				var pe *ParseError
				if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), want) {
					t.Fatalf("ReadFile = %v, want a *ParseError containing %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			read++
			checkSize(t, name, p)
			for _, format := range []Format{Free, Fixed} {
				if format == Fixed && !fitsFixed(p) {
					continue
				}
				q, text := roundTrip(t, p, Options{Format: format})
				if d := modeltest.Diff(p, q); d != "" {
					t.Fatalf("%v round trip differs (-read +reread):\n%s\n%.2000s", format, d, text)
				}
			}
		})
	}
	if want := len(files) - len(cachedFailures); read != want {
		t.Errorf("read %d models, want %d", read, want)
	}
}

func checkSize(t *testing.T, name string, p *model.Problem) {
	t.Helper()
	costs := 0
	for _, c := range p.ColCost {
		if c != 0 {
			costs++
		}
	}
	if s, ok := netlibSizes[name]; ok {
		got := [3]int{p.NumRows() + 1, p.NumCols(), p.NumNonzeros() + costs}
		if got != s {
			t.Errorf("rows+objective, columns, nonzeros+costs = %v, Netlib publishes %v", got, s)
		}
		return
	}
	s, ok := highsSizes[name]
	if !ok {
		t.Fatalf("no reference size for %s", name)
	}
	if got := [3]int{p.NumRows(), p.NumCols(), p.NumNonzeros()}; got != s {
		t.Errorf("rows, columns, nonzeros = %v, HiGHS reads %v", got, s)
	}
}

func fitsFixed(p *model.Problem) bool {
	_, err := writeNames(p, true)
	return err == nil
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
	// e226: an RHS on the objective row is minus the objective constant.
	if p := read("e226.mps"); p.Offset != 7.113 {
		t.Errorf("e226 offset = %g, want 7.113 (RHS -7.113 on the objective row)", p.Offset)
	}
	// qjh in its three spellings: QSECTION obj, QUADOBJ (lower triangle), QMATRIX (both).
	for _, name := range []string{"qjh.mps", "qjh_quadobj.mps", "qjh_qmatrix.mps"} {
		p := read(name)
		want := []float64{2, -1, 0.2, 2} // Q11, Q31, Q22, Q33 in CSC order
		if fmt.Sprint(p.QStart, p.QIndex, p.QValue) != fmt.Sprint([]int{0, 2, 3, 4}, []int{0, 2, 1, 2}, want) {
			t.Errorf("%s: Q = %v %v %v", name, p.QStart, p.QIndex, p.QValue)
		}
		// The documented optimum x = (0.5, 5, 1.5), objective -5.25.
		if got := p.Objective([]float64{0.5, 5, 1.5}); got != -5.25 {
			t.Errorf("%s: objective at the optimum = %g, want -5.25", name, got)
		}
	}
	// small_mip documents its model in comments: COL03 and COL04, integer by markers with
	// no BOUNDS entry, are 0-1 variables (HiGHS 1.10's rule); ROW04 is G 1.8 with range
	// 3.2, ROW05 is L 15 with range 12.
	p := read("small_mip.mps")
	for _, c := range []string{"COL03", "COL04"} {
		j := indexOf(p.ColNames, c)
		if !p.Integrality[j] || p.ColLower[j] != 0 || p.ColUpper[j] != 1 {
			t.Errorf("small_mip %s: integer %v, bounds [%g, %g]; want a 0-1 variable", c, p.Integrality[j], p.ColLower[j], p.ColUpper[j])
		}
	}
	for _, r := range []struct {
		name   string
		lo, hi float64
	}{{"ROW04", 1.8, 5}, {"ROW05", 3, 15}, {"ROW02", math.Inf(-1), 2.1}} {
		i := indexOf(p.RowNames, r.name)
		if p.RowLower[i] != r.lo || p.RowUpper[i] != r.hi {
			t.Errorf("small_mip %s = [%g, %g], want [%g, %g]", r.name, p.RowLower[i], p.RowUpper[i], r.lo, r.hi)
		}
	}
	// test.mps: RANGES on an L row gives [rhs-|R|, rhs]; LO/UP bounds.
	p = read("test.mps")
	if i := indexOf(p.RowNames, "r3"); p.RowLower[i] != 4 || p.RowUpper[i] != 10 {
		t.Errorf("test.mps r3 = [%g, %g], want [4, 10]", p.RowLower[i], p.RowUpper[i])
	}
	if j := indexOf(p.ColNames, "x(3)"); p.ColLower[j] != 1 || p.ColUpper[j] != 2 {
		t.Errorf("test.mps x(3) = [%g, %g], want [1, 2]", p.ColLower[j], p.ColUpper[j])
	}
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}
