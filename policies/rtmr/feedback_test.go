package rtmr

import (
	"slices"
	"testing"
)

// Algorithms V and VI by hand. l = 2, q = 1, unit estimates, Δ = 1.
//
// Admission at 0: A (D 30, maps [4 4], R 1: ε̃^m 4, ε̃^r 8): T^m [4 4], e^m 4, T^r [12],
// e 12. B (D 40, maps [2], R 1: ε̃^r 2) after A: T^m [4 6], e^m 6, T^r [14], e 14.
//
// Execution: A's maps run 0–1 and 0–2, B's map 1–2.5, A's reduce 2–3. A finishes at ẽ = 3;
// |e − ẽ| = 9 ≥ Δ (Algorithm V line 7). A is at the head, so T_p are zeros. Algorithm VI:
// U^m = [0 0] → the smallest becomes 1: [0 1] → the smallest becomes 2: [1 2]; U^r = [0] →
// [3]. B is recomputed at current time 3 (lines 13–18): [1 2] → max(1,3)+2 = 5: [2 5],
// e^m 5; T^r max(3,5)+2 = 7. So e_B drops from 14 to 7.
//
// C then arrives at 3 (D 6, maps [1], R 1). B has started, so C goes after it with B's
// vectors: with feedback [2 5] → max(2,3)+1 = 4: [4 5], e^m 4; T^r max(7,4)+1 = 8 ≤ 9:
// accepted. Without feedback B still holds [4 6], [14]: e = 15 > 9: rejected.
func TestFeedbackWorked(t *testing.T) {
	for _, fb := range []bool{true, false} {
		s := mustNew(t, oneWorker(2, 1), SchedulerConfig{Feedback: fb, Delta: 1, Initial: unitEst()})
		arrive(t, s, 0, Job{ID: "A", Deadline: 30, MapSizes: []float64{4, 4}, Reduces: 1})
		arrive(t, s, 0, Job{ID: "B", Deadline: 40, MapSizes: []float64{2}, Reduces: 1})
		step := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		assign := func(now float64, pool Stage, want Assignment) {
			t.Helper()
			a, ok := s.Assign(now, pool, 0)
			if !ok || a != want {
				t.Fatalf("at %g %v: got %v %v, want %v", now, pool, a, ok, want)
			}
		}
		assign(0, Map, Assignment{"A", 0})
		assign(0, Map, Assignment{"A", 1})
		step(s.TaskFinished(1, TaskReport{Job: "A", Stage: Map, Task: 0, Runtime: 1, Input: 4}))
		assign(1, Map, Assignment{"B", 0})
		step(s.TaskFinished(2, TaskReport{Job: "A", Stage: Map, Task: 1, Runtime: 2, Input: 4}))
		assign(2, Reduce, Assignment{"A", 0})
		step(s.TaskFinished(2.5, TaskReport{Job: "B", Stage: Map, Task: 0, Runtime: 1.5, Input: 2}))
		if _, ok := s.Assign(2.5, Reduce, 0); ok {
			t.Fatal("reduce dispatched with no free reduce slot")
		}
		step(s.TaskFinished(3, TaskReport{Job: "A", Stage: Reduce, Task: 0, Runtime: 1, Input: 8}))
		step(s.JobFinished(3, "A"))
		b := s.adm.order[0]
		if fb {
			if !slices.Equal(b.tm, []float64{2, 5}) || !slices.Equal(b.tr, []float64{7}) || b.e != 7 {
				t.Fatalf("feedback: B's T^m %v T^r %v e %g, want [2 5] [7] 7", b.tm, b.tr, b.e)
			}
		} else if !slices.Equal(b.tm, []float64{4, 6}) || b.e != 14 {
			t.Fatalf("no feedback: B's T^m %v e %g, want [4 6] 14", b.tm, b.e)
		}
		got := arrive(t, s, 3, Job{ID: "C", Arrival: 3, Deadline: 6, MapSizes: []float64{1}, Reduces: 1})
		if got != fb {
			t.Fatalf("feedback=%v: C accepted %v", fb, got)
		}
		if fb && s.Feedbacks() != 1 {
			t.Fatalf("feedback ran %d times, want 1", s.Feedbacks())
		}
	}
}

// Algorithm VI on its own: predecessor vectors [3 7 9], actual finishes [1 8]: the
// smallest (3) becomes 1 → [1 7 9]; the smallest (1) becomes 8 → [7 8 9].
func TestSATUWorked(t *testing.T) {
	um, ur := satu([]float64{3, 7, 9}, []float64{5}, []float64{1, 8}, nil)
	if !slices.Equal(um, []float64{7, 8, 9}) || !slices.Equal(ur, []float64{5}) {
		t.Fatalf("U^m %v U^r %v", um, ur)
	}
}

// Below Δ nothing is rewritten (line 7): same run as TestFeedbackWorked with Δ = 100.
func TestFeedbackThreshold(t *testing.T) {
	s := mustNew(t, oneWorker(2, 1), SchedulerConfig{Feedback: true, Delta: 100, Initial: unitEst()})
	arrive(t, s, 0, Job{ID: "A", Deadline: 30, MapSizes: []float64{4}, Reduces: 1})
	arrive(t, s, 0, Job{ID: "B", Deadline: 40, MapSizes: []float64{2}, Reduces: 1})
	s.Assign(0, Map, 0)
	s.Assign(0, Map, 0)
	for _, err := range []error{
		s.TaskFinished(1, TaskReport{Job: "A", Stage: Map, Task: 0, Runtime: 1, Input: 4}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	s.Assign(1, Reduce, 0)
	if err := s.TaskFinished(2, TaskReport{Job: "A", Stage: Reduce, Task: 0, Runtime: 1, Input: 4}); err != nil {
		t.Fatal(err)
	}
	before := slices.Clone(s.adm.order[1].tm)
	if err := s.JobFinished(2, "A"); err != nil {
		t.Fatal(err)
	}
	if s.Feedbacks() != 0 || !slices.Equal(s.adm.order[0].tm, before) {
		t.Fatalf("feedback ran below the threshold")
	}
}

// Algorithm V as printed recomputes a successor that started long ago as if its maps
// were still to run; FeedbackKeepTighter keeps the smaller vector. l = 2, q = 1, unit
// estimates, Δ = 0.5.
//
// At 0: A (D 100, maps [4], R 1): T^m [0 4], e^m 4, T^r [8]. B (D 100, maps [1], R 1),
// after A (same deadline, later admission): T^m [1 4], e^m 1, T^r [9]. A's map runs 0–4,
// B's 0–1; B's reduce waits, the one reduce slot reserved for A (Algorithm IV). A's
// reduce runs 4–7 and A finishes at 7, |8 − 7| ≥ Δ: U^m = [0 0] with A's map end 4 →
// [0 4], U^r [7]. B recomputed at 7: [0 4] → max(0,7)+1 = 8: T^m [4 8] (was [1 4]),
// T^r max(7,8)+1 = 9.
//
// C arrives at 7 (D 1.5, maps [1 1], map-only) and goes after B (started). Printed: from
// [4 8], max(4,7)+1 = 8 → [8 8] → 9 = e > 8.5: rejected. Tighter: from [1 4] → [4 8] →
// [8 8], e = 8 ≤ 8.5: accepted — and indeed both map slots are free at 7.
func TestFeedbackKeepTighter(t *testing.T) {
	for _, tight := range []bool{false, true} {
		s := mustNew(t, oneWorker(2, 1), SchedulerConfig{Feedback: true, Delta: 0.5, FeedbackKeepTighter: tight, Initial: unitEst()})
		arrive(t, s, 0, Job{ID: "A", Deadline: 100, MapSizes: []float64{4}, Reduces: 1})
		arrive(t, s, 0, Job{ID: "B", Deadline: 100, MapSizes: []float64{1}, Reduces: 1})
		do := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		if a, _ := s.Assign(0, Map, 0); a.Job != "A" {
			t.Fatalf("first map to %s", a.Job)
		}
		if a, _ := s.Assign(0, Map, 0); a.Job != "B" {
			t.Fatalf("second map to %s", a.Job)
		}
		do(s.TaskFinished(1, TaskReport{Job: "B", Stage: Map, Task: 0, Runtime: 1, Input: 1}))
		if _, ok := s.Assign(1, Reduce, 0); ok {
			t.Fatal("B took the reduce slot reserved for A")
		}
		do(s.TaskFinished(4, TaskReport{Job: "A", Stage: Map, Task: 0, Runtime: 4, Input: 4}))
		if a, _ := s.Assign(4, Reduce, 0); a.Job != "A" {
			t.Fatalf("reduce to %s", a.Job)
		}
		do(s.TaskFinished(7, TaskReport{Job: "A", Stage: Reduce, Task: 0, Runtime: 3, Input: 4}))
		do(s.JobFinished(7, "A"))
		b := s.adm.order[0]
		want := []float64{4, 8}
		if tight {
			want = []float64{1, 4}
		}
		if !slices.Equal(b.tm, want) || !slices.Equal(b.tr, []float64{9}) {
			t.Fatalf("tight=%v: B's T^m %v T^r %v, want %v [9]", tight, b.tm, b.tr, want)
		}
		got := arrive(t, s, 7, Job{ID: "C", Arrival: 7, Deadline: 1.5, MapSizes: []float64{1, 1}})
		if got != tight {
			t.Fatalf("tight=%v: C accepted %v", tight, got)
		}
	}
}
