package all_test

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// Two slots; A (3 tasks of 10 s, deadline 100) at 0, B (1 task, deadline 20) at 5.
// Each baseline's completions, worked by hand:
//   - fifo, edf: at 10 A's third task and B share the two slots: both done at 20.
//   - fifo-serial, edf-n: A alone until 20 (one slot idle from 10), then B: 20, 30.
//   - edf-serial: B displaces A at 5, starts when A's two tasks end at 10 (the other
//     slot idle), and A's third task runs after B: A 30, B 20.
func TestSerialBaselinesByHand(t *testing.T) {
	fixed := &workload.Runtime{Type: "fixed", Value: 10}
	w := &workload.Workload{Name: "hol", TimeUnit: 1, Cluster: workload.Cluster{Pools: []workload.Pool{{Name: "containers", Slots: 2}}},
		Jobs: []workload.Job{
			{ID: "A", Arrival: 0, Priority: 1, Deadline: 100, Utility: sched.Constant{Value: 1}, Stages: []workload.Stage{{Pool: "containers", Tasks: 3, Runtime: fixed}}},
			{ID: "B", Arrival: 5, Priority: 1, Deadline: 20, Utility: sched.Constant{Value: 1}, Stages: []workload.Stage{{Pool: "containers", Tasks: 1, Runtime: fixed}}},
		}}
	checkCompletions(t, w, map[string][2]float64{
		"fifo": {20, 20}, "edf": {20, 20}, "fifo-serial": {20, 30}, "edf-n": {20, 30}, "edf-serial": {30, 20},
	})
}

// checkCompletions runs each named policy on w (jobs A and B) and checks the
// simulator's invariants and the two completion times.
func checkCompletions(t *testing.T, w *workload.Workload, want map[string][2]float64) {
	t.Helper()
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, want := range want {
		p, err := all.New(name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := sim.Run(context.Background(), w, p, sim.Options{Record: true})
		if err == nil {
			err = sim.CheckInvariants(w, 0, r)
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := [2]float64{r.Jobs[0].Completion, r.Jobs[1].Completion}; got != want {
			t.Errorf("%s: A and B complete at %v, want %v", name, got, want)
		}
	}
}

// Hadoop-1 pools of one slot each; A (3 maps of 10 s, 1 reduce of 5 s with slow start
// 0.3) at 0, B (1 map of 10 s, deadline 30) at 15. A's reduce starts at 10 beside its
// second map and holds the reduce slot until A's maps end. Under edf-serial B displaces
// A at 15, but A's reduce waits for A's third map: unless A may still start it (at 20),
// neither job ever runs again. So A ends at 30, then B at 40 — as under fifo-serial,
// edf-n and fifo; edf gives B the map slot at 20.
func TestSerialBaselinesSlowStart(t *testing.T) {
	rt := func(x float64) *workload.Runtime { return &workload.Runtime{Type: "fixed", Value: x} }
	w := &workload.Workload{Name: "slowstart", TimeUnit: 1,
		Cluster: workload.Cluster{Pools: []workload.Pool{{Name: "map", Slots: 1}, {Name: "reduce", Slots: 1}}},
		Jobs: []workload.Job{
			{ID: "A", Arrival: 0, Priority: 1, Deadline: 100, Utility: sched.Constant{Value: 1}, Stages: []workload.Stage{
				{Pool: "map", Tasks: 3, Runtime: rt(10)}, {Pool: "reduce", Tasks: 1, Runtime: rt(5), SlowStart: 0.3}}},
			{ID: "B", Arrival: 15, Priority: 1, Deadline: 15, Utility: sched.Constant{Value: 1}, Stages: []workload.Stage{{Pool: "map", Tasks: 1, Runtime: rt(10)}}},
		}}
	checkCompletions(t, w, map[string][2]float64{
		"fifo": {30, 40}, "edf": {40, 30}, "fifo-serial": {30, 40}, "edf-n": {30, 40}, "edf-serial": {30, 40},
	})
}

// serialChecker wraps a serial policy and checks every Pick against the rule it is
// meant to follow (policies.Serial), with the head computed here from the View: at
// most one job holds slots; a pick goes to the head while no other job holds a slot,
// or to a displaced job whose early-started next-stage tasks wait for its current
// stage, for that stage; and no slot is declined that the rule gives a job
// (work-conserving within the one job).
type serialChecker struct {
	policies.Policy
	byDeadline bool
	errs       []string
}

func (c *serialChecker) StartRound(ctx context.Context, v policies.View) {
	c.Policy.(policies.Rounder).StartRound(ctx, v)
}

func (c *serialChecker) head(v policies.View) int {
	h := -1
	for _, j := range v.Active() { // (arrival, id) order
		if !v.Ready(j) {
			continue
		}
		if h < 0 || (c.byDeadline && policies.TargetTime(v, j) < policies.TargetTime(v, h)) {
			h = j
		}
	}
	return h
}

// due is the job the rule gives slot s to, or -1.
func (c *serialChecker) due(v policies.View, s policies.Slot) int {
	var holders []int
	for _, k := range v.Active() {
		for p := range v.Pools() {
			if v.Held(k, p) > 0 {
				holders = append(holders, k)
				break
			}
		}
	}
	if len(holders) > 1 {
		c.errs = append(c.errs, fmt.Sprintf("t=%g: jobs %v hold slots at once", v.Now(), holders))
	}
	h := c.head(v)
	if len(holders) == 1 && holders[0] != h {
		r := holders[0]
		st := v.Stage(r)
		if st+1 < len(v.Job(r).Stages) && v.Running(r, st+1) > 0 && v.Job(r).Stages[st].Pool == s.Pool && v.Pending(r, st) > 0 {
			return r
		}
		return -1
	}
	if h >= 0 && v.Runnable(h, s.Pool) {
		return h
	}
	return -1
}

func (c *serialChecker) Pick(v policies.View, s policies.Slot) (int, bool) {
	want := c.due(v, s)
	j, ok := c.Policy.Pick(v, s)
	switch {
	case ok && j != want:
		c.errs = append(c.errs, fmt.Sprintf("t=%g: picked job %d for pool %d, the rule gives it to %d", v.Now(), j, s.Pool, want))
	case !ok && want >= 0:
		c.errs = append(c.errs, fmt.Sprintf("t=%g: declined a slot of pool %d that job %d could use under the rule", v.Now(), s.Pool, want))
	}
	return j, ok
}

// randomJobs draws a small workload: a containers pool or map/reduce workers of mixed
// speeds; up to 6 jobs with or without deadlines, one or two stages, slow starts and
// `after` edges.
func randomJobs(t *rapid.T) *workload.Workload {
	w := &workload.Workload{Name: "random", TimeUnit: 1}
	pools := []string{"containers"}
	if rapid.Bool().Draw(t, "hadoop1") {
		pools = []string{"map", "reduce"}
		for k := range rapid.IntRange(1, 2).Draw(t, "kinds") {
			w.Cluster.Workers = append(w.Cluster.Workers, workload.Worker{Count: rapid.IntRange(1, 2).Draw(t, fmt.Sprintf("count%d", k)),
				Slots: map[string]int{"map": rapid.IntRange(1, 3).Draw(t, fmt.Sprintf("map%d", k)), "reduce": 1},
				Speed: rapid.SampledFrom([]float64{0.5, 1, 2}).Draw(t, fmt.Sprintf("speed%d", k))})
		}
	} else {
		w.Cluster.Pools = []workload.Pool{{Name: "containers", Slots: rapid.IntRange(1, 6).Draw(t, "slots")}}
	}
	for i := range rapid.IntRange(1, 6).Draw(t, "jobs") {
		j := workload.Job{ID: fmt.Sprintf("j%d", i), Arrival: float64(rapid.IntRange(0, 40).Draw(t, fmt.Sprintf("arr%d", i))), Priority: 1,
			Utility: sched.Sigmoid{Priority: 1, Deadline: rapid.Float64Range(1, 60).Draw(t, fmt.Sprintf("ud%d", i)), Decay: 0.5}}
		if rapid.Bool().Draw(t, fmt.Sprintf("hasdl%d", i)) {
			j.Deadline = float64(rapid.IntRange(1, 80).Draw(t, fmt.Sprintf("dl%d", i)))
		}
		for s := range rapid.IntRange(1, len(pools)).Draw(t, fmt.Sprintf("stages%d", i)) {
			st := workload.Stage{Pool: pools[s], Tasks: rapid.IntRange(1, 6).Draw(t, fmt.Sprintf("tasks%d_%d", i, s)),
				Runtime: &workload.Runtime{Type: "gaussian", Mean: 5, Std: 2}}
			if s > 0 && rapid.Bool().Draw(t, fmt.Sprintf("slow%d", i)) {
				st.SlowStart = rapid.SampledFrom([]float64{0.05, 0.5}).Draw(t, fmt.Sprintf("slowf%d", i))
			}
			j.Stages = append(j.Stages, st)
		}
		if i > 0 && rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("dep%d", i)) == 0 {
			j.After = []string{fmt.Sprintf("j%d", rapid.IntRange(0, i-1).Draw(t, fmt.Sprintf("on%d", i)))}
		}
		w.Jobs = append(w.Jobs, j)
	}
	if err := w.Validate(); err != nil {
		t.Fatalf("generated an invalid workload: %v", err)
	}
	return w
}

// fifo-serial and edf-serial on random workloads: never two jobs' tasks running at once
// (from the recorded placements), each Pick following the one-job rule and leaving no
// slot idle that the running job could use (serialChecker), every simulator invariant
// held. edf-n, rds.txt's non-preemptive serial EDF, is checked for one job at a time.
func TestSerialBaselinesRunOneJobAtATime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := randomJobs(t)
		seed := rapid.Uint64().Draw(t, "seed")
		for _, name := range []string{"fifo-serial", "edf-serial", "edf-n"} {
			p, _ := all.New(name)
			var run policies.Policy = p
			chk := &serialChecker{Policy: p, byDeadline: name == "edf-serial"}
			if name != "edf-n" {
				run = chk
			}
			r, err := sim.Run(context.Background(), w, run, sim.Options{Seed: seed, Record: true})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := sim.CheckInvariants(w, seed, r); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(chk.errs) > 0 {
				t.Fatalf("%s: %d bad picks, the first: %s", name, len(chk.errs), chk.errs[0])
			}
			pl := slices.Clone(r.Placements)
			slices.SortFunc(pl, func(a, b sim.Placement) int { return cmp.Compare(a.Start, b.Start) })
			for a := range pl {
				for b := a + 1; b < len(pl) && pl[b].Start < pl[a].Finish; b++ {
					if pl[a].Job != pl[b].Job {
						t.Fatalf("%s: job %d runs [%g, %g) while job %d runs [%g, %g)", name, pl[a].Job, pl[a].Start, pl[a].Finish, pl[b].Job, pl[b].Start, pl[b].Finish)
					}
				}
			}
		}
	})
}
