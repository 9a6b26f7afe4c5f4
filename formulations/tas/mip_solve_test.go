//go:build highs || lpsolve

package tas

import (
	"context"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched/schedtest"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/all"
)

// maxMinMIP solves max t s.t. u_i ≥ t on the MIP and returns t and the decoded schedule.
func maxMinMIP(t *rapid.T, m *MIP, sv solvers.Solver) float64 {
	mm := m.Model.Clone()
	level := mm.Continuous(math.Inf(-1), math.Inf(1), "level")
	for i, o := range m.Outcomes {
		e := rebind(mm, o)
		e.AddTerm(level, -1)
		mm.AddGe(e, 0, "")
		_ = i
	}
	mm.Maximize(level.E())
	p, err := mm.Compile()
	if err != nil {
		t.Fatal(err)
	}
	sol, err := sv.Solve(context.Background(), p, solvers.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Status != solvers.Optimal {
		t.Fatalf("%s: status %v", sv.Name(), sol.Status)
	}
	// The schedule in the solution is valid whatever the claimed completions.
	s, err := m.Decode(sol.X[:m.Model.NumVars()])
	if err != nil {
		t.Fatal(err)
	}
	checkSchedule(t, m.inst, s, nil)
	if s.Min < sol.Objective-1e-6 {
		t.Fatalf("decoded schedule's minimum %g below the MIP's level %g", s.Min, sol.Objective)
	}
	return sol.Objective
}

// rebind copies an outcome of m's model into its clone mm (same variable indices).
func rebind(mm *model.Model, e model.Expr) model.Expr {
	var out model.Expr
	for _, term := range e.Terms {
		out.AddTerm(mm.VarAt(term.Var.Index()), term.Coef)
	}
	out.Const = e.Const
	return out
}

// OnionPeel's lowest level equals the MIP's max-min optimum, solved by each MIP backend
// compiled in.
func TestOnionPeelMatchesMIPMaxMin(t *testing.T) {
	for _, name := range []string{"highs", "lpsolve"} {
		sv, err := solvers.Get(name)
		if err != nil {
			continue // this build has the other tag only
		}
		t.Run(name, func(t *testing.T) {
			cfg := mipConfig
			cfg.Utilities = []string{"table", "sigmoid", "linear", "step", "piecewise", "rds"}
			rapid.Check(t, func(rt *rapid.T) {
				in := schedtest.Instance(rt, cfg)
				res, err := OnionPeel(context.Background(), in, Options{})
				if err != nil {
					rt.Fatal(err)
				}
				m, err := BuildMIP(in)
				if err != nil {
					rt.Fatal(err)
				}
				got := maxMinMIP(rt, m, sv)
				want := sortedCopy(res.Levels)[0]
				if math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
					rt.Fatalf("%s max-min %.9g, OnionPeel %.9g", name, got, want)
				}
			})
		})
	}
}
