package rtmr

import (
	"slices"
	"testing"
)

// handWorkload builds a Workload whose jobs run exactly at their stated per-unit costs
// (factor 1) on speed-1 slots.
func handWorkload(c Cluster, jobs ...WorkloadJob) *Workload {
	for i := range jobs {
		jobs[i].Truth.NoiseLo, jobs[i].Truth.NoiseHi = 1, 1
	}
	return &Workload{Family: "hand", Cluster: c, Jobs: jobs}
}

// Algorithm IV's reservation, and why line 10 must break at reservedSlot >= Ra.
//
// One worker, 4 map slots, 3 reduce slots. H: D 19, maps [5 5 5], R 2, unit costs and η:
// ε̃^m 5, ε̃^r = 15/2 = 7.5; from zeros T^m [0 5 5 5], e^m 5, T^r [0 12.5 12.5], e 12.5.
// L: D 100, maps [2], R 2, c_r 50 (so ε̃^r = 50·2/2 = 50): after H, e^m 2, e 62.5. Both
// accepted; H's 3 maps and L's map start at 0. At 2, L's map is done and its reduces
// are ready while H is still mapping. Offer of a reduce slot (Ra = 3): H has not reached
// its reduce stage, reserved = 2 < 3, so L gets one (lines 13–16). Next offer (Ra = 2):
// reserved = 2 = Ra. Breaking only at reserved > Ra (as printed) gives L its second
// reduce too; then at 5 H finds one free reduce slot for its two reduces, its second
// runs 12.5–20 and H misses 19. Breaking at reserved >= Ra keeps two slots for H: both
// its reduces run 5–12.5 and every job meets its deadline.
func TestDispatcherLine10(t *testing.T) {
	w := handWorkload(oneWorker(4, 3),
		WorkloadJob{Job: Job{ID: "H", Deadline: 19, MapSizes: []float64{5, 5, 5}, Reduces: 2, Est: &Estimates{Eta: 1, CmMax: 1, CrMax: 1}},
			Truth: Truth{MapCost: 1, ReduceCost: 1, Eta: 1}},
		WorkloadJob{Job: Job{ID: "L", Deadline: 100, MapSizes: []float64{2}, Reduces: 2, Est: &Estimates{Eta: 1, CmMax: 1, CrMax: 50}},
			Truth: Truth{MapCost: 1, ReduceCost: 50, Eta: 1}},
	)
	for _, c := range []struct {
		printed bool
		hFinish float64
	}{{false, 12.5}, {true, 20}} {
		s := mustNew(t, w.Cluster, SchedulerConfig{Line10AsPrinted: c.printed})
		o := drive(t, w, s)
		if o.accepted != 2 {
			t.Fatalf("printed=%v: accepted %d of 2", c.printed, o.accepted)
		}
		if got := o.jobs[0].finish; got != c.hFinish {
			t.Errorf("printed=%v: H finished at %g, want %g", c.printed, got, c.hFinish)
		}
		if want := !c.printed; o.jobs[0].met != want {
			t.Errorf("printed=%v: H met its deadline: %v", c.printed, o.jobs[0].met)
		}
	}
}

// Maps follow queue order (Algorithm IV lines 4–5), and a job starts only when every job
// before it has all its maps dispatched. l = 2: A (D 50, 3 maps) and B (D 10, 1 map)
// arrive at 0 in that order; EDF puts B first. Offers: B's map, A's map 0, A's map 1,
// A's map 2, then nothing.
func TestDispatcherMapsInQueueOrder(t *testing.T) {
	s := mustNew(t, oneWorker(2, 1), SchedulerConfig{Initial: unitEst()})
	arrive(t, s, 0, Job{ID: "A", Deadline: 50, MapSizes: []float64{1, 1, 1}, Reduces: 1})
	arrive(t, s, 0, Job{ID: "B", Deadline: 10, MapSizes: []float64{1}, Reduces: 1})
	var got []Assignment
	for {
		a, ok := s.Assign(0, Map, 0)
		if !ok {
			break
		}
		got = append(got, a)
	}
	want := []Assignment{{"B", 0}, {"A", 0}, {"A", 1}, {"A", 2}}
	if !slices.Equal(got, want) {
		t.Fatalf("map order %v, want %v", got, want)
	}
	if _, ok := s.Assign(0, Reduce, 0); ok {
		t.Fatal("a reduce was dispatched before any map finished")
	}
}
