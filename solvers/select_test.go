package solvers_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// capsSolver is a fake backend with capabilities.
type capsSolver struct {
	name string
	caps solvers.Capabilities
}

func (c capsSolver) Name() string                       { return c.name }
func (c capsSolver) Capabilities() solvers.Capabilities { return c.caps }
func (c capsSolver) Version() string                    { return "test" }
func (c capsSolver) Solve(context.Context, *model.Problem, solvers.Options) (*solvers.Solution, error) {
	return nil, errors.New("fake")
}

// registerCaps registers a fake once per process (go test -count=2 runs a test twice).
func registerCaps(name string, caps solvers.Capabilities) {
	if _, err := solvers.Get(name); err == nil {
		return
	}
	solvers.Register(name, func() (solvers.Solver, error) { return capsSolver{name, caps}, nil })
}

// TestSelect walks the selector through a binary that grows: first no MIP backend (the
// error names the missing ones with their hints and no --solver), then the built-in
// "mip" registered, then a named backend that lacks the class. The steps share the
// process-wide backend registry, so they run in this one test, in order.
func TestSelect(t *testing.T) {
	solvers.RegisterMissing("highs", "build with -tags highs")
	solvers.RegisterMissing("lpsolve", "build with -tags lpsolve")
	registerCaps("simplex", solvers.Capabilities{LP: true, Duals: true})
	registerCaps("qp", solvers.Capabilities{LP: true, QP: true, Duals: true})

	if _, err := solvers.Get("mip"); err == nil {
		t.Skip("mip is registered already (a second run in this process)")
	}
	_, err := solvers.Select("", solvers.MIP)
	var nb *solvers.NoBackendError
	if !errors.As(err, &nb) {
		t.Fatalf("no MIP backend: err %v, want *NoBackendError", err)
	}
	msg := err.Error()
	for _, want := range []string{"no backend for MIPs is compiled into this binary", "highs: build with -tags highs", "lpsolve: build with -tags lpsolve"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "simplex") || strings.Contains(msg, "solver \"") {
		t.Errorf("message %q names a backend nobody asked for", msg)
	}

	// Defaults follow the preference order: simplex before qp for LPs, qp for QPs, and
	// one backend for a QP together with an LP.
	for _, tc := range []struct {
		classes []solvers.Class
		want    string
	}{
		{[]solvers.Class{solvers.LP}, "simplex"},
		{[]solvers.Class{solvers.QP}, "qp"},
		{[]solvers.Class{solvers.QP, solvers.LP}, "qp"},
	} {
		b, err := solvers.Select("", tc.classes...)
		if err != nil || b.Name != tc.want {
			t.Errorf("Select(%v) = %q, %v; want %q", tc.classes, b.Name, err, tc.want)
		}
	}

	// A named backend without the class says so and lists those that have it.
	_, err = solvers.Select("simplex", solvers.QP)
	if err == nil || !strings.Contains(err.Error(), `solver "simplex" cannot solve QPs; backends for QPs in this binary: qp`) {
		t.Errorf("simplex for a QP: %v", err)
	}
	// A named backend that is not compiled in is Get's error with the hint.
	_, err = solvers.Select("highs", solvers.MIP)
	var nc *solvers.ErrNotCompiled
	if !errors.As(err, &nc) || !strings.Contains(err.Error(), "build with -tags highs") {
		t.Errorf("highs in a plain binary: %v", err)
	}

	// Once the built-in branch and bound registers as "mip", it is the MIP default.
	if !slices.Contains(solvers.Preference(solvers.MIP), "mip") {
		t.Fatalf("MIP preference %v lacks the built-in mip", solvers.Preference(solvers.MIP))
	}
	registerCaps("mip", solvers.Capabilities{LP: true, MIP: true})
	b, err := solvers.Select("", solvers.MIP)
	if err != nil || b.Name != "mip" || !b.Caps.MIP || b.Version != "test" {
		t.Errorf("Select(MIP) with mip registered = %+v, %v", b, err)
	}
}

func TestOrder(t *testing.T) {
	got := solvers.Order([]string{"zeta", "qp", "gonum", "simplex", "highs", "alpha", "mip", "lpsolve"}, "")
	want := []string{"highs", "simplex", "lpsolve", "gonum", "qp", "mip", "alpha", "zeta"}
	if !slices.Equal(got, want) {
		t.Errorf("Order(all) = %v, want %v", got, want)
	}
	got = solvers.Order([]string{"qp", "highs", "simplex"}, solvers.QP)
	if want := []string{"qp", "highs", "simplex"}; !slices.Equal(got, want) {
		t.Errorf("Order(QP) = %v, want %v", got, want)
	}
}
