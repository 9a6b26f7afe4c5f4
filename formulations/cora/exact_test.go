package cora

import (
	"context"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sched/schedtest"
	"pgregory.net/rapid"
)

// exactFor returns Exact's schedule for in and checks it against the enumeration bf:
// the same sorted utility vector, and exactly the demand of every resource.
func exactFor(t fataler, in *sched.Instance, bf bruteResult) *sched.Schedule {
	t.Helper()
	ex, err := Exact(context.Background(), in, tas.Options{})
	if err != nil {
		t.Fatalf("Exact: %v", err)
	}
	s := ex.Schedule
	if !s.Exact {
		t.Fatalf("Exact: onion peeling ran out of branches on a tiny instance")
	}
	if !slices.Equal(s.Sorted, bf.exactSorted) {
		t.Fatalf("Exact: sorted utilities %v, enumeration %v", s.Sorted, bf.exactSorted)
	}
	checkDemandEquality(t, in, s)
	return s
}

// checkDemandEquality checks constraint (4), Σ_t x = R, and capacity (3).
func checkDemandEquality(t fataler, in *sched.Instance, s *sched.Schedule) {
	t.Helper()
	for r, res := range in.Resources {
		for tt := range in.Horizon {
			used := 0
			for i := range s.Jobs {
				used += s.Jobs[i].Alloc[r][tt]
			}
			if used > res.Capacity[tt] {
				t.Fatalf("resource %s slot %d: %d used, capacity %d", res.Name, tt+1, used, res.Capacity[tt])
			}
		}
		for i, job := range in.Jobs {
			got := 0
			for _, a := range s.Jobs[i].Alloc[r] {
				got += a
			}
			if got != job.Demand[r] {
				t.Fatalf("job %s got %d of %s, demand (4) is %d", job.ID, got, res.Name, job.Demand[r])
			}
		}
	}
}

// TestExactMatchesEnumeration: exact CORA by onion peeling equals the enumeration of
// every integral allocation with Σ_t x = R, with several resources, varying capacity,
// release and max_parallel.
func TestExactMatchesEnumeration(t *testing.T) {
	cfg := smallConfig
	cfg.Release, cfg.MaxParallel = true, true
	rapid.Check(t, func(rt *rapid.T) {
		in := schedtest.Instance(rt, cfg)
		u, err := Quantize(in, 0)
		if err != nil {
			rt.Fatal(err)
		}
		bf, ok := bruteForce(in, u, 20000)
		if !ok {
			rt.Skip("too many allocations to enumerate")
		}
		exactFor(rt, in, bf)
	})
}

func TestTrimToDemand(t *testing.T) {
	in := parse(t, twoJobs) // a: demand 3, b: demand 2; capacity 3, 2 slots
	s := sched.NewSchedule(in)
	s.Jobs[0].Alloc[0] = []int{3, 1} // one unit too many, in slot 2
	s.Jobs[1].Alloc[0] = []int{0, 2}
	n, err := trimToDemand(in, s)
	if err != nil || n != 1 || !slices.Equal(s.Jobs[0].Alloc[0], []int{3, 0}) {
		t.Errorf("trim: %d units, %v, %v; want 1 unit from slot 2: [3 0]", n, err, s.Jobs[0].Alloc[0])
	}
	s.Jobs[1].Alloc[0] = []int{0, 1}
	if _, err := trimToDemand(in, s); err == nil {
		t.Error("a job short of its demand was accepted")
	}
}
