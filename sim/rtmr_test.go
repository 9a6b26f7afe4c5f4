package sim_test

import (
	"context"
	"testing"

	"github.com/coraopt/coraopt/policies/rtmr"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload/hadoop1"
)

// TestRTMRThroughTheEngine runs RTMR (policies/rtmr's simulator policy) in this
// simulator on its own workloads I and II (converted by workload/hadoop1) with true
// task times within the declared estimates, and checks
// the paper's guarantee end to end: every admitted job meets its deadline (rtmr.txt
// §IV, Appendix), with every engine invariant holding. The two were written
// independently; agreement here checks both.
func TestRTMRThroughTheEngine(t *testing.T) {
	for _, family := range []string{"rtmr-1", "rtmr-2"} {
		for seed := uint64(1); seed <= 5; seed++ {
			w, err := hadoop1.RTMRFamily(family, seed, "within")
			if err != nil {
				t.Fatal(err)
			}
			p := rtmr.New(rtmr.Config{})
			r, err := sim.Run(context.Background(), w, p, sim.Options{Record: true})
			if err != nil {
				t.Fatalf("%s seed %d: %v", family, seed, err)
			}
			if p.Err() != nil {
				t.Fatalf("%s seed %d: %v", family, seed, p.Err())
			}
			if err := sim.CheckInvariants(w, 0, r); err != nil {
				t.Fatalf("%s seed %d: %v", family, seed, err)
			}
			m := sim.Summarize(w, r)
			admitted := len(w.Jobs) - m.Rejected
			if admitted == 0 || m.DeadlinesMet != admitted {
				t.Fatalf("%s seed %d: %d of %d admitted jobs met their deadlines (%d rejected)", family, seed, m.DeadlinesMet, admitted, m.Rejected)
			}
			t.Logf("%s seed %d: admitted %d of %d, all met; utilization %v", family, seed, admitted, len(w.Jobs), m.Utilization)
			if seed == 1 {
				// Rejected jobs earn UtilityNever (0 for a step): the bound must still hold.
				b, err := sim.Bound(context.Background(), w, 0, 30, r.Makespan)
				if err != nil {
					t.Fatal(err)
				}
				if !b.Exact || !b.CoversRejections || sim.BeatsBound(m.SortedUtilities, b.SortedUtilities, 0) {
					t.Fatalf("%s: bound %+v against %v", family, b, m.SortedUtilities)
				}
			}
		}
	}
}
