package all_test

import (
	"context"
	"errors"
	"testing"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/cora"
	"github.com/coraopt/coraopt/policies/rds"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// cancelRound and cancelTick cancel the run's context as the first decision begins,
// then let the wrapped planner decide: its solve must see the cancelled context (so a
// solve in flight stops), and the run must end with context.Canceled.
type cancelRound struct {
	policies.Policy
	cancel func()
}

func (c *cancelRound) StartRound(ctx context.Context, v policies.View) {
	c.cancel()
	c.Policy.(policies.Rounder).StartRound(ctx, v)
}

type cancelTick struct {
	policies.Policy
	cancel func()
}

func (c *cancelTick) Interval() float64 { return c.Policy.(policies.Ticker).Interval() }
func (c *cancelTick) Tick(ctx context.Context, v policies.View) {
	c.cancel()
	c.Policy.(policies.Ticker).Tick(ctx, v)
}

type lastErrorer interface{ LastError() error }

func TestCancelStopsSolveInFlight(t *testing.T) {
	w, err := workload.CORAWorkload(5, 1)
	if err != nil {
		t.Fatal(err)
	}
	rw, err := workload.RDSWorkload(3, 1)
	if err != nil {
		t.Fatal(err)
	}
	rdsPolicy, err := rds.New(rds.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		w    *workload.Workload
		p    policies.Policy
		tick bool
	}{
		{"cora", w, cora.New(cora.Config{}), false},
		{"cora-final", w, cora.NewFinal(cora.Config{}, ""), false},
		{"rds", rw, rdsPolicy, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var p policies.Policy = &cancelRound{Policy: tc.p, cancel: cancel}
			if tc.tick {
				p = &cancelTick{Policy: tc.p, cancel: cancel}
			}
			_, err := sim.Run(ctx, tc.w, p, sim.Options{})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Run returned %v, want context.Canceled", err)
			}
			if last := tc.p.(lastErrorer).LastError(); !errors.Is(last, context.Canceled) {
				t.Fatalf("the planner's solve ended with %v, want the run's context.Canceled", last)
			}
		})
	}
}
