package verify

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
)

// TestCORASuiteRunsTheRegistry: the cora suite solves FINAL and Linearized-CORA through
// the registry it is given (cora-final on every LP backend, cora-linearized on the
// reference one), so it certifies the answers solve gives: a registry whose
// cora-final hands back a schedule one unit short of a job's demand makes the suite's
// schedule checks of FINAL fail, where the default registry's pass.
func TestCORASuiteRunsTheRegistry(t *testing.T) {
	in := load(t, "cora/spread.json")
	backends := []string{"simplex", "gonum"}
	for _, corrupt := range []bool{false, true} {
		var calls []string
		var fs []solve.Formulation
		for _, f := range solve.Default().Formulations() {
			g := *f
			if g.Name == "cora-final" || g.Name == "cora-linearized" {
				inner := g.Solve
				g.Solve = func(ctx context.Context, req *solve.Request, b solvers.Backend) (*solve.Result, error) {
					calls = append(calls, g.Name+"/"+b.Name)
					res, err := inner(ctx, req, b)
					if err == nil && corrupt && g.Name == "cora-final" {
						s := res.Schedule
						for t, a := range s.Jobs[0].Alloc[0] {
							if a > 0 {
								s.Jobs[0].Alloc[0][t]--
								break
							}
						}
						s.Finalize(req.Instance)
					}
					return res, err
				}
			}
			fs = append(fs, g)
		}
		reg, err := solve.NewRegistry(fs...)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Instance(context.Background(), in, Options{Formulations: []string{CORA}, Solvers: backends, Registry: reg})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"cora-final/simplex", "cora-final/gonum", "cora-linearized/simplex"}; !slices.Equal(calls, want) {
			t.Errorf("corrupt %v: registry calls %v, want %v", corrupt, calls, want)
		}
		var failed []string
		for _, c := range rep.Failures() {
			failed = append(failed, c.Name)
		}
		demandFails := slices.ContainsFunc(failed, func(n string) bool { return strings.HasPrefix(n, "cora/final/") && strings.Contains(n, "demand") })
		if demandFails != corrupt {
			t.Errorf("corrupt %v: failed checks %v", corrupt, failed)
		}
	}
}
