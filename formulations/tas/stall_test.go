package tas

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/sched"
)

// randomSmall draws a feasible instance the size of docs/design.md's measurement: 2–5 jobs,
// 2–6 slots, one resource of constant capacity 1–4, table utilities with integer values
// 0–9 (so values tie often).
func randomSmall(rng *rand.Rand) *sched.Instance {
	for {
		n, T, c := 2+rng.IntN(4), 2+rng.IntN(5), 1+rng.IntN(4)
		s := spec{caps: constCaps(T, c)}
		total := 0
		for range n {
			d := 1 + rng.IntN(c*T/2+1)
			total += d
			s.demand = append(s.demand, []int{d})
			s.util = append(s.util, randomTable(rng, T))
		}
		if total <= c*T {
			return s.instance()
		}
	}
}

// TestStallBranching reproduces docs/design.md's measurement: with branching, peeling matches
// brute force on every instance; without it, stalls are decided by the keep rule, some of
// those answers are wrong, and every wrong answer must be flagged inexact.
func TestStallBranching(t *testing.T) {
	const instances = 3000
	rng := rand.New(rand.NewPCG(2024, 5))
	var handedOver, stalled, wrongWithout, inexactWithout int
	for k := range instances {
		in := randomSmall(rng)
		want := bruteForce(in)
		res, err := OnionPeel(context.Background(), in, Options{})
		if err != nil {
			t.Fatalf("instance %d: %v", k, err)
		}
		if got := sortedCopy(res.Levels); !res.Exact || !slices.Equal(got, want) {
			t.Fatalf("instance %d: with branching got %v (exact %v), brute force %v\n%s", k, got, res.Exact, want, describe(in))
		}
		if res.Stats.HandOver != "" {
			handedOver++
		}
		nb, err := OnionPeel(context.Background(), in, Options{MaxBranches: -1})
		if err != nil {
			t.Fatalf("instance %d without branching: %v", k, err)
		}
		if nb.Stats.Stalls > 0 {
			stalled++
		}
		if !nb.Exact {
			inexactWithout++
		}
		if got := sortedCopy(nb.Levels); !slices.Equal(got, want) {
			wrongWithout++
			if nb.Exact {
				t.Fatalf("instance %d: wrong answer %v (optimum %v) marked exact\n%s", k, got, want, describe(in))
			}
		}
		checkSchedule(t, in, nb.Schedule, nb.Deadlines)
	}
	t.Logf("%d instances: sweep handed %d to the layered engine; without branching %d stalled (%.1f%%), %d of them wrong (%.1f%% of stalled)",
		instances, handedOver, stalled, 100*float64(stalled)/instances, wrongWithout, 100*float64(wrongWithout)/float64(max(stalled, 1)))
	if stalled == 0 || wrongWithout == 0 {
		t.Fatalf("the measurement measures nothing: %d stalls, %d wrong without branching", stalled, wrongWithout)
	}
	if inexactWithout != stalled {
		t.Fatalf("%d stalled runs but %d inexact ones: a rule choice must mark the result inexact", stalled, inexactWithout)
	}
}

// randomTable draws a non-increasing table utility over T slots with integer values 0–9.
func randomTable(rng *rand.Rand, T int) sched.Utility {
	v := make([]float64, T)
	for k := range v {
		v[k] = float64(rng.IntN(10))
	}
	slices.Sort(v)
	slices.Reverse(v)
	return table(v...)
}

func describe(in *sched.Instance) string {
	s := fmt.Sprintf("T=%d capacity=%v\n", in.Horizon, in.Resources[0].Capacity)
	for _, j := range in.Jobs {
		s += fmt.Sprintf("  %s demand %v utility %v\n", j.ID, j.Demand, j.Utility)
	}
	return s
}
