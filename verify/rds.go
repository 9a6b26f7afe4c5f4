package verify

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/coraopt/coraopt/formulations/rds"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
)

// State verifies one RDS control step (rds.txt eq. 3) from a state file: the step is
// solved through package solve on every selected backend that solves both of its
// problems (the eq. 3 QP and the least-shortfall LP), each answer is certified by Solved
// (rds/<backend>/kkt-…, the RunStep residuals; rds/<backend>/eq3/… and
// …/shortfall-lp/…, the certificates recomputed from the models and points), and the
// backends must reach the same optimal objective of eq. 3 (rds/backends). This is the
// suite `coraopt solve --formulation rds --verify` runs for one backend. The error is
// non-nil for bad options or when ctx ends.
func State(ctx context.Context, f *rds.StateFile, opt Options) (Report, error) {
	var rep Report
	if f == nil {
		return rep, errors.New("verify: nil state file")
	}
	bs, err := solvers.Backends(opt.Solvers)
	if err != nil {
		return rep, fmt.Errorf("verify: %w", err)
	}
	reg := registryOf(opt.Registry)
	tol := opt.Tolerances.WithDefaults()
	var parts, failures []string
	ref, refName, worst := math.NaN(), "", 0.0
	for _, b := range bs {
		if !b.Solves(solvers.QP, solvers.LP) {
			continue
		}
		prefix := "rds/" + b.Name
		res, err := reg.Solve(ctx, solve.Request{Formulation: "rds", State: f, Solver: b.Name, TimeLimit: opt.TimeLimit})
		switch {
		case ctx.Err() != nil:
			return rep, fmt.Errorf("verify: %w", ctx.Err())
		case err != nil:
			rep.Add(Fail(prefix, 0, err.Error()))
			failures = append(failures, fmt.Sprintf("%s: %v", b.Name, err))
			continue
		}
		rep.Merge(Solved(res, SolvedOptions{All: true, Tolerances: tol}).Prefixed(prefix))
		if res.Status != solvers.Optimal {
			parts = append(parts, fmt.Sprintf("%s: %s", b.Name, res.Status))
			continue
		}
		z := res.Step.Objective
		if math.IsNaN(ref) {
			ref, refName = z, b.Name
		}
		if d := math.Abs(z - ref); !(d <= tol.Obj*math.Max(1, math.Abs(ref))) {
			worst = math.Max(worst, nanInf(d))
			failures = append(failures, fmt.Sprintf("%s: objective %.10g, %s's %.10g", b.Name, z, refName, ref))
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %.10g", b.Name, z))
	}
	switch {
	case len(failures) > 0:
		rep.Add(Fail("rds/backends", worst, strings.Join(append(failures, parts...), "; ")))
	case math.IsNaN(ref):
		rep.Add(Skip("rds/backends", "no backend among the solvers used solves a QP and an LP to optimality: "+strings.Join(parts, "; ")))
	default:
		rep.Add(Pass("rds/backends", worst, "every QP backend reaches the same optimal objective of eq. 3: "+strings.Join(parts, ", ")))
	}
	return rep, nil
}
