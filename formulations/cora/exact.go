package cora

import (
	"context"
	"errors"
	"fmt"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
)

// ExactResult is exact CORA's optimum of an instance.
type ExactResult struct {
	// Schedule is the allocation, with Σ_t x^r_it = R^r_i exactly (constraint (4)).
	Schedule *sched.Schedule
	// Peel is onion peeling's result: deadlines, levels, layers and whether the stall
	// branching stayed within its budget (Peel.Exact, also Schedule.Exact).
	Peel *tas.Result
	// Trimmed counts the units removed to turn TAS's Σ_t x ≥ η into CORA's equality;
	// 0 when onion peeling allocated exactly the demand, as its EDF filling does.
	Trimmed int
}

// Exact computes CORA's own optimum (problem (1)–(5)): the allocation whose sorted
// vector of completion-time utilities U_i(T_i) is lexicographically largest, with every
// resource, capacities per slot, release and max_parallel. It runs tas.OnionPeel, whose
// feasibility tests treat resources one by one (a job's units of different resources are
// tied only through its completion slot), and trims the schedule to exactly the demand
// (see the package documentation for why the optimum is the same). With
// opts.NoSchedule it returns the levels alone (Peel; Schedule nil): the optimum's
// completion slots without the n·R·T allocation, for callers that read only those. The
// error wraps tas.ErrInfeasible when the demand does not fit the horizon.
func Exact(ctx context.Context, inst *sched.Instance, opts tas.Options) (*ExactResult, error) {
	if err := checkInstance(inst); err != nil {
		return nil, err
	}
	res, err := tas.OnionPeel(ctx, inst, opts)
	if err != nil {
		return nil, fmt.Errorf("cora: exact CORA: %w", err)
	}
	if opts.NoSchedule {
		return &ExactResult{Peel: res}, nil
	}
	if res.Schedule == nil {
		return nil, errors.New("cora: exact CORA: onion peeling returned no schedule")
	}
	trimmed, err := trimToDemand(inst, res.Schedule)
	if err != nil {
		return nil, fmt.Errorf("cora: exact CORA: %w", err)
	}
	res.Schedule.Finalize(inst)
	return &ExactResult{Schedule: res.Schedule, Peel: res, Trimmed: trimmed}, nil
}

// trimToDemand removes units beyond each job's demand, from its latest slots first, so
// that no job's last slot moves later; it fails when some job got less than its demand.
func trimToDemand(inst *sched.Instance, s *sched.Schedule) (int, error) {
	trimmed := 0
	for i := range s.Jobs {
		for r, row := range s.Jobs[i].Alloc {
			got := 0
			for _, a := range row {
				got += a
			}
			extra := got - inst.Jobs[i].Demand[r]
			if extra < 0 {
				return 0, fmt.Errorf("job %q got %d units of %q, demand %d", inst.Jobs[i].ID, got, inst.Resources[r].Name, inst.Jobs[i].Demand[r])
			}
			for t := len(row) - 1; t >= 0 && extra > 0; t-- {
				d := min(row[t], extra)
				row[t] -= d
				extra -= d
				trimmed += d
			}
		}
	}
	return trimmed, nil
}
