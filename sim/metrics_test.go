package sim_test

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/fifo"
	"github.com/coraopt/coraopt/sim"
)

// FIFO on threeJobs completes at 8, 10, 10 (TestBaselinesByHand): responses 8, 9, 8
// against relative deadlines 20, 3, 3.
func TestMetricsByHand(t *testing.T) {
	w := parse(t, threeJobs)
	r := run(t, w, fifo.New(), 1)
	m := sim.Summarize(w, r)
	got := map[string]float64{
		"min": m.MinUtility, "sum": m.SumUtility, "zero": float64(m.ZeroUtilityJobs),
		"met": float64(m.DeadlinesMet), "with": float64(m.JobsWithDeadline),
		"penalty": m.DeadlineMissPenalty, "tardiness": m.MeanTardiness,
		"util": m.Utilization["containers"], "makespan": m.Makespan, "response": m.MeanResponse,
	}
	want := map[string]float64{
		// Utilities: j1 linear flat at 10; j2 1·(3−9)+1 < 0 → 0; j3 2·(3−8)+5 < 0 → 0.
		"min": 0, "sum": 10, "zero": 2,
		"met": 1, "with": 3,
		// rds.txt eq. 1: ω (y − y_ref)⁺ / y_ref = 1·6/3 + 2·5/3.
		"penalty": 2 + 10.0/3, "tardiness": 11.0 / 3,
		// 4·4 + 2 + 2·1 busy slot-seconds over 2 slots × 10 s.
		"util": 1, "makespan": 10, "response": 25.0 / 3,
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Fatal(diff)
	}
	if diff := cmp.Diff([]float64{0, 0, 10}, m.SortedUtilities); diff != "" {
		t.Fatal(diff)
	}
	j2 := m.Jobs[1]
	if *j2.Completion != 10 || *j2.Response != 9 || *j2.Deadline != 4 || *j2.Met || *j2.Tardiness != 6 {
		t.Fatalf("j2: %+v", j2)
	}
	// The lexmax bound (0, 1, 10) is first above the run at position 2; the sum gap is
	// against the sum bound, not the lexmax vector's sum.
	m.CompareToBound(&sim.BoundResult{SortedUtilities: []float64{0, 1, 10}, SumBound: 12.5, Exact: true}, 0)
	if m.VsBound.FirstShortPosition != 2 || m.VsBound.MinGap != 0 || m.VsBound.SumGap != 2.5 || m.VsBound.LexmaxUnproven {
		t.Fatalf("vs bound %+v", m.VsBound)
	}
	// The tolerance is relative: a bound of 1e-32 where the run has 5e-33 is short at
	// position 1 (an absolute 1e-12 called them level), while a difference of float
	// rounding at 0.3 is not.
	low := &sim.Metrics{SortedUtilities: []float64{5e-33, 0.3 * (1 - 1e-15), 1}, MinUtility: 5e-33}
	low.CompareToBound(&sim.BoundResult{SortedUtilities: []float64{1e-32, 0.3, 1}, Exact: true}, 1e-12)
	if low.VsBound.FirstShortPosition != 1 {
		t.Fatalf("a run at 5e-33 against a bound of 1e-32: first short position %d, want 1", low.VsBound.FirstShortPosition)
	}
	low.SortedUtilities[0] = 1e-32 * (1 - 1e-15)
	low.CompareToBound(&sim.BoundResult{SortedUtilities: []float64{1e-32, 0.3, 1}, Exact: true}, 1e-12)
	if low.VsBound.FirstShortPosition != 0 {
		t.Fatalf("a run level with the bound up to rounding: first short position %d, want 0", low.VsBound.FirstShortPosition)
	}
	// A lexmax vector that is not proven marks the gaps against it; the sum gap stands.
	m.CompareToBound(&sim.BoundResult{SortedUtilities: []float64{0, 1, 10}, SumBound: 12.5, Exact: false}, 0)
	if !m.VsBound.LexmaxUnproven || m.VsBound.SumGap != 2.5 {
		t.Fatalf("vs an unproven bound %+v", m.VsBound)
	}
	// A sum at the sum bound's certificate value, which the bound exceeds by its float
	// margin 1e-9·(|value| + 1) (the rds9 example: 9 against 9.00000001), has gap 0; a
	// gap past the tolerance stands, and so does a negative one (a broken proof).
	for _, c := range []struct{ bound, want float64 }{
		{10 + 1e-9*11, 0},
		{10 + 2e-9*11, 0},
		{10 + 3e-9*11, 3e-9 * 11},
		{10 - 1e-12, -1e-12},
	} {
		m.CompareToBound(&sim.BoundResult{SortedUtilities: []float64{0, 1, 10}, SumBound: c.bound, Exact: true}, 0)
		if want := c.bound - m.SumUtility; c.want != 0 && math.Abs(m.VsBound.SumGap-want) > 1e-15 || c.want == 0 && m.VsBound.SumGap != 0 {
			t.Errorf("sum bound %.17g, sum %g: sum gap %g, want %g", c.bound, m.SumUtility, m.VsBound.SumGap, c.want)
		}
	}
}

// admitAll is FIFO deciding admission (it admits every job), so the run reports
// rtmr.txt §V's measures too.
type admitAll struct{ policies.Policy }

func (admitAll) Admit(policies.View, int) bool { return true }

// A capacity drop under running tasks does not preempt them: five tasks of 10 s start
// at 0 on 5 slots, the capacity falls to 1 at 2, and all five run to 10; job f (one
// task of 5 s) arrives at 20 and runs to 25. The pool held 5·10 + 5 = 55 slot-seconds
// against a capacity in force of 5·2 + 1·23 = 33. Within that capacity the tasks used
// 5·2 + 1·8 + 5 = 23 (utilization 23/33, not 55/33 > 1); the other 4·8 = 32 slots held
// above it are the overcommitted slot-seconds. §V's successful utilization counts the
// slot time the jobs held over the capacity plus the overcommit: 55/65.
func TestUtilizationUnderCapacityDrop(t *testing.T) {
	w := parse(t, `{"cluster": {"pools": [{"name": "c", "slots": 5}], "capacity": [[2, {"c": 1}]]},
	 "jobs": [{"id": "a", "deadline": 100, "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 5, "runtime": {"type": "fixed", "value": 10}}]},
	          {"id": "f", "arrival": 20, "deadline": 100, "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 1, "task_runtimes": [5]}]}]}`)
	r := run(t, w, admitAll{fifo.New()}, 1)
	m := sim.Summarize(w, r)
	got := map[string]float64{"busy": r.Busy[0], "capacity": r.CapacitySeconds[0], "overcommitted": m.Overcommitted["c"],
		"utilization": m.Utilization["c"], "successful_utilization": m.SuccessfulUtilization, "makespan": m.Makespan}
	want := map[string]float64{"busy": 55, "capacity": 33, "overcommitted": 32,
		"utilization": 23.0 / 33, "successful_utilization": 55.0 / 65, "makespan": 25}
	if diff := cmp.Diff(want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Fatal(diff)
	}
	// Without a drop under running tasks the figure is absent from the JSON.
	plain := parse(t, `{"cluster": {"pools": [{"name": "c", "slots": 5}], "capacity": [[20, {"c": 1}]]},
	 "jobs": [{"id": "a", "utility": {"type": "constant", "value": 1}, "stages": [{"pool": "c", "tasks": 5, "task_runtimes": [10, 10, 10, 10, 10]}]}]}`)
	if pm := sim.Summarize(plain, run(t, plain, fifo.New(), 1)); pm.Overcommitted != nil || pm.Utilization["c"] != 1 {
		t.Fatalf("no overcommit: %v, utilization %v", pm.Overcommitted, pm.Utilization)
	}
}
