//go:build highs

package qp

import (
	"context"
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/highs"
	"pgregory.net/rapid"
)

// highsOptions bounds a HiGHS solve: its QP solver can iterate forever on small singular
// QPs (observed with 1.10 on this test's problems; see ERGO-Code/HiGHS#2489 for such
// reports), so an iteration limit is the safety net — never a time limit, which a loaded
// machine or -race can reach on a problem HiGHS would have solved. 100,000 QP iterations
// take HiGHS about 0.1 s on these problems; the ones it solves need a few dozen.
var highsOptions = solvers.Options{IterationLimit: 100000}

// objectiveAllowance is how much HiGHS's objective may be better than an exact optimum
// because HiGHS's point violates bounds and rows within its feasibility tolerance (1e-7):
// each violation priced, to first order, by qp's dual of that bound or row. It also
// returns HiGHS's largest relative violation.
func objectiveAllowance(p *model.Problem, ref, sol *solvers.Solution) (allow, maxViol float64) {
	viol := func(v, lo, up float64) float64 { return max(0, lo-v, v-up) }
	ax := p.RowActivity(ref.X)
	for i := range p.NumRows() {
		v := viol(ax[i], p.RowLower[i], p.RowUpper[i])
		allow += math.Abs(sol.RowDual[i]) * v
		maxViol = max(maxViol, v/max(1, math.Abs(ax[i])))
	}
	for j := range p.NumCols() {
		v := viol(ref.X[j], p.ColLower[j], p.ColUpper[j])
		allow += math.Abs(sol.ReducedCost[j]) * v
		maxViol = max(maxViol, v/max(1, math.Abs(ref.X[j])))
	}
	return allow, maxViol
}

// TestAgainstHiGHS compares qp with HiGHS on random convex QPs (strictly convex and
// singular; HiGHS's QP solver is a primal active-set method, a different family).
// qp must prove every problem optimal with a KKT certificate to 1e-7. Where HiGHS solves
// it too, the objectives must agree to 1e-6 relative, with two exceptions, each proven:
//   - HiGHS's objective is better only by what its own primal violations (≤ 1e-6; its
//     tolerance is 1e-7) can buy, priced by qp's duals: HiGHS's point sits slightly
//     outside the feasible set (asking HiGHS for 1e-9 feasibility instead makes it fail
//     on those problems);
//   - qp's objective is better: qp's point is feasible, so HiGHS stopped short of the
//     optimum (seen with a cost of 7.6e-6 on a variable, below HiGHS's care).
//
// HiGHS fails on some problems (numerical_error, a wrong infeasible or unbounded, the
// time limit). Exceptions and failures are counted, logged, and must stay a minority.
func TestAgainstHiGHS(t *testing.T) {
	for _, strict := range []bool{true, false} {
		name := "singular"
		if strict {
			name = "strictly convex"
		}
		t.Run(name, func(t *testing.T) {
			exact, allowed, highsWorse, highsFailed := 0, 0, 0, 0
			why := map[solvers.Status]int{}
			rapid.Check(t, func(t *rapid.T) {
				p, _ := randomQP(t, strict)
				ref, err := highs.New().Solve(context.Background(), p, highsOptions)
				if err != nil {
					t.Fatalf("highs: %v", err)
				}
				sol := solve(t, p, solvers.Options{})
				if sol.Status != solvers.Optimal {
					t.Fatalf("status %v on a feasible bounded problem (HiGHS: %v)\n%s", sol.Status, ref.Status, dump(p))
				}
				if r := checkKKT(p, sol); r.max() > 1e-7 {
					t.Fatalf("KKT: %v\n%s", r, dump(p))
				}
				if ref.Status != solvers.Optimal {
					highsFailed++
					why[ref.Status]++
					return
				}
				diff := math.Abs(sol.Objective - ref.Objective)
				tol := 1e-6 * max(1, math.Abs(ref.Objective))
				if diff <= tol {
					exact++
					return
				}
				if float64(p.Sense)*(sol.Objective-ref.Objective) < 0 {
					// qp's point is feasible (checked above) and better: HiGHS stopped
					// short of the optimum. The feasible better point proves it.
					highsWorse++
					return
				}
				allow, viol := objectiveAllowance(p, ref, sol)
				if viol > 1e-6 || diff > tol+2*allow {
					t.Fatalf("objective %.12g, HiGHS %.12g (HiGHS violation %.2g, allowance %.2g)\n%s",
						sol.Objective, ref.Objective, viol, allow, dump(p))
				}
				allowed++
			})
			t.Logf("objectives equal to 1e-6: %d; HiGHS better only by its infeasibility: %d; qp better (HiGHS suboptimal): %d; HiGHS did not solve: %d %v (qp's answers passed the KKT certificate)",
				exact, allowed, highsWorse, highsFailed, why)
			if highsFailed+allowed+highsWorse > exact {
				t.Errorf("only %d of %d problems compared exactly: the comparison says little", exact, exact+allowed+highsWorse+highsFailed)
			}
		})
	}
}

// TestHiGHSQPModelsAgainstHiGHS confirms the expected outcomes of highsQPModels with
// HiGHS itself.
func TestHiGHSQPModelsAgainstHiGHS(t *testing.T) {
	for _, m := range highsQPModels {
		t.Run(m.file, func(t *testing.T) {
			p := readModel(t, m.file)
			ref, err := highs.New().Solve(context.Background(), p, highsOptions)
			if err != nil {
				t.Fatal(err)
			}
			want := m.status
			if ref.Status != want && !(want != solvers.Optimal && ref.Status == solvers.InfeasibleOrUnbounded) {
				t.Fatalf("HiGHS status %v, expected %v", ref.Status, want)
			}
			if want == solvers.Optimal && math.Abs(ref.Objective-m.obj) > 1e-6*max(1, math.Abs(m.obj)) {
				t.Errorf("HiGHS objective %.12g, expected %.12g", ref.Objective, m.obj)
			}
		})
	}
}

// TestRDSShapedQPAgainstHiGHS compares the RDS-shaped QP of the benchmark with HiGHS.
func TestRDSShapedQPAgainstHiGHS(t *testing.T) {
	for _, jobs := range []int{10, 100} {
		p := newRDSInstance(jobs, 3, uint64(jobs)).problem()
		ref, err := highs.New().Solve(context.Background(), p, highsOptions)
		if err != nil || ref.Status != solvers.Optimal {
			t.Fatalf("highs: %v %v", err, ref.Status)
		}
		sol := solve(t, p, solvers.Options{})
		if sol.Status != solvers.Optimal || math.Abs(sol.Objective-ref.Objective) > 1e-6*max(1, math.Abs(ref.Objective)) {
			t.Errorf("jobs=%d: %v objective %.12g, HiGHS %.12g", jobs, sol.Status, sol.Objective, ref.Objective)
		}
	}
}
