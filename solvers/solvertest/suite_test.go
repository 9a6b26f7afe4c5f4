package solvertest

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

var fullConfig = Config{MIP: true, QP: true, Duals: true}

// statusOnlyCases expect a Status other than Optimal and check no point.
var statusOnlyCases = []string{
	"lp_empty_row_infeasible", "lp_empty_column_unbounded", "lp_empty_column_unbounded_infeasible_rows",
	"lp_infeasible_bounds", "lp_infeasible_rows", "lp_infeasible_dependent_equalities",
	"lp_infeasible_and_dual_infeasible", "lp_unbounded_max", "lp_unbounded_free_column",
	"context_cancelled", "context_deadline_passed", "iteration_limit",
	"cancel_during_solve", "deadline_during_solve", "time_limit_option",
	"mip_infeasible", "qp_unbounded_singular", "qp_infeasible",
}

// infeasibleCases expect Infeasible from at least one solve.
var infeasibleCases = []string{
	"lp_empty_row_infeasible", "lp_empty_column_unbounded_infeasible_rows",
	"lp_infeasible_bounds", "lp_infeasible_rows", "lp_infeasible_dependent_equalities",
	"lp_infeasible_and_dual_infeasible", "solver_reuse", "mip_infeasible", "qp_infeasible",
}

// mipOptimumCases expect a MIP optimum.
var mipOptimumCases = []string{
	"mip_knapsack", "mip_rounding_far_from_lp", "mip_offset_negative_bounds", "mip_fixed_charge",
}

// provingCases expect Infeasible or Unbounded somewhere (solver_reuse solves one
// infeasible model among optimal ones).
var provingCases = []string{
	"lp_empty_row_infeasible", "lp_empty_column_unbounded", "lp_empty_column_unbounded_infeasible_rows",
	"lp_infeasible_bounds", "lp_infeasible_rows", "lp_infeasible_dependent_equalities",
	"lp_infeasible_and_dual_infeasible", "lp_unbounded_max", "lp_unbounded_free_column",
	"solver_reuse", "mip_infeasible", "qp_unbounded_singular", "qp_infeasible",
}

func casesExcept(except ...string) []string {
	var out []string
	for _, n := range CaseNames() {
		if !slices.Contains(except, n) {
			out = append(out, n)
		}
	}
	return out
}

func TestCaseNames(t *testing.T) {
	names := CaseNames()
	if len(names) < 30 {
		t.Errorf("%d cases, want at least 30", len(names))
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("duplicate case name %q", n)
		}
		seen[n] = true
	}
	for _, n := range slices.Concat(statusOnlyCases, provingCases, infeasibleCases, mipOptimumCases) {
		if !seen[n] {
			t.Errorf("this test names %q, which is not a case", n)
		}
	}
}

// The oracle replays the certificates of the case comments. Every case must pass with
// it: this checks each hand derivation (point, duals, status) against the suite's own
// checkers, and shows the checks are not stricter than the contract.
func TestOraclePassesEveryCase(t *testing.T) {
	for name, o := range runRecorded(t, newOracle(nil), fullConfig) {
		if o.failed || o.skipped {
			t.Errorf("%s: failed=%t skipped=%t with the hand-derived answer:\n%s", name, o.failed, o.skipped, o.log)
		}
	}
}

// The same through Run, as a backend's test calls it.
func TestRunWithOracle(t *testing.T) {
	Run(t, newOracle(nil), fullConfig)
}

// zeroSolver claims every problem is solved at x = 0: the simplest solver that cannot be
// right, and every case must say so.
type zeroSolver struct{}

func (zeroSolver) Name() string { return "zero" }

func (zeroSolver) Solve(ctx context.Context, p *model.Problem, opt solvers.Options) (*solvers.Solution, error) {
	x := make([]float64, p.NumCols())
	return &solvers.Solution{
		Status: solvers.Optimal, X: x, RowActivity: p.RowActivity(x),
		RowDual: make([]float64, p.NumRows()), ReducedCost: make([]float64, p.NumCols()),
		Objective: p.Objective(x), BestBound: p.Objective(x), Backend: "zero",
	}, nil
}

func negateMultipliers(sol *solvers.Solution) {
	for i := range sol.RowDual {
		sol.RowDual[i] = -sol.RowDual[i]
	}
	for j := range sol.ReducedCost {
		sol.ReducedCost[j] = -sol.ReducedCost[j]
	}
}

// Each broken solver is a plausible backend bug; the suite must fail exactly the cases
// that can see it (every case in wantFail, no other).
func TestBrokenSolversFail(t *testing.T) {
	tests := []struct {
		name      string
		newSolver func() solvers.Solver
		cfg       Config
		wantFail  []string
	}{
		{
			name:      "claims x = 0 is optimal everywhere",
			newSolver: func() solvers.Solver { return zeroSolver{} },
			cfg:       fullConfig,
			wantFail:  CaseNames(),
		},
		{
			name:      "flips every dual sign",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) { negateMultipliers(sol) }),
			cfg:       fullConfig,
			// Every continuous optimum with a nonzero multiplier; zero_objective and
			// qp_unconstrained have none.
			wantFail: casesExcept(slices.Concat(statusOnlyCases, mipOptimumCases, []string{
				"lp_zero_objective", "qp_unconstrained",
			})...),
		},
		{
			name: "reports minimization-sense duals for a maximization",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				if p.Sense == model.Maximize {
					negateMultipliers(sol)
				}
			}),
			cfg: fullConfig,
			wantFail: []string{
				"lp_max_wyndor", "lp_max_ge_rows", "lp_upper_bounded_only", "lp_ranged_row_at_upper",
				"lp_objective_offset", "lp_empty_rows", "lp_degenerate_vertex", "lp_klee_minty",
				"lp_scaled_coefficients", "solver_reuse", "qp_maximize_concave",
				"lp_duals_finite_difference", "lp_reduced_cost_at_upper", "qp_duals_finite_difference",
			},
		},
		{
			name: "duals are right but the flag Duals is off: nothing is checked",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				negateMultipliers(sol)
			}),
			cfg:      Config{MIP: true, QP: true},
			wantFail: nil,
		},
		{
			name: "QP reduced costs computed as c − Aᵀy, forgetting Qx",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				if p.HasQuadratic() && sol.X != nil {
					q := *p
					q.QStart, q.QIndex, q.QValue = nil, nil, nil
					sol.ReducedCost = reducedCosts(&q, sol.X, sol.RowDual)
				}
			}),
			cfg: fullConfig,
			wantFail: []string{
				"qp_unconstrained", "qp_box", "qp_equality", "qp_ranged_rows",
				"qp_singular_hessian", "qp_maximize_concave", "qp_duals_finite_difference",
			},
		},
		{
			name: "returns a point half a unit off in column 0",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				if sol.X != nil {
					sol.X[0] += 0.5
					sol.RowActivity = p.RowActivity(sol.X)
					sol.Objective = p.Objective(sol.X)
					sol.BestBound = sol.Objective
				}
			}),
			cfg:      fullConfig,
			wantFail: casesExcept(statusOnlyCases...),
		},
		{
			name: "RowActivity stale in row 0",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				if len(sol.RowActivity) > 0 {
					sol.RowActivity[0]++
				}
			}),
			cfg:      fullConfig,
			wantFail: casesExcept(slices.Concat(statusOnlyCases, []string{"lp_no_rows", "qp_unconstrained", "qp_box"})...),
		},
		{
			name: "Objective without the offset",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				sol.Objective -= p.Offset
				sol.BestBound -= p.Offset
			}),
			cfg: fullConfig,
			wantFail: []string{
				"lp_objective_offset", "lp_zero_objective", "mip_offset_negative_bounds", "qp_box", "qp_ranged_rows",
				"lp_duals_finite_difference",
			},
		},
		{
			name: "BestBound of a MIP better than its optimum",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				if p.HasInteger() {
					sol.BestBound += float64(p.Sense)
				}
			}),
			cfg:      fullConfig,
			wantFail: []string{"mip_knapsack", "mip_rounding_far_from_lp", "mip_offset_negative_bounds", "mip_fixed_charge"},
		},
		{
			name: "BestBound of an LP left at zero",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				if !p.HasInteger() {
					sol.BestBound = 0
				}
			}),
			cfg: fullConfig,
			// Every continuous optimum except zero_objective… whose optimum is 7, so it
			// fails too; none of the continuous optima is 0.
			wantFail: casesExcept(slices.Concat(statusOnlyCases, mipOptimumCases)...),
		},
		{
			name: "modifies the problem it is given",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				p.ColCost[0]++
			}),
			cfg:      fullConfig,
			wantFail: CaseNames(),
		},
		{
			name: "names another backend in the Solution",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				sol.Backend = "somebody-else"
			}),
			cfg:      fullConfig,
			wantFail: CaseNames(),
		},
		{
			name: "answers InfeasibleOrUnbounded instead of a proof",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				if sol.Status == solvers.Infeasible || sol.Status == solvers.Unbounded {
					sol.Status = solvers.InfeasibleOrUnbounded
				}
			}),
			cfg:      fullConfig,
			wantFail: provingCases,
		},
		{
			name: "answers InfeasibleOrUnbounded, and the Config accepts it",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				if sol.Status == solvers.Infeasible || sol.Status == solvers.Unbounded {
					sol.Status = solvers.InfeasibleOrUnbounded
				}
			}),
			cfg:      Config{MIP: true, QP: true, Duals: true, AcceptInfeasibleOrUnbounded: true},
			wantFail: nil,
		},
		{
			name: "calls an empty column with negative cost unbounded without checking the rows",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				if p.Name == "empty_column_unbounded_infeasible_rows" {
					sol.Status = solvers.Unbounded
				}
			}),
			cfg:      fullConfig,
			wantFail: []string{"lp_empty_column_unbounded_infeasible_rows"},
		},
		{
			name: "ignores a done context",
			newSolver: func() solvers.Solver {
				o := newOracle(nil)().(*oracle)
				o.ignoreContext = true
				return o
			},
			cfg:      fullConfig,
			wantFail: []string{"context_cancelled", "context_deadline_passed", "cancel_during_solve", "deadline_during_solve"},
		},
		{
			name: "ignores Options.TimeLimit",
			newSolver: func() solvers.Solver {
				o := newOracle(nil)().(*oracle)
				o.ignoreTimeLimit = true
				return o
			},
			cfg:      fullConfig,
			wantFail: []string{"time_limit_option"},
		},
		{
			name: "returns a point with a proof of infeasibility",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				if sol.Status == solvers.Infeasible {
					sol.X = make([]float64, p.NumCols())
				}
			}),
			cfg:      fullConfig,
			wantFail: infeasibleCases,
		},
		{
			name: "returns duals with a MIP optimum",
			newSolver: newOracle(func(p *model.Problem, sol *solvers.Solution) {
				if p.HasInteger() && sol.Status == solvers.Optimal {
					sol.RowDual = make([]float64, p.NumRows())
				}
			}),
			cfg:      fullConfig,
			wantFail: mipOptimumCases,
		},
		{
			name: "ignores IterationLimit",
			newSolver: func() solvers.Solver {
				o := newOracle(nil)().(*oracle)
				o.ignoreIterationLimit = true
				return o
			},
			cfg:      fullConfig,
			wantFail: []string{"iteration_limit"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runRecorded(t, tt.newSolver, tt.cfg)
			for _, name := range slices.Sorted(maps.Keys(got)) {
				o := got[name]
				want := slices.Contains(tt.wantFail, name)
				switch {
				case want && !o.failed:
					t.Errorf("%s: passed (skipped=%t), want it to catch the bug", name, o.skipped)
				case !want && o.failed:
					t.Errorf("%s: failed, want pass:\n%s", name, o.log)
				}
			}
		})
	}
}

// Capabilities the Config denies skip their cases with a reason; Exclude skips by name.
func TestCapabilitiesAndExcludeSkip(t *testing.T) {
	cfg := Config{Duals: true, Exclude: map[string]string{"lp_klee_minty": "known slow"}}
	got := runRecorded(t, newOracle(nil), cfg)
	for name, o := range got {
		wantSkip := strings.HasPrefix(name, "mip_") || strings.HasPrefix(name, "qp_") || name == "lp_klee_minty"
		if o.skipped != wantSkip || o.failed {
			t.Errorf("%s: skipped=%t failed=%t, want skipped=%t and no failure", name, o.skipped, o.failed, wantSkip)
		}
		if o.skipped && !strings.Contains(o.log, "needs") && !strings.Contains(o.log, "known slow") {
			t.Errorf("%s: skipped without the reason: %q", name, o.log)
		}
	}
}

func TestCheckExclude(t *testing.T) {
	tests := []struct {
		exclude map[string]string
		wantErr string
	}{
		{nil, ""},
		{map[string]string{"iteration_limit": "no limit in this backend"}, ""},
		{map[string]string{"iteration_limits": "typo"}, `"iteration_limits" is not a case`},
		{map[string]string{"iteration_limit": " "}, `"iteration_limit" is excluded without a reason`},
	}
	for _, tt := range tests {
		err := checkExclude(Config{Exclude: tt.exclude})
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("checkExclude(%v) = %v, want nil", tt.exclude, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("checkExclude(%v) = %v, want an error containing %q", tt.exclude, err, tt.wantErr)
		}
	}
}
