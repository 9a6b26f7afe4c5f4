package rtmr

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
)

// The generators follow Tables II–IV: per-bin job counts, ranges, the 20 + 10 worker
// cluster with 100 map and 30 reduce slots, exponential gaps of mean 14 s.
func TestWorkloadShape(t *testing.T) {
	for _, c := range []struct {
		family string
		bins   []bin
		jobs   int
	}{{"rtmr-1", workload1, 88}, {"rtmr-2", workload2, 89}} {
		gaps, ngaps := 0.0, 0
		overwide := 0
		for seed := uint64(1); seed <= 30; seed++ {
			w, err := Generate(c.family, seed, Within)
			if err != nil {
				t.Fatal(err)
			}
			if len(w.Jobs) != c.jobs || w.Cluster.MapSlots() != 100 || w.Cluster.ReduceSlots() != 30 || len(w.Cluster.Workers) != 30 {
				t.Fatalf("%s: %d jobs, %d+%d slots on %d workers", c.family, len(w.Jobs), w.Cluster.MapSlots(), w.Cluster.ReduceSlots(), len(w.Cluster.Workers))
			}
			count := make([]int, len(c.bins))
			for i, j := range w.Jobs {
				if err := j.Validate("job"); err != nil {
					t.Fatal(err)
				}
				row := -1
				for b, r := range c.bins {
					if j.M() >= r.maps[0] && j.M() <= r.maps[1] && j.Reduces >= r.reduces[0] && j.Reduces <= r.reduces[1] &&
						j.Deadline >= r.deadline[0] && j.Deadline <= r.deadline[1] {
						row = b
						break
					}
				}
				if row < 0 {
					t.Fatalf("%s seed %d: job %+v fits no row", c.family, seed, j.Job)
				}
				count[row]++
				if j.Reduces > 30 {
					overwide++
				}
				if i > 0 {
					gaps += j.Arrival - w.Jobs[i-1].Arrival
					ngaps++
				}
			}
			for b, r := range c.bins {
				if count[b] != r.jobs {
					t.Fatalf("%s seed %d: %d jobs in bin %d, want %d", c.family, seed, count[b], b+1, r.jobs)
				}
			}
		}
		if mean := gaps / float64(ngaps); math.Abs(mean-14) > 1.5 {
			t.Errorf("%s: mean inter-arrival %.2f s, want about 14", c.family, mean)
		}
		if (c.family == "rtmr-1") != (overwide == 0) {
			t.Errorf("%s: %d jobs with more than 30 reduces", c.family, overwide)
		}
	}
}

// Within keeps every task of every job at or under its worst-case bound on every worker;
// Beyond lets some exceed it.
func TestRuntimeModels(t *testing.T) {
	for _, rm := range []RuntimeModel{Within, Beyond} {
		over := 0
		for seed := uint64(1); seed <= 5; seed++ {
			w, err := Generate("rtmr-2", seed, rm)
			if err != nil {
				t.Fatal(err)
			}
			for i, j := range w.Jobs {
				em, er := j.TaskBounds(*j.Est)
				for _, wk := range w.Cluster.Workers {
					for k := range j.M() {
						if w.TaskRuntime(i, Map, k, wk.MapSpeed) > em*(1+1e-12) {
							over++
						}
					}
					for k := range j.Reduces {
						if w.TaskRuntime(i, Reduce, k, wk.ReduceSpeed) > er*(1+1e-12) {
							over++
						}
					}
				}
			}
		}
		if (rm == Within) != (over == 0) {
			t.Errorf("%s: %d task runtimes above their estimate", rm, over)
		}
	}
}

// Same seed, same bytes; another seed, another workload; runtimes depend only on (seed,
// job, stage, task), not on which other jobs exist.
func TestWorkloadDeterministic(t *testing.T) {
	enc := func(w *Workload) string {
		b, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	a, _ := Generate("rtmr-1", 7, Beyond)
	b, _ := Generate("rtmr-1", 7, Beyond)
	c, _ := Generate("rtmr-1", 8, Beyond)
	if enc(a) != enc(b) || enc(a) == enc(c) {
		t.Fatal("generator is not a function of its seed")
	}
	r := a.TaskRuntime(3, Map, 0, 1)
	a.Jobs = slices.Delete(a.Jobs, 10, 20)
	if a.TaskRuntime(3, Map, 0, 1) != r {
		t.Fatal("dropping later jobs changed an earlier job's runtime")
	}
}

func TestGenerateRejectsUnknown(t *testing.T) {
	if _, err := Generate("rtmr-3", 1, Within); err == nil {
		t.Error("unknown family accepted")
	}
	if _, err := Generate("rtmr-1", 1, "sometimes"); err == nil {
		t.Error("unknown runtime model accepted")
	}
}

// Malformed jobs are errors naming the field, never panics.
func TestJobValidate(t *testing.T) {
	s := mustNew(t, oneWorker(1, 1), Options{Initial: unitEst()})
	for _, c := range []struct {
		job  Job
		want string
	}{
		{Job{ID: "", Deadline: 1, MapSizes: []float64{1}}, "job.id"},
		{Job{ID: "a", Deadline: 0, MapSizes: []float64{1}}, "job.deadline"},
		{Job{ID: "a", Deadline: 1}, "job.map_sizes"},
		{Job{ID: "a", Deadline: 1, MapSizes: []float64{math.NaN()}}, "job.map_sizes[0]"},
		{Job{ID: "a", Deadline: 1, MapSizes: []float64{1}, Reduces: 2, ReduceShares: []float64{1}}, "job.reduce_shares"},
		{Job{ID: "a", Deadline: 1, MapSizes: []float64{1}, Reduces: 2, ReduceShares: []float64{0.7, 0.7}}, "job.reduce_shares"},
		{Job{ID: "a", Deadline: 1, MapSizes: []float64{1}, Est: &Estimates{Eta: -1, CmMax: 1, CrMax: 1}}, "job.estimates.eta"},
	} {
		_, err := s.Arrive(0, c.job)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one naming %s", c.job, err, c.want)
		}
	}
	// No estimates at all (zero Initial) is an error too, not a silent acceptance.
	s0 := mustNew(t, oneWorker(1, 1), Options{})
	if _, err := s0.Arrive(0, Job{ID: "a", Deadline: 1, MapSizes: []float64{1}}); err == nil {
		t.Error("a job with no estimates was admitted")
	}
	if _, err := New(Cluster{}, Options{}); err == nil {
		t.Error("an empty cluster was accepted")
	}
}
