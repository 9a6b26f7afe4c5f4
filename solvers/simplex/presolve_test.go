package simplex

import (
	"context"
	"math"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/solvertest"
)

// lp builds a Problem from dense rows (for small tests).
func lp(sense model.Sense, cost, lo, up []float64, rows [][]float64, rlo, rup []float64) *model.Problem {
	p := &model.Problem{Name: "t", Sense: sense, ColCost: cost, ColLower: lo, ColUpper: up, RowLower: rlo, RowUpper: rup}
	p.AStart = []int{0}
	for j := range cost {
		for i := range rows {
			if v := rows[i][j]; v != 0 {
				p.AIndex = append(p.AIndex, i)
				p.AValue = append(p.AValue, v)
			}
		}
		p.AStart = append(p.AStart, len(p.AIndex))
	}
	return p
}

var inf = math.Inf(1)

func TestPresolve(t *testing.T) {
	cases := []struct {
		name        string
		p           *model.Problem
		status      solvers.Status
		obj         float64
		rows, cols  int // size of the reduced problem
		wantRowDual []float64
	}{{
		// 2x ≥ 4 becomes x ≥ 2, which is active: its dual is x's reduced cost / 2.
		name:   "active singleton row",
		p:      lp(model.Minimize, []float64{3, 1}, []float64{0, 0}, []float64{inf, inf}, [][]float64{{2, 0}, {1, 1}}, []float64{4, 5}, []float64{inf, inf}),
		status: solvers.Optimal, obj: 9, rows: 1, cols: 2, wantRowDual: []float64{1, 1},
	}, {
		// The same with the singleton row inactive (x ≥ 1 while the optimum has x = 5).
		name:   "inactive singleton row",
		p:      lp(model.Minimize, []float64{1, 3}, []float64{0, 0}, []float64{inf, inf}, [][]float64{{2, 0}, {1, 1}}, []float64{2, 5}, []float64{inf, inf}),
		status: solvers.Optimal, obj: 5, rows: 1, cols: 2, wantRowDual: []float64{0, 1},
	}, {
		// An equality singleton fixes x = 2; the column disappears and the remaining row
		// becomes y ≥ 3, a singleton too: everything is presolved away.
		name:   "equality singleton cascade",
		p:      lp(model.Maximize, []float64{-1, -2}, []float64{0, 0}, []float64{10, 10}, [][]float64{{3, 0}, {1, 1}}, []float64{6, 5}, []float64{6, inf}),
		status: solvers.Optimal, obj: -8, rows: 0, cols: 0, wantRowDual: []float64{1.0 / 3, -2},
	}, {
		// Upper bounds from a ≤ singleton with a negative coefficient: −x ≤ −1 is x ≥ 1.
		name:   "negative coefficient singleton",
		p:      lp(model.Minimize, []float64{1, 1}, []float64{-5, 0}, []float64{5, 4}, [][]float64{{-1, 0}, {1, 1}}, []float64{-inf, 2}, []float64{-1, inf}),
		status: solvers.Optimal, obj: 2, rows: 1, cols: 2,
	}, {
		// A fixed column, an empty row and an empty column with a cost.
		name:   "fixed column, empty row and column",
		p:      lp(model.Minimize, []float64{1, 2, -1}, []float64{1, 0, 0}, []float64{1, 3, 4}, [][]float64{{1, 1, 0}, {0, 0, 0}}, []float64{2, -1}, []float64{inf, 1}),
		status: solvers.Optimal, obj: 1 + 2 - 4, rows: 0, cols: 0, wantRowDual: []float64{2, 0},
	}, {
		name:   "conflicting singleton",
		p:      lp(model.Minimize, []float64{1}, []float64{0}, []float64{1}, [][]float64{{2}}, []float64{4}, []float64{inf}),
		status: solvers.Infeasible,
	}, {
		name:   "infeasible empty row",
		p:      lp(model.Minimize, []float64{1}, []float64{0}, []float64{1}, [][]float64{{0}}, []float64{1}, []float64{2}),
		status: solvers.Infeasible,
	}, {
		// z has no rows and improves without bound; the rest is feasible.
		name:   "unbounded empty column",
		p:      lp(model.Minimize, []float64{1, -1}, []float64{0, 0}, []float64{inf, inf}, [][]float64{{1, 0}}, []float64{1}, []float64{inf}),
		status: solvers.Unbounded,
	}, {
		// The same with an infeasible rest: infeasible wins.
		name:   "unbounded column, infeasible rows",
		p:      lp(model.Minimize, []float64{1, 1, -1}, []float64{0, 0, 0}, []float64{1, 1, inf}, [][]float64{{1, 1, 0}, {1, -1, 0}}, []float64{3, -inf}, []float64{inf, 0}),
		status: solvers.Infeasible,
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pr := presolve(tc.p, DefaultPrimalTol)
			if tc.status == solvers.Optimal {
				if pr.status != presolveReduced || pr.reduced.m != tc.rows || pr.reduced.n != tc.cols {
					t.Errorf("presolve left %d rows and %d columns, want %d and %d", pr.reduced.m, pr.reduced.n, tc.rows, tc.cols)
				}
			}
			sol, err := New().Solve(context.Background(), tc.p, solvers.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if sol.Status != tc.status {
				t.Fatalf("status %v, want %v", sol.Status, tc.status)
			}
			if tc.status != solvers.Optimal {
				return
			}
			if math.Abs(sol.Objective-tc.obj) > 1e-9 {
				t.Errorf("objective %g, want %g", sol.Objective, tc.obj)
			}
			tol := solvertest.Tolerances{Obj: 1e-9, Feas: 1e-9, Dual: 1e-9}
			if err := solvertest.CheckPrimal(tc.p, sol, tol); err != nil {
				t.Error(err)
			}
			if err := solvertest.CheckLPCertificate(tc.p, sol, tol); err != nil {
				t.Error(err)
			}
			for i, want := range tc.wantRowDual {
				if math.Abs(sol.RowDual[i]-want) > 1e-9 {
					t.Errorf("row duals %v, want %v", sol.RowDual, tc.wantRowDual)
					break
				}
			}
			// The postsolved basis is an optimal basis of the original problem.
			warm, err := New().Solve(context.Background(), tc.p, solvers.Options{WarmStart: sol.Basis})
			if err != nil || warm.Status != solvers.Optimal || warm.Iterations != 0 {
				t.Errorf("warm start from the postsolved basis %+v: %v after %d iterations (%v)", sol.Basis, warm.Status, warm.Iterations, err)
			}
		})
	}
}

// TestPostsolvedBasisRegression: a free column whose only bound came from a singleton row
// ends at that bound with a reduced cost at rounding level (above zero); postsolve must
// still make the column basic and the row nonbasic (it once left the free column
// "at upper", so a warm start from the basis needed an iteration).
func TestPostsolvedBasisRegression(t *testing.T) {
	p := &model.Problem{Sense: model.Maximize, Offset: 3, ColCost: []float64{3, 2, 4, -12, -7, -3},
		ColLower: []float64{0, -inf, -inf, -4, 1, -inf}, ColUpper: []float64{0, inf, inf, -1, 1, inf},
		RowLower: []float64{-inf, 4, 40, -inf, -21, -4, -inf, 31, -22, 6}, RowUpper: []float64{inf, inf, 40, -1, -20, inf, inf, inf, inf, 9},
		AStart: []int{0, 7, 15, 22, 28, 35, 45},
		AIndex: []int{0, 2, 3, 5, 6, 7, 8, 0, 1, 2, 4, 5, 6, 7, 9, 1, 2, 3, 5, 6, 7, 9, 0, 1, 3, 4, 5, 6, 1, 2, 3, 5, 6, 8, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
		AValue: []float64{-3, 2, -1, -2, -5, -1, 1, -2, -6, -4, 3, -1, -6, -3, -2, 6, -6, 1, -4, -5, -5, -5, -6, 2, -3, 1, 3, 1, -2, -2, -2, 6, -2, -2, -4, 1, 2, 2, -2, -1, -3, -1, 1, -5, -3}}
	sol, err := New().Solve(context.Background(), p, solvers.Options{})
	if err != nil || sol.Status != solvers.Optimal {
		t.Fatalf("%v %v", sol.Status, err)
	}
	if got := sol.Basis.Cols[5]; got != solvers.Basic {
		t.Errorf("free column 5 has status %v, want basic", got)
	}
	warm, err := New().Solve(context.Background(), p, solvers.Options{WarmStart: sol.Basis})
	if err != nil || warm.Status != solvers.Optimal || warm.Iterations != 0 {
		t.Errorf("warm start: %v after %d iterations (%v)", warm.Status, warm.Iterations, err)
	}
}
