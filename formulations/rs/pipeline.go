package rs

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
)

// Params are RS's robustness parameters (rush.txt §II): the quantile θ, the KL budget δ
// (one δ_i for every job) and the bin budget for estimated references.
type Params struct {
	Theta float64
	Delta float64
	// Bins bounds the bins of impulse, Gaussian and empirical references (see
	// Quantization); 0 means DefaultBins. Explicit PMFs keep their own bins.
	Bins int
}

// ParamsOf returns the instance's robust block as Params; ok is false when it has none.
func ParamsOf(inst *sched.Instance) (p Params, ok bool) {
	if inst == nil || inst.Robust == nil {
		return Params{}, false
	}
	return Params{Theta: inst.Robust.Theta, Delta: inst.Robust.Delta, Bins: inst.Robust.Bins}, true
}

func (p Params) check() error {
	if err := checkThetaDelta(p.Theta, p.Delta); err != nil {
		return err
	}
	if p.Bins != 0 && (p.Bins < 2 || p.Bins > MaxBins) {
		return fmt.Errorf("rs: %d bins: must be in [2, %d]", p.Bins, MaxBins)
	}
	return nil
}

// JobDemand is the demand RS schedules for one job.
type JobDemand struct {
	Job int    // index in Instance.Jobs
	ID  string // the job's id
	// Nominal is the job's demand in the instance (container-slots).
	Nominal int
	// Eta is what RS schedules: for a job with a runtime, η_i from WCDE, raised to 1
	// when WCDE gives 0 (a job's completion slot is the last slot it holds a container,
	// constraint (1), so it must hold one); for a job without a runtime, Nominal.
	Eta int64
	// Reference and Estimate are the job's reference distribution and WCDE answer; nil
	// and zero for a job without a runtime.
	Reference *Reference
	Estimate  Estimate
}

// HasRuntime says whether the job's demand came from WCDE.
func (d *JobDemand) HasRuntime() bool { return d.Reference != nil }

// Demands computes η_i for every job of a single-resource instance: WCDE on the
// reference built from the job's runtime block (FromRuntime, quantized for θ and δ), or
// the job's own demand when it has no runtime.
//
// RS is single-resource: RUSH apportions one homogeneous unit, the container (rush.txt
// §II, condition 2), and its runtime distributions are of container-slots. An instance
// with more than one resource is rejected rather than guessing which resource η is for.
func Demands(inst *sched.Instance, p Params) ([]JobDemand, error) {
	if err := singleResource(inst); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	q := Quantization{Bins: p.Bins, Theta: p.Theta, MaxDelta: p.Delta}
	out := make([]JobDemand, len(inst.Jobs))
	for i := range inst.Jobs {
		job := &inst.Jobs[i]
		if len(job.Demand) != 1 {
			return nil, fmt.Errorf("rs: job %q: %d demands for 1 resource", job.ID, len(job.Demand))
		}
		d := JobDemand{Job: i, ID: job.ID, Nominal: job.Demand[0], Eta: int64(job.Demand[0])}
		if job.Runtime != nil {
			ref, err := FromRuntime(job.Runtime, q)
			if err != nil {
				return nil, fmt.Errorf("rs: job %q: runtime: %w", job.ID, err)
			}
			e, err := WorstCaseDemand(ref.PMF, p.Theta, p.Delta)
			if err != nil {
				return nil, fmt.Errorf("rs: job %q: %w", job.ID, err)
			}
			d.Reference, d.Estimate, d.Eta = ref, e, max(e.Eta, 1)
		}
		out[i] = d
	}
	return out, nil
}

func singleResource(inst *sched.Instance) error {
	if inst == nil {
		return errors.New("rs: nil instance")
	}
	if n := len(inst.Resources); n != 1 {
		names := make([]string, n)
		for r := range inst.Resources {
			names[r] = inst.Resources[r].Name
		}
		return fmt.Errorf("rs: the instance has %d resources (%s); RS schedules one homogeneous resource, the container (rush.txt §II)",
			n, strings.Join(names, ", "))
	}
	return nil
}

// RobustInstance returns a copy of inst whose job demands are ds[i].Eta (the input is not
// modified). When the instance's horizon was a default derived from demand or utilities
// (HorizonSource "demand" or "utility", capacities constant), it is extended, with the
// same capacity per slot, to the smallest T with room for the total η; a horizon given
// in the file or set by a capacity array is kept, and TAS reports when η does not fit.
func RobustInstance(inst *sched.Instance, ds []JobDemand) (*sched.Instance, error) {
	if err := singleResource(inst); err != nil {
		return nil, err
	}
	if len(ds) != len(inst.Jobs) {
		return nil, fmt.Errorf("rs: %d demands for %d jobs", len(ds), len(inst.Jobs))
	}
	out := *inst
	out.Jobs = make([]sched.Job, len(inst.Jobs))
	var total int64
	for i, job := range inst.Jobs {
		eta := ds[i].Eta
		if eta < 0 || int64(int(eta)) != eta {
			return nil, fmt.Errorf("rs: job %q: demand %d out of range", job.ID, eta)
		}
		job.Demand = []int{int(eta)}
		out.Jobs[i] = job
		total += eta
	}
	res := inst.Resources[0]
	T := inst.Horizon
	if (inst.HorizonSource == "demand" || inst.HorizonSource == "utility") && T >= 1 && len(res.Capacity) == T {
		var room int64
		for _, c := range res.Capacity {
			room += int64(c)
		}
		if c := int64(res.Capacity[T-1]); total > room && c > 0 {
			extra := (total - room + c - 1) / c
			if extra > 1<<24 {
				return nil, fmt.Errorf("rs: the total worst-case demand %d needs %d more slots", total, extra)
			}
			capa := make([]int, T+int(extra))
			copy(capa, res.Capacity)
			for t := T; t < len(capa); t++ {
				capa[t] = int(c)
			}
			res.Capacity = capa
			out.Horizon = len(capa)
			out.HorizonSource = "demand"
		}
	}
	out.Resources = []sched.Resource{res}
	return &out, nil
}

// Scheduler solves TAS (rush.txt §III-B) on an instance whose demands are the η_i. The
// default is onion peeling (tas.OnionPeel); another exact method (the time-indexed MIP)
// can take its place.
type Scheduler func(ctx context.Context, inst *sched.Instance) (*sched.Schedule, error)

// Options control Solve. The zero value runs onion peeling with its defaults and maps
// whole tasks of R_i slots (tas.RoundUpTasks).
type Options struct {
	// Peel controls onion peeling.
	Peel tas.Options
	// Rounding says how η_i becomes tasks of R_i = task_slots slots for the mapping.
	Rounding tas.Rounding
	// Scheduler, when set, replaces onion peeling.
	Scheduler Scheduler
}

// Result is RS's answer: the worst-case demands, TAS's schedule on them and its mapping
// to container queues.
type Result struct {
	Params  Params
	Demands []JobDemand
	// Instance is the robust instance TAS solved (demands η, horizon possibly extended);
	// check Schedule against it, not against the input.
	Instance *sched.Instance
	Schedule *sched.Schedule
	// Peel is onion peeling's result (levels, layers, statistics); nil when
	// Options.Scheduler replaced it.
	Peel *tas.Result
	// Mapping is Alg. 4's assignment of every job's tasks to container queues, with
	// Theorem 3's bound T_i + R_i checked per job.
	Mapping *tas.Mapping
}

// Solve runs RS (rush.txt §III): WCDE for every job (Demands), TAS on the η by onion
// peeling (§III-B, Alg. 3, formulations/tas), and the continuous time-slot mapping of
// the schedule to container queues with the jobs' task_slots (§III-C, Alg. 4). The
// problem decomposes this way because constraint (3) couples a job's allocation only to
// its own worst-case quantile (§III-A): Σ_t x_it ≥ max Ω_i^{-1}(θ) = η_i.
//
// A TAS instance with no feasible schedule gives an error wrapping tas.ErrInfeasible.
func Solve(ctx context.Context, inst *sched.Instance, p Params, opts Options) (*Result, error) {
	ds, err := Demands(inst, p)
	if err != nil {
		return nil, err
	}
	robust, err := RobustInstance(inst, ds)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &Result{Params: p, Demands: ds, Instance: robust}
	if opts.Scheduler != nil {
		if res.Schedule, err = opts.Scheduler(ctx, robust); err != nil {
			return nil, fmt.Errorf("rs: tas: %w", err)
		}
	} else {
		peel := opts.Peel
		peel.NoSchedule = false
		if res.Peel, err = tas.OnionPeel(ctx, robust, peel); err != nil {
			return nil, fmt.Errorf("rs: tas: %w", err)
		}
		res.Schedule = res.Peel.Schedule
	}
	if res.Mapping, err = tas.MapToQueues(robust, res.Schedule, tas.MappingOptions{Resource: 0, Rounding: opts.Rounding}); err != nil {
		return nil, fmt.Errorf("rs: mapping: %w", err)
	}
	return res, nil
}
