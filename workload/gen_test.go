package workload

import (
	"bytes"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/sched"
)

func TestGenerators(t *testing.T) {
	gens := map[string]func(n int, seed uint64) (*Workload, error){
		"cora": CORAWorkload,
		"rush": func(n int, seed uint64) (*Workload, error) { return RUSHWorkload(n, seed, 1.5) },
		"rds":  RDSWorkload,
	}
	for name, gen := range gens {
		a, err := gen(200, 3)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := gen(200, 3)
		if diff := cmp.Diff(a, b); diff != "" {
			t.Fatalf("%s: same seed, different workloads:\n%s", name, diff)
		}
		c, _ := gen(200, 4)
		if name != "rds" && cmp.Equal(a, c) { // rds's jobs are fixed; only its trace is seeded
			t.Fatalf("%s: seeds 3 and 4 agree", name)
		}
		var buf bytes.Buffer
		if err := Encode(&buf, a); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(buf.Bytes())
		if err != nil {
			t.Fatalf("%s: the encoded workload does not decode: %v", name, err)
		}
		if diff := cmp.Diff(a, back); diff != "" {
			t.Fatalf("%s: round trip:\n%s", name, diff)
		}
		if _, err := gen(0, 1); err == nil {
			t.Fatalf("%s: 0 jobs accepted", name)
		}
	}
	w, _ := CORAWorkload(1000, 11)
	classes := [3]int{}
	gap := 0.0
	for i, j := range w.Jobs {
		u := j.Utility.(sched.Sigmoid)
		switch {
		case u.Decay >= 4:
			classes[0]++
		case u.Decay > 0:
			classes[1]++
		default:
			classes[2]++
		}
		if u.Priority < 1 || u.Priority > 5 || j.Deadline <= 0 || math.Abs(u.Deadline*GenTimeUnit-j.Deadline) > 1e-9*j.Deadline {
			t.Fatalf("job %s: %+v", j.ID, j)
		}
		if i > 0 {
			gap += j.Arrival - w.Jobs[i-1].Arrival
		}
	}
	if classes[0] < 150 || classes[0] > 250 || classes[1] < 540 || classes[1] > 660 || classes[2] < 150 || classes[2] > 250 {
		t.Fatalf("classes %v, want about 200/600/200", classes)
	}
	if mean := gap / 999; mean < 115 || mean > 145 {
		t.Fatalf("mean inter-arrival %g, want about 130", mean)
	}
}

func TestActiveAtSubmission(t *testing.T) {
	// 10 slots; works 100, 50, 10 → fluid finishes 10, 15, 16 for arrivals 0, 5, 12.
	got := activeAtSubmission([]float64{0, 5, 12}, []float64{100, 50, 10}, 10)
	if diff := cmp.Diff([]int{1, 2, 2}, got); diff != "" {
		t.Fatal(diff)
	}
}
