package policies_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// fixedTargets is a target policy with constant targets per job id, built on the
// shared container-assignment unit the way cora, rush and rds are meant to be.
type fixedTargets struct {
	*policies.ContainerAssignment
	targets map[string]float64
}

func (p *fixedTargets) Name() string { return "fixed-targets" }

func (p *fixedTargets) StartRound(ctx context.Context, v policies.View) {
	t := p.Targets(v, 0)
	for _, j := range v.Active() {
		t[j] = p.targets[v.Job(j).ID]
	}
}

const twoLongJobs = `{"cluster": {"pools": [{"name": "c", "slots": 4}]},
 "jobs": [
  {"id": "a", "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 6, "runtime": {"type": "fixed", "value": 10}}]},
  {"id": "b", "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 6, "runtime": {"type": "fixed", "value": 10}}]}]}`

func TestContainerAssignment(t *testing.T) {
	w, err := workload.Parse([]byte(twoLongJobs))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		targets    map[string]float64
		conserving bool
		want       []float64 // completions of a and b
	}{
		// Gaps: b 3−0 first, then a 1−0 and b 2 → b; b 1 vs a 1 tie → a (rank); then b.
		// a holds 1 and b 3: b's six tasks take two waves (done at 20); a has run two
		// tasks by then and, alone, takes all four slots for its last four (done at 30).
		{"targets 1 and 3", map[string]float64{"a": 1, "b": 3}, true, []float64{30, 20}},
		// Equal targets split 2/2: both finish their six tasks in three waves.
		{"equal", map[string]float64{"a": 2, "b": 2}, true, []float64{30, 30}},
		// Not conserving: only positive gaps get slots, so two slots idle.
		{"not conserving", map[string]float64{"a": 1, "b": 1}, false, []float64{60, 60}},
		// Conserving: the same targets, but no slot idles while a job can use it.
		{"conserving", map[string]float64{"a": 1, "b": 1}, true, []float64{30, 30}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &fixedTargets{ContainerAssignment: &policies.ContainerAssignment{Conserving: tc.conserving}, targets: tc.targets}
			r, err := sim.Run(context.Background(), w, p, sim.Options{Record: true})
			if err != nil {
				t.Fatal(err)
			}
			if err := sim.CheckInvariants(w, 0, r); err != nil {
				t.Fatal(err)
			}
			got := []float64{r.Jobs[0].Completion, r.Jobs[1].Completion}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatal(diff)
			}
		})
	}
}

// probe picks like FIFO and records what the view's helpers say in the round at
// t = 20.
type probe struct {
	seen            bool
	mean, remaining float64
	running         int
	target          float64
}

func (p *probe) Name() string { return "probe" }

func (p *probe) Pick(v policies.View, s policies.Slot) (int, bool) {
	if v.Now() == 20 && !p.seen {
		p.seen = true
		p.mean = policies.MeanTaskRuntime(v, 0, 0)
		p.remaining = policies.RemainingWork(v, 0)
		p.running = len(v.RunningTasks(0))
		p.target = policies.TargetTime(v, 1)
	}
	for _, j := range v.Active() {
		if v.Runnable(j, s.Pool) {
			return j, true
		}
	}
	return 0, false
}

func TestViewHelpers(t *testing.T) {
	w, err := workload.Parse([]byte(`{"cluster": {"pools": [{"name": "c", "slots": 2}]},
	 "jobs": [
	  {"id": "a", "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 5, "task_runtimes": [10, 20, 30, 10, 10]}]},
	  {"id": "b", "arrival": 5, "workflow": "w", "utility": {"type": "sigmoid", "priority": 1, "deadline": 2, "decay": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1]}]},
	  {"id": "c", "arrival": 7, "workflow": "w", "deadline": 50, "after": ["b"], "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	w.TimeUnit = 10
	p := &probe{}
	if _, err := sim.Run(context.Background(), w, p, sim.Options{}); err != nil {
		t.Fatal(err)
	}
	// The round at t = 20, before anything starts in it: a's tasks 0 (10 s) and 1 (20 s)
	// have finished (mean 15); tasks 3 and 4 are pending (2 × 15) and task 2, started at
	// 10, has run 10 s of an estimated 15 (5 more): remaining 35.
	if p.mean != 15 || p.remaining != 35 || p.running != 1 {
		t.Fatalf("mean %g, remaining %g, running %d", p.mean, p.remaining, p.running)
	}
	// b has no deadline: its sigmoid names 2 time units of 10 s after arrival 5.
	if p.target != 25 {
		t.Fatalf("target time %g, want 25", p.target)
	}
}
