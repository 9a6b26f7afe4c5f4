package all

import (
	"fmt"
	"math"

	"github.com/coraopt/coraopt/formulations/rs"
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/cora"
	"github.com/coraopt/coraopt/policies/oracle"
	"github.com/coraopt/coraopt/policies/plan"
	"github.com/coraopt/coraopt/policies/rush"
	"github.com/coraopt/coraopt/solvers"
)

// The online optimizers of issue 18 take their knobs from a sweep file, so that the
// papers' parameter studies (rush.txt §V: the KL budget δ and the number of samples
// behind each estimate) are grids `coraopt sweep run` reruns. Every key has the default
// its policy package documents; an absent key keeps it.
func init() {
	parameterized["cora"] = slottedPolicy("cora", func(c cora.Config) policies.Policy { return cora.New(c) })
	parameterized["oracle"] = slottedPolicy("oracle", func(c cora.Config) policies.Policy { return oracle.New(c) })
	parameterized["cora-paper"] = paperPolicy("cora-paper", func(c cora.Config) policies.Policy { return cora.NewPaper(c) })
	parameterized["cora-final"] = func(p Params) (policies.Policy, error) {
		if err := p.Only("cora-final", append([]string{"backend"}, planKeys...)...); err != nil {
			return nil, err
		}
		c, err := slotted("cora-final", p)
		if err != nil {
			return nil, err
		}
		backend, err := p.String("cora-final", "backend", "")
		if err != nil {
			return nil, err
		}
		if backend != "" {
			// Fail at construction, naming the key, rather than as a fallback at every decision.
			if _, err := solvers.Select(backend, solvers.LP); err != nil {
				return nil, &ParamError{Policy: "cora-final", Key: "backend", Msg: err.Error()}
			}
		}
		return cora.NewFinal(c, backend), nil
	}
	parameterized["rush"] = rushPolicy("rush", func(c rush.Config) policies.Policy { return rush.New(c) })
	parameterized["rush-alg3"] = rushPolicy("rush-alg3", func(c rush.Config) policies.Policy { return rush.NewAlg3(c) })
	parameterized["rush-paper"] = func(p Params) (policies.Policy, error) {
		c, err := rushParams("rush-paper", p)
		if err != nil {
			return nil, err
		}
		if err := paperOnly("rush-paper", p); err != nil {
			return nil, err
		}
		return rush.NewPaper(c), nil
	}
}

func slottedPolicy(name string, mk func(cora.Config) policies.Policy) func(Params) (policies.Policy, error) {
	return func(p Params) (policies.Policy, error) {
		c, err := slottedParams(name, p)
		if err != nil {
			return nil, err
		}
		return mk(c), nil
	}
}

// paperPolicy is a planner as its paper ran it: the plan's shape keys but for model,
// dispatch and caps, which the paper fixes.
func paperPolicy(name string, mk func(cora.Config) policies.Policy) func(Params) (policies.Policy, error) {
	return func(p Params) (policies.Policy, error) {
		if err := paperOnly(name, p); err != nil {
			return nil, err
		}
		return slottedPolicy(name, mk)(p)
	}
}

// paperOnly refuses the keys a paper variant fixes.
func paperOnly(name string, p Params) error {
	for _, k := range []string{"model", "dispatch", "caps"} {
		if _, ok := p[k]; ok {
			return &ParamError{Policy: name, Key: k, Msg: "is fixed by the paper (pooled model, targets dispatch, no caps); set it on the non-paper variant"}
		}
	}
	return nil
}

func rushPolicy(name string, mk func(rush.Config) policies.Policy) func(Params) (policies.Policy, error) {
	return func(p Params) (policies.Policy, error) {
		c, err := rushParams(name, p)
		if err != nil {
			return nil, err
		}
		return mk(c), nil
	}
}

// planKeys are the keys of the plan's shape (policies/plan.Config) every planner takes.
var planKeys = []string{"slot", "max_slots", "interval", "model", "dispatch", "caps"}

// slottedParams reads the plan's shape: slot (seconds, > 0), max_slots (an integer
// ≥ 1), interval (seconds ≥ 0 between plans triggered by task finishes alone), model
// (staged or pooled), dispatch (plan or targets) and caps (a boolean): the only keys
// cora and oracle take.
func slottedParams(policy string, p Params) (plan.Config, error) {
	if err := p.Only(policy, planKeys...); err != nil {
		return plan.Config{}, err
	}
	return slotted(policy, p)
}

func slotted(policy string, p Params) (plan.Config, error) {
	var c plan.Config
	slot, err := p.Float(policy, "slot", plan.DefaultSlot)
	if err != nil {
		return c, err
	}
	if !(slot > 0) || math.IsInf(slot, 0) {
		return c, &ParamError{Policy: policy, Key: "slot", Msg: fmt.Sprintf("must be a number of seconds > 0, got %g", slot)}
	}
	ms, err := p.Int(policy, "max_slots", plan.DefaultMaxSlots, 1)
	if err != nil {
		return c, err
	}
	iv, err := p.Float(policy, "interval", 0)
	if err != nil {
		return c, err
	}
	if !(iv >= 0) || math.IsInf(iv, 0) {
		return c, &ParamError{Policy: policy, Key: "interval", Msg: fmt.Sprintf("must be a number of seconds ≥ 0, got %g", iv)}
	}
	c.Slot, c.MaxSlots, c.Interval = slot, ms, iv
	if c.Model, err = p.String(policy, "model", plan.Staged); err != nil {
		return c, err
	}
	if c.Model != plan.Staged && c.Model != plan.Pooled {
		return c, &ParamError{Policy: policy, Key: "model", Msg: fmt.Sprintf("must be %q or %q, got %q", plan.Staged, plan.Pooled, c.Model)}
	}
	if c.Dispatch, err = p.String(policy, "dispatch", plan.DispatchPlan); err != nil {
		return c, err
	}
	if c.Dispatch != plan.DispatchPlan && c.Dispatch != plan.DispatchTargets {
		return c, &ParamError{Policy: policy, Key: "dispatch", Msg: fmt.Sprintf("must be %q or %q, got %q", plan.DispatchPlan, plan.DispatchTargets, c.Dispatch)}
	}
	if c.Caps, err = p.Bool(policy, "caps", false); err != nil {
		return c, err
	}
	return c, nil
}

// Bool returns the boolean under key, or def when the key is absent.
func (p Params) Bool(policy, key string, def bool) (bool, error) {
	v, ok := p[key]
	if !ok {
		return def, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, &ParamError{Policy: policy, Key: key, Msg: fmt.Sprintf("must be true or false, got %T", v)}
	}
	return b, nil
}

// rushParams reads RUSH's keys: the slotted shape, theta ∈ (0, 1), delta > 0, bins ≥ 2,
// estimator (gaussian or impulse) and min_samples ≥ 1.
func rushParams(policy string, p Params) (rush.Config, error) {
	var c rush.Config
	if err := p.Only(policy, append([]string{"theta", "delta", "bins", "estimator", "min_samples"}, planKeys...)...); err != nil {
		return c, err
	}
	var err error
	if c.Config, err = slotted(policy, p); err != nil {
		return c, err
	}
	if c.Theta, err = p.Float(policy, "theta", rush.DefaultTheta); err != nil {
		return c, err
	}
	if !(c.Theta > 0 && c.Theta < 1) {
		return c, &ParamError{Policy: policy, Key: "theta", Msg: fmt.Sprintf("must be in (0, 1), got %g", c.Theta)}
	}
	if c.Delta, err = p.Float(policy, "delta", rush.DefaultDelta); err != nil {
		return c, err
	}
	// δ = 0 would be read as "the default" by rush.Config; the sweep asks for a real budget.
	if !(c.Delta > 0) || math.IsInf(c.Delta, 0) {
		return c, &ParamError{Policy: policy, Key: "delta", Msg: fmt.Sprintf("must be a KL budget > 0, got %g", c.Delta)}
	}
	if c.Bins, err = p.Int(policy, "bins", rush.DefaultBins, 2); err != nil {
		return c, err
	}
	if c.MinSamples, err = p.Int(policy, "min_samples", rush.DefaultMinSamples, 1); err != nil {
		return c, err
	}
	if c.Estimator, err = p.String(policy, "estimator", rs.EstimatorGaussian); err != nil {
		return c, err
	}
	if c.Estimator != rs.EstimatorGaussian && c.Estimator != rs.EstimatorImpulse {
		return c, &ParamError{Policy: policy, Key: "estimator", Msg: fmt.Sprintf("must be %q or %q, got %q", rs.EstimatorGaussian, rs.EstimatorImpulse, c.Estimator)}
	}
	return c, nil
}

// Int returns the integer under key (a JSON number with no fraction, ≥ lo), or def when
// the key is absent.
func (p Params) Int(policy, key string, def, lo int) (int, error) {
	if _, ok := p[key]; !ok {
		return def, nil
	}
	f, err := p.Float(policy, key, 0)
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || f < float64(lo) || f > 1<<30 {
		return 0, &ParamError{Policy: policy, Key: key, Msg: fmt.Sprintf("must be an integer in [%d, %d], got %g", lo, 1<<30, f)}
	}
	return int(f), nil
}

// String returns the string under key, or def when the key is absent.
func (p Params) String(policy, key, def string) (string, error) {
	v, ok := p[key]
	if !ok {
		return def, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", &ParamError{Policy: policy, Key: key, Msg: fmt.Sprintf("must be a string, got %T", v)}
	}
	return s, nil
}
