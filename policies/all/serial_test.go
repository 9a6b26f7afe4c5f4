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
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][2]float64{
		"fifo": {20, 20}, "edf": {20, 20}, "fifo-serial": {20, 30}, "edf-n": {20, 30}, "edf-serial": {30, 20},
	} {
		p, err := all.New(name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := sim.Run(context.Background(), w, p, sim.Options{Record: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.CheckInvariants(w, 0, r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := [2]float64{r.Jobs[0].Completion, r.Jobs[1].Completion}; got != want {
			t.Errorf("%s: A and B complete at %v, want %v", name, got, want)
		}
	}
}

// serialChecker wraps a serial policy and checks every Pick against the rule it is
// meant to follow, with the head computed here from the View: a pick is the head and
// no other job holds a slot (one job at a time); a declined slot is one the head
// cannot use now, or one it must leave while another job's tasks still run
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

func (c *serialChecker) Pick(v policies.View, s policies.Slot) (int, bool) {
	j, ok := c.Policy.Pick(v, s)
	h := c.head(v)
	othersHold := false
	for _, k := range v.Active() {
		for p := range v.Pools() {
			if k != h && v.Held(k, p) > 0 {
				othersHold = true
			}
		}
	}
	switch {
	case ok && (j != h || othersHold):
		c.errs = append(c.errs, fmt.Sprintf("t=%g: picked job %d (head %d, other jobs hold slots: %v)", v.Now(), j, h, othersHold))
	case !ok && h >= 0 && v.Runnable(h, s.Pool) && !othersHold:
		c.errs = append(c.errs, fmt.Sprintf("t=%g: declined a slot of pool %d that the head %d could use, nothing else running", v.Now(), s.Pool, h))
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
				st.SlowStart = 0.5
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
