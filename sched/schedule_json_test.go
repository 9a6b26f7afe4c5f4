package sched_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sched/schedtest"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestScheduleJSONRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, s := schedtest.Feasible(t, schedtest.Config{MaxResources: 3, Release: true})
		s.Exact = rapid.Bool().Draw(t, "exact")
		data, err := json.Marshal(s.JSON(in))
		if err != nil {
			t.Fatal(err)
		}
		var doc sched.ScheduleJSON
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		back, err := doc.Schedule(in)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		if d := cmp.Diff(s, back); d != "" {
			t.Fatalf("schedule changed (-want +got):\n%s", d)
		}
	})
}

func TestScheduleJSONRejectsMismatch(t *testing.T) {
	in, err := sched.Parse([]byte(`{"horizon": 3, "resources": [{"name": "c", "capacity": 2}],
	 "jobs": [{"id": "a", "demand": {"c": 2}, "utility": {"type": "constant", "value": 1}},
	          {"id": "b", "demand": {"c": 2}, "utility": {"type": "constant", "value": 1}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	doc := sched.ScheduleJSON{Jobs: []sched.JobScheduleJSON{
		{ID: "a", Allocation: map[string][]int{"c": {1, 1}, "gpu": {0, 0, 0}}},
		{ID: "x"},
		{ID: "a", Allocation: map[string][]int{"c": {1, -1, 0}}},
	}}
	_, err = doc.Schedule(in)
	var ve *sched.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want *ValidationError", err)
	}
	want := []sched.Problem{
		{Path: "jobs", Msg: `job "b" of the instance is missing`},
		{Path: "jobs[0].allocation.c", Msg: "has 2 entries, horizon is 3"},
		{Path: "jobs[0].allocation.gpu", Msg: `unknown resource "gpu"`},
		{Path: "jobs[1].id", Msg: `job "x" is not in the instance`},
		{Path: "jobs[2].id", Msg: `job "a" appears more than once`},
	}
	if d := cmp.Diff(want, ve.Problems); d != "" {
		t.Errorf("problems (-want +got):\n%s", d)
	}
}

// TestScheduleJSONCompact: the compact form (runs) reads back to the same schedule as
// the dense one, both validate against the published schedule schema, and the runs are
// maximal (no two adjacent runs hold the same units).
func TestScheduleJSONCompact(t *testing.T) {
	sch := compileScheduleSchema(t)
	rapid.Check(t, func(t *rapid.T) {
		in, s := schedtest.Feasible(t, schedtest.Config{MaxResources: 3, Release: true})
		for _, doc := range []sched.ScheduleJSON{s.JSON(in), s.CompactJSON(in)} {
			data, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(v); err != nil {
				t.Fatalf("schema: %v\n%s", err, data)
			}
			var back sched.ScheduleJSON
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			got, err := back.Schedule(in)
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if d := cmp.Diff(s, got); d != "" {
				t.Fatalf("schedule changed (-want +got):\n%s", d)
			}
		}
		for _, j := range s.CompactJSON(in).Jobs {
			for name, runs := range j.Runs {
				for k := 1; k < len(runs); k++ {
					if runs[k][0] == runs[k-1][1]+1 && runs[k][2] == runs[k-1][2] {
						t.Fatalf("job %s, %s: runs %v and %v could be one", j.ID, name, runs[k-1], runs[k])
					}
				}
			}
		}
	})
}

// TestScheduleJSONRunsRejected: runs out of order, past the horizon, with no units or
// beside a dense allocation of the same resource are refused with their paths.
func TestScheduleJSONRunsRejected(t *testing.T) {
	in, err := sched.Parse([]byte(`{"horizon": 4, "resources": [{"name": "c", "capacity": 2}],
	 "jobs": [{"id": "a", "demand": {"c": 2}, "utility": {"type": "constant", "value": 1}},
	          {"id": "b", "demand": {"c": 2}, "utility": {"type": "constant", "value": 1}},
	          {"id": "d", "demand": {"c": 2}, "utility": {"type": "constant", "value": 1}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	doc := sched.ScheduleJSON{Jobs: []sched.JobScheduleJSON{
		{ID: "a", Runs: map[string][][3]int{"c": {{2, 3, 1}, {1, 1, 1}}}},
		{ID: "b", Runs: map[string][][3]int{"c": {{4, 5, 1}}, "gpu": {{1, 1, 1}}}},
		{ID: "d", Runs: map[string][][3]int{"c": {{1, 1, 0}}}, Allocation: map[string][]int{"c": {1, 0, 0, 0}}},
	}}
	_, err = doc.Schedule(in)
	var ve *sched.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want *ValidationError", err)
	}
	want := []sched.Problem{
		{Path: "jobs[0].runs.c[1]", Msg: "run [1, 1, 1]: want slots after 3 in increasing order up to the horizon 4, and units > 0"},
		{Path: "jobs[1].runs.c[0]", Msg: "run [4, 5, 1]: want slots after 0 in increasing order up to the horizon 4, and units > 0"},
		{Path: "jobs[1].runs.gpu", Msg: `unknown resource "gpu"`},
		{Path: "jobs[2].runs.c", Msg: `resource "c" has both an allocation and runs`},
	}
	if d := cmp.Diff(want, ve.Problems); d != "" {
		t.Fatalf("problems (-want +got):\n%s", d)
	}
}

func compileScheduleSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sched.ScheduleSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const url = "https://github.com/coraopt/coraopt/sched/schedule.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}
