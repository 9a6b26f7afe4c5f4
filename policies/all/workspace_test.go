package all_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/coraopt/coraopt/policies/plan"
	"github.com/coraopt/coraopt/sched"
)

// TestPlanWorkspaceSameProblem: plan.Build with one Workspace carried through a
// sequence of decision instants — alternating between 60 and 15 active jobs, so the
// arrays shrink and grow, and between the staged and pooled models — builds at each
// instant the problem and the promises a Build without it builds (the utilities, held
// in the workspace rather than boxed one by one, return bit for bit the same values at
// every slot), and a problem read before the next Build is intact.
func TestPlanWorkspaceSameProblem(t *testing.T) {
	views := []*benchView{newBenchView(60), newBenchView(15)}
	var ws plan.Workspace
	var means plan.Means
	for step := range 24 {
		v := views[step%2]
		v.Step()
		cfg := plan.Config{Log: true}
		if step%3 == 2 {
			cfg.Model = plan.Pooled
		}
		want, err := plan.Build(v, means.Estimated, cfg, plan.Options{})
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		got, err := plan.Build(v, means.Estimated, cfg, plan.Options{Workspace: &ws})
		if err != nil {
			t.Fatalf("step %d with a workspace: %v", step, err)
		}
		sameInstance(t, step, got.Instance, want.Instance)
		if !reflect.DeepEqual(got.Job, want.Job) || !reflect.DeepEqual(got.Stage, want.Stage) ||
			!reflect.DeepEqual(got.Tail, want.Tail) || got.Slot != want.Slot || got.Start != want.Start || got.Model != want.Model {
			t.Fatalf("step %d: the problems differ", step)
		}
		slots := make([]int, len(want.Job))
		for i := range slots {
			slots[i] = 1 + (i*7+step)%want.Instance.Horizon
		}
		if gp, wp := got.PromiseSlots(slots), want.PromiseSlots(slots); !reflect.DeepEqual(gp, wp) {
			t.Fatalf("step %d: promises %v with a workspace, %v without", step, gp, wp)
		}
	}
}

// sameInstance fails unless got and want are the same instance, their utilities
// compared by type name and by their values' bits at slots 0 … horizon+1.
func sameInstance(t *testing.T, step int, got, want *sched.Instance) {
	t.Helper()
	if len(got.Jobs) != len(want.Jobs) {
		t.Fatalf("step %d: %d parts with a workspace, %d without", step, len(got.Jobs), len(want.Jobs))
	}
	g, w := *got, *want
	g.Jobs, w.Jobs = make([]sched.Job, len(got.Jobs)), make([]sched.Job, len(want.Jobs))
	for i := range got.Jobs {
		gu, wu := got.Jobs[i].Utility, want.Jobs[i].Utility
		if gu.Type() != wu.Type() {
			t.Fatalf("step %d, part %d: utility %q with a workspace, %q without", step, i, gu.Type(), wu.Type())
		}
		for s := range got.Horizon + 2 {
			if a, b := gu.At(s), wu.At(s); math.Float64bits(a) != math.Float64bits(b) {
				t.Fatalf("step %d, part %d: U(%d) = %v with a workspace, %v without", step, i, s, a, b)
			}
		}
		g.Jobs[i], w.Jobs[i] = got.Jobs[i], want.Jobs[i]
		g.Jobs[i].Utility, w.Jobs[i].Utility = nil, nil
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("step %d: the instances differ", step)
	}
}
