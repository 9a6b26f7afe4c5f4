package all_test

import (
	"reflect"
	"testing"

	"github.com/coraopt/coraopt/policies/plan"
)

// TestPlanWorkspaceSameProblem: plan.Build with one Workspace carried through a
// sequence of decision instants — alternating between 60 and 15 active jobs, so the
// arrays shrink and grow, and between the staged and pooled models — builds at each
// instant the problem and the promises a Build without it builds, and a problem read
// before the next Build is intact.
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
		if !reflect.DeepEqual(got.Instance, want.Instance) {
			t.Fatalf("step %d: the instances differ", step)
		}
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
