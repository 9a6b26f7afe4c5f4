package workload

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/sched"
)

func TestDecodeWorkflows(t *testing.T) {
	w, err := DecodeFile("testdata/workflows.json")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Workflow{{"w1", 0, 600}, {"w2", 60, 900}}, w.Workflows); diff != "" {
		t.Fatal(diff)
	}
	// A member job without a deadline gets its workflow's; one with its own keeps it.
	if w.Jobs[0].Deadline != 600 || w.Jobs[1].Deadline != 600 || w.Jobs[2].Deadline != 500 || w.Jobs[3].Deadline != 100 {
		t.Fatalf("deadlines %v %v %v %v", w.Jobs[0].Deadline, w.Jobs[1].Deadline, w.Jobs[2].Deadline, w.Jobs[3].Deadline)
	}
	if diff := cmp.Diff(&Estimates{MapTime: 10, Eta: 0.5, CmMax: 0.3, CrMax: 0.4}, w.Jobs[2].Estimates); diff != "" {
		t.Fatal(diff)
	}
	if w.Jobs[3].Estimates != nil || w.WorkflowIndex("w2") != 1 || w.WorkflowIndex("lone") != -1 {
		t.Fatal("estimates or workflow index wrong")
	}
	var buf bytes.Buffer
	if err := Encode(&buf, w); err != nil {
		t.Fatal(err)
	}
	again, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatalf("re-reading: %v\n%s", err, buf.String())
	}
	if diff := cmp.Diff(w, again); diff != "" {
		t.Fatalf("round trip changed the workload:\n%s", diff)
	}
}

func TestDecodeWorkflowProblems(t *testing.T) {
	base, err := os.ReadFile("testdata/workflows.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(base)
	for _, tc := range []struct {
		name     string
		old, new []string // replaced pairwise, first occurrence each
		want     []string
	}{
		{"unknown workflow", []string{`"id": "w2/a", "arrival": 60, "workflow": "w2"`}, []string{`"id": "w2/a", "arrival": 60, "workflow": "w9"`},
			[]string{`jobs[2].workflow: unknown workflow "w9"`}},
		{"duplicate workflow", []string{`{"id": "w2", "arrival": 60`}, []string{`{"id": "w1", "arrival": 60`},
			[]string{`workflows[1].id: must be a non-empty unique id, got "w1"`}},
		{"unknown prerequisite", []string{`"after": ["w1/a"]`}, []string{`"after": ["w1/zz"]`},
			[]string{`jobs[1].after[0]: unknown job "w1/zz"`}},
		{"cycle", []string{`"id": "w1/a", "arrival": 0, "workflow": "w1",`}, []string{`"id": "w1/a", "arrival": 0, "workflow": "w1", "after": ["w1/b"],`},
			[]string{"jobs: the after edges form a cycle: w1/a -> w1/b -> w1/a"}},
		{"negative estimate", []string{`"map_time": 20`}, []string{`"map_time": -20`},
			[]string{"jobs[1].estimates.map_time: must be >= 0"}},
		{"unknown estimate", []string{`"map_time": 20`}, []string{`"map_tme": 20`},
			[]string{"jobs[1].estimates.map_tme: unknown field"}},
		{"negative tasks", []string{`"tasks": 3`}, []string{`"tasks": -3`},
			[]string{"jobs[1].stages[0].tasks: must be >= 1"}},
		{"zero workflow deadline", []string{`"deadline": 900}`}, []string{`"deadline": 0}`},
			[]string{"workflows[1].deadline: must be > 0"}},
		{"job before its workflow", []string{`"id": "w2/a", "arrival": 60`}, []string{`"id": "w2/a", "arrival": 30`},
			[]string{`jobs[2].arrival: 30 is before its workflow "w2" is submitted (60)`}},
		{"job after its workflow's deadline", []string{`{"id": "w1/b", "arrival": 0`}, []string{`{"id": "w1/b", "arrival": 700`},
			[]string{`jobs[1].arrival: 700 is at or after its workflow "w1"'s deadline`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := doc
			for k := range tc.old {
				if !strings.Contains(bad, tc.old[k]) {
					t.Fatalf("test bug: %q not in the document", tc.old[k])
				}
				bad = strings.Replace(bad, tc.old[k], tc.new[k], 1)
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
