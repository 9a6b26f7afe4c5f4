package rtmr

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// randomWorkload draws a small cluster and jobs whose true task times stay within the
// declared estimates (c^max on the slowest slot, factor ≤ 1, true η ≤ declared η).
// Reduce shares are unequal, so max δ_i^r matters.
func randomWorkload(rt *rapid.T) *Workload {
	speeds := []float64{0.5, 0.75, 1}
	var c Cluster
	nw := rapid.IntRange(1, 3).Draw(rt, "workers")
	for i := range nw {
		w := Worker{
			MapSlots:    rapid.IntRange(0, 3).Draw(rt, "mapSlots"),
			ReduceSlots: rapid.IntRange(0, 2).Draw(rt, "reduceSlots"),
			MapSpeed:    rapid.SampledFrom(speeds).Draw(rt, "mapSpeed"),
			ReduceSpeed: rapid.SampledFrom(speeds).Draw(rt, "reduceSpeed"),
		}
		if i == 0 {
			w.MapSlots, w.ReduceSlots = max(w.MapSlots, 1), max(w.ReduceSlots, 1)
		}
		c.Workers = append(c.Workers, w)
	}
	minMap, minRed := math.Inf(1), math.Inf(1)
	for _, w := range c.Workers {
		if w.MapSlots > 0 {
			minMap = min(minMap, w.MapSpeed)
		}
		if w.ReduceSlots > 0 {
			minRed = min(minRed, w.ReduceSpeed)
		}
	}
	w := &Workload{Family: "random", Seed: rapid.Uint64().Draw(rt, "seed"), Cluster: c}
	n := rapid.IntRange(1, 10).Draw(rt, "jobs")
	at := 0.0
	for i := range n {
		at += float64(rapid.IntRange(0, 8).Draw(rt, "gap"))
		m := rapid.IntRange(1, 6).Draw(rt, "maps")
		sizes := make([]float64, m)
		for k := range sizes {
			sizes[k] = float64(rapid.IntRange(1, 4).Draw(rt, "size"))
		}
		r := rapid.IntRange(0, 4).Draw(rt, "reduces")
		var shares []float64
		if r > 1 && rapid.Bool().Draw(rt, "skew") {
			tot := 0.0
			for range r {
				v := float64(rapid.IntRange(1, 5).Draw(rt, "share"))
				shares = append(shares, v)
				tot += v
			}
			for k := range shares {
				shares[k] /= tot
			}
		}
		tr := Truth{
			MapCost:    float64(rapid.IntRange(1, 8).Draw(rt, "cm")) / 4,
			ReduceCost: float64(rapid.IntRange(1, 8).Draw(rt, "cr")) / 4,
			Eta:        float64(rapid.IntRange(1, 6).Draw(rt, "eta")) / 4,
			NoiseLo:    float64(rapid.IntRange(1, 4).Draw(rt, "lo")) / 4,
			NoiseHi:    1,
		}
		slack := 1 + float64(rapid.IntRange(0, 2).Draw(rt, "slack"))/4 // looser estimates
		w.Jobs = append(w.Jobs, WorkloadJob{
			Job: Job{
				ID: fmt.Sprintf("j%d", i), Arrival: at,
				Deadline: float64(rapid.IntRange(3, 60).Draw(rt, "deadline")),
				MapSizes: sizes, Reduces: r, ReduceShares: shares,
				Est: &Estimates{Eta: tr.Eta * slack, CmMax: tr.MapCost / minMap * slack, CrMax: tr.ReduceCost / minRed},
			},
			Truth: tr,
		})
	}
	return w
}

// The Appendix's guarantee: with true task times within the estimates, every job RTMR
// admits meets its deadline — with and without the feedback controller, for any Δ.
func TestRTMRAcceptedMeetDeadlinesRandom(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		w := randomWorkload(rt)
		opt := SchedulerConfig{
			Feedback:            rapid.Bool().Draw(rt, "feedback"),
			FeedbackKeepTighter: rapid.Bool().Draw(rt, "tighter"),
			Delta:               float64(rapid.IntRange(0, 3).Draw(rt, "delta")),
		}
		s, err := NewRTMR(w.Cluster, opt)
		if err != nil {
			rt.Fatal(err)
		}
		o := drive(rt, w, s)
		for i, j := range o.jobs {
			if j.accepted && !j.met {
				rt.Fatalf("%s (%+v) admitted job %s finished at %g, deadline %g",
					s.Name(), opt, w.Jobs[i].ID, j.finish, w.Jobs[i].AbsDeadline())
			}
		}
	})
}

// Success ratio 100% on workloads I and II under Within, 100 seeds, every RTMR variant.
func TestRTMRWorkloadsWithinAllSucceed(t *testing.T) {
	seeds := uint64(100)
	if testing.Short() {
		seeds = 8
	}
	for _, fam := range []string{"rtmr-1", "rtmr-2"} {
		for seed := uint64(1); seed <= seeds; seed++ {
			w := generated(t, fam, seed, Within, 1.3)
			for _, opt := range []SchedulerConfig{{Feedback: true}, {}, {Feedback: true, FeedbackKeepTighter: true}} {
				s := mustNew(t, w.Cluster, opt)
				o := drive(t, w, s)
				if o.SuccessRatio() != 1 {
					t.Errorf("%s seed %d %s: success ratio %.4f (%d of %d)", fam, seed, s.Name(), o.SuccessRatio(), o.succeeded, o.accepted)
				}
				if o.accepted == 0 {
					t.Errorf("%s seed %d %s: accepted nothing", fam, seed, s.Name())
				}
			}
		}
	}
}
