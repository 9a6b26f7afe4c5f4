package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/coraopt/coraopt/formulations/cora"
	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
)

// coraOptions are the solve flags of the CORA formulations.
type coraOptions struct {
	strict bool
	scale  float64
	k      float64
}

// addCORAFlags registers the CORA flags on the solve command.
func addCORAFlags(f *pflag.FlagSet, o *coraOptions) {
	f.BoolVar(&o.strict, "strict", false, "cora-final, cora-linearized: exit 2 when the weights k^-u cannot be told apart by the solver (numerics guard) or rounding merged distinct utilities")
	f.Float64Var(&o.scale, "scale", 0, "cora-final, cora-linearized: multiply utilities by this before rounding to integers (0: the smallest of 1, 10, 100, 1000 that makes them integers, else 1000)")
	f.Float64Var(&o.k, "k", 0, "cora-final, cora-linearized: base of the weights k^-u (0: |jobs|·|slots|·|resources|, the paper's)")
}

// coraOutput is what the CORA formulations add to solve's JSON, at the top level.
type coraOutput struct {
	Objective  *float64          `json:"objective,omitempty"`
	K          *float64          `json:"k,omitempty"`
	Scale      *float64          `json:"scale,omitempty"`
	Warnings   []string          `json:"warnings"`
	Fractional []cora.Fractional `json:"fractional,omitempty"`
}

// coraLPDetails is the "details" object of cora-final and cora-linearized.
type coraLPDetails struct {
	Model         string            `json:"model"`
	Columns       int               `json:"columns"`
	Rows          int               `json:"rows"`
	Iterations    int               `json:"iterations"`
	SolveSeconds  float64           `json:"solve_seconds"`
	Quantization  coraQuantization  `json:"quantization"`
	Numerics      cora.Numerics     `json:"numerics"`
	Integral      bool              `json:"integral"`
	Fractionality float64           `json:"max_fractionality"`
	ExactCORA     *coraExactCompare `json:"exact_cora,omitempty"`
}

type coraQuantization struct {
	Scale          float64 `json:"scale"`
	MaxError       float64 `json:"max_error"`
	Distinct       int     `json:"distinct_values"`
	Merged         int     `json:"merged_pairs"`
	OrderPreserved bool    `json:"order_preserved"`
}

// coraExactCompare sets the LP's schedule against exact CORA's (onion peeling).
type coraExactCompare struct {
	Agree           bool      `json:"agree"`
	SortedUtilities []float64 `json:"sorted_utilities"`
	Exact           bool      `json:"exact"`
	LPCost          float64   `json:"lp_cost_eq6"`
	ExactCost       float64   `json:"exact_cost_eq6"`
	LPCells         int       `json:"lp_cells"`
	ExactCells      int       `json:"exact_cells"`
	Detail          string    `json:"detail"`
}

// solveCORAFinal and solveCORALinearized solve the paper's LPs (cora.txt §II).
func solveCORAFinal(ctx context.Context, o *solveOptions, in *sched.Instance) (*solved, error) {
	return solveCORALP(ctx, o, in, cora.BuildFinal, "FINAL", "FINAL (cora.txt §II-C)")
}

func solveCORALinearized(ctx context.Context, o *solveOptions, in *sched.Instance) (*solved, error) {
	return solveCORALP(ctx, o, in, cora.BuildLinearized, "Linearized-CORA", "Linearized-CORA (cora.txt §II-B3)")
}

func solveCORALP(ctx context.Context, o *solveOptions, in *sched.Instance,
	build func(*sched.Instance, cora.Options) (*cora.LP, error), short, modelName string) (*solved, error) {
	if o.method != "auto" && o.method != "lp" {
		return nil, usageErrf("--method %q: %s is an LP; want auto or lp", o.method, o.formulation)
	}
	sv, name, err := lpSolver(o.solver)
	if err != nil {
		return nil, err
	}
	lp, err := build(in, cora.Options{Scale: o.cora.scale, K: o.cora.k, Strict: o.cora.strict})
	switch {
	case errors.Is(err, cora.ErrStrict):
		return nil, usageErr(fmt.Errorf("--strict: %w", err))
	case err != nil:
		return nil, usageErr(err)
	}
	p, err := lp.Model.Compile()
	if err != nil {
		return nil, failed(err)
	}
	sol, err := sv.Solve(ctx, p, solvers.Options{TimeLimit: o.timeLimit})
	switch {
	case err != nil:
		return nil, failed(err)
	case ctx.Err() != nil:
		return nil, failed(fmt.Errorf("interrupted: %w", ctx.Err()))
	case sol.Status == solvers.Infeasible:
		return nil, &errNoSchedule{fmt.Errorf("%s is infeasible: the demand does not fit the capacity", short)}
	case sol.Status != solvers.Optimal || !sol.HasPrimal():
		return nil, failed(fmt.Errorf("%s: %s stopped with status %s", short, name, sol.Status))
	}
	dec, err := lp.Decode(sol.X)
	if err != nil {
		return nil, failed(err)
	}
	u := lp.Utilities
	obj, k, scale := sol.Objective, lp.K, u.Scale
	det := coraLPDetails{Model: modelName, Columns: p.NumCols(), Rows: p.NumRows(), Iterations: sol.Iterations,
		SolveSeconds: sol.WallTime.Seconds(), Numerics: lp.Numerics, Integral: dec.Schedule != nil, Fractionality: dec.MaxFractionality,
		Quantization: coraQuantization{Scale: u.Scale, MaxError: u.MaxError, Distinct: u.Distinct, Merged: u.Merged, OrderPreserved: u.OrderPreserved}}
	res := &solved{schedule: dec.Rounded, method: "lp", solver: &name, details: &det, layers: []solveLayer{}, problem: p, solution: sol,
		cora: &coraOutput{Objective: &obj, K: &k, Scale: &scale, Warnings: append([]string{}, lp.Warnings...), Fractional: dec.Fractional}}
	if dec.Schedule == nil {
		res.schedule.Exact = false
		f := dec.Fractional[0]
		res.fail = fmt.Errorf("%s's x is fractional in %d entries (first: job %s, slot %d, %s: %g); Lemma 2 and Theorem 1 claim integral x, which holds at the LP's vertices, and %s returned an optimal point that is not one",
			short, len(dec.Fractional), f.Job, f.Slot, f.Resource, f.Value, name)
		return res, nil
	}
	// Set the LP's schedule against exact CORA (onion peeling, milliseconds): "exact" says
	// whether FINAL reached CORA's optimum on this instance.
	ex, err := cora.Exact(ctx, in, tas.Options{MaxBranches: budgetFlag(o.budget)})
	if err != nil {
		return nil, failed(err)
	}
	cmp := lp.Compare(dec.Schedule, ex.Schedule)
	det.ExactCORA = &coraExactCompare{Agree: cmp.Agree, SortedUtilities: cmp.Exact, Exact: ex.Schedule.Exact,
		LPCost: cmp.LPCost, ExactCost: cmp.ExactCost, LPCells: cmp.LPCells, ExactCells: cmp.ExactCells, Detail: cmp.Detail}
	res.exact = cmp.Agree && ex.Schedule.Exact
	return res, nil
}

// solveCORAExact solves CORA itself, the completion-time lexmax, by onion peeling.
func solveCORAExact(ctx context.Context, o *solveOptions, in *sched.Instance) (*solved, error) {
	switch o.method {
	case "auto", "onion":
	default:
		return nil, usageErrf("--method %q: cora is solved by onion peeling; want auto or onion (or --formulation tas --method mip for the MIP reference)", o.method)
	}
	if o.solverSet {
		return nil, usageErrf("--solver: onion peeling needs no solver")
	}
	start := time.Now()
	ex, err := cora.Exact(ctx, in, tas.Options{MaxBranches: budgetFlag(o.budget)})
	switch {
	case errors.Is(err, tas.ErrInfeasible):
		return nil, &errNoSchedule{err}
	case ctx.Err() != nil:
		return nil, failed(fmt.Errorf("interrupted: %w", ctx.Err()))
	case err != nil:
		return nil, failed(err)
	}
	st := ex.Peel.Stats
	return &solved{
		schedule: ex.Schedule, method: "onion", exact: ex.Schedule.Exact, layers: layersOf(in, ex.Peel.Layers),
		details: onionDetails{Engine: st.Engine, Oracle: st.Oracle, HandOver: st.HandOver, Probes: st.Probes,
			Stalls: st.Stalls, Branches: st.Branches, RuleChoices: st.RuleChoices, Blocking: st.BlockingSlots,
			Evaluations: st.Evaluations, Rollbacks: st.Rollbacks, SolveSeconds: time.Since(start).Seconds()},
		cora: &coraOutput{Warnings: []string{}},
	}, nil
}

// budgetFlag maps the --budget flag (0: never branch) to tas.Options.MaxBranches.
func budgetFlag(b int) int {
	if b == 0 {
		return -1
	}
	return b
}

// lpSolver returns the backend for the CORA LPs: the named one, or by default HiGHS when
// compiled in, else the built-in simplex, else gonum.
func lpSolver(name string) (solvers.Solver, string, error) {
	if name == "" {
		for _, n := range []string{"highs", "simplex", "gonum"} {
			if sv, err := solvers.Get(n); err == nil {
				return sv, n, nil
			}
		}
		return nil, "", usageErrf("no LP backend in this binary (have: %s)", strings.Join(solvers.Names(), ", "))
	}
	sv, err := solvers.Get(name)
	if err != nil {
		return nil, "", usageErr(fmt.Errorf("--solver: %w", err))
	}
	if d, ok := sv.(solvers.Describer); ok && !d.Capabilities().LP {
		return nil, "", usageErrf("--solver %q cannot solve LPs", name)
	}
	return sv, name, nil
}
