package rtmr

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func mustDC(t *testing.T, c Cluster) *DC {
	t.Helper()
	s, err := NewDC(c, Estimates{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// n_m^min by hand: 7 maps of 3 s with 10 s until s_r^max: a slot finishes ⌊10/3⌋ = 3
// maps, so ⌈7/3⌉ = 3 slots; 4 s of room for a 5 s map: impossible (0).
func TestMinMapSlots(t *testing.T) {
	for _, c := range []struct {
		m         int
		em, avail float64
		want      int
	}{{7, 3, 10, 3}, {1, 5, 4, 0}, {6, 2, 12, 1}, {6, 2, 11, 2}} {
		if got := MinMapSlots(c.m, c.em, c.avail); got != c.want {
			t.Errorf("MinMapSlots(%d, %g, %g) = %d, want %d", c.m, c.em, c.avail, got, c.want)
		}
	}
}

// §III's last deficiency on a constructed instance: the reduce check looks at the single
// instant s_r^max. One worker, 4 map slots, 2 reduce slots, exact costs.
//
//	X: A 0, D 30, maps [10], R 2, c_m^max 1, c_r^max 2, η 1: ε̃^m = 10, ε̃^r = 2·1·10·½
//	   = 10. s_r^max = 20; ⌊20/10⌋ = 2 maps per slot, n_m^min = 1. Accepted; its reduces
//	   hold [20, 30).
//	Y: A 1, D 20 (A+D = 21), maps [10], R 2, c_r^max 2: ε̃^r 10, s_r^max 11, n_m^min 1
//	   (3 map slots are free). The reduce check at 11 does not see X's [20, 30): accepted.
//
// Execution: X maps 0–10, Y maps 1–11. At 10 only X is ready, its reduces take both
// slots 10–20; Y's run 20–30 and Y misses 21. RTMR rejects Y: X started at 0, so Y goes
// after it and from X's T^r [20 20] its reduces end at 30 > 21.
func TestDCMissesConstructed(t *testing.T) {
	est := &Estimates{Eta: 1, CmMax: 1, CrMax: 2}
	tr := Truth{MapCost: 1, ReduceCost: 2, Eta: 1}
	w := handWorkload(oneWorker(4, 2),
		WorkloadJob{Job: Job{ID: "X", Deadline: 30, MapSizes: []float64{10}, Reduces: 2, Est: est}, Truth: tr},
		WorkloadJob{Job: Job{ID: "Y", Arrival: 1, Deadline: 20, MapSizes: []float64{10}, Reduces: 2, Est: est}, Truth: tr},
	)
	dc := drive(t, w, mustDC(t, w.Cluster))
	if dc.accepted != 2 || dc.succeeded != 1 || dc.jobs[1].met || dc.jobs[1].finish != 30 {
		t.Fatalf("DC: accepted %d, succeeded %d, Y finished at %g", dc.accepted, dc.succeeded, dc.jobs[1].finish)
	}
	rt := drive(t, w, mustNew(t, w.Cluster, SchedulerConfig{Feedback: true}))
	if rt.accepted != 1 || rt.jobs[1].accepted || rt.SuccessRatio() != 1 {
		t.Fatalf("RTMR: accepted %d (Y %v), success %g", rt.accepted, rt.jobs[1].accepted, rt.SuccessRatio())
	}
}

// §III's first two deficiencies: DC cannot take a job with more reduces than reduce
// slots, and it rejects a job when n_m^min map slots are not free at its arrival even
// though it would finish in time later. l = 2, q = 2.
//
//	W: A 0, D 100, maps [1], R 3 (ε̃^r = 1/3): DC rejects (R > q); RTMR accepts.
//	X: A 0, D 12, maps [10 10], R 1, c_r^max 0.01: ε̃^r = 0.01·20 = 0.2, s_r^max 11.8,
//	   ⌊11.8/10⌋ = 1 map per slot, n_m^min 2: both map slots granted.
//	Y: A 1, D 100, maps [1], R 1: n_m^min 1 but 0 map slots free: DC rejects. RTMR runs
//	   it after X: from X's T^m [10 10] Y's map ends 11, its reduce by 11 + 0.01 ≤ 101.
func TestDCRejectsFeasible(t *testing.T) {
	est := &Estimates{Eta: 1, CmMax: 1, CrMax: 0.01}
	tr := Truth{MapCost: 1, ReduceCost: 0.01, Eta: 1}
	w := handWorkload(oneWorker(2, 2),
		WorkloadJob{Job: Job{ID: "X", Deadline: 12, MapSizes: []float64{10, 10}, Reduces: 1, Est: est}, Truth: tr},
		WorkloadJob{Job: Job{ID: "W", Deadline: 100, MapSizes: []float64{1}, Reduces: 3, Est: est}, Truth: tr},
		WorkloadJob{Job: Job{ID: "Y", Arrival: 1, Deadline: 100, MapSizes: []float64{1}, Reduces: 1, Est: est}, Truth: tr},
	)
	dc := drive(t, w, mustDC(t, w.Cluster))
	if !dc.jobs[0].accepted || dc.jobs[1].accepted || dc.jobs[2].accepted {
		t.Fatalf("DC accepted X %v W %v Y %v, want true false false", dc.jobs[0].accepted, dc.jobs[1].accepted, dc.jobs[2].accepted)
	}
	rt := drive(t, w, mustNew(t, w.Cluster, SchedulerConfig{}))
	if rt.accepted != 3 || rt.SuccessRatio() != 1 {
		t.Fatalf("RTMR accepted %d, success %g; want 3, 1", rt.accepted, rt.SuccessRatio())
	}
}

func TestDCRejectsMissingEstimates(t *testing.T) {
	if _, err := mustDC(t, oneWorker(1, 1)).Arrive(0, Job{ID: "a", Deadline: 1, MapSizes: []float64{1}}); err == nil {
		t.Fatal("a job with no estimates was judged")
	}
}

// windowLoad is the largest number of reduce slots that the windows [A + D − ε̃^r, A + D)
// of the given jobs hold at one instant (a sweep over their ends, closing before opening
// at equal times).
func windowLoad(jobs []Job) int {
	type edge struct {
		at    float64
		delta int
	}
	var edges []edge
	for _, j := range jobs {
		_, er := j.TaskBounds(*j.Est)
		edges = append(edges, edge{j.AbsDeadline() - er, j.Reduces}, edge{j.AbsDeadline(), -j.Reduces})
	}
	slices.SortFunc(edges, func(a, b edge) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.delta, b.delta)
	})
	load, peak := 0, 0
	for _, e := range edges {
		load += e.delta
		peak = max(peak, load)
	}
	return peak
}

// With the interval check (dcRules.intervalCheck) the reduce windows of DC's accepted
// jobs never need more than the cluster's reduce slots at once, whatever arrives; as
// §III states the test (the instant s_r^max only) they can (TestDCSection3Workload's
// instance). Map slots are plentiful so that the reduce check decides.
func TestDCIntervalCheckKeepsWindowsWithinSlots(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		q := rapid.IntRange(1, 4).Draw(rt, "reduceSlots")
		s, err := newDC(oneWorker(100, q), Estimates{}, dcRules{intervalCheck: true})
		if err != nil {
			rt.Fatal(err)
		}
		var accepted []Job
		now := 0.0
		for i := range rapid.IntRange(1, 12).Draw(rt, "jobs") {
			now += float64(rapid.IntRange(0, 5).Draw(rt, "gap"))
			j := Job{ID: fmt.Sprint(i), Arrival: now, Deadline: float64(rapid.IntRange(5, 40).Draw(rt, "deadline")),
				MapSizes: []float64{float64(rapid.IntRange(1, 4).Draw(rt, "size"))}, Reduces: rapid.IntRange(1, q).Draw(rt, "reduces"),
				Est: &Estimates{Eta: 1, CmMax: 1, CrMax: float64(rapid.IntRange(1, 10).Draw(rt, "crMax"))}}
			ok, err := s.Arrive(now, j)
			if err != nil {
				rt.Fatal(err)
			}
			if ok {
				accepted = append(accepted, j)
			}
			if load := windowLoad(accepted); load > q {
				rt.Fatalf("after job %d the accepted windows hold %d reduce slots at once, the cluster has %d", i, load, q)
			}
		}
	})
}
