package all

import (
	"errors"
	"testing"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/edf"
)

// A policy registered with parameters gets them through NewWithParams; one without
// rejects any, naming the key; New and Names are unchanged.
func TestNewWithParams(t *testing.T) {
	var got float64
	parameterized["edf-test"] = func(p Params) (policies.Policy, error) {
		if err := p.Only("edf-test", "delta"); err != nil {
			return nil, err
		}
		d, err := p.Float("edf-test", "delta", 0.5)
		if err != nil {
			return nil, err
		}
		got = d
		return edf.New(), nil
	}
	constructors["edf-test"] = func() (policies.Policy, error) { return edf.New(), nil }
	t.Cleanup(func() { delete(parameterized, "edf-test"); delete(constructors, "edf-test") })

	if _, err := NewWithParams("edf-test", Params{"delta": 0.7}); err != nil || got != 0.7 {
		t.Fatalf("err %v, delta %g", err, got)
	}
	if _, err := NewWithParams("edf-test", nil); err != nil || got != 0.5 {
		t.Fatalf("defaults: err %v, delta %g", err, got)
	}
	var pe *ParamError
	if _, err := NewWithParams("edf-test", Params{"delta": "high"}); !errors.As(err, &pe) || pe.Key != "delta" {
		t.Fatalf("non-number: %v", err)
	}
	if _, err := NewWithParams("edf-test", Params{"theta": 1.0}); !errors.As(err, &pe) || pe.Key != "theta" {
		t.Fatalf("unknown key: %v", err)
	}
	if _, err := NewWithParams("fifo", Params{"b": 1.0, "a": 2.0}); !errors.As(err, &pe) || pe.Key != "a" || TakesParams("fifo") || !TakesParams("edf-test") {
		t.Fatalf("fifo with parameters: %v", err)
	}
	if p, err := NewWithParams("fifo", nil); err != nil || p.Name() != "fifo" {
		t.Fatalf("fifo: %v", err)
	}
	if _, err := NewWithParams("nope", nil); err == nil {
		t.Fatal("unknown policy accepted")
	}
}
