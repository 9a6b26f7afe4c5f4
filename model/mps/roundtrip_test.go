package mps

import (
	"bytes"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/model/modeltest"
)

// tb is what the helpers need from *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
	Fatal(args ...any)
}

// roundTrip writes p, reads the text back and returns the result with the text.
func roundTrip(t tb, p *model.Problem, opt Options) (*model.Problem, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, p, opt); err != nil {
		t.Fatalf("Write: %v", err)
	}
	q, err := Read(bytes.NewReader(buf.Bytes()), Options{Format: opt.Format})
	if err != nil {
		t.Fatalf("Read(Write(p)): %v\n%s", err, buf.String())
	}
	return q, buf.String()
}

// withWriterNames is p with the names Write gives unnamed columns, rows and objective.
func withWriterNames(t tb, p *model.Problem, fixed bool) *model.Problem {
	t.Helper()
	nm, err := writeNames(p, fixed)
	if err != nil {
		t.Fatal(err)
	}
	q := p.Clone()
	q.Name, q.ObjName, q.ColNames, q.RowNames = nm.problem, nm.obj, nm.cols, nm.rows
	return q
}

func TestRoundTripRandom(t *testing.T) {
	configs := map[string]modeltest.Config{
		"lp":        {},
		"mip":       {Integer: true},
		"qp":        {Quadratic: true},
		"unnamed":   {Names: modeltest.NamesNone, Integer: true, Quadratic: true},
		"some":      {Names: modeltest.NamesSome},
		"wide":      {MinMagnitude: 1e-300, MaxMagnitude: 1e19, Integer: true},
		"integral":  {Integral: true, Feasible: true, Integer: true, Quadratic: true},
		"large":     {MaxCols: 40, MaxRows: 30, Density: 0.2},
		"norows":    {MaxRows: -1, Quadratic: true},
		"dense":     {Density: 1, MaxCols: 10, MaxRows: 10},
		"tinyrange": {MinMagnitude: 1e-12, MaxMagnitude: 1e12},
	}
	for name, cfg := range configs {
		for _, format := range []Format{Free, Fixed} {
			t.Run(name+"/"+format.String(), func(t *testing.T) {
				rapid.Check(t, func(rt *rapid.T) {
					p := modeltest.Problem(rt, cfg)
					q, text := roundTrip(rt, p, Options{Format: format})
					want := withWriterNames(rt, p, format == Fixed)
					if d := modeltest.Diff(want, q); d != "" {
						rt.Fatalf("Read(Write(p)) != p (-want +got):\n%s\nfile:\n%s", d, text)
					}
				})
			})
		}
	}
}

func TestRoundTripIsStable(t *testing.T) {
	// Writing what was read gives the same bytes: the writer is deterministic.
	rapid.Check(t, func(rt *rapid.T) {
		p := modeltest.Problem(rt, modeltest.Config{Integer: true, Quadratic: true, Names: modeltest.NamesSome})
		q, text1 := roundTrip(rt, p, Options{})
		_, text2 := roundTrip(rt, q, Options{})
		if text1 != text2 {
			rt.Fatalf("second write differs:\n%s\n---\n%s", text1, text2)
		}
		if strings.Contains(text1, " \n") {
			rt.Fatalf("trailing space in\n%s", text1)
		}
	})
}
