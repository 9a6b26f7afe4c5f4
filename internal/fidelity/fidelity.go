// Package fidelity measures whether an online planner's plan is what the cluster does
// (issue 28; policies/plan's doc, "Fidelity"): it runs a planner that reports
// promises, records its first plan, and compares each job's completion with its
// promise delayed by the plan model's tolerance. The tests of policies/all assert the
// property on random workloads; cmd fidelitytable reports its distribution.
package fidelity

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// Planner is a policy that reports its latest plan's promises (policies/cora, rush,
// oracle), with the hooks those planners have.
type Planner interface {
	policies.Policy
	policies.Rounder
	policies.Observer
	policies.FallbackCounter
	policies.Counter
	Promise(j int) (float64, bool)
	PlanSlot() float64
}

// recorder keeps the first plan's promises of the planner it wraps, passing every
// hook of the planner on (clairvoyant adds the oracle's).
type recorder struct {
	Planner
	promise []float64
	slot    float64
}

type clairvoyant struct{ *recorder }

func (c clairvoyant) UseOracle(o policies.Oracle) { c.Planner.(policies.Clairvoyant).UseOracle(o) }

func (r *recorder) StartRound(ctx context.Context, v policies.View) {
	p := r.Planner
	p.StartRound(ctx, v)
	if r.promise == nil && p.PlanSlot() > 0 {
		r.promise = make([]float64, v.NumJobs())
		for j := range r.promise {
			c, ok := p.Promise(j)
			if !ok {
				c = math.NaN()
			}
			r.promise[j] = c
		}
		r.slot = p.PlanSlot()
	}
}

// Result is one run against its first plan.
type Result struct {
	Metrics *sim.Metrics
	// Per job, in workload order: the first plan's promise and the tolerance (seconds),
	// the completion, and the completion less promise and tolerance (> 0: beyond).
	Promise, Tolerance, Completion, Excess []float64
	// Executed and Planned are the sorted utilities of the run and of the promises
	// delayed by their tolerances; Below counts the positions where the run is lower.
	Executed, Planned []float64
	Below             int
	// Beyond counts the jobs that completed later than promise + tolerance.
	Beyond int
}

// Run runs p on w under seed (every job must be present at the first decision for the
// comparison to mean anything: see workload.NoArrivals), checks the simulator's
// invariants, and compares the run with p's first plan.
func Run(ctx context.Context, w *workload.Workload, p policies.Policy, seed uint64) (*Result, error) {
	pl, ok := p.(Planner)
	if !ok {
		return nil, fmt.Errorf("fidelity: policy %s reports no promises", p.Name())
	}
	rec := &recorder{Planner: pl}
	var run policies.Policy = rec
	if _, ok := p.(policies.Clairvoyant); ok {
		run = clairvoyant{rec}
	}
	if got, want := policies.HooksOf(run).Names(), policies.HooksOf(p).Names(); !slices.Equal(got, want) {
		return nil, fmt.Errorf("fidelity: the recorder of %s has hooks %v, the policy %v", p.Name(), got, want)
	}
	res, err := sim.Run(ctx, w, run, sim.Options{Seed: seed, Record: true})
	if err != nil {
		return nil, err
	}
	if err := sim.CheckInvariants(w, seed, res); err != nil {
		return nil, err
	}
	if rec.promise == nil {
		return nil, fmt.Errorf("fidelity: %s made no plan", p.Name())
	}
	out := &Result{Metrics: sim.Summarize(w, res), Promise: rec.promise, Tolerance: Tolerance(w, seed, rec.slot)}
	for j := range w.Jobs {
		if math.IsNaN(rec.promise[j]) {
			return nil, fmt.Errorf("fidelity: %s's first plan has no promise for job %s (did it arrive later?)", p.Name(), w.Jobs[j].ID)
		}
		c := res.Jobs[j].Completion
		limit := rec.promise[j] + out.Tolerance[j]
		out.Completion = append(out.Completion, c)
		out.Excess = append(out.Excess, c-limit)
		if c > limit {
			out.Beyond++
		}
		out.Executed = append(out.Executed, workload.UtilityOfResponse(w.Jobs[j].Utility, (c-w.Jobs[j].Arrival)/w.TimeUnit))
		out.Planned = append(out.Planned, workload.UtilityOfResponse(w.Jobs[j].Utility, (limit-w.Jobs[j].Arrival)/w.TimeUnit))
	}
	slices.Sort(out.Executed)
	slices.Sort(out.Planned)
	for k := range out.Executed {
		if out.Executed[k] < out.Planned[k]-1e-9*max(1, math.Abs(out.Planned[k])) {
			out.Below++
		}
	}
	return out, nil
}

// Tolerance is how much later than its promise each job may complete under the plan
// model (policies/plan's doc): one slot, plus for each stage the longest of its true
// task runtimes at the slowest speed of its pool (Graham's bound: a stage of tasks that
// cannot be split ends up to one task after its divisible work), plus the tolerance of
// the jobs it waits for.
func Tolerance(w *workload.Workload, seed uint64, slot float64) []float64 {
	slowest := map[string]float64{}
	for _, wk := range w.Cluster.Workers {
		for name, n := range wk.Slots {
			if s, ok := slowest[name]; n > 0 && (!ok || wk.Speed < s) {
				slowest[name] = wk.Speed
			}
		}
	}
	ids := map[string]int{}
	for i := range w.Jobs {
		ids[w.Jobs[i].ID] = i
	}
	chain := make([]float64, len(w.Jobs))
	done := make([]bool, len(w.Jobs))
	var of func(i int) float64
	of = func(i int) float64 {
		if done[i] {
			return chain[i]
		}
		done[i] = true // a cycle, which Validate rejects, cannot recurse forever
		j := &w.Jobs[i]
		stream := workload.JobStream(seed, j.ID)
		c := 0.0
		for s := range j.Stages {
			st := &j.Stages[s]
			longest := 0.0
			for k := range st.Tasks {
				longest = max(longest, workload.TaskRuntime(stream, st, s, k))
			}
			c += longest / slowest[st.Pool]
		}
		before := 0.0
		for _, d := range j.After {
			before = max(before, of(ids[d]))
		}
		chain[i] = c + before
		return chain[i]
	}
	tau := make([]float64, len(w.Jobs))
	for i := range tau {
		tau[i] = slot + of(i)
	}
	return tau
}
