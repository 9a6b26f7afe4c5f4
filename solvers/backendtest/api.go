package backendtest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// APIInEveryBuild checks a C-library backend's API in whichever build the test runs:
// s is the package's New(), name its Name, version its package-level Version() and tag
// its build tag. With the tag (the registry has the backend) s solves a one-column LP and
// reports a version and LP capability; without it s is the solvers.NotCompiled stand-in,
// whose Solve returns *solvers.ErrNotCompiled naming "-tags <tag>" and which claims
// nothing. The caller's test file carries no build tag, so that it compiles in both
// builds is the other half of the check.
func APIInEveryBuild(t *testing.T, s solvers.Solver, name, version, tag string) {
	t.Helper()
	if s.Name() != name {
		t.Errorf("Name() = %q, want %q", s.Name(), name)
	}
	d, ok := s.(solvers.Describer)
	if !ok {
		t.Fatalf("%T does not implement solvers.Describer", s)
	}
	m := model.New("api")
	x := m.Continuous(0, 4, "x")
	m.AddGe(x.E(), 1, "r")
	m.Minimize(x.E())
	p, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	sol, err := s.Solve(context.Background(), p, solvers.Options{})
	if _, getErr := solvers.Get(name); getErr == nil {
		if err != nil || sol.Status != solvers.Optimal || sol.Objective != 1 || version == "" || d.Version() != version || !d.Capabilities().LP {
			t.Fatalf("tagged build: %v %v, version %q (package %q), capabilities %+v", sol, err, d.Version(), version, d.Capabilities())
		}
		return
	}
	var nc *solvers.ErrNotCompiled
	if !errors.As(err, &nc) || sol != nil || !strings.Contains(err.Error(), "-tags "+tag) {
		t.Fatalf("plain build: Solve = %v, %v; want a *solvers.ErrNotCompiled naming -tags %s", sol, err, tag)
	}
	if version != "" || d.Version() != "" || d.Capabilities() != (solvers.Capabilities{}) {
		t.Fatalf("plain build: version %q (package %q), capabilities %+v; want none", d.Version(), version, d.Capabilities())
	}
}
