package lpsolve_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/lpsolve"
)

// TestAPIInEveryBuild has no build tag: that it compiles at all shows a caller's code
// naming lpsolve.New, Version and the Solver's methods builds with and without -tags lpsolve.
// With the tag the solver solves; without it every Solve returns solvers.ErrNotCompiled
// naming the tag, and the Solver claims no capability.
func TestAPIInEveryBuild(t *testing.T) {
	var s solvers.Solver = lpsolve.New()
	var d solvers.Describer = lpsolve.New()
	if s.Name() != lpsolve.Name {
		t.Errorf("Name() = %q, want %q", s.Name(), lpsolve.Name)
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
	if _, getErr := solvers.Get(lpsolve.Name); getErr == nil {
		if err != nil || sol.Status != solvers.Optimal || sol.Objective != 1 || d.Version() == "" || !d.Capabilities().LP {
			t.Fatalf("tagged build: %v %v, version %q, capabilities %+v", sol, err, d.Version(), d.Capabilities())
		}
		return
	}
	var nc *solvers.ErrNotCompiled
	if !errors.As(err, &nc) || sol != nil || !strings.Contains(err.Error(), "-tags lpsolve") {
		t.Fatalf("plain build: Solve = %v, %v; want a *solvers.ErrNotCompiled naming -tags lpsolve", sol, err)
	}
	if lpsolve.Version() != "" || d.Version() != "" || d.Capabilities() != (solvers.Capabilities{}) {
		t.Fatalf("plain build: version %q, capabilities %+v; want none", lpsolve.Version(), d.Capabilities())
	}
}
