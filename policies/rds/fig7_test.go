package rds_test

import (
	"context"
	"math"
	"testing"

	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// TestFig7 pins the README's reproduction of rds.txt Fig. 7 — the deadline-miss penalty
// (eq. 1) of Fair, EDF-N, EDF-P and RDS under dynamic capacity — as `coraopt gen
// --family rds --jobs N --seed 1` then `coraopt simulate --seed 1` computes it: the
// paper's nine jobs J1–J9 of Table 3, and the 100-job workload. Each run must satisfy
// the simulator's invariants. The numbers are ours, not the paper's (the README says
// where they agree); the test fails when the policies or the simulator change them.
func TestFig7(t *testing.T) {
	type pin struct {
		penalty float64
		met     int
	}
	for _, c := range []struct {
		jobs int
		want map[string]pin
	}{
		{9, map[string]pin{"fair": {2.740739900743499, 1}, "edf-n": {7.588507485979505, 1}, "edf": {0, 9},
			"rds": {4.181235552456901, 2}, "rds-ideal": {2.1758567462757425, 2}}},
		{100, map[string]pin{"fair": {182.638630764101, 25}, "edf-n": {2267.883199045499, 1}, "edf": {182.33566747928256, 51},
			"rds": {149.25207867483783, 28}, "rds-ideal": {143.61906067854207, 27}}},
	} {
		if c.jobs > 9 && testing.Short() {
			continue
		}
		w, err := workload.RDSWorkload(c.jobs, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"fair", "edf-n", "edf", "rds", "rds-ideal"} {
			p, err := all.New(name)
			if err != nil {
				t.Fatal(err)
			}
			res, err := sim.Run(context.Background(), w, p, sim.Options{Seed: 1, Record: true})
			if err != nil {
				t.Fatalf("%d jobs, %s: %v", c.jobs, name, err)
			}
			if err := sim.CheckInvariants(w, 1, res); err != nil {
				t.Fatalf("%d jobs, %s: %v", c.jobs, name, err)
			}
			m := sim.Summarize(w, res)
			want := c.want[name]
			if math.Abs(m.DeadlineMissPenalty-want.penalty) > 1e-6*max(1, want.penalty) || m.DeadlinesMet != want.met {
				t.Errorf("%d jobs, %s: miss penalty %.16g, %d met; pinned %.16g, %d", c.jobs, name,
					m.DeadlineMissPenalty, m.DeadlinesMet, want.penalty, want.met)
			}
		}
	}
}
