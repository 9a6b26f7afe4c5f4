package rs

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
)

// checkRSResult checks a Solve result against its own robust instance: every job gets at
// least η container-slots within capacity, completion and utility are what the
// allocation says, and the mapping gives every job its tasks.
func checkRSResult(t *testing.T, res *Result) {
	t.Helper()
	in := res.Instance
	for i, d := range res.Demands {
		if got := int64(in.Jobs[i].Demand[0]); got != d.Eta {
			t.Fatalf("job %s: robust demand %d, eta %d", d.ID, got, d.Eta)
		}
		var got int64
		for _, x := range res.Schedule.Jobs[i].Alloc[0] {
			got += int64(x)
		}
		if got < d.Eta {
			t.Errorf("job %s: %d container-slots scheduled, eta %d", d.ID, got, d.Eta)
		}
		if c := sched.CompletionSlot(res.Schedule.Jobs[i].Alloc); c != res.Schedule.Jobs[i].Completion {
			t.Errorf("job %s: completion %d, allocation ends at %d", d.ID, res.Schedule.Jobs[i].Completion, c)
		}
		if int64(res.Mapping.Volume[i]) < d.Eta {
			t.Errorf("job %s: mapping gives %d container-slots, eta %d", d.ID, res.Mapping.Volume[i], d.Eta)
		}
	}
	for slot := range in.Horizon {
		used := 0
		for i := range res.Schedule.Jobs {
			used += res.Schedule.Jobs[i].Alloc[0][slot]
		}
		if used > in.Resources[0].Capacity[slot] {
			t.Errorf("slot %d: %d used, capacity %d", slot+1, used, in.Resources[0].Capacity[slot])
		}
	}
}

func TestSolveInstanceFile(t *testing.T) {
	inst, err := sched.DecodeFile("../../testdata/instances/runtime-robust.json")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ParamsOf(inst)
	res, err := Solve(context.Background(), inst, p, Options{Rounding: tas.ExactVolume})
	if err != nil {
		t.Fatal(err)
	}
	checkRSResult(t, res)
	if res.Peel == nil || !res.Peel.Exact {
		t.Errorf("onion peeling result %+v", res.Peel)
	}
	// With exact volumes and constant capacity, Theorem 3's bound T_i + R_i holds.
	if !res.Mapping.BoundHolds {
		t.Errorf("Theorem 3 bound fails for jobs %v", res.Mapping.Late)
	}
}

// RS = WCDE + TAS, checked against brute force: on small random instances with runtime
// distributions, the sorted utility vector of Solve equals the lexicographic maximum
// over every vector of completion deadlines that EDF can meet with the η demands.
func TestSolveMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	solved, infeasible := 0, 0
	for trial := range 150 {
		inst, p := randomRSInstance(rng)
		res, err := Solve(context.Background(), inst, p, Options{})
		if errors.Is(err, tas.ErrInfeasible) {
			if best := bruteForceLexmax(res0(t, inst, p)); best != nil {
				t.Fatalf("trial %d: Solve says infeasible, brute force finds %v", trial, best)
			}
			infeasible++
			continue
		}
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		checkRSResult(t, res)
		want := bruteForceLexmax(res.Instance)
		if want == nil {
			t.Fatalf("trial %d: brute force finds no feasible deadlines", trial)
		}
		if sched.CompareSorted(res.Schedule.Sorted, want, 1e-12) != 0 {
			t.Fatalf("trial %d: Solve %v, brute force %v (eta %v)", trial, res.Schedule.Sorted, want, etas(res.Demands))
		}
		solved++
	}
	t.Logf("%d solved and matched, %d infeasible (confirmed)", solved, infeasible)
	if solved < 75 {
		t.Errorf("only %d of 150 random instances were feasible: the test says little", solved)
	}
}

func etas(ds []JobDemand) []int64 {
	out := make([]int64, len(ds))
	for i, d := range ds {
		out[i] = d.Eta
	}
	return out
}

// res0 builds the robust instance without solving (for the infeasible case).
func res0(t *testing.T, inst *sched.Instance, p Params) *sched.Instance {
	t.Helper()
	ds, err := Demands(inst, p)
	if err != nil {
		t.Fatal(err)
	}
	robust, err := RobustInstance(inst, ds)
	if err != nil {
		t.Fatal(err)
	}
	return robust
}

// randomRSInstance: 2–4 jobs, one resource of 2–4 containers, 4–6 slots, table
// utilities, runtimes of every kind.
func randomRSInstance(rng *rand.Rand) (*sched.Instance, Params) {
	T := 4 + rng.IntN(3)
	C := 2 + rng.IntN(3)
	n := 2 + rng.IntN(3)
	inst := &sched.Instance{Name: "random", Horizon: T, HorizonSource: "file",
		Resources: []sched.Resource{{Name: "containers", Capacity: constCap(C, T)}}}
	for i := range n {
		vals := make([]float64, T)
		v := float64(rng.IntN(10))
		for t := range vals {
			vals[t] = v
			v = max(0, v-float64(rng.IntN(3)))
		}
		job := sched.Job{ID: string(rune('a' + i)), Demand: []int{1 + rng.IntN(3)}, Release: 1, TaskSlots: 1 + rng.IntN(2),
			Utility: sched.Table{Values: vals}}
		switch rng.IntN(4) {
		case 0:
			job.Runtime = &sched.Runtime{Type: "impulse", Mean: 0.5 + rng.Float64(), Tasks: 1 + rng.IntN(3)}
		case 1:
			job.Runtime = &sched.Runtime{Type: "gaussian", Mean: 1 + rng.Float64(), Std: rng.Float64() / 2, Tasks: 1 + rng.IntN(3)}
		case 2:
			job.Runtime = &sched.Runtime{Type: "pmf", Probabilities: []float64{0.1, 0.3, 0.4, 0.2}, BinWidth: 1}
		}
		inst.Jobs = append(inst.Jobs, job)
	}
	return inst, Params{Theta: 0.05 + 0.9*rng.Float64(), Delta: 2 * rng.Float64()}
}

// bruteForceLexmax is the lexicographically largest sorted utility vector over every
// deadline vector EDF can meet, or nil when none can be met.
func bruteForceLexmax(in *sched.Instance) []float64 {
	n, T := len(in.Jobs), in.Horizon
	d := make([]int, n)
	var best []float64
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			if _, v := tas.EDF(in, d); v != nil {
				return
			}
			u := make([]float64, n)
			for j := range n {
				u[j] = in.Jobs[j].Utility.At(d[j])
			}
			slices.Sort(u)
			if best == nil || sched.CompareSorted(u, best, 0) > 0 {
				best = u
			}
			return
		}
		for t := 1; t <= T; t++ {
			d[i] = t
			rec(i + 1)
		}
	}
	rec(0)
	return best
}
