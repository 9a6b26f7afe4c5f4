package simplex_test

import (
	"context"
	"errors"
	"testing"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model/mps"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/netlib"
	"github.com/coraopt/coraopt/solvers/simplex"
)

// TestNetlib runs the shared Netlib set: every feasible LP to its reference objective
// (1e-6 relative) with the primal point and the dual certificate checked at 1e-7, every
// infeasible and unbounded LP to its status; greenbea and
// 80bau3b run without -short.
func TestNetlib(t *testing.T) {
	netlib.Run(t, func() solvers.Solver { return simplex.New() }, netlib.Config{Duals: true, FeasTol: 1e-7, DualTol: 1e-7})
}

// TestNetlibFull runs the whole Netlib LP collection (91 models, when
// $CORAOPT_NETLIB_DIR or the cache holds it; see netlib.RunFull) with the same checks:
// every optimum to its reference, its point and its dual certificate at 1e-7. The models
// marked Large (fit2d, pilot87, dfl001, …) run without -short.
func TestNetlibFull(t *testing.T) {
	netlib.RunFull(t, func() solvers.Solver { return simplex.New() }, netlib.Config{Duals: true, FeasTol: 1e-7, DualTol: 1e-7})
}

// TestNetlibQPRejected: primal1 is a Maros–Mészáros QP, which the simplex rejects; its
// linear part alone is unbounded, which the simplex proves.
func TestNetlibQPRejected(t *testing.T) {
	p, err := mps.ReadFile(testmodels.Path(t, "primal1.mps"), mps.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := simplex.New().Solve(context.Background(), p, solvers.Options{}); !errors.Is(err, simplex.ErrNotLP) {
		t.Fatalf("the QP was not rejected: %v", err)
	}
	p.QStart, p.QIndex, p.QValue = nil, nil, nil
	sol, err := simplex.New().Solve(context.Background(), p, solvers.Options{IterationLimit: 100000})
	if err != nil || sol.Status != solvers.Unbounded {
		t.Fatalf("linear part of primal1: %v %v, want unbounded", sol.Status, err)
	}
}
