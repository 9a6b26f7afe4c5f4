package solve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/coraopt/coraopt/formulations/cora"
	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
)

// CORAOutput is what the CORA formulations add to the answer: FINAL's objective, the
// weights' base k, the utility scale, the numerics guard's warnings and fractional x.
type CORAOutput struct {
	Objective  *float64          `json:"objective,omitempty"`
	K          *float64          `json:"k,omitempty"`
	Scale      *float64          `json:"scale,omitempty"`
	Warnings   []string          `json:"warnings"`
	Fractional []cora.Fractional `json:"fractional,omitempty"`
}

// CORALPDetails is the Details of cora-final and cora-linearized.
type CORALPDetails struct {
	Model         string            `json:"model"`
	Columns       int               `json:"columns"`
	Rows          int               `json:"rows"`
	Iterations    int               `json:"iterations"`
	SolveSeconds  float64           `json:"solve_seconds"`
	Quantization  CORAQuantization  `json:"quantization"`
	Numerics      cora.Numerics     `json:"numerics"`
	Integral      bool              `json:"integral"`
	Fractionality float64           `json:"max_fractionality"`
	ExactCORA     *CORAExactCompare `json:"exact_cora,omitempty"`
}

// CORAQuantization reports how utilities became integers (cora.Utilities).
type CORAQuantization struct {
	Scale          float64 `json:"scale"`
	MaxError       float64 `json:"max_error"`
	Distinct       int     `json:"distinct_values"`
	Merged         int     `json:"merged_pairs"`
	OrderPreserved bool    `json:"order_preserved"`
}

// CORAExactCompare sets the LP's schedule against exact CORA's (onion peeling).
type CORAExactCompare struct {
	Agree           bool      `json:"agree"`
	SortedUtilities []float64 `json:"sorted_utilities"`
	Exact           bool      `json:"exact"`
	LPCost          float64   `json:"lp_cost_eq6"`
	ExactCost       float64   `json:"exact_cost_eq6"`
	LPCells         int       `json:"lp_cells"`
	ExactCells      int       `json:"exact_cells"`
	Detail          string    `json:"detail"`
}

func coraFormulation() Formulation {
	return Formulation{
		Name:        "cora",
		Help:        "CORA (cora.txt §II, problem (1)-(5)) solved exactly: the same lexmax with Σ_t x = demand, by onion peeling.",
		Methods:     []Method{onionMethod},
		ExactDemand: true,
		Solve: func(ctx context.Context, req *Request, _ solvers.Backend) (*Result, error) {
			start := time.Now()
			ex, err := cora.Exact(ctx, req.Instance, tas.Options{MaxBranches: req.Budget, NoSchedule: req.LevelsOnly, Workspace: req.Workspace.peelWorkspace()})
			if err != nil {
				return nil, peelError(ctx, err)
			}
			res := peeled(req.Instance, ex.Schedule, ex.Peel, start, req.Workspace)
			res.CORA = &CORAOutput{Warnings: []string{}}
			return res, nil
		},
	}
}

// coraLPSpec is one of the paper's LPs.
type coraLPSpec struct {
	name, help, short, model string
	modelHelp                string // the model's columns and rows (ModelSpec.Help)
	build                    func(*sched.Instance, cora.Options) (*cora.LP, error)
}

var (
	finalSpec = coraLPSpec{name: "cora-final", modelHelp: finalModelHelp, short: "FINAL", model: "FINAL (cora.txt §II-C)", build: cora.BuildFinal,
		help: "CORA's FINAL LP (cora.txt §II-C) as the paper writes it, solved with --solver: minimize Σ over job×slot×resource cells of 1 (empty) or k^-u (used), with integer utilities u = round(--scale·U) and k = jobs·slots·resources (--k). Prints objective, k, scale, warnings (the numerics guard: weights k^-u that underflow or that the solver cannot tell apart; --strict makes them exit 2) and fractional x if any. \"exact\" is true when the schedule equals exact CORA's sorted utilities (checked by onion peeling; details.exact_cora says why not: FINAL fills as many cells as it can, so it spreads jobs out)."}
	linearizedSpec = coraLPSpec{name: "cora-linearized", modelHelp: linearizedModelHelp, short: "Linearized-CORA", model: "Linearized-CORA (cora.txt §II-B3)", build: cora.BuildLinearized,
		help: "Linearized-CORA (cora.txt §II-B3): FINAL with one λ per unit of capacity; the same LP optimum (Lemma 3), refused when large."}
	lpMethod = Method{Name: "lp", Classes: []solvers.Class{solvers.LP}, Help: "Solve the LP with --solver (default: the first of " + strings.Join(solvers.Preference(solvers.LP), ", ") + " compiled in)."}
)

// The models' columns and rows, as `coraopt export` writes them.
const (
	finalModelHelp      = "FINAL (cora.txt §II-C): per job, slot and resource the columns x[job,tS,resource] and lam0/lam1/lamC[…], rows link[…] (λ1 + C·λc = x), convex[…] (λ0 + λ1 + λc = 1), capacity[resource,tS] and demand[job,resource]; minimize Σ λ0 + k^-u(λ1 + λc). An LP."
	linearizedModelHelp = "Linearized-CORA (cora.txt §II-B3): one lam<j>[…] per point j = 0..capacity. An LP; refused when it would be very large."
)

// CORAOptionNames are the options of the CORA LPs.
var coraOptionNames = []string{"strict", "scale", "k"}

func coraLPFormulation(spec coraLPSpec) Formulation {
	f := Formulation{Name: spec.name, Help: spec.help, Methods: []Method{lpMethod}, Options: coraOptionNames,
		ExactDemand: true, Verify: "cora",
		Solve: func(ctx context.Context, req *Request, b solvers.Backend) (*Result, error) {
			return solveCORALP(ctx, req, b, spec)
		},
		Model: &ModelSpec{Help: spec.modelHelp, Build: func(_ context.Context, req *Request) (*model.Model, []string, error) {
			lp, err := buildCORALP(req, spec)
			if err != nil {
				return nil, nil, err
			}
			return lp.Model, lp.Warnings, nil
		}},
	}
	if spec.name == finalSpec.name {
		f.Bench = &Bench{Case: "cora-final", Class: solvers.LP, Model: func(in *sched.Instance) (*model.Problem, error) {
			lp, err := buildCORALP(&Request{Instance: in}, spec)
			if err != nil {
				return nil, err
			}
			p, err := lp.Model.Compile()
			if err != nil {
				return nil, fmt.Errorf("FINAL: %w", err)
			}
			return p, nil
		}}
	}
	return f
}

// buildCORALP builds the LP of spec for req.Instance with req's options; an instance or
// options it cannot be built for is a *RequestError.
func buildCORALP(req *Request, spec coraLPSpec) (*cora.LP, error) {
	lp, err := spec.build(req.Instance, cora.Options{Scale: req.CORA.Scale, K: req.CORA.K, Strict: req.CORA.Strict, MaxColumns: req.CORA.MaxColumns})
	switch {
	case errors.Is(err, cora.ErrStrict):
		return nil, requestErrf("%s: %w", field("strict"), err)
	case err != nil:
		return nil, requestErr(err)
	}
	return lp, nil
}

func solveCORALP(ctx context.Context, req *Request, b solvers.Backend, spec coraLPSpec) (*Result, error) {
	in := req.Instance
	lp, err := buildCORALP(req, spec)
	if err != nil {
		return nil, err
	}
	p, err := lp.Model.Compile()
	if err != nil {
		return nil, err
	}
	sol, err := b.Solver.Solve(ctx, p, solvers.Options{TimeLimit: req.TimeLimit})
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, interrupted(ctx)
	}
	u := lp.Utilities
	k, scale := lp.K, u.Scale
	det := CORALPDetails{Model: spec.model, Columns: p.NumCols(), Rows: p.NumRows(), Iterations: sol.Iterations,
		SolveSeconds: sol.WallTime.Seconds(), Numerics: lp.Numerics,
		Quantization: CORAQuantization{Scale: u.Scale, MaxError: u.MaxError, Distinct: u.Distinct, Merged: u.Merged, OrderPreserved: u.OrderPreserved}}
	res := &Result{Backend: b.Name, BackendVersion: b.Version, Details: &det, Layers: []Layer{},
		Points:   []Point{{Name: "certificate", Problem: p, Solution: sol}},
		CORA:     &CORAOutput{K: &k, Scale: &scale, Warnings: append([]string{}, lp.Warnings...)},
		Warnings: lp.Warnings}
	switch {
	case sol.Status == solvers.Infeasible:
		return nil, &NoScheduleError{&StatusError{Status: sol.Status, Partial: res,
			msg: fmt.Sprintf("%s is infeasible: the demand does not fit the capacity", spec.short)}}
	case sol.Status != solvers.Optimal || !sol.HasPrimal():
		return nil, &StatusError{Status: sol.Status, Partial: res,
			msg: fmt.Sprintf("%s: %s stopped with status %s", spec.short, b.Name, sol.Status)}
	}
	dec, err := lp.Decode(sol.X)
	if err != nil {
		return nil, err
	}
	obj := sol.Objective
	res.Status, res.Schedule = solvers.Optimal, dec.Rounded
	res.CORA.Objective, res.CORA.Fractional = &obj, dec.Fractional
	det.Integral, det.Fractionality = dec.Schedule != nil, dec.MaxFractionality
	if dec.Schedule == nil {
		res.Schedule.Exact = false
		f := dec.Fractional[0]
		res.Failure = fmt.Errorf("%s's x is fractional in %d entries (first: job %s, slot %d, %s: %g); Lemma 2 and Theorem 1 claim integral x, which holds at the LP's vertices, and %s returned an optimal point that is not one",
			spec.short, len(dec.Fractional), f.Job, f.Slot, f.Resource, f.Value, b.Name)
		return res, nil
	}
	// Set the LP's schedule against exact CORA (onion peeling, milliseconds): "exact" says
	// whether the LP reached CORA's optimum on this instance.
	ex, err := cora.Exact(ctx, in, tas.Options{MaxBranches: req.Budget})
	if err != nil {
		return nil, err
	}
	cmp := lp.Compare(dec.Schedule, ex.Schedule)
	det.ExactCORA = &CORAExactCompare{Agree: cmp.Agree, SortedUtilities: cmp.Exact, Exact: ex.Schedule.Exact,
		LPCost: cmp.LPCost, ExactCost: cmp.ExactCost, LPCells: cmp.LPCells, ExactCells: cmp.ExactCells, Detail: cmp.Detail}
	res.Exact = cmp.Agree && ex.Schedule.Exact
	return res, nil
}
