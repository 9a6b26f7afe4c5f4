package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/sched"
)

func TestArrivals(t *testing.T) {
	for _, tc := range []struct {
		n      int
		capped bool
	}{{1, false}, {100, true}, {2000, false}, {4000, true}} {
		in, err := Arrivals(tc.n, tc.capped, 9)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		again, err := Arrivals(tc.n, tc.capped, 9)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(in, again); diff != "" {
			t.Fatalf("%+v: the same seed gave another instance:\n%s", tc, diff)
		}
		other, err := Arrivals(tc.n, tc.capped, 10)
		if err != nil {
			t.Fatal(err)
		}
		if tc.n > 1 && cmp.Equal(in, other) {
			t.Fatalf("%+v: seeds 9 and 10 gave the same instance", tc)
		}
		T, C := max(200, tc.n/10), max(1, tc.n/20)
		if in.Horizon != T || len(in.Jobs) != tc.n || in.Resources[0].Capacity[T-1] != C {
			t.Fatalf("%+v: horizon %d, %d jobs, capacity %d; want %d, %d, %d", tc, in.Horizon, len(in.Jobs), in.Resources[0].Capacity[T-1], T, tc.n, C)
		}
		total, late := 0, 0
		for _, j := range in.Jobs {
			if j.Release < 1 || j.Release > T/2 {
				t.Fatalf("%+v: job %s released in slot %d, outside 1..%d", tc, j.ID, j.Release, T/2)
			}
			if j.Release > T/4 {
				late++
			}
			if capped := j.MaxParallel > 0; capped != tc.capped || j.MaxParallel > j.Demand[0] {
				t.Fatalf("%+v: job %s max_parallel %d (demand %d)", tc, j.ID, j.MaxParallel, j.Demand[0])
			}
			u := j.Utility.(sched.Sigmoid)
			if u.Deadline < float64(j.Release) || u.Decay < 0.05 || u.Decay >= 0.5 || u.Priority < 1 || u.Priority >= 5 {
				t.Fatalf("%+v: job %s utility %+v out of range", tc, j.ID, u)
			}
			total += j.Demand[0]
		}
		if load := float64(total) / float64(C*T); tc.n >= 2000 && (load < 0.8 || load > 1) {
			t.Fatalf("%+v: load %.2f, want about 0.9", tc, load)
		}
		if tc.n >= 2000 && (late < tc.n/3 || late > 2*tc.n/3) {
			t.Fatalf("%+v: %d of %d jobs released in the second quarter: releases are not spread", tc, late, tc.n)
		}
	}
	if _, err := Arrivals(0, false, 1); err == nil {
		t.Fatal("0 jobs: no error")
	}
}

// TestSteepArrivals: the tie family is deterministic, valid, released over the first
// quarter with deadlines within 5 slots and decays in [0.05, 2), and its demand is about
// 95% of the capacity over the horizon.
func TestSteepArrivals(t *testing.T) {
	for _, n := range []int{1, 1000, 20000} {
		in, err := SteepArrivals(n, 3)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		again, _ := SteepArrivals(n, 3)
		if !cmp.Equal(in, again) {
			t.Fatalf("n=%d: the same seed gave another instance", n)
		}
		T0, C := max(200, n/10), max(1, n/20)
		if in.Horizon < T0 || len(in.Jobs) != n {
			t.Fatalf("n=%d: horizon %d (at least %d), %d jobs", n, in.Horizon, T0, len(in.Jobs))
		}
		total := 0
		for _, j := range in.Jobs {
			u := j.Utility.(sched.Sigmoid)
			if j.Release < 1 || j.Release > T0/4 || u.Deadline < float64(j.Release) || u.Deadline >= float64(j.Release)+5 ||
				u.Decay < 0.05 || u.Decay >= 2 {
				t.Fatalf("n=%d: job %s: release %d, utility %+v", n, j.ID, j.Release, u)
			}
			total += j.Demand[0]
		}
		if load := float64(total) / float64(C*T0); n >= 1000 && (load < 0.9 || load > 1.0) {
			t.Fatalf("n=%d: demand %d is %.2f of the capacity over %d slots", n, total, load, T0)
		}
	}
}
