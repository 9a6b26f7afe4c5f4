package cora

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/solve"
)

// Policy is CORA (exact or FINAL) re-planning at every decision instant.
type Policy struct {
	*policies.ContainerAssignment
	name        string
	formulation string
	method      string
	backend     string
	cfg         Config
	reg         *solve.Registry
	// Work estimates the remaining work; EstimatedWork unless a clairvoyant policy
	// (policies/oracle) replaces it.
	Work      WorkFunc
	fallbacks int
	plans     int
	lastErr   error
	replan    ReplanGate
}

// ReplanGate decides, with Config.Interval, whether a decision instant re-plans.
type ReplanGate struct {
	planned bool
	last    float64 // time of the latest plan
	changed bool    // the job set or the capacity changed since then
	skipped int
}

// Observe marks the events after which a plan is always redone.
func (g *ReplanGate) Observe(e policies.Event) {
	switch e.Kind {
	case policies.EventArrival, policies.EventJobFinish, policies.EventReject, policies.EventCapacity:
		g.changed = true
	}
}

// Due reports whether to plan at now (counting the instants it skips) and, if so,
// records the plan.
func (g *ReplanGate) Due(now, interval float64) bool {
	if interval > 0 && g.planned && !g.changed && now < g.last+interval {
		g.skipped++
		return false
	}
	g.planned, g.last, g.changed = true, now, false
	return true
}

// Skipped counts decision instants that kept the targets under Config.Interval.
func (g *ReplanGate) Skipped() int { return g.skipped }

// New returns `cora`: exact CORA (completion-time lexmax by onion peeling).
func New(cfg Config) *Policy {
	cfg.Log = true
	return newPolicy("cora", "cora", "onion", "", cfg)
}

// NewFinal returns `cora-final`: the FINAL LP as printed, on the named LP backend
// ("" for solvers.Select's default: the first LP backend compiled in).
func NewFinal(cfg Config, backend string) *Policy {
	return newPolicy("cora-final", "cora-final", "lp", backend, cfg)
}

// NewNamed is exact CORA under another name with its own work estimate (the oracle).
func NewNamed(name string, cfg Config, work WorkFunc) *Policy {
	cfg.Log = true
	p := newPolicy(name, "cora", "onion", "", cfg)
	p.Work = work
	return p
}

func newPolicy(name, formulation, method, backend string, cfg Config) *Policy {
	return &Policy{ContainerAssignment: &policies.ContainerAssignment{Conserving: true}, name: name,
		formulation: formulation, method: method, backend: backend, cfg: cfg.WithDefaults(),
		reg: solve.Default(), Work: EstimatedWork}
}

func (p *Policy) Name() string { return p.name }

// Fallbacks counts the decision instants whose plan failed, so that the previous
// targets stayed.
func (p *Policy) Fallbacks() int { return p.fallbacks }

// Counts reports plans and fallbacks for the simulator's output, and with
// Config.Interval the instants that kept their targets ("skipped").
func (p *Policy) Counts() map[string]int {
	c := map[string]int{"plans": p.plans, "fallbacks": p.fallbacks}
	if p.cfg.Interval > 0 {
		c["skipped"] = p.replan.Skipped()
	}
	return c
}

// Observe lets Config.Interval know which instants must re-plan.
func (p *Policy) Observe(_ policies.View, e policies.Event) { p.replan.Observe(e) }

// LastError is the error of the latest fallback (nil if none).
func (p *Policy) LastError() error { return p.lastErr }

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
	prob, err := Build(v, p.Work, p.cfg)
	if err != nil {
		return err
	}
	res, err := p.reg.Solve(ctx, solve.Request{Formulation: p.formulation, Method: p.method,
		Instance: prob.Instance, Solver: p.backend, SolverSet: p.backend != "", Budget: p.cfg.Budget})
	if err != nil {
		return fmt.Errorf("%s at t=%g: %w", p.name, v.Now(), err)
	}
	if res.Failure != nil {
		return fmt.Errorf("%s at t=%g: %w", p.name, v.Now(), res.Failure)
	}
	if res.Schedule == nil {
		return fmt.Errorf("%s at t=%g: no schedule", p.name, v.Now())
	}
	p.plans++
	prob.FirstSlot(res.Schedule, func(pool int) []float64 { return p.Targets(v, pool) })
	return nil
}
