package sched

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestDecodeQuickstart(t *testing.T) {
	in, err := DecodeFile(filepath.Join("..", "testdata", "quickstart.json"))
	if err != nil {
		t.Fatal(err)
	}
	if in.Horizon != 12 || in.HorizonSource != "file" {
		t.Errorf("horizon %d from %q, want 12 from file", in.Horizon, in.HorizonSource)
	}
	if len(in.Jobs) != 7 || len(in.Resources) != 1 || len(in.Resources[0].Capacity) != 12 {
		t.Fatalf("got %d jobs, %d resources", len(in.Jobs), len(in.Resources))
	}
	if u, ok := in.Jobs[0].Utility.(Sigmoid); !ok || u != (Sigmoid{Priority: 4, Deadline: 4, Decay: 1.5}) {
		t.Errorf("jobs[0].utility = %#v", in.Jobs[0].Utility)
	}
	if u, ok := in.Jobs[6].Utility.(Linear); !ok || !u.Hard {
		t.Errorf("jobs[6].utility = %#v", in.Jobs[6].Utility)
	}
}

func TestDecodeReportsEveryProblem(t *testing.T) {
	doc := `{"horizon": 2,
	 "resources": [{"name": "c", "capacity": 10}, {"name": "c", "capacity": [1, 2, 3]}],
	 "jobs": [
	  {"id": "a", "demand": {"c": 30, "gpus": 2}, "utility": {"type": "sigmoid", "priority": 3, "deadline": 4, "decay": -1}},
	  {"id": "a", "demand": {"c": 0}, "release": 0, "utility": {"type": "foo"}}]}`
	_, err := Parse([]byte(doc))
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want *ValidationError", err)
	}
	want := []Problem{
		{"resources[1].name", `duplicate resource name "c" (also resources[0])`},
		{"resources[1].capacity", "array has 3 entries, horizon is 2"},
		{"jobs[0].demand.gpus", `unknown resource "gpus" (resources are "c", "c")`},
		{"jobs[0].utility.decay", "must be >= 0"},
		{"jobs[1].release", "must be >= 1"},
		{"jobs[1].utility.type", `unknown utility type "foo" (one of sigmoid, linear, step, constant, piecewise, table, rds)`},
		{"jobs[1].id", `duplicate job id "a" (also jobs[0])`},
		{"jobs[1].demand", "must be positive for at least one resource"},
	}
	if len(ve.Problems) != len(want) {
		t.Fatalf("got %d problems:\n%v\nwant %d", len(ve.Problems), err, len(want))
	}
	for i := range want {
		if ve.Problems[i] != want[i] {
			t.Errorf("problem %d = %q, want %q", i, ve.Problems[i], want[i])
		}
	}
}
