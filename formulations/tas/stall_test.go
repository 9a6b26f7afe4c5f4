package tas

import (
	"context"
	"errors"
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
	var handedOver, stalled, wrongWithout, inexactWithout, ruled, decided int
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
		if nb.Stats.RuleChoices > 0 {
			ruled++
		}
		decided += nb.Stats.Decided
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
	t.Logf("%d instances: sweep handed %d to the layered engine; without branching %d stalled (%.1f%%), %d of them wrong (%.1f%% of stalled); %d stalled layers decided without branching, %d runs needed the keep rule",
		instances, handedOver, stalled, 100*float64(stalled)/instances, wrongWithout, 100*float64(wrongWithout)/float64(max(stalled, 1)), decided, ruled)
	if stalled == 0 || wrongWithout == 0 {
		t.Fatalf("the measurement measures nothing: %d stalls, %d wrong without branching", stalled, wrongWithout)
	}
	if inexactWithout != ruled {
		t.Fatalf("%d runs decided a stall by the keep rule but %d are inexact: a rule choice, and only a rule choice, marks the result inexact", ruled, inexactWithout)
	}
}

// TestStallDecidedByKeepingOne: capacity 2 in each of 2 slots, jobs of demand 1, 1 and
// 2 all worth 2 in slot 1 and 1 in slot 2. At level 1 each job can move to slot 1 alone
// but not all together: a stall. Keeping only the demand-2 job at 1 lets the other two
// rise, keeping either small one does not, so every optimum keeps the big one — decided
// without branching, and exact even with branching off.
func TestStallDecidedByKeepingOne(t *testing.T) {
	in := spec{caps: constCaps(2, 2), demand: [][]int{{1}, {1}, {2}}, util: []sched.Utility{table(2, 1), table(2, 1), table(2, 1)}}.instance()
	res, err := OnionPeel(context.Background(), in, Options{Layered: true, MaxBranches: -1})
	if err != nil {
		t.Fatal(err)
	}
	if want := bruteForce(in); !slices.Equal(sortedCopy(res.Levels), want) || !res.Exact || res.Stats.Decided != 1 || res.Stats.RuleChoices != 0 {
		t.Fatalf("levels %v (exact %v, stats %+v), want %v decided without the keep rule", sortedCopy(res.Levels), res.Exact, res.Stats, want)
	}
	if res.Deadlines[2] != 2 {
		t.Fatalf("deadlines %v: the demand-2 job should stay in slot 2", res.Deadlines)
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

// Options.Progress hears the layered and events engines settle jobs and explore stall
// branches: each call grows a count and lowers none, the settled jobs never pass the
// job count, and the last call says every job is settled; the answer is the same as
// without it.
func TestProgress(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 4))
	for k := range 200 {
		in := randomSmall(rng)
		if k%2 == 1 {
			in.Jobs[0].MaxParallel = 1 // the events engine
		}
		want, err := OnionPeel(context.Background(), in, Options{Layered: k%2 == 0})
		if err != nil {
			if errors.Is(err, ErrInfeasible) {
				continue
			}
			t.Fatal(err)
		}
		var seen []Progress
		got, err := OnionPeel(context.Background(), in, Options{Layered: k%2 == 0, Progress: func(p Progress) { seen = append(seen, p) }})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Levels, want.Levels) {
			t.Fatalf("instance %d: levels %v with progress, %v without", k, got.Levels, want.Levels)
		}
		if got.Stats.Engine == "sweep" {
			continue
		}
		if len(seen) == 0 || seen[len(seen)-1].Fixed != len(in.Jobs) {
			t.Fatalf("instance %d (%s): progress %v, want a last call with all %d jobs fixed", k, got.Stats.Engine, seen, len(in.Jobs))
		}
		for i, p := range seen {
			grew := i == 0 || (p.Fixed >= seen[i-1].Fixed && p.Branches >= seen[i-1].Branches && (p.Fixed > seen[i-1].Fixed || p.Branches > seen[i-1].Branches))
			if p.Jobs != len(in.Jobs) || p.Fixed > p.Jobs || !grew || p.Branches != 0 && got.Stats.Branches == 0 {
				t.Fatalf("instance %d: progress %v", k, seen)
			}
		}
	}
}
