package workload

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/sched"
)

func TestDecodeValid(t *testing.T) {
	for _, name := range []string{"testdata/hadoop1.json", "testdata/containers.json"} {
		w, err := DecodeFile(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		if err := Encode(&buf, w); err != nil {
			t.Fatal(err)
		}
		again, err := Parse(buf.Bytes())
		if err != nil {
			t.Fatalf("%s: re-reading the encoded workload: %v\n%s", name, err, buf.String())
		}
		if diff := cmp.Diff(w, again); diff != "" {
			t.Fatalf("%s: encode/decode round trip changed the workload:\n%s", name, diff)
		}
	}
	w, err := DecodeFile("testdata/hadoop1.json")
	if err != nil {
		t.Fatal(err)
	}
	// Pools come from the workers: 3 machines × 2 map slots, × 1 reduce slot.
	if diff := cmp.Diff([]Pool{{"map", 6}, {"reduce", 3}}, w.Cluster.Pools); diff != "" {
		t.Fatal(diff)
	}
	if w.TimeUnit != 60 || w.Jobs[1].Priority != 1 || w.Jobs[2].Deadline != 0 || w.Jobs[1].After[0] != "a" {
		t.Fatalf("defaults or fields wrong: %+v", w)
	}
	if _, ok := w.Jobs[0].Utility.(sched.Step); !ok {
		t.Fatalf("utility type %T", w.Jobs[0].Utility)
	}
}

func TestDecodeProblems(t *testing.T) {
	base, err := os.ReadFile("testdata/containers.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(base)
	for _, tc := range []struct {
		name, old, new string
		want           []string // path: message prefixes, each must appear
	}{
		{"syntax", `"jobs": [`, `"jobs": [,`, []string{"syntax error at line 3"}},
		{"unknown pool", `"pool": "containers", "tasks": 1`, `"pool": "gpu", "tasks": 1`, []string{`jobs[1].stages[0].pool: unknown pool "gpu"`}},
		{"negative tasks", `"tasks": 2`, `"tasks": -2`, []string{"jobs[0].stages[0].tasks: must be >= 1"}},
		{"unknown field", `"arrival": 1,`, `"arival": 1,`, []string{"jobs[1].arival: unknown field"}},
		{"bad utility", `"type": "rds"`, `"type": "rds"`, nil},
		{"increasing table", `[3, 3, 2, 1]`, `[3, 4, 2, 1]`, []string{"jobs[1].utility: values[1] must be finite and not above values[0]"}},
		{"rds hard", `"hard": 20`, `"hard": 30`, []string{"jobs[0].utility: need priority >= 0 and 0 < soft <= hard <= 2·soft"}},
		{"utility field", `"soft": 10`, `"soft": "10"`, []string{"jobs[0].utility.soft: must be number"}},
		{"explicit count", `"task_runtimes": [2]`, `"task_runtimes": [2, 3]`, []string{"jobs[1].stages[0].task_runtimes: has 2 entries for 1 tasks"}},
		{"both runtimes", `"task_runtimes": [2]`, `"task_runtimes": [2], "runtime": {"type": "fixed", "value": 1}`, []string{`jobs[1].stages[0]: must give exactly one of "runtime" and "task_runtimes"`}},
		{"runtime params", `"value": 5`, `"value": 0`, []string{"jobs[0].stages[0].runtime.value: must be > 0"}},
		{"duplicate id", `"id": "j2"`, `"id": "j1"`, []string{`jobs[1].id: duplicate id "j1"`}},
		{"unknown after", `"deadline": 4,`, `"deadline": 4, "after": ["zz"],`, []string{`jobs[1].after[0]: unknown job "zz"`}},
		{"cycle", `"deadline": 10,`, `"deadline": 10, "after": ["j2"],`, nil},
		{"capacity pool", `"slots": 2}]}`, `"slots": 2}], "capacity": [[5, {"gpu": 1}]]}`, []string{`cluster.capacity[0][1].gpu: unknown pool "gpu"`}},
		{"capacity order", `"slots": 2}]}`, `"slots": 2}], "capacity": [[5, {"containers": 1}], [5, {"containers": 2}]]}`, []string{"cluster.capacity[1][0]: must be a finite time >= 0, later than the previous step's"}},
		{"no pools", `"pools": [{"name": "containers", "slots": 2}]`, `"workers": [{"slots": {"containers": 2}}], "pools": [{"name": "containers", "slots": 2}]`, []string{`cluster: must give exactly one of "pools" and "workers"`}},
		{"slow start first", `"pool": "containers", "tasks": 2,`, `"pool": "containers", "tasks": 2, "slow_start": 0.5,`, []string{"jobs[0].stages[0].slow_start: the first stage has no previous stage to overlap"}},
		{"slow start range", `"pool": "containers", "tasks": 2,`, `"pool": "containers", "tasks": 2, "slow_start": 1.5,`, []string{"jobs[0].stages[0].slow_start: must be <= 1"}},
		{"task data count", `"task_data": [64, 128]`, `"task_data": [64]`, []string{"jobs[0].stages[0].task_data: has 1 entries for 2 tasks"}},
		{"task data sign", `"task_data": [64, 128]`, `"task_data": [64, -1]`, []string{"jobs[0].stages[0].task_data[1]: must be >= 0"}},
		// A pool with no slot that a stage runs on could only end in a stuck run (exit 1);
		// it is bad input (issue 32, item 9).
		{"empty pool", `"slots": 2}]}`, `"slots": 0}]}`, []string{`cluster.pools[0].slots: must be >= 1: jobs[0].stages[0] runs on pool "containers"`}},
		{"empty worker pool", `"pools": [{"name": "containers", "slots": 2}]`, `"workers": [{"count": 3, "slots": {"containers": 0, "spare": 1}}]`, []string{`cluster.workers: pool "containers" has 0 slots on every worker: jobs[0].stages[0] runs on it`}},
		{"missing utility", `"utility": {"type": "table", "values": [3, 3, 2, 1]},`, ``, []string{"jobs[1].utility: required"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(doc, tc.old) {
				t.Fatalf("test bug: %q not in the document", tc.old)
			}
			bad := strings.Replace(doc, tc.old, tc.new, 1)
			if tc.name == "cycle" {
				bad = strings.Replace(bad, `"deadline": 4,`, `"deadline": 4, "after": ["j1"],`, 1)
				tc.want = []string{"jobs: the after edges form a cycle: j1 -> j2 -> j1"}
			}
			if tc.name == "bad utility" {
				bad = strings.Replace(doc, `"type": "rds"`, `"type": "cubic"`, 1)
				tc.want = []string{"jobs[0].utility.type: must be one of"}
			}
			_, err := Parse([]byte(bad))
			var ve *sched.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("want a *sched.ValidationError, got %v", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestSchemaIsPublished(t *testing.T) {
	data, err := os.ReadFile("workload.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, Schema()) {
		t.Fatal("Schema() differs from workload.schema.json")
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"testdata/hadoop1.json", "testdata/containers.json", "testdata/workflows.json"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"cluster": {"pools": []}, "jobs": []}`))
	f.Add([]byte(`[1, 2`))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Parse(data)
		if err != nil {
			var ve *sched.ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 {
				t.Fatalf("error is not a validation error with problems: %v", err)
			}
			return
		}
		if err := w.Validate(); err != nil {
			t.Fatalf("a decoded workload fails Validate: %v", err)
		}
	})
}

// Validate, for workloads built in Go, holds the bounds the schema holds files to: a
// worker's speed within the schema's range, and a stage's data given once.
func TestValidateSpeedAndData(t *testing.T) {
	lim := limits()
	for _, c := range []struct {
		name  string
		speed float64
		data  float64
		tdata []float64
		want  string
	}{
		{"speed 1e-300", 1e-300, 0, nil, "cluster.workers[0].speed: must be in [0.001, 1e+06], got 1e-300"},
		{"speed just below", lim.MinSpeed * 0.999, 0, nil, "cluster.workers[0].speed"},
		{"speed 1e7", 1e7, 0, nil, "cluster.workers[0].speed"},
		{"speed NaN", math.NaN(), 0, nil, "cluster.workers[0].speed"},
		{"data and task_data", 1, 2, []float64{3}, `jobs[0].stages[0]: must give at most one of "data" and "task_data"`},
		{"slowest allowed", lim.MinSpeed, 0, []float64{3}, ""},
		{"fastest allowed", lim.MaxSpeed, 2, nil, ""},
	} {
		w := &Workload{TimeUnit: 1, Cluster: Cluster{Workers: []Worker{{Count: 1, Slots: map[string]int{"c": 1}, Speed: c.speed}}},
			Jobs: []Job{{ID: "a", Priority: 1, Utility: sched.Constant{Value: 1},
				Stages: []Stage{{Pool: "c", Tasks: 1, TaskRuntimes: []float64{1}, Data: c.data, TaskData: c.tdata}}}}}
		err := w.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// The bounds Go applies are the schema's own numbers.
func TestLimitsFromSchema(t *testing.T) {
	got, err := limitsOf(Schema())
	if err != nil {
		t.Fatal(err)
	}
	want := fileLimits{Seconds: 1e12, Deadline: 1e12, Runtime: 1e12, Slots: 1e9, Tasks: 1e7, MinSpeed: 1e-3, MaxSpeed: 1e6}
	if got != want {
		t.Fatalf("limits %+v, want %+v", got, want)
	}
	if _, err := limitsOf([]byte(`{"$defs": {}}`)); err == nil {
		t.Fatal("a schema without the bounds gave no error")
	}
}
