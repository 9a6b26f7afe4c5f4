package sim_test

import (
	"context"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// threeJobs is small enough to schedule by hand: two slots; j1 (t=0) has 4 tasks of
// 4 s, j2 (t=1) one of 2 s, j3 (t=2) two of 1 s. Deadlines 20, 3 and 3 s after
// arrival; linear utilities whose slopes RRH reads (0, 1 and 2 per second); priority
// 2 for j3 (Fair's weight).
const threeJobs = `{
 "cluster": {"pools": [{"name": "containers", "slots": 2}]},
 "jobs": [
  {"id": "j1", "arrival": 0, "deadline": 20, "utility": {"type": "linear", "priority": 10, "budget": 20, "slope": 0},
   "stages": [{"pool": "containers", "tasks": 4, "runtime": {"type": "fixed", "value": 4}}]},
  {"id": "j2", "arrival": 1, "deadline": 3, "utility": {"type": "linear", "priority": 1, "budget": 3, "slope": 1},
   "stages": [{"pool": "containers", "tasks": 1, "task_runtimes": [2]}]},
  {"id": "j3", "arrival": 2, "deadline": 3, "priority": 2, "utility": {"type": "linear", "priority": 5, "budget": 3, "slope": 2},
   "stages": [{"pool": "containers", "tasks": 2, "runtime": {"type": "fixed", "value": 1}}]}
 ]
}`

// TestBaselinesByHand pins each baseline's completion times on threeJobs; the comments
// give the hand schedule (slot events as job:task start→finish).
func TestBaselinesByHand(t *testing.T) {
	w, err := workload.Parse([]byte(threeJobs))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		policy string
		want   [3]float64 // completion of j1, j2, j3
	}{
		// t0 j1:0,1 →4; t4 j1:2,3 →8; t8 j2 →10, j3:0 →9; t9 j3:1 →10.
		{"fifo", [3]float64{8, 10, 10}},
		// held/priority: t4 all at 0, rank → j1:2 →8, then j2 (0) before j1 (1) →6;
		// t6 j3 (0/2) →7; t7 j3 (0) before j1 (1/1) →8; t8 j1:3 →12.
		{"fair", [3]float64{12, 6, 8}},
		// EDF-P: t4 j2 (due 4) →6, j3:0 (due 5) →5; t5 j3:1 →6; t6 j1:2,3 →10.
		{"edf", [3]float64{10, 6, 6}},
		// EDF-N: j1 keeps the queue until 8; then j2 alone (one slot idles) →10; then j3 →11.
		{"edf-n", [3]float64{8, 10, 11}},
		// RRH at t4 (C=2): RPT 4, 1, 1; yields 10, 0, 5; decays 0, 1, 2; costs 12, 2, 1;
		// rewards −0.25, −1, 2 → j3:0,1 →5. At t5: j1 (5−2)/4 = 0.75 > j2 (0−0)/1 → j1:2,3 →9;
		// t9 j2 →11.
		{"rrh", [3]float64{9, 11, 5}},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			p, err := all.New(tc.policy)
			if err != nil {
				t.Fatal(err)
			}
			r, err := sim.Run(context.Background(), w, p, sim.Options{Seed: 1, Record: true})
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tc.want {
				if got := r.Jobs[i].Completion; got != want {
					t.Errorf("%s completes at %g, want %g", r.Jobs[i].ID, got, want)
				}
			}
			if err := sim.CheckInvariants(w, 1, r); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestUnknownPolicy(t *testing.T) {
	if _, err := all.New("lottery"); err == nil || !strings.Contains(err.Error(), "fifo") {
		t.Fatalf("want an error listing the policies, got %v", err)
	}
}
