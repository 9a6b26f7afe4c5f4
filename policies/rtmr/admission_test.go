package rtmr

import (
	"slices"
	"testing"
)

func unitEst() Estimates { return Estimates{Eta: 1, CmMax: 1, CrMax: 1} }

func oneWorker(maps, reduces int) Cluster {
	return Cluster{Workers: []Worker{{MapSlots: maps, ReduceSlots: reduces, MapSpeed: 1, ReduceSpeed: 1}}}
}

func mustNew(t *testing.T, c Cluster, opt SchedulerConfig) *RTMR {
	t.Helper()
	s, err := NewRTMR(c, opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func arrive(t *testing.T, s Scheduler, now float64, j Job) bool {
	t.Helper()
	ok, err := s.Arrive(now, j)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func queueIDs(s *RTMR) []string {
	var ids []string
	for _, r := range s.adm.order {
		ids = append(ids, r.job.ID)
	}
	return ids
}

// A hand-worked run of Algorithms I–III on l = 2 map slots and q = 1 reduce slot with
// c_m^max = c_r^max = η = 1, every job arriving at 0 (so "current Time" is 0). ε̃^m is the
// largest map input, ε̃^r = η·δ/R (equal reduce shares).
//
//	A: D 20, maps [2 2 2], R 1: ε̃^m 2, ε̃^r 6. T_p = zeros.
//	   Alg. II: 0→2 [0 2], 0→2 [2 2], 2→4 [2 4]; e^m 4.  Alg. III: [0] → 4+6 = 10 = e ≤ 20. Accept.
//	B: D 15 (EDF before A), maps [1], R 1: ε̃ 1, 1. Head of queue, no job started: zeros.
//	   T^m [0 1], e^m 1; T^r [2], e 2 ≤ 15. Successor A from B's vectors:
//	   [0 1] → [1 2] → [2 3] → [3 4], e^m 4; T^r [2] → max(2,4)+6 = 10 ≤ 20. Accept.
//	C: D 11, maps [3], R 1 (ε̃^r 3). Head: zeros → T^m [0 3], e^m 3; T^r [6]; e 6 ≤ 11.
//	   B: [0 3] → [1 3], e^m 1; T^r max(6,1)+1 = 7 ≤ 15.
//	   A: [1 3] → [3 3] → [3 5] → [5 5], e^m 5; T^r max(7,5)+6 = 13 ≤ 20. Accept.
//	D: D 12, maps [4], R 1 (ε̃^r 4): after C. From C: T^m [3 4], e^m 4; T^r max(6,4)+4 = 10 ≤ 12.
//	   B: [3 4] → [4 4], e^m 4; T^r 11 ≤ 15.  A: [4 4] → [4 6] → [6 6] → [6 8], e^m 8; T^r 17 ≤ 20.
//	E: D 18, maps [1 1], R 1 (ε̃^r 2): after B. From B: [4 4] → [4 5] → [5 5], e^m 5; T^r 13 ≤ 18.
//	   A: [5 5] → [5 7] → [7 7] → [7 9], e^m 9; T^r 19 ≤ 20. Accept.
//	F: D 14, maps [1], R 1 (ε̃^r 1): after D. From D ([3 4], [10]): [4 4], e^m 4; T^r 11 ≤ 14.
//	   B: [4 5], e^m 5, T^r 12.  E: [4 5] → [5 5] → [5 6], e^m 6; T^r 14.
//	   A: [5 6] → [6 7] → [7 8] → [8 9], e^m 9; T^r max(14,9)+6 = 20 ≤ 20: meets exactly. Accept.
//	G: D 19, maps [1], R 1: after E. From E ([5 6], [14]): [6 6], e^m 6; T^r 15 ≤ 19 — G
//	   itself is fine, but A: [6 6] → [6 8] → [8 8] → [8 10], e^m 10; T^r 15+6 = 21 > 20.
//	   Rejected by lines 16–17 (a successor would miss).
//	H: D 5, maps [3], R 1 (ε̃^r 3): head, zeros: T^m [0 3], e^m 3; T^r 6 > 5. Rejected by line 7.
func TestAdmissionWorked(t *testing.T) {
	s := mustNew(t, oneWorker(2, 1), SchedulerConfig{Initial: unitEst()})
	steps := []struct {
		job   Job
		ok    bool
		queue []string
		// e per job in queue order after the step
		e []float64
	}{
		{Job{ID: "A", Deadline: 20, MapSizes: []float64{2, 2, 2}, Reduces: 1}, true, []string{"A"}, []float64{10}},
		{Job{ID: "B", Deadline: 15, MapSizes: []float64{1}, Reduces: 1}, true, []string{"B", "A"}, []float64{2, 10}},
		{Job{ID: "C", Deadline: 11, MapSizes: []float64{3}, Reduces: 1}, true, []string{"C", "B", "A"}, []float64{6, 7, 13}},
		{Job{ID: "D", Deadline: 12, MapSizes: []float64{4}, Reduces: 1}, true, []string{"C", "D", "B", "A"}, []float64{6, 10, 11, 17}},
		{Job{ID: "E", Deadline: 18, MapSizes: []float64{1, 1}, Reduces: 1}, true, []string{"C", "D", "B", "E", "A"}, []float64{6, 10, 11, 13, 19}},
		{Job{ID: "F", Deadline: 14, MapSizes: []float64{1}, Reduces: 1}, true, []string{"C", "D", "F", "B", "E", "A"}, []float64{6, 10, 11, 12, 14, 20}},
		{Job{ID: "G", Deadline: 19, MapSizes: []float64{1}, Reduces: 1}, false, []string{"C", "D", "F", "B", "E", "A"}, []float64{6, 10, 11, 12, 14, 20}},
		{Job{ID: "H", Deadline: 5, MapSizes: []float64{3}, Reduces: 1}, false, []string{"C", "D", "F", "B", "E", "A"}, []float64{6, 10, 11, 12, 14, 20}},
	}
	for _, st := range steps {
		if got := arrive(t, s, 0, st.job); got != st.ok {
			t.Fatalf("%s: accepted %v, want %v", st.job.ID, got, st.ok)
		}
		if q := queueIDs(s); !slices.Equal(q, st.queue) {
			t.Fatalf("after %s: queue %v, want %v", st.job.ID, q, st.queue)
		}
		var es []float64
		for _, r := range s.adm.order {
			es = append(es, r.e)
		}
		if !slices.Equal(es, st.e) {
			t.Fatalf("after %s: estimated finishes %v, want %v", st.job.ID, es, st.e)
		}
	}
	// The vectors of A after F, from the comments: T^m [8 9], T^r [20].
	a := s.adm.order[5]
	if !slices.Equal(a.tm, []float64{8, 9}) || !slices.Equal(a.tr, []float64{20}) {
		t.Fatalf("A's vectors %v %v, want [8 9] [20]", a.tm, a.tr)
	}
}

// Once a job has started, a new job with an earlier deadline goes after it (no
// preemption, §IV) and takes the latest-started job's vectors as T_p (§IV-B).
//
// l = 2, q = 1, unit estimates. A (D 20, maps [2 2 2], R 1) is admitted at 0: T^m [2 4],
// T^r [10]. Its first map is dispatched, so A has started. B arrives at 0 with D 11, maps
// [1], R 1: it cannot precede A; from A's vectors T^m [2 4] → max(2,0)+1 = 3: [3 4],
// e^m 3; T^r max(10,3)+1 = 11 ≤ 11: accepted behind A. C (D 11.5, maps [1], R 1) then
// lands after B: T^m [4 4], e^m 4; T^r 12 > 11.5: rejected. Had A not started, B would go
// first: T^m [0 1], T^r [2].
func TestAdmissionAfterStartedJob(t *testing.T) {
	s := mustNew(t, oneWorker(2, 1), SchedulerConfig{Initial: unitEst()})
	arrive(t, s, 0, Job{ID: "A", Deadline: 20, MapSizes: []float64{2, 2, 2}, Reduces: 1})
	if a, ok := s.Assign(0, Map, 0); !ok || a.Job != "A" {
		t.Fatalf("first map slot: %v %v", a, ok)
	}
	if !arrive(t, s, 0, Job{ID: "B", Deadline: 11, MapSizes: []float64{1}, Reduces: 1}) {
		t.Fatal("B rejected")
	}
	if q := queueIDs(s); !slices.Equal(q, []string{"A", "B"}) {
		t.Fatalf("queue %v", q)
	}
	b := s.adm.order[1]
	if !slices.Equal(b.tm, []float64{3, 4}) || b.e != 11 {
		t.Fatalf("B: T^m %v e %g, want [3 4] 11", b.tm, b.e)
	}
	if arrive(t, s, 0, Job{ID: "C", Deadline: 11.5, MapSizes: []float64{1}, Reduces: 1}) {
		t.Fatal("C accepted")
	}
}

// The §IV-A updates, by hand: starting from η 0.5, c_m^max 0.2, c_r^max 0.1, a job with
// input 8 (maps of 4 taking 1 and 2 s: ratios 0.25, 0.5) and one reduce reading 12 in 3 s
// (0.25) raises η to 12/8 = 1.5, c_m^max to 0.5 and c_r^max to 0.25; a second job
// with smaller ratios changes nothing.
func TestEstimatorWorked(t *testing.T) {
	s := mustNew(t, oneWorker(2, 1), SchedulerConfig{Initial: Estimates{Eta: 0.5, CmMax: 0.2, CrMax: 0.1}})
	arrive(t, s, 0, Job{ID: "A", Deadline: 1000, MapSizes: []float64{4, 4}, Reduces: 1})
	s.Assign(0, Map, 0)
	s.Assign(0, Map, 0)
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check(s.TaskFinished(1, TaskReport{Job: "A", Stage: Map, Task: 0, Runtime: 1, Input: 4}))
	check(s.TaskFinished(2, TaskReport{Job: "A", Stage: Map, Task: 1, Runtime: 2, Input: 4}))
	if _, ok := s.Assign(2, Reduce, 0); !ok {
		t.Fatal("no reduce")
	}
	check(s.TaskFinished(5, TaskReport{Job: "A", Stage: Reduce, Task: 0, Runtime: 3, Input: 12}))
	check(s.JobFinished(5, "A"))
	want := Estimates{Eta: 1.5, CmMax: 0.5, CrMax: 0.25}
	if got := s.est.Current(); got != want {
		t.Fatalf("estimates %+v, want %+v", got, want)
	}
	arrive(t, s, 5, Job{ID: "B", Deadline: 1000, MapSizes: []float64{10}, Reduces: 1})
	s.Assign(5, Map, 0)
	check(s.TaskFinished(6, TaskReport{Job: "B", Stage: Map, Task: 0, Runtime: 1, Input: 10}))
	s.Assign(6, Reduce, 0)
	check(s.TaskFinished(7, TaskReport{Job: "B", Stage: Reduce, Task: 0, Runtime: 1, Input: 5}))
	check(s.JobFinished(7, "B"))
	if got := s.est.Current(); got != want {
		t.Fatalf("estimates %+v after a cheaper job, want %+v", got, want)
	}
	// A job that declares its own estimates is admitted with them, not the learned ones.
	own := Estimates{Eta: 1, CmMax: 1, CrMax: 1}
	if got := s.Estimates(&Job{Est: &own}); got != own {
		t.Fatalf("declared estimates ignored: %+v", got)
	}
}
