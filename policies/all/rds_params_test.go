package all

import (
	"context"
	"errors"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/policies/rds"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/workload"
)

// failingQP claims LPs and QPs and fails every solve: a backend whose use shows.
type failingQP struct{}

func (failingQP) Name() string { return "test-failing-qp" }
func (failingQP) Capabilities() solvers.Capabilities {
	return solvers.Capabilities{LP: true, QP: true}
}
func (failingQP) Version() string { return "test" }
func (failingQP) Solve(context.Context, *model.Problem, solvers.Options) (*solvers.Solution, error) {
	return nil, errors.New("test-failing-qp fails on purpose")
}

func init() {
	solvers.Register("test-failing-qp", func() (solvers.Solver, error) { return failingQP{}, nil })
}

// RDS takes its backends as sweep parameters: a bad one is a *ParamError naming the
// key (not linked in, or not solving the key's problem class), and the backend named
// is the one the control step runs on.
func TestRDSParams(t *testing.T) {
	for _, name := range []string{"rds", "rds-ideal"} {
		if !TakesParams(name) {
			t.Errorf("%s: not registered with parameters", name)
		}
		p, err := NewWithParams(name, Params{"backend": "qp", "shortfall_backend": "qp"})
		if err != nil || p.Name() != name {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, c := range []struct {
		p   Params
		key string
	}{
		{Params{"backend": "nosuch"}, "backend"},
		{Params{"backend": "simplex"}, "backend"}, // an LP backend for eq. 3's QP
		{Params{"backend": 1.0}, "backend"},
		{Params{"shortfall_backend": "nosuch"}, "shortfall_backend"},
		{Params{"slot": 60.0}, "slot"},
	} {
		_, err := NewWithParams("rds", c.p)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Key != c.key || pe.Policy != "rds" {
			t.Errorf("%v: got %v, want a ParamError on %s", c.p, err, c.key)
		}
	}

	w, err := workload.RDSWorkload(9, 1)
	if err != nil {
		t.Fatal(err)
	}
	run := func(p Params) (*sim.Metrics, int) {
		t.Helper()
		pol, err := NewWithParams("rds", p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := sim.Run(context.Background(), w, pol, sim.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return sim.Summarize(w, r), pol.(*rds.Policy).Fallbacks()
	}
	base, fb := run(nil)
	lp, err := solvers.Select("", solvers.LP)
	if err != nil {
		t.Fatal(err)
	}
	spelled, fbSpelled := run(Params{"backend": rds.DefaultBackend, "shortfall_backend": lp.Name})
	if fb != 0 || fbSpelled != 0 || base.SumUtility != spelled.SumUtility {
		t.Errorf("the defaults spelled out: %d and %d fallbacks, sum utility %g and %g", fb, fbSpelled, base.SumUtility, spelled.SumUtility)
	}
	if _, fb := run(Params{"backend": "test-failing-qp"}); fb == 0 {
		t.Error("eq. 3 on a failing backend and no fallback: the backend did not reach the policy")
	}
}
