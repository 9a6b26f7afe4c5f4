package solvers_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

func TestStatusStringsRoundTrip(t *testing.T) {
	want := map[solvers.Status]string{
		solvers.Other:                 "other",
		solvers.Optimal:               "optimal",
		solvers.Infeasible:            "infeasible",
		solvers.Unbounded:             "unbounded",
		solvers.InfeasibleOrUnbounded: "infeasible_or_unbounded",
		solvers.TimeLimit:             "time_limit",
		solvers.IterationLimit:        "iteration_limit",
		solvers.NumericalError:        "numerical_error",
	}
	for st, s := range want {
		if got := st.String(); got != s {
			t.Errorf("Status(%d).String() = %q, want %q (docs/design.md's JSON strings)", int(st), got, s)
		}
		back, err := solvers.ParseStatus(s)
		if err != nil || back != st {
			t.Errorf("ParseStatus(%q) = %v, %v; want %v", s, back, err, st)
		}
		b, err := json.Marshal(st)
		if err != nil || string(b) != `"`+s+`"` {
			t.Errorf("json.Marshal(%v) = %s, %v", st, b, err)
		}
		var u solvers.Status
		if err := json.Unmarshal(b, &u); err != nil || u != st {
			t.Errorf("json.Unmarshal(%s) = %v, %v; want %v", b, u, err, st)
		}
	}
	if _, err := solvers.ParseStatus("Optimal"); err == nil {
		t.Error(`ParseStatus("Optimal") succeeded; the strings are lower case`)
	}
	var u solvers.Status
	if err := json.Unmarshal([]byte(`"solved"`), &u); err == nil {
		t.Error(`json.Unmarshal("solved") succeeded`)
	}
	if got := solvers.Status(99).String(); got != "status(99)" {
		t.Errorf("Status(99).String() = %q", got)
	}
	for st := range want {
		if got := st.IsLimit(); got != (st == solvers.TimeLimit || st == solvers.IterationLimit) {
			t.Errorf("%v.IsLimit() = %t", st, got)
		}
	}
}

type fakeSolver struct{ name string }

func (f fakeSolver) Name() string { return f.name }
func (f fakeSolver) Solve(context.Context, *model.Problem, solvers.Options) (*solvers.Solution, error) {
	return &solvers.Solution{Backend: f.name}, nil
}

// The registry is process-global (the sanctioned exception), so these names are unique
// to this test.
func TestRegistry(t *testing.T) {
	solvers.Register("test-fake", func() (solvers.Solver, error) { return fakeSolver{"test-fake"}, nil })
	solvers.Register("test-broken", func() (solvers.Solver, error) { return nil, errors.New("no licence") })
	solvers.RegisterMissing("test-missing", "build with -tags testmissing")
	// A real Register wins over RegisterMissing, in either order.
	solvers.RegisterMissing("test-fake", "should not hide the real one")
	solvers.RegisterMissing("test-late", "build with -tags testlate")
	solvers.Register("test-late", func() (solvers.Solver, error) { return fakeSolver{"test-late"}, nil })

	s, err := solvers.Get("test-fake")
	if err != nil || s.Name() != "test-fake" {
		t.Errorf(`Get("test-fake") = %v, %v`, s, err)
	}
	if s, err := solvers.Get("test-late"); err != nil || s.Name() != "test-late" {
		t.Errorf(`Get("test-late") = %v, %v; Register after RegisterMissing must win`, s, err)
	}
	if _, err := solvers.Get("test-broken"); err == nil || !strings.Contains(err.Error(), "no licence") {
		t.Errorf(`Get("test-broken") error = %v, want the factory's error wrapped`, err)
	}
	_, err = solvers.Get("test-missing")
	var nc *solvers.ErrNotCompiled
	if !errors.As(err, &nc) || nc.Name != "test-missing" || !strings.Contains(err.Error(), "-tags testmissing") {
		t.Errorf(`Get("test-missing") error = %v, want ErrNotCompiled with the hint`, err)
	}
	if _, err := solvers.Get("test-nonexistent"); err == nil || !strings.Contains(err.Error(), "test-fake") {
		t.Errorf(`Get("test-nonexistent") error = %v, want one listing the available names`, err)
	}

	names := solvers.Names()
	if !slices.IsSorted(names) {
		t.Errorf("Names() = %v, not sorted", names)
	}
	for _, n := range []string{"test-fake", "test-broken", "test-late"} {
		if !slices.Contains(names, n) {
			t.Errorf("Names() = %v, missing %q", names, n)
		}
	}
	if slices.Contains(names, "test-missing") {
		t.Errorf("Names() = %v lists a backend that is not compiled in", names)
	}
	if hint := solvers.Missing()["test-missing"]; hint != "build with -tags testmissing" {
		t.Errorf(`Missing()["test-missing"] = %q`, hint)
	}
	if _, ok := solvers.Missing()["test-fake"]; ok {
		t.Error(`Missing() lists "test-fake", which is registered`)
	}

	defer func() {
		if recover() == nil {
			t.Error("a second Register of the same name did not panic")
		}
	}()
	solvers.Register("test-fake", func() (solvers.Solver, error) { return fakeSolver{"again"}, nil })
}

func TestSolutionHasPrimal(t *testing.T) {
	var nilSol *solvers.Solution
	if nilSol.HasPrimal() || (&solvers.Solution{}).HasPrimal() {
		t.Error("HasPrimal true without X")
	}
	if !(&solvers.Solution{X: []float64{}}).HasPrimal() {
		t.Error("HasPrimal false with X")
	}
}
