package hadoop1

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/workload"
)

// TestFamiliesRoundTrip: every family writes a file that decodes to the same workload,
// and the same seed gives the same bytes.
func TestFamiliesRoundTrip(t *testing.T) {
	gen := map[string]func(seed uint64) (*workload.Workload, error){
		"woha":      func(s uint64) (*workload.Workload, error) { return WOHAFamily("woha", 5, s) },
		"woha-fig2": func(s uint64) (*workload.Workload, error) { return WOHAFamily("woha-fig2", 0, s) },
		"woha-3wf":  func(s uint64) (*workload.Workload, error) { return WOHAFamily("woha-3wf", 0, s) },
		"rtmr-1":    func(s uint64) (*workload.Workload, error) { return RTMRFamily("rtmr-1", s, "within") },
		"rtmr-2":    func(s uint64) (*workload.Workload, error) { return RTMRFamily("rtmr-2", s, "beyond") },
	}
	for name, g := range gen {
		var first []byte
		for range 2 {
			w, err := g(3)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var buf bytes.Buffer
			if err := workload.Encode(&buf, w); err != nil {
				t.Fatal(err)
			}
			again, err := workload.Parse(buf.Bytes())
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if diff := cmp.Diff(w, again); diff != "" {
				t.Fatalf("%s: round trip:\n%s", name, diff)
			}
			if first != nil && !bytes.Equal(first, buf.Bytes()) {
				t.Fatalf("%s: same seed, different file", name)
			}
			first = buf.Bytes()
		}
	}
}

// TestFromWOHAKeepsTheWorkflows checks the conversion against its source: one job per
// WOHA job with the same tasks, estimates, prerequisites, submission and deadline.
func TestFromWOHAKeepsTheWorkflows(t *testing.T) {
	ws := ThreeWorkflows(1)
	w, err := WOHAFamily("woha-3wf", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for _, wf := range ws {
		d := w.Workflows[w.WorkflowIndex(wf.ID)]
		if d.Arrival != wf.Arrival || d.Deadline != wf.Deadline {
			t.Fatalf("%s: %+v", wf.ID, d)
		}
		for _, job := range wf.Jobs {
			j := w.Jobs[k]
			k++
			if j.ID != wf.ID+"/"+job.ID || j.Workflow != wf.ID || j.Stages[0].Tasks != job.Maps || j.Estimates.MapTime != job.MapTime ||
				j.Estimates.ReduceTime != job.ReduceTime || len(j.After) != len(job.After) || j.Arrival+j.Deadline != wf.Arrival+wf.Deadline {
				t.Fatalf("%s: %+v from %+v", j.ID, j, job)
			}
			if job.Reduces > 0 && (len(j.Stages) != 2 || j.Stages[1].Tasks != job.Reduces) {
				t.Fatalf("%s: reduces", j.ID)
			}
			if j.Stages[0].Runtime.Type != "fixed" || j.Stages[0].Runtime.Value != job.MapTime {
				t.Fatalf("%s: the 3wf experiment runs tasks at their estimates", j.ID)
			}
		}
	}
	if k != len(w.Jobs) || len(w.Cluster.Pools) != 2 || w.Cluster.Pools[0].Slots != 64 || w.Cluster.Pools[1].Slots != 32 {
		t.Fatalf("%d jobs, pools %+v", len(w.Jobs), w.Cluster.Pools)
	}
}
