package sim_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/fifo"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

func parse(t *testing.T, doc string) *workload.Workload {
	t.Helper()
	w, err := workload.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func run(t *testing.T, w *workload.Workload, p policies.Policy, seed uint64) *sim.Result {
	t.Helper()
	r, err := sim.Run(context.Background(), w, p, sim.Options{Seed: seed, Record: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.CheckInvariants(w, seed, r); err != nil {
		t.Fatal(err)
	}
	return r
}

func completions(r *sim.Result) []float64 {
	out := make([]float64, len(r.Jobs))
	for i, j := range r.Jobs {
		out[i] = j.Completion
	}
	return out
}

// A capacity drop lets running tasks finish and starts nothing until the pool is
// below the new capacity; a rise starts tasks at once.
func TestCapacityTrace(t *testing.T) {
	w := parse(t, `{"cluster": {"pools": [{"name": "c", "slots": 3}], "capacity": [[1, {"c": 1}], [10, {"c": 3}]]},
	 "jobs": [{"id": "a", "utility": {"type": "constant", "value": 1},
	  "stages": [{"pool": "c", "tasks": 6, "task_runtimes": [4, 4, 2, 1, 1, 1]}]}]}`)
	r := run(t, w, fifo.New(), 1)
	// t0: tasks 0,1,2 start (cap 3). t1: cap 1, three run. t2: task 2 ends, two run.
	// t4: tasks 0,1 end, zero run → task 3 starts (→5); t5 task 4 (→6); t6 task 5 (→7).
	starts := map[int]float64{}
	for _, p := range r.Placements {
		starts[p.Task] = p.Start
	}
	want := map[int]float64{0: 0, 1: 0, 2: 0, 3: 4, 4: 5, 5: 6}
	if diff := cmp.Diff(want, starts); diff != "" {
		t.Fatal(diff)
	}
	if r.Jobs[0].Completion != 7 {
		t.Fatalf("completion %g, want 7", r.Jobs[0].Completion)
	}
}

// Workers run tasks at base runtime / speed; stages run in order; after edges hold a
// job back until the jobs it waits for complete.
func TestWorkersStagesAfter(t *testing.T) {
	w := parse(t, `{"cluster": {"workers": [{"slots": {"map": 1, "reduce": 1}, "speed": 2}]},
	 "jobs": [
	  {"id": "a", "utility": {"type": "constant", "value": 1},
	   "stages": [{"pool": "map", "tasks": 2, "task_runtimes": [4, 2]}, {"pool": "reduce", "tasks": 1, "task_runtimes": [6]}]},
	  {"id": "b", "after": ["a"], "utility": {"type": "constant", "value": 1},
	   "stages": [{"pool": "map", "tasks": 1, "task_runtimes": [2]}]}]}`)
	r := run(t, w, fifo.New(), 1)
	// a: map 0→2, 2→3; reduce 3→6. b waits for a: 6→7 (the map slot idles from 3 to 6).
	if diff := cmp.Diff([]float64{6, 7}, completions(r)); diff != "" {
		t.Fatal(diff)
	}
	if r.Busy[0] != 4 || r.Busy[1] != 3 {
		t.Fatalf("busy slot-seconds %v, want map 4, reduce 3", r.Busy)
	}
}

// rejectAll is FIFO that rejects every job whose id starts with "x".
type rejectAll struct{ fifo.Policy }

func (rejectAll) Admit(v policies.View, j int) bool { return !strings.HasPrefix(v.Job(j).ID, "x") }

func TestAdmissionCascades(t *testing.T) {
	w := parse(t, `{"cluster": {"pools": [{"name": "c", "slots": 1}]},
	 "jobs": [
	  {"id": "x1", "arrival": 5, "utility": {"type": "step", "value": 3, "deadline": 1, "late": 0.5}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1]}]},
	  {"id": "a", "arrival": 0, "after": ["x1"], "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1]}]},
	  {"id": "b", "arrival": 6, "after": ["x1"], "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1]}]},
	  {"id": "c", "arrival": 1, "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [1]}]}]}`)
	r := run(t, w, &rejectAll{}, 1)
	for i, want := range []bool{true, true, true, false} {
		if r.Jobs[i].Rejected != want {
			t.Errorf("%s rejected = %v, want %v", r.Jobs[i].ID, r.Jobs[i].Rejected, want)
		}
	}
	m := sim.Summarize(w, r)
	// x1 earns its utility's limit (0.5); a and b earn a constant's 1; c completes at 2.
	if diff := cmp.Diff([]float64{0.5, 1, 1, 1}, m.SortedUtilities); diff != "" || m.Rejected != 3 {
		t.Fatalf("sorted utilities %v, rejected %d", m.SortedUtilities, m.Rejected)
	}
}

// ticker counts its ticks and starts nothing before t = 10.
type ticker struct {
	fifo.Policy
	ticks []float64
}

func (p *ticker) Interval() float64                       { return 4 }
func (p *ticker) Tick(_ context.Context, v policies.View) { p.ticks = append(p.ticks, v.Now()) }
func (p *ticker) Name() string                            { return "ticker" }
func (p *ticker) Pick(v policies.View, s policies.Slot) (int, bool) {
	if v.Now() < 10 {
		return 0, false
	}
	return p.Policy.Pick(v, s)
}

func TestTicks(t *testing.T) {
	w := parse(t, `{"cluster": {"pools": [{"name": "c", "slots": 1}]},
	 "jobs": [{"id": "a", "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [3]}]}]}`)
	p := &ticker{}
	r := run(t, w, p, 1)
	// Ticks at 0, 4, 8, 12: the round at 12 is the first at or after 10; a runs 12→15.
	if diff := cmp.Diff([]float64{0, 4, 8, 12}, p.ticks); diff != "" || r.Jobs[0].Completion != 15 {
		t.Fatalf("ticks %v (diff %s), completion %g", p.ticks, diff, r.Jobs[0].Completion)
	}
}

// idle never starts anything: the run must fail, not loop or report success.
type idle struct{ ticker }

func (idle) Pick(policies.View, policies.Slot) (int, bool) { return 0, false }

type liar struct{ fifo.Policy }

func (*liar) Pick(v policies.View, s policies.Slot) (int, bool) { return 0, true }

func TestPolicyFaults(t *testing.T) {
	w := parse(t, `{"cluster": {"pools": [{"name": "c", "slots": 1}]},
	 "jobs": [{"id": "a", "arrival": 1, "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [3]}]},
	          {"id": "b", "arrival": 0, "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [3]}]}]}`)
	for _, tc := range []struct {
		p    policies.Policy
		want string
	}{
		{&idle{}, "stalled"},
		{&liar{}, "no runnable task"},
		{&fifo.Policy{}, ""},
	} {
		_, err := sim.Run(context.Background(), w, tc.p, sim.Options{})
		if tc.want == "" {
			if err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("%T: want an error saying %q, got %v", tc.p, tc.want, err)
		}
	}
	// Without ticks a policy that never starts anything leaves jobs stuck.
	if _, err := sim.Run(context.Background(), w, struct {
		policies.Policy
	}{idlePick{}}, sim.Options{}); err == nil || !strings.Contains(err.Error(), "never completed") {
		t.Fatalf("want a never-completed error, got %v", err)
	}
}

type idlePick struct{}

func (idlePick) Name() string                                  { return "idle" }
func (idlePick) Pick(policies.View, policies.Slot) (int, bool) { return 0, false }

// peek records what the view says about unfinished tasks, and is clairvoyant only when
// asked to be.
type peek struct {
	fifo.Policy
	oracle policies.Oracle
}

func (p *peek) UseOracle(o policies.Oracle) { p.oracle = o }

func TestOracleOptIn(t *testing.T) {
	w := parse(t, `{"cluster": {"pools": [{"name": "c", "slots": 1}]},
	 "jobs": [{"id": "a", "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 2, "runtime": {"type": "exponential", "mean": 3}}]}]}`)
	p := &peek{}
	r := run(t, w, p, 9)
	if !r.Clairvoyant || p.oracle == nil {
		t.Fatal("a Clairvoyant policy got no oracle")
	}
	if got, want := p.oracle.TrueRuntime(0, 0, 1), r.Placements[1].Runtime; got != want {
		t.Fatalf("oracle says %g, the run used %g", got, want)
	}
	if r2 := run(t, w, fifo.New(), 9); r2.Clairvoyant {
		t.Fatal("FIFO marked clairvoyant")
	}
}

// Common random numbers: the same seed gives the same runtimes whatever the policy and
// whatever other jobs exist; another seed gives others.
func TestCommonRandomNumbers(t *testing.T) {
	w := parse(t, threeJobs)
	w.Jobs[0].Stages[0].Runtime = &workload.Runtime{Type: "gaussian", Mean: 4, Std: 1}
	runtimes := func(w *workload.Workload, seed uint64) map[[2]int]float64 {
		r := run(t, w, fifo.New(), seed)
		out := map[[2]int]float64{}
		for _, p := range r.Placements {
			if w.Jobs[p.Job].ID == "j1" {
				out[[2]int{p.Stage, p.Task}] = p.Runtime
			}
		}
		return out
	}
	a := runtimes(w, 5)
	bigger := *w
	bigger.Jobs = append([]workload.Job{{ID: "j0", Arrival: 0, Priority: 1, Utility: w.Jobs[0].Utility,
		Stages: []workload.Stage{{Pool: "containers", Tasks: 3, Runtime: &workload.Runtime{Type: "exponential", Mean: 2}}}}}, w.Jobs...)
	if err := bigger.Validate(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, runtimes(&bigger, 5)); diff != "" {
		t.Fatalf("adding a job changed j1's runtimes:\n%s", diff)
	}
	if cmp.Equal(a, runtimes(w, 6)) {
		t.Fatal("seeds 5 and 6 gave j1 the same runtimes")
	}
	for _, v := range a {
		if !(v > 0) || math.IsInf(v, 0) {
			t.Fatalf("runtime %g", v)
		}
	}
}

// Slot identity does not matter to FIFO at speed 1: 50 one-slot workers behave as one
// pool of 50 slots. (This pins the engine's free-worker hint: a slot it failed to
// offer would delay some job.)
func TestManyWorkersAsOnePool(t *testing.T) {
	pool, err := workload.CORAWorkload(30, 2)
	if err != nil {
		t.Fatal(err)
	}
	pool.Cluster = workload.Cluster{Pools: []workload.Pool{{Name: "containers", Slots: 50}},
		Capacity: []workload.CapacityStep{{Time: 500, Slots: map[string]int{"containers": 20}}, {Time: 2000, Slots: map[string]int{"containers": 50}}}}
	if err := pool.Validate(); err != nil {
		t.Fatal(err)
	}
	workers := *pool
	workers.Cluster = workload.Cluster{Workers: []workload.Worker{{Count: 50, Slots: map[string]int{"containers": 1}, Speed: 1}},
		Capacity: pool.Cluster.Capacity}
	if err := workers.Validate(); err != nil {
		t.Fatal(err)
	}
	a, b := run(t, pool, fifo.New(), 3), run(t, &workers, fifo.New(), 3)
	if diff := cmp.Diff(completions(a), completions(b)); diff != "" {
		t.Fatal(diff)
	}
}

// Slow start: with 0.5 the reduce may start once half the maps have finished; an
// early reduce task holds its slot until the last map ends.
func TestSlowStart(t *testing.T) {
	doc := `{"cluster": {"pools": [{"name": "map", "slots": 2}, {"name": "reduce", "slots": 2}]},
	 "jobs": [{"id": "a", "utility": {"type": "constant", "value": 1},
	  "stages": [{"pool": "map", "tasks": 4, "task_runtimes": [1, 5, 1, 1]},
	             {"pool": "reduce", "tasks": 2, "slow_start": SLOW, "task_runtimes": [2, 6]}]}]}`
	for _, tc := range []struct {
		slow       string
		completion float64
		reduceEnds []float64
	}{
		// Maps: 0→1, 0→5, 1→2, 2→3; done 2 of 4 at t=2. Reduces start at 2: task 0 works
		// 2→4 but waits for the last map (5); task 1 runs 2→8.
		{"0.5", 8, []float64{5, 8}},
		// Without slow start the reduces start at 5: 5→7 and 5→11.
		{"1", 11, []float64{7, 11}},
	} {
		w := parse(t, strings.Replace(doc, "SLOW", tc.slow, 1))
		r := run(t, w, fifo.New(), 1)
		if r.Jobs[0].Completion != tc.completion {
			t.Errorf("slow start %s: completion %g, want %g", tc.slow, r.Jobs[0].Completion, tc.completion)
		}
		var ends []float64
		for _, p := range r.Placements {
			if p.Stage == 1 {
				ends = append(ends, p.Finish)
			}
		}
		if diff := cmp.Diff(tc.reduceEnds, ends); diff != "" {
			t.Errorf("slow start %s: reduce finishes %s", tc.slow, diff)
		}
	}
}

// Wall-clock time is measured only with Options.Timing, once per decision round, and
// reported only under the metrics' timing key.
func TestTimingOnlyWhenAsked(t *testing.T) {
	w := parse(t, threeJobs)
	for _, timing := range []bool{false, true} {
		r, err := sim.Run(context.Background(), w, fifo.New(), sim.Options{Timing: timing})
		if err != nil {
			t.Fatal(err)
		}
		m := sim.Summarize(w, r)
		if !timing {
			if r.Timing != nil || m.Timing != nil {
				t.Fatal("timing measured without Options.Timing")
			}
			continue
		}
		if r.Timing == nil || len(r.Timing.DecisionNanos) != r.Rounds || m.Timing == nil || m.Timing.DecisionMaxMicros < m.Timing.DecisionMeanMicros {
			t.Fatalf("timing %+v for %d rounds, metrics %+v", r.Timing, r.Rounds, m.Timing)
		}
	}
}

// blocking stands for a policy whose solve runs until its context is cancelled: the
// run's context must reach StartRound and Tick, and the run must end with its error
// instead of acting on a decision that was cut short.
type blocking struct {
	fifo.Policy
	tick    bool
	entered chan struct{}
}

func (p *blocking) Name() string      { return "blocking" }
func (p *blocking) Interval() float64 { return 5 }
func (p *blocking) wait(ctx context.Context) {
	close(p.entered)
	<-ctx.Done()
}
func (p *blocking) StartRound(ctx context.Context, v policies.View) {
	if !p.tick {
		p.wait(ctx)
	}
}
func (p *blocking) Tick(ctx context.Context, v policies.View) {
	if p.tick {
		p.wait(ctx)
	}
}

func TestCancelReachesPolicy(t *testing.T) {
	w := parse(t, `{"cluster": {"pools": [{"name": "c", "slots": 1}]},
	 "jobs": [{"id": "a", "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [3]}]}]}`)
	for _, tick := range []bool{false, true} {
		p := &blocking{tick: tick, entered: make(chan struct{})}
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			<-p.entered
			cancel()
		}()
		_, err := sim.Run(ctx, w, p, sim.Options{})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("tick=%v: Run returned %v, want context.Canceled", tick, err)
		}
	}
}

func TestHooksResolvedOnce(t *testing.T) {
	h := policies.HooksOf(&blocking{})
	if diff := cmp.Diff([]string{"Rounder", "Ticker"}, h.Names()); diff != "" {
		t.Fatal(diff)
	}
	if h := policies.HooksOf(&fifo.Policy{}); len(h.Names()) != 0 {
		t.Fatalf("fifo has hooks %v", h.Names())
	}
}
