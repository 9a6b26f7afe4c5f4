package workload

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/sched"
)

// wholeDocument is what Encode wrote before it streamed jobs: the whole document as one
// map handed to encoding/json (sweep fingerprints and goldens hash these bytes).
func wholeDocument(t *testing.T, w *Workload) []byte {
	t.Helper()
	f := map[string]any{"cluster": clusterJSON(&w.Cluster)}
	if w.Name != "" {
		f["name"] = w.Name
	}
	if w.TimeUnit != 1 && w.TimeUnit != 0 {
		f["time_unit"] = w.TimeUnit
	}
	if len(w.Workflows) > 0 {
		f["workflows"] = w.Workflows
	}
	jobs := make([]map[string]any, len(w.Jobs))
	for i := range w.Jobs {
		m, err := jobJSON(&w.Jobs[i])
		if err != nil {
			t.Fatal(err)
		}
		jobs[i] = m
	}
	f["jobs"] = jobs
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(f); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Encode streams jobs, yet writes exactly what encoding/json writes for the whole
// document, for every generator and every field of the file.
func TestEncodeStreamsTheSameBytes(t *testing.T) {
	ws := map[string]*Workload{}
	for name, gen := range map[string]func() (*Workload, error){
		"cora": func() (*Workload, error) { return CORAWorkload(40, 3) },
		"rush": func() (*Workload, error) { return RUSHWorkload(40, 3, 1.5) },
		"rds":  func() (*Workload, error) { return RDSWorkload(40, 3) },
	} {
		w, err := gen()
		if err != nil {
			t.Fatal(err)
		}
		ws[name] = w
	}
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata workloads: %v", err)
	}
	for _, f := range files {
		w, err := DecodeFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ws[f] = w
	}
	// Every optional field, HTML-escaped characters, and a time unit.
	odd := &Workload{Name: "<odd & \"quoted\">", TimeUnit: 60,
		Cluster:   Cluster{Workers: []Worker{{Count: 2, Slots: map[string]int{"m": 2, "r": 1}, Speed: 0.5}}, Capacity: []CapacityStep{{Time: 5, Slots: map[string]int{"m": 1}}}},
		Workflows: []Workflow{{ID: "W<1>", Arrival: 1, Deadline: 100}},
		Jobs: []Job{
			{ID: "a&b", Arrival: 1.5, Priority: 2, Deadline: 1e11, Utility: sched.Step{Value: 1, Deadline: 3}, Workflow: "W<1>",
				Estimates: &Estimates{MapTime: 2, Eta: 0.5},
				Stages: []Stage{{Pool: "m", Tasks: 2, TaskRuntimes: []float64{1, 2.25}, TaskData: []float64{3, 4}},
					{Pool: "r", Tasks: 1, Runtime: &Runtime{Type: "gaussian", Mean: 3, Std: 1}, Data: 7, SlowStart: 0.5}}},
			{ID: "c", Priority: 1, Utility: sched.Constant{Value: 1}, After: []string{"a&b"}, Workflow: "W<1>", Arrival: 2,
				Stages: []Stage{{Pool: "m", Tasks: 1, Runtime: &Runtime{Type: "empirical", Samples: []float64{1, 2}}}}},
		}}
	if err := odd.Validate(); err != nil {
		t.Fatal(err)
	}
	ws["odd"] = odd
	for name, w := range ws {
		var buf bytes.Buffer
		if err := Encode(&buf, w); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(string(wholeDocument(t, w)), buf.String()); diff != "" {
			t.Errorf("%s: Encode differs from encoding/json's document (-want +got):\n%s", name, diff)
		}
		back, err := Parse(buf.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(w, back); diff != "" {
			t.Errorf("%s: round trip:\n%s", name, diff)
		}
	}
	// No jobs (not a valid file, but Encode must still write valid JSON).
	var buf bytes.Buffer
	none := &Workload{Cluster: Cluster{Pools: []Pool{{Name: "p", Slots: 1}}}}
	if err := Encode(&buf, none); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != string(wholeDocument(t, none)) || !bytes.Contains(buf.Bytes(), []byte(`"jobs": []`)) {
		t.Errorf("no jobs:\n%s", got)
	}
}
