package highs_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/highs"
)

// TestAPIInEveryBuild has no build tag: that it compiles at all shows a caller's code
// naming highs.New, Version and the Solver's methods builds with and without -tags highs.
// With the tag the solver solves; without it every Solve returns solvers.ErrNotCompiled
// naming the tag, and the Solver claims no capability.
func TestAPIInEveryBuild(t *testing.T) {
	var s solvers.Solver = highs.New()
	var d solvers.Describer = highs.New()
	if s.Name() != highs.Name {
		t.Errorf("Name() = %q, want %q", s.Name(), highs.Name)
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
	if _, getErr := solvers.Get(highs.Name); getErr == nil {
		if err != nil || sol.Status != solvers.Optimal || sol.Objective != 1 || d.Version() == "" || !d.Capabilities().LP {
			t.Fatalf("tagged build: %v %v, version %q, capabilities %+v", sol, err, d.Version(), d.Capabilities())
		}
		return
	}
	var nc *solvers.ErrNotCompiled
	if !errors.As(err, &nc) || sol != nil || !strings.Contains(err.Error(), "-tags highs") {
		t.Fatalf("plain build: Solve = %v, %v; want a *solvers.ErrNotCompiled naming -tags highs", sol, err)
	}
	if highs.Version() != "" || d.Version() != "" || d.Capabilities() != (solvers.Capabilities{}) {
		t.Fatalf("plain build: version %q, capabilities %+v; want none", highs.Version(), d.Capabilities())
	}
}
