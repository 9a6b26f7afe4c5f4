package rtmr

import (
	"math"
	"strings"
	"testing"
)

// The generated workloads (workload/hadoop1) under Within keep every task of every job
// at or under the worst-case bound RTMR admits with (Job.TaskBounds) on every worker;
// under Beyond some exceed it.
func TestRuntimeModels(t *testing.T) {
	for _, rm := range []RuntimeModel{Within, Beyond} {
		over := 0
		for seed := uint64(1); seed <= 5; seed++ {
			w := generated(t, "rtmr-2", seed, rm, 1.3)
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

// Malformed jobs are errors naming the field, never panics.
func TestJobValidate(t *testing.T) {
	s := mustNew(t, oneWorker(1, 1), SchedulerConfig{Initial: unitEst()})
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
	s0 := mustNew(t, oneWorker(1, 1), SchedulerConfig{})
	if _, err := s0.Arrive(0, Job{ID: "a", Deadline: 1, MapSizes: []float64{1}}); err == nil {
		t.Error("a job with no estimates was admitted")
	}
	if _, err := NewRTMR(Cluster{}, SchedulerConfig{}); err == nil {
		t.Error("an empty cluster was accepted")
	}
}
