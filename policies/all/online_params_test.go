package all

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// Every online optimizer takes its keys, and a bad value is a *ParamError naming the key.
func TestOnlineParams(t *testing.T) {
	good := map[string]Params{
		"cora":       {"slot": 30.0, "max_slots": 64.0},
		"oracle":     {"slot": 120.0, "interval": 600.0},
		"cora-final": {"slot": 60.0, "max_slots": 100.0, "backend": "simplex"},
		"rush": {"theta": 0.8, "delta": 1.5, "bins": 64.0, "estimator": "impulse", "min_samples": 25.0,
			"slot": 60.0, "max_slots": 128.0},
		"rush-alg3": {"delta": 0.1, "min_samples": 2.0, "estimator": "gaussian"},
	}
	for name, p := range good {
		if !TakesParams(name) {
			t.Errorf("%s: not registered with parameters", name)
		}
		pol, err := NewWithParams(name, p)
		if err != nil || pol.Name() != name {
			t.Errorf("%s %v: %v", name, p, err)
		}
	}
	bad := []struct {
		name string
		p    Params
		key  string
	}{
		{"cora", Params{"slot": 0.0}, "slot"},
		{"cora", Params{"slot": "60"}, "slot"},
		{"cora", Params{"max_slots": 2.5}, "max_slots"},
		{"cora", Params{"max_slots": 0.0}, "max_slots"},
		{"cora", Params{"interval": -1.0}, "interval"},
		{"rush", Params{"interval": "10m"}, "interval"},
		{"cora", Params{"delta": 0.7}, "delta"},
		{"oracle", Params{"backend": "simplex"}, "backend"},
		{"cora-final", Params{"backend": "no-such-lp"}, "backend"},
		{"cora-final", Params{"backend": 1.0}, "backend"},
		{"cora-final", Params{"theta": 0.9}, "theta"},
		{"rush", Params{"theta": 1.0}, "theta"},
		{"rush", Params{"theta": 0.0}, "theta"},
		{"rush", Params{"delta": 0.0}, "delta"},
		{"rush", Params{"delta": -1.0}, "delta"},
		{"rush", Params{"bins": 1.0}, "bins"},
		{"rush", Params{"estimator": "empirical"}, "estimator"},
		{"rush", Params{"estimator": true}, "estimator"},
		{"rush", Params{"min_samples": 0.0}, "min_samples"},
		{"rush", Params{"min_samples": 3.5}, "min_samples"},
		{"rush-alg3", Params{"slot": -60.0}, "slot"},
		{"rush-alg3", Params{"backend": "simplex"}, "backend"},
	}
	for _, c := range bad {
		_, err := NewWithParams(c.name, c.p)
		var pe *ParamError
		if !errors.As(err, &pe) || pe.Key != c.key || pe.Policy != c.name {
			t.Errorf("%s %v: got %v, want a ParamError on %s", c.name, c.p, err, c.key)
		}
	}
}

// The parameters reach the policy: the defaults spelled out replay the default run byte
// for byte, and a coarser slot or a different estimator changes it.
func TestOnlineParamsReachPolicy(t *testing.T) {
	w, err := workload.RUSHWorkload(8, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	run := func(name string, p Params) *sim.Metrics {
		t.Helper()
		pol, err := NewWithParams(name, p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := sim.Run(context.Background(), w, pol, sim.Options{Seed: 1, Record: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.CheckInvariants(w, 1, r); err != nil {
			t.Fatalf("%s %v: %v", name, p, err)
		}
		return sim.Summarize(w, r)
	}
	for _, c := range []struct {
		name            string
		defaults, other Params
	}{
		{"cora", Params{"slot": 60.0, "max_slots": 256.0, "interval": 0.0}, Params{"slot": 600.0}},
		{"cora", nil, Params{"interval": 600.0}},
		{"rush", Params{"theta": 0.9, "delta": 0.7, "bins": 256.0, "estimator": "gaussian", "min_samples": 10.0},
			Params{"estimator": "impulse", "min_samples": 1.0, "slot": 600.0}},
	} {
		base := run(c.name, nil)
		if d := cmp.Diff(base, run(c.name, c.defaults)); d != "" {
			t.Errorf("%s: the defaults spelled out changed the run (-want +got):\n%s", c.name, d)
		}
		if cmp.Equal(base.Jobs, run(c.name, c.other).Jobs) {
			t.Errorf("%s %v: same jobs' outcomes as the defaults; the parameters did not reach the policy", c.name, c.other)
		}
	}
}
