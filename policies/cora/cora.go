package cora

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/plan"
	"github.com/coraopt/coraopt/solve"
)

// Config is the planner's shape (policies/plan.Config).
type Config = plan.Config

// Policy is CORA (exact or FINAL) re-planning at every decision instant.
type Policy struct {
	// ca carries a plan out as the papers do (plan.DispatchTargets), disp by promises
	// (plan.DispatchPlan, the default).
	ca          policies.ContainerAssignment
	disp        plan.Dispatcher
	name        string
	formulation string
	method      string
	backend     string
	cfg         Config
	reg         *solve.Registry
	// Estimate lists a job's remaining stages; plan.Estimated (through means) unless a
	// clairvoyant policy (policies/oracle) replaces it.
	Estimate plan.Estimator
	means    plan.Means
	utils    plan.UtilityCache
	// bufs and ws keep the plan's and the solve's arrays from one decision instant to
	// the next (each plan is read before the next one is built).
	bufs      plan.Workspace
	ws        solve.Workspace
	fallbacks int
	plans     int
	lastErr   error
	replan    plan.ReplanGate
	promise   map[int]float64 // the latest plan's promise per job, seconds
	slot      float64         // the latest plan's slot length
}

// New returns `cora`: exact CORA (completion-time lexmax by onion peeling).
func New(cfg Config) *Policy {
	cfg.Log = true
	return newPolicy("cora", "cora", "onion", "", cfg)
}

// NewPaper returns `cora-paper`: exact CORA planned and carried out as cora.txt
// §III-A does — each job's remaining work one pool per resource (plan.Pooled), the
// first slot of the plan as target containers (plan.DispatchTargets), no caps.
func NewPaper(cfg Config) *Policy {
	cfg.Log = true
	cfg.Model, cfg.Dispatch, cfg.Caps = plan.Pooled, plan.DispatchTargets, false
	return newPolicy("cora-paper", "cora", "onion", "", cfg)
}

// NewFinal returns `cora-final`: the FINAL LP as printed, on the named LP backend
// ("" for solvers.Select's default: the first LP backend compiled in).
func NewFinal(cfg Config, backend string) *Policy {
	return newPolicy("cora-final", "cora-final", "lp", backend, cfg)
}

// NewNamed is exact CORA under another name with its own estimate of the remaining
// stages (the oracle).
func NewNamed(name string, cfg Config, est plan.Estimator) *Policy {
	cfg.Log = true
	p := newPolicy(name, "cora", "onion", "", cfg)
	p.Estimate = est
	return p
}

func newPolicy(name, formulation, method, backend string, cfg Config) *Policy {
	cfg = cfg.WithDefaults()
	p := &Policy{ca: policies.ContainerAssignment{Conserving: true}, name: name,
		formulation: formulation, method: method, backend: backend, cfg: cfg,
		reg: solve.Default(), promise: map[int]float64{}}
	p.Estimate = p.means.Estimated
	return p
}

func (p *Policy) Name() string { return p.name }

// Config is the policy's settings, defaults filled in.
func (p *Policy) Config() Config { return p.cfg }

// Pick carries the latest plan out (Config.Dispatch).
func (p *Policy) Pick(v policies.View, s policies.Slot) (int, bool) {
	if p.cfg.Dispatch == plan.DispatchTargets {
		return p.ca.Pick(v, s)
	}
	return p.disp.Pick(v, s)
}

// Fallbacks counts the decision instants whose plan failed, so that the previous
// plan stayed.
func (p *Policy) Fallbacks() int { return p.fallbacks }

// Counts reports plans and fallbacks for the simulator's output, and with
// Config.Interval the instants that kept their plan ("skipped").
func (p *Policy) Counts() map[string]int {
	c := map[string]int{"plans": p.plans, "fallbacks": p.fallbacks}
	if p.cfg.Interval > 0 {
		c["skipped"] = p.replan.Skipped()
	}
	return c
}

// Observe lets Config.Interval know which instants must re-plan, and drops the
// estimator's sums of a job that is done.
func (p *Policy) Observe(_ policies.View, e policies.Event) {
	p.replan.Observe(e)
	if e.Kind == policies.EventJobFinish || e.Kind == policies.EventReject {
		p.means.Forget(e.Job)
	}
}

// LastError is the error of the latest fallback (nil if none).
func (p *Policy) LastError() error { return p.lastErr }

// PlanSlot is the slot length of the latest plan (Config.Slot, or longer where the
// horizon had to fit Config.MaxSlots); 0 before any plan.
func (p *Policy) PlanSlot() float64 { return p.slot }

// Promise is the latest plan's promise for job j: the time in seconds by which the
// plan has it complete (false when no plan has covered j yet).
func (p *Policy) Promise(j int) (float64, bool) {
	c, ok := p.promise[j]
	return c, ok
}

func (p *Policy) StartRound(ctx context.Context, v policies.View) {
	if len(v.Active()) == 0 || !p.replan.Due(v.Now(), p.cfg.Interval) {
		return
	}
	if err := p.plan(ctx, v); err != nil {
		p.fallbacks++
		p.lastErr = err
	}
}

func (p *Policy) plan(ctx context.Context, v policies.View) error {
	prob, err := plan.Build(v, p.Estimate, p.cfg, plan.Options{Utilities: &p.utils, Workspace: &p.bufs})
	if err != nil {
		return fmt.Errorf("%s at t=%g: %w", p.name, v.Now(), err)
	}
	res, err := p.reg.Solve(ctx, solve.Request{Formulation: p.formulation, Method: p.method,
		Instance: prob.Instance, Solver: p.backend, SolverSet: p.backend != "", Budget: p.cfg.Budget,
		// Promises read the levels alone; the papers' hand-over reads the schedule.
		LevelsOnly: p.cfg.Dispatch == plan.DispatchPlan, Workspace: &p.ws})
	if err != nil {
		return fmt.Errorf("%s at t=%g: %w", p.name, v.Now(), err)
	}
	if res.Failure != nil {
		return fmt.Errorf("%s at t=%g: %w", p.name, v.Now(), res.Failure)
	}
	pr, err := prob.Promise(res)
	if err != nil {
		return fmt.Errorf("%s at t=%g: %w", p.name, v.Now(), err)
	}
	p.plans++
	for j, c := range pr.Job {
		p.promise[j] = c
	}
	p.slot = prob.Slot
	if p.cfg.Dispatch == plan.DispatchTargets {
		prob.FirstSlot(res.Schedule, func(pool int) []float64 { return p.ca.Targets(v, pool) })
	} else {
		p.disp.Set(v, prob, pr)
	}
	return nil
}
