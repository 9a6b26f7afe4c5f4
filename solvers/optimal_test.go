package solvers_test

import (
	"context"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/simplex"
)

// TestSolveOptimal: an optimum comes back; an infeasible model is an error naming what
// was solved, the backend and the status.
func TestSolveOptimal(t *testing.T) {
	build := func(lo float64) *model.Model {
		m := model.New("toy")
		x := m.Continuous(0, 1, "x")
		m.AddGe(x.E(), lo, "floor")
		m.Maximize(x.E())
		return m
	}
	sol, err := solvers.SolveOptimal(context.Background(), simplex.New(), "toy", build(0), solvers.Options{})
	if err != nil || sol.Objective != 1 {
		t.Fatalf("feasible: %v, %+v; want objective 1", err, sol)
	}
	_, err = solvers.SolveOptimal(context.Background(), simplex.New(), "toy", build(2), solvers.Options{})
	if err == nil || !strings.Contains(err.Error(), "toy with simplex: status infeasible") {
		t.Fatalf("infeasible: %v, want an error naming toy, simplex and the status", err)
	}
}
