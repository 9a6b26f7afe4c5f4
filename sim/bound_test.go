package sim_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/policies/fifo"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// Two 2-second jobs on one slot, both worth 1 if they respond within 2 s: any schedule
// gives (0, 1). With 1-second slots the relaxation is exact here; with 2-second slots
// the second job is credited at the start of its slot, t = 2, still in time, so the
// bound is (1, 1); with 4-second slots both demands round down to 0 and both jobs get
// their utility at response 0.
func TestBoundByHand(t *testing.T) {
	w := parse(t, `{"cluster": {"pools": [{"name": "c", "slots": 1}]},
	 "jobs": [
	  {"id": "a", "utility": {"type": "step", "value": 1, "deadline": 2}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [2]}]},
	  {"id": "b", "utility": {"type": "step", "value": 1, "deadline": 2}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [2]}]}]}`)
	r := run(t, w, fifo.New(), 1)
	m := sim.Summarize(w, r)
	if diff := cmp.Diff([]float64{0, 1}, m.SortedUtilities); diff != "" {
		t.Fatal(diff)
	}
	for _, tc := range []struct {
		slot  float64
		want  []float64
		slots int
	}{
		{1, []float64{0, 1}, 4 + 4 + 1}, // until 4 s, room for 4 units after it, one spare
		{2, []float64{1, 1}, 2 + 2 + 1},
		{4, []float64{1, 1}, 1 + 0 + 1},
	} {
		b, err := sim.Bound(context.Background(), w, 1, tc.slot, r.Makespan)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, b.SortedUtilities); diff != "" || b.Slots != tc.slots || !b.Exact {
			t.Errorf("slot %g: bound %v (%d slots, exact %v), want %v (%d slots)", tc.slot, b.SortedUtilities, b.Slots, b.Exact, tc.want, tc.slots)
		}
		if sim.BeatsBound(m.SortedUtilities, b.SortedUtilities, 0) {
			t.Errorf("slot %g: FIFO beats the bound", tc.slot)
		}
	}
	if _, err := sim.Bound(context.Background(), w, 1, 0, 4); err == nil {
		t.Error("a zero slot length gave no error")
	}
}

// A capacity drop: the relaxation's capacity per slot is the largest capacity while a
// task started earlier could still be running.
func TestBoundCapacityWindow(t *testing.T) {
	w := parse(t, `{"cluster": {"pools": [{"name": "c", "slots": 2}], "capacity": [[2, {"c": 0}], [6, {"c": 2}]]},
	 "jobs": [{"id": "a", "utility": {"type": "linear", "priority": 10, "budget": 10, "slope": 1}, "stages": [{"pool": "c", "tasks": 2, "task_runtimes": [3, 3]}]}]}`)
	r := run(t, w, fifo.New(), 1)
	// Both tasks start at 0 and run through the drop at 2: completion 3, utility 17.
	if r.Jobs[0].Completion != 3 {
		t.Fatalf("completion %g", r.Jobs[0].Completion)
	}
	b, err := sim.BoundWith(context.Background(), w, 1, 1, r.Makespan, sim.BoundOptions{NoEarliestCompletion: true})
	if err != nil {
		t.Fatal(err)
	}
	// Slot 3 ([2, 3)) keeps capacity 2 because tasks of up to 3 s started at 0 may still
	// run; 6 units fit in slots 1–3, credited at t = 2: utility 18 (with capacity 0 there
	// they would spill to slot 7, credited at t = 6: 14).
	if diff := cmp.Diff([]float64{18}, b.SortedUtilities); diff != "" {
		t.Fatal(diff)
	}
	// With the earliest completion (a 3 s task cannot finish before t = 3) the credit
	// is at t = 3 (less a margin of 1e-9 relative for float error): 17, what FIFO gets.
	if b, err = sim.Bound(context.Background(), w, 1, 1, r.Makespan); err != nil {
		t.Fatal(err)
	}
	if u := b.SortedUtilities; len(u) != 1 || math.Abs(u[0]-17) > 1e-8 || u[0] < 17 {
		t.Fatalf("bound %v, want 17 (plus the margin)", u)
	}
}

// A bound that needs more slots than sched.MaxHorizon is refused with a slot length
// that fits, and that slot does fit; a slot longer than most deadlines is flagged as
// near-vacuous (issue 29: the NASA trace's first fitting slot was longer than 95% of
// its jobs' deadlines).
func TestBoundSlotFitAndVacuity(t *testing.T) {
	w := parse(t, `{"cluster": {"pools": [{"name": "c", "slots": 1}]},
	 "jobs": [
	  {"id": "a", "deadline": 30, "utility": {"type": "step", "value": 1, "deadline": 30}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [20]}]},
	  {"id": "b", "deadline": 30, "utility": {"type": "step", "value": 1, "deadline": 30}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [20]}]},
	  {"id": "c", "deadline": 5000, "utility": {"type": "step", "value": 1, "deadline": 5000}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [20]}]}]}`)
	until := 5e6 // a long trace: 5,000,000 slots of 1 s
	_, err := sim.Bound(context.Background(), w, 1, 1, until)
	var short *sim.SlotTooShortError
	if !errors.As(err, &short) {
		t.Fatalf("got %v, want a SlotTooShortError", err)
	}
	if short.Fits <= 1 || short.Fits != math.Trunc(short.Fits) {
		t.Fatalf("fitting slot %g: want a whole number of seconds above 1", short.Fits)
	}
	b, err := sim.Bound(context.Background(), w, 1, short.Fits, until)
	if err != nil {
		t.Fatalf("the slot the refusal names, %g s: %v", short.Fits, err)
	}
	if b.Slots > sched.MaxHorizon {
		t.Fatalf("%d slots", b.Slots)
	}
	for _, tc := range []struct {
		slot    float64
		under   int
		vacuous bool
	}{{10, 0, false}, {40, 2, true}, {6000, 3, true}} {
		b, err := sim.Bound(context.Background(), w, 1, tc.slot, 100)
		if err != nil {
			t.Fatal(err)
		}
		if b.DeadlinesUnderSlot != tc.under || b.JobsWithDeadline != 3 || b.NearVacuous() != tc.vacuous {
			t.Errorf("slot %g: %d of %d deadlines under the slot, near-vacuous %v; want %d, %v", tc.slot, b.DeadlinesUnderSlot, b.JobsWithDeadline, b.NearVacuous(), tc.under, tc.vacuous)
		}
	}
}

// A bound whose onion peeling leaves the sweep reports its progress, up to every job
// fixed: three jobs with equal step utilities on one slot, of which only one can be on
// time — each could be alone, not all together, a stall the layered engine decides.
func TestBoundProgress(t *testing.T) {
	w := parse(t, `{"cluster": {"pools": [{"name": "c", "slots": 1}]},
	 "jobs": [
	  {"id": "a", "utility": {"type": "step", "value": 1, "deadline": 2}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [2]}]},
	  {"id": "b", "utility": {"type": "step", "value": 1, "deadline": 2}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [2]}]},
	  {"id": "c", "utility": {"type": "step", "value": 1, "deadline": 2}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [2]}]}]}`)
	var fixed []int
	jobs := 0
	b, err := sim.BoundWith(context.Background(), w, 1, 1, 6, sim.BoundOptions{Progress: func(f, n, _ int) { fixed, jobs = append(fixed, f), n }})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]float64{0, 0, 1}, b.SortedUtilities); diff != "" || !b.Exact {
		t.Fatalf("bound %v (exact %v), want (0, 0, 1)", b.SortedUtilities, b.Exact)
	}
	if len(fixed) == 0 || fixed[len(fixed)-1] != 3 || jobs != 3 || !slices.IsSorted(fixed) {
		t.Fatalf("progress %v of %d jobs, want up to 3 of 3", fixed, jobs)
	}
}

// Every job of sum-bound-fixed-jobs.json (found by TestNoPolicyBeatsTheBound) has so
// little work that its demand rounds to 0 at 5-second slots, so the relaxation gives
// each its best utility and the sum bound is their sum. Summed in the order of the jobs
// it came one ulp below the same utilities summed in sorted order (…298 against …299),
// so the lexmax vector's sum — and a run that reaches it — stood above the "bound";
// the sum of such jobs is raised by the float margin tas.SumBound adds to its own.
func TestSumBoundOfJobsWithNoWork(t *testing.T) {
	w, err := workload.DecodeFile("testdata/sum-bound-fixed-jobs.json")
	if err != nil {
		t.Fatal(err)
	}
	b, err := sim.Bound(context.Background(), w, 12, 5, 200)
	if err != nil {
		t.Fatal(err)
	}
	if b.SumBound < b.SumUtility {
		t.Fatalf("sum bound %v below the lexmax vector's sum %v", b.SumBound, b.SumUtility)
	}
	if gap := b.SumBound - b.SumUtility; gap > sim.SumGapTolerance(b.SumBound) {
		t.Errorf("sum bound %v is %g above the sum of the jobs' best utilities %v: more than the float margin", b.SumBound, gap, b.SumUtility)
	}
	r, err := sim.Run(context.Background(), w, fifo.New(), sim.Options{Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	if m := sim.Summarize(w, r); m.SumUtility > b.SumBound {
		t.Errorf("fifo's sum %v above the sum bound %v", m.SumUtility, b.SumBound)
	}
}
