package verify

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
)

// load decodes an instance from the repository's testdata.
func load(t testing.TB, name string) *sched.Instance {
	t.Helper()
	in, err := sched.DecodeFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return in
}

// onion returns onion peeling's schedule of in.
func onion(t testing.TB, in *sched.Instance) *sched.Schedule {
	t.Helper()
	res, err := tas.OnionPeel(context.Background(), in, tas.Options{})
	if err != nil {
		t.Fatalf("onion peeling %s: %v", in.Name, err)
	}
	return res.Schedule
}

// cloneSchedule deep-copies s.
func cloneSchedule(s *sched.Schedule) *sched.Schedule {
	c := *s
	c.Sorted = slices.Clone(s.Sorted)
	c.Jobs = make([]sched.JobSchedule, len(s.Jobs))
	for j, js := range s.Jobs {
		js.Alloc = make([][]int, len(s.Jobs[j].Alloc))
		for r, row := range s.Jobs[j].Alloc {
			js.Alloc[r] = slices.Clone(row)
		}
		c.Jobs[j] = js
	}
	return &c
}

// statuses maps check names to their status, for messages.
func statuses(r Report) map[string]string {
	m := map[string]string{}
	for _, c := range r.Checks {
		m[c.Name] = c.Status()
	}
	return m
}

// mustFind returns the named check or fails the test.
func mustFind(t testing.TB, r Report, name string) Check {
	t.Helper()
	c, ok := r.Find(name)
	if !ok {
		t.Fatalf("no check %q in %v", name, statuses(r))
	}
	return c
}
