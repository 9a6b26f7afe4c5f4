package verify

import (
	"testing"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
)

func mapping(t *testing.T, in *sched.Instance, s *sched.Schedule, r tas.Rounding) *tas.Mapping {
	t.Helper()
	m, err := tas.MapToQueues(in, s, tas.MappingOptions{Resource: 0, Rounding: r})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMappingStructure(t *testing.T) {
	in := load(t, "quickstart.json")
	s := onion(t, in)
	tests := []struct {
		name    string
		corrupt func(m *tas.Mapping)
		ok      bool
	}{
		{"as mapped", func(*tas.Mapping) {}, true},
		{"overlap", func(m *tas.Mapping) {
			q := m.Queues[0]
			q[1].Start, q[1].End = q[0].Start, q[0].Start+(q[1].End-q[1].Start)
		}, false},
		{"closed queue", func(m *tas.Mapping) {
			// a queue beyond the capacity (10 containers)
			m.Queues = append(m.Queues, []tas.Task{m.Queues[0][0]})
			m.Queues[0] = m.Queues[0][1:]
		}, false},
		{"task dropped", func(m *tas.Mapping) { m.Queues[0] = m.Queues[0][:len(m.Queues[0])-1] }, false},
		{"wrong reported completion", func(m *tas.Mapping) { m.Completion[0]++ }, false},
		{"wrong target", func(m *tas.Mapping) { m.Target[1]-- }, false},
		{"unknown job", func(m *tas.Mapping) { m.Queues[0][0].Job = 99 }, false},
		{"missing entries", func(m *tas.Mapping) { m.Target = nil }, false},
	}
	for _, tc := range tests {
		for _, r := range []tas.Rounding{tas.RoundUpTasks, tas.ExactVolume} {
			m := mapping(t, in, s, r)
			tc.corrupt(m)
			if c := MappingStructure("structure", in, s, m, r); c.OK != tc.ok {
				t.Errorf("%s (%s): ok %t: %s", tc.name, r, c.OK, c.Detail)
			}
		}
	}
}

func TestMappingBound(t *testing.T) {
	in := load(t, "quickstart.json")
	s := onion(t, in)
	late := func(m *tas.Mapping) {
		m.Completion[0] = m.Target[0] + max(in.Jobs[0].TaskSlots, 1) + 2
	}
	tests := []struct {
		name     string
		instance string
		corrupt  func(m *tas.Mapping)
		status   string
	}{
		{"holds", "quickstart.json", nil, "pass"},
		{"late, conditions hold", "quickstart.json", func(m *tas.Mapping) { late(m); m.BoundHolds = false }, "fail"},
		{"late but BoundHolds claimed", "quickstart.json", late, "fail"},
		{"varying capacity: a measurement", "tas/varying-capacity.json", nil, "info"},
	}
	for _, tc := range tests {
		in, s := in, s
		if tc.instance != "quickstart.json" {
			in = load(t, tc.instance)
			s = onion(t, in)
		}
		m := mapping(t, in, s, tas.ExactVolume)
		if tc.corrupt != nil {
			tc.corrupt(m)
		}
		c := MappingBound("bound", in, m, tas.ExactVolume)
		if c.Status() != tc.status {
			t.Errorf("%s: %s (%s), want %s", tc.name, c.Status(), c.Detail, tc.status)
		}
		if tc.status == "fail" && c.MaxViolation != 2 && c.Detail == "" {
			t.Errorf("%s: violation %g", tc.name, c.MaxViolation)
		}
	}
}

func TestMappingChecksSkipMultiResource(t *testing.T) {
	in := load(t, "tas/two-resources.json")
	rep := mappingChecks(in, onion(t, in), "tas")
	if n := rep.Counts(); n.Skipped != 4 || n.Checks != 4 {
		t.Errorf("two resources: %+v", n)
	}
}
