//go:build highs

package rds

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

func highsSolver(t testing.TB) solvers.Solver {
	t.Helper()
	s, err := solvers.Get("highs")
	if err != nil {
		t.Fatal(err) // a highs build without HiGHS registered is broken
	}
	return s
}

// TestBuiltinQPAgreesWithHiGHS: on random control steps the built-in QP backend and
// HiGHS reach the same optimal objective, to 1e-6 relative, on the RDS QP (eq. 3,
// BuildRHC with deadlines off: tracking and control penalties over the capacity rows
// and bounds) and on the least-shortfall LP (BuildShortfall). Both answers are
// certified: the built-in solver's to 1e-7 (certify), HiGHS's to 1e-5 (its QP solver's
// dual tolerance is 1e-7 absolute, and its reduced costs come out around 1e-6 off
// where the data scale is 1). The second stage of SolveRHC is compared in
// TestTwoStageAgreesWithHiGHS.
func TestBuiltinQPAgreesWithHiGHS(t *testing.T) {
	qp, hs := qpSolver(t), highsSolver(t)
	rapid.Check(t, func(rt *rapid.T) {
		st, forecast, p := genState(rt)
		for _, stage := range []string{"eq. 3", "shortfall"} {
			build := BuildRHC
			pp := p
			if stage == "eq. 3" {
				pp.Deadlines = DeadlinesOff
			} else {
				build = BuildShortfall
			}
			m, h, err := build(st, forecast, pp)
			if errors.Is(err, ErrNoJobs) {
				return
			}
			if err != nil {
				rt.Fatal(err)
			}
			if stage == "shortfall" && !h.HasDeadlines() {
				continue
			}
			prob, err := m.Compile()
			if err != nil {
				rt.Fatal(err)
			}
			compareWithHiGHS(rt, stage, prob, qp, hs)
		}
	})
}

// compareWithHiGHS solves prob with both backends, certifies both and compares the
// objectives.
func compareWithHiGHS(rt *rapid.T, what string, prob *model.Problem, qp, hs solvers.Solver) {
	a, err := qp.Solve(context.Background(), prob, solvers.Options{})
	if err != nil {
		rt.Fatal(err)
	}
	certify(rt, "qp "+what, prob, a)
	// A time limit as a safety net: HiGHS 1.10's QP solver can stall (see the README of
	// testdata/rds).
	h, err := hs.Solve(context.Background(), prob, solvers.Options{TimeLimit: 10 * time.Second})
	if err != nil {
		rt.Fatal(err)
	}
	if h.Status != solvers.Optimal {
		rt.Fatalf("%s: HiGHS status %v", what, h.Status)
	}
	if k := CheckKKT(prob, h, 1e-5); !k.OK {
		rt.Fatalf("%s: HiGHS KKT residuals %+v", what, k)
	}
	z1, z2 := a.Objective, h.Objective
	if math.Abs(z1-z2) > 1e-6*math.Max(1, math.Max(math.Abs(z1), math.Abs(z2))) {
		rt.Fatalf("%s: built-in QP objective %.12g, HiGHS %.12g", what, z1, z2)
	}
}

// TestTwoStageAgreesWithHiGHS: SolveRHC with either backend, on control steps whose
// deadlines can all be met with 5% to spare (genWitnessState): both find zero
// shortfall, and the eq. 3 stages agree to 1e-6. (Where the deadlines leave no room —
// exactly tight steps, or unavoidable shortfall, where the second stage's feasible set
// is the first stage's optimal face, often a point — HiGHS 1.10's QP solver fails on
// some steps; see testdata/rds/README.md. The built-in solver is tested on those too.)
func TestTwoStageAgreesWithHiGHS(t *testing.T) {
	qp, hs := qpSolver(t), highsSolver(t)
	rapid.Check(t, func(rt *rapid.T) {
		st, forecast, p := genWitnessState(rt, 0.95)
		a := solveRHC(rt, qp, st, forecast, p)
		b, err := SolveRHC(context.Background(), hs, st, forecast, p, solvers.Options{TimeLimit: 10 * time.Second})
		if err != nil {
			rt.Fatal(err)
		}
		if b.Status != solvers.Optimal {
			rt.Fatalf("HiGHS: status %v", b.Status)
		}
		for j := range st.Jobs {
			if a.Shortfall[j] != 0 || b.Shortfall[j] != 0 {
				rt.Fatalf("job %s: shortfall %g (qp), %g (HiGHS), want 0", st.Jobs[j].ID, a.Shortfall[j], b.Shortfall[j])
			}
		}
		z1, z2 := a.Solution.Objective, b.Solution.Objective
		if math.Abs(z1-z2) > 1e-6*math.Max(1, math.Max(math.Abs(z1), math.Abs(z2))) {
			rt.Fatalf("eq. 3 stage: built-in QP objective %.12g, HiGHS %.12g", z1, z2)
		}
	})
}

// TestTable1HiGHS runs the Table 1 closed loop with HiGHS as the controller's solver:
// the same deadlines are met.
func TestTable1HiGHS(t *testing.T) {
	sc := table1()
	run, err := Simulate(context.Background(), sc, &RHCController{Solver: highsSolver(t), Params: DefaultParams(), Predictor: Known(sc.Capacity)})
	if err != nil {
		t.Fatal(err)
	}
	logRun(t, run)
	for _, j := range run.Jobs {
		if !j.Met {
			t.Errorf("%s completes at %g, deadline %g", j.ID, j.Completion, j.Soft)
		}
	}
}

// BenchmarkRHCHiGHS is BenchmarkRHC with HiGHS as the solver: the same control steps
// (build both stages, compile, solve), for comparison with the built-in QP backend.
func BenchmarkRHCHiGHS(b *testing.B) {
	s := highsSolver(b)
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) { benchSolveRHC(b, s, c.jobs, c.load, c.p) })
	}
}
