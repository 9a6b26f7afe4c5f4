package simplex

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/model/mps"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// netlibCases are the feasible, infeasible and unbounded LPs from HiGHS's check set with
// their reference objectives (Netlib's published values, as HiGHS 1.10 reproduces them).
var netlibCases = []struct {
	name   string
	status solvers.Status
	obj    float64
}{
	{"afiro", solvers.Optimal, -4.6475314286e+02},
	{"adlittle", solvers.Optimal, 2.2549496316e+05},
	{"blending", solvers.Optimal, -3.2000000000e+03},
	{"sctest", solvers.Optimal, 5.7500000000e+00},
	{"avgas", solvers.Optimal, -7.7500000000e+00},
	{"chip", solvers.Optimal, -9.0000000000e+02},
	{"dD2e", solvers.Optimal, -3.0000000000e+03},
	{"scrs8", solvers.Optimal, 9.0429695380e+02},
	{"israel", solvers.Optimal, -8.9664482186e+05},
	{"e226", solvers.Optimal, -1.1638929066e+01},
	{"etamacro", solvers.Optimal, -7.5571523330e+02},
	{"stair", solvers.Optimal, -2.5126695119e+02},
	{"standata", solvers.Optimal, 1.2576995000e+03},
	{"standgub", solvers.Optimal, 1.2576995000e+03},
	{"standmps", solvers.Optimal, 1.4060175000e+03},
	{"25fv47", solvers.Optimal, 5.5018458883e+03},
	{"80bau3b", solvers.Optimal, 9.8722419241e+05},
	{"greenbea", solvers.Optimal, -7.2555248130e+07},
	{"shell", solvers.Optimal, 1.2088253460e+09},
	{"box1", solvers.Infeasible, 0},
	{"forest6", solvers.Infeasible, 0},
	{"klein1", solvers.Infeasible, 0},
	{"refinery", solvers.Infeasible, 0},
	{"gams10am", solvers.Infeasible, 0},
	{"galenet", solvers.Infeasible, 0},
	{"gas11", solvers.Unbounded, 0},
	{"primal1", solvers.Unbounded, 0}, // its linear part: see TestNetlib
}

func TestNetlib(t *testing.T) {
	testmodels.RequireDir(t)
	for _, tc := range netlibCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := mps.ReadFile(testmodels.Path(t, tc.name+".mps"), mps.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if p.HasQuadratic() {
				// primal1 is a Maros–Mészáros QP (a QUADOBJ section): the simplex rejects it,
				// and its linear part (the LP the list names) is unbounded.
				if _, err := New().Solve(context.Background(), p, solvers.Options{}); !errors.Is(err, ErrNotLP) {
					t.Fatalf("the QP was not rejected: %v", err)
				}
				p.QStart, p.QIndex, p.QValue = nil, nil, nil
			}
			s := &Solver{}
			start := time.Now()
			sol, err := s.Solve(context.Background(), p, solvers.Options{IterationLimit: 200000, TimeLimit: 60 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %v obj %.10g iters %d time %v", tc.name, sol.Status, sol.Objective, sol.Iterations, time.Since(start))
			if sol.Status != tc.status {
				t.Fatalf("status %v, want %v", sol.Status, tc.status)
			}
			if tc.status == solvers.Optimal {
				tol := solvertest.Tolerances{Obj: 1e-7, Feas: 1e-7, Dual: 1e-7}
				if err := solvertest.CheckPrimal(p, sol, tol); err != nil {
					t.Errorf("primal: %v", err)
				}
				if err := solvertest.CheckLPCertificate(p, sol, tol); err != nil {
					t.Errorf("certificate: %v", err)
				}
				if rel := math.Abs(sol.Objective-tc.obj) / math.Max(1, math.Abs(tc.obj)); rel > 1e-6 {
					t.Errorf("objective %.12g, want %.12g (rel %.2g)", sol.Objective, tc.obj, rel)
				}
			}
		})
	}
}
