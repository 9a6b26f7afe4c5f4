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
	// The paper's 20/60/20 in exact counts, for both families (n = 1001: 200.2, 600.6,
	// 200.2 round by largest remainder to 200, 601, 200).
	for name, gen := range map[string]func() (*Workload, error){
		"cora": func() (*Workload, error) { return CORAWorkload(1001, 11) },
		"rush": func() (*Workload, error) { return RUSHWorkload(1001, 11, 1) },
	} {
		w, err := gen()
		if err != nil {
			t.Fatal(err)
		}
		classes := map[string]int{}
		gap := 0.0
		for i, j := range w.Jobs {
			u := j.Utility.(sched.Sigmoid)
			classes[CTClass(u)]++
			if u.Priority < 1 || u.Priority > 5 || j.Deadline <= 0 || math.Abs(u.Deadline*GenTimeUnit-j.Deadline) > 1e-9*j.Deadline {
				t.Fatalf("%s: job %s: %+v", name, j.ID, j)
			}
			if i > 0 {
				gap += j.Arrival - w.Jobs[i-1].Arrival
			}
		}
		if want := map[string]int{"critical": 200, "sensitive": 601, "insensitive": 200}; !cmp.Equal(classes, want) {
			t.Errorf("%s: jobs per class %v, want %v", name, classes, want)
		}
		if mean := gap / 1000; mean < 115 || mean > 145 {
			t.Errorf("%s: mean inter-arrival %g, want about 130", name, mean)
		}
	}
}

func TestActiveAtSubmission(t *testing.T) {
	// 10 slots; works 100, 50, 10 → fluid finishes 10, 15, 16 for arrivals 0, 5, 12.
	got := activeAtSubmission([]float64{0, 5, 12}, []float64{100, 50, 10}, 10)
	if diff := cmp.Diff([]int{1, 2, 2}, got); diff != "" {
		t.Fatal(diff)
	}
}

// A class mix gives exactly its counts (largest remainder), the classes read back from
// the decays; every other draw is CORAWorkload's; a bad mix is refused, and so is a mix
// with DrawClasses.
func TestCORAWorkloadMix(t *testing.T) {
	class := func(u sched.Utility) int {
		switch mu := u.(sched.Sigmoid).Decay; {
		case mu >= 4 && mu <= 6:
			return 0
		case mu >= 0.01 && mu <= 1:
			return 1
		case mu == 0:
			return 2
		}
		t.Fatalf("decay %v in no class", u)
		return -1
	}
	base, err := CORAWorkload(20, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mix  CORAMix
		n    int
		want [3]int
	}{
		{CORAMix{0.1, 0.65, 0.25}, 20, [3]int{2, 13, 5}},
		{CORAMix{0.6, 0.15, 0.25}, 20, [3]int{12, 3, 5}},
		{PaperCORAMix, 100, [3]int{20, 60, 20}},
		{CORAMix{1, 0, 0}, 7, [3]int{7, 0, 0}},
		{CORAMix{1.0 / 3, 1.0 / 3, 1.0 / 3}, 10, [3]int{4, 3, 3}},
		{CORAMix{0.45, 0.3, 0.25}, 7, [3]int{3, 2, 2}}, // 3.15, 2.1, 1.75: the remainders .75 then .15 take the two left
	} {
		w, err := CORAWorkloadWith(c.n, 7, GenOptions{Mix: c.mix})
		if err != nil {
			t.Fatalf("%v: %v", c.mix, err)
		}
		var got [3]int
		for _, j := range w.Jobs {
			got[class(j.Utility)]++
		}
		if got != c.want || c.mix.Counts(c.n) != c.want {
			t.Errorf("mix %v of %d jobs: %v jobs per class (Counts %v), want %v", c.mix, c.n, got, c.mix.Counts(c.n), c.want)
		}
		if c.n == 20 {
			for i, j := range w.Jobs {
				b := base.Jobs[i]
				// The deadline depends on the jobs, not the classes: it matches too.
				if j.Arrival != b.Arrival || j.Priority != b.Priority || j.Deadline != b.Deadline || !cmp.Equal(j.Stages, b.Stages) {
					t.Errorf("mix %v: job %d differs from CORAWorkload's beyond its class", c.mix, i)
				}
			}
		}
	}
	for _, m := range []CORAMix{{0.5, 0.5, 0.5}, {-0.1, 0.9, 0.2}, {math.NaN(), 0.5, 0.5}, {math.Inf(1), 0, 0}, {0.2, 0.2, 0.2}} {
		if _, err := CORAWorkloadWith(10, 1, GenOptions{Mix: m}); err == nil {
			t.Errorf("mix %v accepted", m)
		}
		if _, err := RUSHWorkloadWith(10, 1, 1, GenOptions{Mix: m}); err == nil {
			t.Errorf("rush: mix %v accepted", m)
		}
	}
	if _, err := CORAWorkloadWith(10, 1, GenOptions{Mix: PaperCORAMix, DrawClasses: true}); err == nil {
		t.Errorf("a mix with DrawClasses accepted")
	}
}

// ParseCORAMix never panics; what it accepts is three shares that CORAWorkloadWith takes,
// and their counts sum to the job count.
func FuzzParseCORAMix(f *testing.F) {
	for _, s := range []string{"0.2,0.6,0.2", "0.1, 0.65, 0.25", "1,0,0", "0.5,0.5", "a,b,c", "1e308,1e308,-1e308", "0x1p-2,0.5,0.25", ",,", "Inf,0,0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseCORAMix(s)
		if err != nil {
			return
		}
		if m.Validate() != nil {
			t.Fatalf("%q: accepted %v, which Validate refuses", s, m)
		}
		c := m.Counts(17)
		if c[0]+c[1]+c[2] != 17 || c[0] < 0 || c[1] < 0 || c[2] < 0 {
			t.Fatalf("%q: counts %v of 17 jobs", s, c)
		}
	})
}
