package solve

import (
	"context"
	"errors"
	"time"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/solvers"
)

// alg3Method is RUSH's Alg. 3 exactly as printed (formulations/tas.Alg3), offered beside
// the exact onion peeling so that the two can be compared (verify's tas suite does).
var alg3Method = Method{Name: "alg3", Help: "RUSH's onion peeling, Alg. 3 exactly as printed (rush.txt §III-B): Δ-bisection on the level (Δ = 1e-9), line 7's feasibility test on the jobs not yet peeled only, line 13's bottleneck the first job at which line 7 fails. Not exact: its answer can be below the lexmax, and its target completion times can be infeasible — then the command fails (exit 1) naming where eq. (12) breaks. One resource of constant capacity, no release times or caps (else exit 2)."}

// Alg3Details is the Details of an Alg. 3 run.
type Alg3Details struct {
	Bottleneck   string  `json:"bottleneck"`
	Delta        float64 `json:"delta"`
	Tests        int     `json:"line7_tests"`
	Layers       int     `json:"layers"`
	NoBottleneck int     `json:"layers_without_bottleneck"`
	Order        []int   `json:"peel_order"`
	SolveSeconds float64 `json:"solve_seconds"`
}

// Alg3InfeasibleError is returned (inside a *MethodError) when Alg. 3's target
// completion times cannot all be met. Result holds what Alg. 3 computed (its deadlines
// and levels), for a caller that wants to use or report them; it wraps
// tas.ErrAlg3Infeasible.
type Alg3InfeasibleError struct {
	Result *tas.Alg3Result
	Err    error
}

func (e *Alg3InfeasibleError) Error() string { return e.Err.Error() }
func (e *Alg3InfeasibleError) Unwrap() error { return e.Err }

// withAlg3 adds the alg3 method to the tas formulation, leaving its other methods as
// they are.
func withAlg3(f Formulation) Formulation {
	inner := f.Solve
	f.Methods = append(f.Methods, alg3Method)
	f.Solve = func(ctx context.Context, req *Request, b solvers.Backend) (*Result, error) {
		if req.Method == alg3Method.Name {
			return solveAlg3(ctx, req)
		}
		return inner(ctx, req, b)
	}
	return f
}

func solveAlg3(ctx context.Context, req *Request) (*Result, error) {
	start := time.Now()
	in := req.Instance
	res, err := tas.Alg3(ctx, in, tas.Alg3Options{})
	switch {
	case errors.Is(err, tas.ErrAlg3Model):
		return nil, requestErrf("%s alg3: %w", field("method"), err)
	case errors.Is(err, tas.ErrAlg3Infeasible):
		return nil, &MethodError{Method: alg3Method.Name, Err: &Alg3InfeasibleError{Result: res, Err: err}}
	case ctx.Err() != nil:
		return nil, interrupted(ctx)
	case err != nil:
		return nil, &MethodError{Method: alg3Method.Name, Err: err}
	}
	s := res.Schedule
	s.Finalize(in)
	s.Exact = false
	d := Alg3Details{Bottleneck: tas.FirstFailing.String(), Delta: tas.DefaultAlg3Delta, Tests: res.Stats.Tests,
		Layers: res.Stats.Layers, NoBottleneck: res.Stats.NoBottleneck, Order: res.Order, SolveSeconds: time.Since(start).Seconds()}
	return &Result{Status: solvers.Optimal, Schedule: s, Exact: false, Layers: LayersOf(in, s), Details: d}, nil
}
