package verify

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
)

func alg3Instance(T, c int, demand []int, utils [][]float64) *sched.Instance {
	capa := make([]int, T)
	for t := range capa {
		capa[t] = c
	}
	in := &sched.Instance{Name: "alg3", Horizon: T, HorizonSource: "file", Resources: []sched.Resource{{Name: "containers", Capacity: capa}}}
	for j, d := range demand {
		in.Jobs = append(in.Jobs, sched.Job{ID: string(rune('a' + j)), Demand: []int{d}, Release: 1, TaskSlots: 1, Utility: sched.Table{Values: utils[j]}})
	}
	return in
}

// TestAlg3VsOnionCounterexample: on the two-job instance of the README's Findings
// (formulations/tas.TestAlg3LineSevenCounterexample) the cross-check reports Alg. 3's
// targets infeasible, as a measurement that does not fail verification.
func TestAlg3VsOnionCounterexample(t *testing.T) {
	in := alg3Instance(3, 1, []int{1, 2}, [][]float64{{9, 3, 3}, {6, 5, 0}})
	c := Alg3VsOnion(context.Background(), solve.Default(), "alg3-vs-onion", in, onion(t, in))
	if !c.Info || c.Failed() || !strings.HasPrefix(c.Detail, Alg3Infeasible) || !math.IsInf(c.MaxViolation, 1) {
		t.Fatalf("got %+v", c)
	}
	// And the tas suite carries it.
	rep, err := Instance(context.Background(), in, Options{Formulations: []string{TAS}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ch := range rep.Checks {
		found = found || ch.Name == "tas/alg3-vs-onion"
	}
	if !found {
		t.Fatalf("the tas suite has no alg3-vs-onion check: %v", rep.Checks)
	}
}

// TestAlg3VsOnionRandom counts the cross-check's outcomes on random one-resource
// instances (4–8 jobs, 4–12 slots, capacity 1–4, integer utility tables 0–9 — many
// ties): Alg. 3 is never above the proven lexmax, and it is neither always optimal nor
// always feasible (the counts are logged; README Findings quote them).
func TestAlg3VsOnionRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 3))
	reg := solve.Default()
	counts := map[string]int{}
	const n = 300
	done := 0
	for range n {
		jobs, T, c := 4+rng.IntN(5), 4+rng.IntN(9), 1+rng.IntN(4)
		demand := make([]int, jobs)
		utils := make([][]float64, jobs)
		total := 0
		for j := range jobs {
			demand[j] = 1 + rng.IntN(max(1, c*T/jobs))
			total += demand[j]
			u := make([]float64, T)
			v := float64(rng.IntN(10))
			for t := range u {
				v = max(0, v-float64(rng.IntN(3)))
				u[t] = v
			}
			utils[j] = u
		}
		if total > c*T {
			demand[0] = max(1, demand[0]-(total-c*T))
			if total-demand[0] > c*T {
				continue
			}
		}
		in := alg3Instance(T, c, demand, utils)
		if in.Validate() != nil {
			continue
		}
		on := onion(t, in)
		if !on.Exact {
			continue
		}
		ch := Alg3VsOnion(context.Background(), reg, "alg3-vs-onion", in, on)
		if ch.Failed() {
			t.Fatalf("%s", ch.Detail)
		}
		counts[strings.TrimSuffix(strings.Fields(ch.Detail)[0], ":")]++
		done++
	}
	t.Logf("Alg. 3 vs the lexmax on %d instances: %v", done, counts)
	if counts[Alg3Optimal] == 0 || counts[Alg3Worse] == 0 || counts[Alg3Infeasible] == 0 {
		t.Fatalf("counts %v: expected each outcome at least once", counts)
	}
}
