package sim_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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
	m.CompareToBound(&sim.BoundResult{SortedUtilities: []float64{0, 1, 10}, SumBound: 12.5}, 0)
	if m.VsBound.FirstShortPosition != 2 || m.VsBound.MinGap != 0 || m.VsBound.SumGap != 2.5 {
		t.Fatalf("vs bound %+v", m.VsBound)
	}
}
