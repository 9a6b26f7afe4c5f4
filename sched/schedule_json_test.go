package sched_test

import (
	"encoding/json"
	"errors"
	"testing"

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
