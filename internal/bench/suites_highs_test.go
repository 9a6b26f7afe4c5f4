//go:build highs

package bench

import (
	"context"
	"testing"

	"github.com/coraopt/coraopt/solve"
)

// TestFormulationsAgreeHiGHS runs the formulation families at small sizes with HiGHS
// and the built-in QP solver (and lp_solve and the built-in simplex when compiled in):
// every FINAL is solved by all LP backends in agreement, and every max-min TAS MIP —
// plain and on RS's worst-case demands — agrees with onion peeling's lowest level.
func TestFormulationsAgreeHiGHS(t *testing.T) {
	var names []string
	for _, n := range []string{"highs", "lpsolve", "qp", "simplex"} {
		if _, err := RegistryBackends([]string{n}); err == nil {
			names = append(names, n)
		}
	}
	bs, err := RegistryBackends(names)
	if err != nil {
		t.Fatal(err)
	}
	rep := Run(context.Background(), FormulationsSuite([]Dims{{6, 0}, {8, 10}}, 5, solve.Default()), Config{Backends: bs})
	perCase := map[string]int{}
	for _, r := range rep.Rows {
		perCase[r.Instance]++
		if r.Agree == nil || !*r.Agree {
			t.Errorf("%s/%s: %s %.10g agree=%v (%s)", r.Instance, r.Solver, r.Status, r.Objective, r.Agree, r.Note)
		}
	}
	for inst, n := range perCase {
		if n < 2 {
			t.Errorf("%s: %d rows, want at least two to compare", inst, n)
		}
	}
	if len(perCase) != 6 {
		t.Errorf("%d cases, want 6: %v", len(perCase), perCase)
	}
}
