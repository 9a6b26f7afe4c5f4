package workload_test

import (
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// TestNoArrivalsKeepsAbsoluteTime: every job arrives at 0, and its utility of any
// completion time c and its deadline are what they were — the utility of c − arrival.
func TestNoArrivalsKeepsAbsoluteTime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.Float64Range(0, 5000).Draw(t, "arrival")
		tu := rapid.SampledFrom([]float64{1, 60}).Draw(t, "time unit")
		var u sched.Utility
		switch rapid.IntRange(0, 4).Draw(t, "family") {
		case 0:
			u = sched.Sigmoid{Priority: 3, Deadline: rapid.Float64Range(1, 50).Draw(t, "d"), Decay: rapid.Float64Range(0, 5).Draw(t, "mu")}
		case 1:
			u = sched.Linear{Priority: 2, Budget: rapid.Float64Range(1, 50).Draw(t, "B"), Slope: 0.5, Hard: rapid.Bool().Draw(t, "hard")}
		case 2:
			u = sched.Step{Value: 1, Deadline: rapid.Float64Range(1, 50).Draw(t, "d")}
		case 3:
			soft := rapid.Float64Range(1, 50).Draw(t, "soft")
			u = sched.RDS{Priority: 2, Soft: soft, Hard: soft * rapid.Float64Range(1, 2).Draw(t, "hard/soft")}
		default:
			u = sched.Piecewise{Points: [][2]float64{{2, 5}, {9, 1}}}
		}
		w := &workload.Workload{Name: "x", TimeUnit: tu, Cluster: workload.Cluster{Pools: []workload.Pool{{Name: "c", Slots: 1}}},
			Jobs: []workload.Job{{ID: "j", Arrival: a, Deadline: 30, Priority: 1, Utility: u,
				Stages: []workload.Stage{{Pool: "c", Tasks: 1, TaskRuntimes: []float64{1}}}}}}
		if err := w.Validate(); err != nil {
			t.Fatal(err)
		}
		z, err := workload.NoArrivals(w)
		if err != nil {
			t.Fatal(err)
		}
		j := z.Jobs[0]
		if j.Arrival != 0 || j.Deadline != a+30 {
			t.Fatalf("arrival %g deadline %g, want 0 and %g", j.Arrival, j.Deadline, a+30)
		}
		for k := range 200 {
			c := a + float64(k)*tu*0.37 // completion times from the arrival on
			want := workload.UtilityOfResponse(u, (c-a)/tu)
			got := workload.UtilityOfResponse(j.Utility, c/tu)
			if math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
				t.Fatalf("%s: completion %g: %g, want %g", u.Type(), c, got, want)
			}
		}
	})
}
