package mps

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/modeltest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func sampleProblem(*testing.T) *model.Problem { return modeltest.Sample() }

func TestWriteGolden(t *testing.T) {
	p := sampleProblem(t)
	for _, c := range []struct {
		file   string
		format Format
	}{{"sample.mps", Free}, {"sample-fixed.mps", Fixed}} {
		var buf bytes.Buffer
		if err := Write(&buf, p, Options{Format: c.format}); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", c.file)
		if *update {
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if got := buf.String(); got != string(want) {
			t.Errorf("%s: output differs from the golden file (run with -update after checking):\n%s", c.file, got)
		}
		q, err := ReadFile(path, Options{Format: c.format})
		if err != nil {
			t.Fatal(err)
		}
		if d := modeltest.Diff(withWriterNames(t, p, c.format == Fixed), q); d != "" {
			t.Errorf("%s reads back differently (-want +got):\n%s", c.file, d)
		}
	}
}

func TestWriteNames(t *testing.T) {
	p := &model.Problem{
		Sense: model.Minimize, ColCost: []float64{1, 1, 1}, ColLower: []float64{0, 0, 0},
		ColUpper: []float64{1, 1, 1}, RowLower: []float64{0, 0}, RowUpper: []float64{1, 1},
		AStart: []int{0, 0, 0, 0}, ColNames: []string{"", "C1", ""}, RowNames: []string{"obj", ""},
	}
	nm, err := writeNames(p, false)
	if err != nil {
		t.Fatal(err)
	}
	// Generated names step around the given ones.
	if got := strings.Join(nm.cols, ","); got != "C1_1,C1,C3" {
		t.Errorf("columns %s", got)
	}
	if got := strings.Join(nm.rows, ","); got != "obj,R2" || nm.obj != "obj_1" {
		t.Errorf("rows %s, objective %s", got, nm.obj)
	}
}

func TestWriteErrors(t *testing.T) {
	base := func() *model.Problem {
		return &model.Problem{
			Sense: model.Minimize, ColCost: []float64{1, 2}, ColLower: []float64{0, 0},
			ColUpper: []float64{1, 1}, RowLower: []float64{0}, RowUpper: []float64{1},
			AStart: []int{0, 1, 1}, AIndex: []int{0}, AValue: []float64{1},
			ColNames: []string{"x", "y"}, RowNames: []string{"r"},
		}
	}
	cases := []struct {
		name   string
		format Format
		change func(*model.Problem)
		want   string
	}{
		{"space in free", Free, func(p *model.Problem) { p.ColNames[0] = "a b" }, `column name "a b" contains whitespace`},
		{"long in fixed", Fixed, func(p *model.Problem) { p.RowNames[0] = "a_long_name" }, `row name "a_long_name" is longer than 8 characters`},
		{"leading space in fixed", Fixed, func(p *model.Problem) { p.ColNames[1] = " y" }, `column name " y" starts or ends with a space`},
		{"duplicate", Free, func(p *model.Problem) { p.ColNames[1] = "x" }, `duplicate column name "x"`},
		{"objective is a row", Free, func(p *model.Problem) { p.ObjName = "r" }, `the objective's name "r" is also a row's`},
		{"control character", Free, func(p *model.Problem) { p.Name = "a\nb" }, "problem name \"a\\nb\" contains a control character"},
		{"marker row", Free, func(p *model.Problem) { p.RowNames[0] = "'MARKER'" }, "would read as an integer marker"},
		{"invalid problem", Free, func(p *model.Problem) { p.ColLower[0] = 2 }, "lower bound 2 > upper bound 1"},
	}
	for _, c := range cases {
		p := base()
		c.change(p)
		err := Write(&bytes.Buffer{}, p, Options{Format: c.format})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	// Names with inner spaces are fine in fixed MPS.
	p := base()
	p.ColNames[0] = "a b"
	q, _ := roundTrip(t, p, Options{Format: Fixed})
	if d := modeltest.Diff(withWriterNames(t, p, true), q); d != "" {
		t.Errorf("fixed MPS with a space in a name (-want +got):\n%s", d)
	}
}

func TestWriteRangedRowExactly(t *testing.T) {
	// Bounds whose difference is not a float64: the range is written with the digits it
	// needs, and the row reads back bit for bit.
	for _, b := range [][2]float64{{1e-6, 1e6}, {-3.3e-17, 0.1}, {0.1, 0.30000000000000004}, {-1e15, 1e-15}} {
		p := &model.Problem{
			Sense: model.Minimize, ColCost: []float64{1}, ColLower: []float64{0}, ColUpper: []float64{inf},
			RowLower: []float64{b[0]}, RowUpper: []float64{b[1]}, AStart: []int{0, 1}, AIndex: []int{0}, AValue: []float64{1},
		}
		q, text := roundTrip(t, p, Options{})
		if q.RowLower[0] != b[0] || q.RowUpper[0] != b[1] {
			t.Errorf("[%g, %g] read back as [%g, %g]:\n%s", b[0], b[1], q.RowLower[0], q.RowUpper[0], text)
		}
	}
}

func TestProblemNameWithSpaces(t *testing.T) {
	p := modeltest.Sample()
	p.Name = "my  model"
	for _, c := range []struct {
		format Format
		want   string
	}{{Free, "my_model"}, {Fixed, "my  model"}} {
		q, text := roundTrip(t, p, Options{Format: c.format})
		if q.Name != c.want || !strings.HasPrefix(text, "NAME          "+c.want+"\n") {
			t.Errorf("%v: name %q, want %q\n%.40s", c.format, q.Name, c.want, text)
		}
	}
}
