package all_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/oracle"
	"github.com/coraopt/coraopt/policies/plan"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
	"github.com/coraopt/coraopt/workload/hadoop1"
)

// fidelityFamily is a generated family at a size the fidelity test can afford.
type fidelityFamily struct {
	name       string
	minN, maxN int
	gen        func(n int, seed uint64) (*workload.Workload, error)
}

var fidelityFamilies = []fidelityFamily{
	{"cora", 2, 12, func(n int, seed uint64) (*workload.Workload, error) { return workload.CORAWorkload(n, seed) }},
	{"rush", 2, 12, func(n int, seed uint64) (*workload.Workload, error) { return workload.RUSHWorkload(n, seed, 1.5) }},
	{"rds", 1, 2, func(n int, seed uint64) (*workload.Workload, error) { return workload.RDSWorkload(n, seed) }},
	{"woha", 1, 3, func(n int, seed uint64) (*workload.Workload, error) { return hadoop1.WOHAFamily("woha", n, seed) }},
	{"rtmr", 2, 12, func(n int, seed uint64) (*workload.Workload, error) {
		w, err := hadoop1.RTMRFamily("rtmr-1", seed, "within")
		if err != nil {
			return nil, err
		}
		w.Jobs = w.Jobs[:min(n, len(w.Jobs))]
		return w, nil
	}},
}

// firstPlan records a planner's promises and slot after its first plan.
type firstPlan struct {
	policies.Policy
	promise map[int]float64
	slot    float64
}

type promiser interface {
	policies.Rounder
	Promise(j int) (float64, bool)
	PlanSlot() float64
}

func (f *firstPlan) StartRound(ctx context.Context, v policies.View) {
	p := f.Policy.(promiser)
	p.StartRound(ctx, v)
	if f.promise == nil && p.PlanSlot() > 0 {
		f.promise = map[int]float64{}
		for j := range v.NumJobs() {
			if c, ok := p.Promise(j); ok {
				f.promise[j] = c
			}
		}
		f.slot = p.PlanSlot()
	}
}

// Tolerance is how much later than its promise a job may complete, by the plan's model
// (policies/plan's doc, "Fidelity"): one slot, plus for each stage the longest of its
// tasks at the slowest speed of its pool (Graham's bound: a stage of tasks that cannot
// be split ends up to one task later than its divisible work), plus the tolerance of
// the jobs it waits for.
func tolerance(w *workload.Workload, seed uint64, slot float64) []float64 {
	slowest := map[string]float64{}
	for _, wk := range w.Cluster.Workers {
		for name, n := range wk.Slots {
			if n > 0 {
				if s, ok := slowest[name]; !ok || wk.Speed < s {
					slowest[name] = wk.Speed
				}
			}
		}
	}
	ids := map[string]int{}
	for i := range w.Jobs {
		ids[w.Jobs[i].ID] = i
	}
	chain := make([]float64, len(w.Jobs))
	done := make([]bool, len(w.Jobs))
	var of func(i int) float64
	of = func(i int) float64 {
		if done[i] {
			return chain[i]
		}
		j := &w.Jobs[i]
		stream := workload.JobStream(seed, j.ID)
		c := 0.0
		for s := range j.Stages {
			st := &j.Stages[s]
			longest := 0.0
			for k := range st.Tasks {
				longest = max(longest, workload.TaskRuntime(stream, st, s, k))
			}
			c += longest / slowest[st.Pool]
		}
		before := 0.0
		for _, d := range j.After {
			before = max(before, of(ids[d]))
		}
		chain[i], done[i] = c+before, true
		return chain[i]
	}
	tau := make([]float64, len(w.Jobs))
	for i := range tau {
		tau[i] = slot + of(i)
	}
	return tau
}

// fidelity runs the oracle on w with no arrivals and returns the executed sorted
// utilities and the t = 0 plan's, each job's promise delayed by its tolerance.
// fataler is what fidelity needs of a *testing.T or a *rapid.T.
type fataler interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

func fidelity(t fataler, w *workload.Workload, seed uint64, cfg plan.Config) (exec, planned []float64, late int) {
	rec := &firstPlan{Policy: oracle.New(cfg)}
	res, err := sim.Run(context.Background(), w, rec, sim.Options{Seed: seed, Record: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.CheckInvariants(w, seed, res); err != nil {
		t.Fatal(err)
	}
	if len(rec.promise) != len(w.Jobs) {
		t.Fatalf("the first plan promised %d of %d jobs", len(rec.promise), len(w.Jobs))
	}
	tau := tolerance(w, seed, rec.slot)
	for j := range w.Jobs {
		c := res.Jobs[j].Completion
		exec = append(exec, workload.UtilityOfResponse(w.Jobs[j].Utility, c/w.TimeUnit))
		limit := rec.promise[j] + tau[j]
		planned = append(planned, workload.UtilityOfResponse(w.Jobs[j].Utility, limit/w.TimeUnit))
		if c > limit {
			late++
		}
	}
	slices.Sort(exec)
	slices.Sort(planned)
	return exec, planned, late
}

// TestPlanFidelity: with every job present at t = 0 and true runtimes known (the
// oracle), the executed sorted utilities are at least those of the first plan's
// promises, each delayed by the documented tolerance — on random workloads of every
// generated family. A planner whose model the cluster cannot carry out fails it: the
// papers' pooled model with first-slot targets (cora-paper's) is TestPaperModelIsNotCarriedOut's
// subject.
func TestPlanFidelity(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		fam := rapid.SampledFrom(fidelityFamilies).Draw(rt, "family")
		n := rapid.IntRange(fam.minN, fam.maxN).Draw(rt, "jobs")
		seed := rapid.Uint64Range(1, 1<<40).Draw(rt, "seed")
		w, err := fam.gen(n, seed)
		if err != nil {
			rt.Fatal(err)
		}
		if w, err = workload.NoArrivals(w); err != nil {
			rt.Fatal(err)
		}
		exec, planned, _ := fidelity(rt, w, seed, plan.Config{})
		for k := range exec {
			if exec[k] < planned[k]-1e-9*max(1, math.Abs(planned[k])) {
				rt.Fatalf("%s, %d jobs, seed %d: sorted position %d executed %.6g, below the plan's %.6g within tolerance\nexecuted %v\nplanned  %v",
					fam.name, n, seed, k+1, exec[k], planned[k], exec, planned)
			}
		}
	})
}

// TestPaperMechanismsBreakFidelity decides what made the planners miss their own
// plans (issue 28): on 20 fixed 12-job workloads of the cora and rush families with
// no arrivals, the oracle carried out by promises on the staged model keeps every plan
// within tolerance, while the papers' hand-over — the plan's first slot as target
// containers — breaks most of them, with either model; the pooled model carried out
// by promises breaks a few. The counts are pinned (docs/findings.md quotes them).
func TestPaperMechanismsBreakFidelity(t *testing.T) {
	cases := []struct {
		name string
		cfg  plan.Config
		want int // plans broken, of 20
	}{
		{"staged, promises", plan.Config{}, 0},
		{"pooled, promises", plan.Config{Model: plan.Pooled}, 1},
		{"staged, targets", plan.Config{Dispatch: plan.DispatchTargets}, 14},
		{"pooled, targets (the papers')", plan.Config{Model: plan.Pooled, Dispatch: plan.DispatchTargets}, 15},
	}
	for _, c := range cases {
		broken := 0
		for seed := uint64(1); seed <= 20; seed++ {
			w, err := fidelityFamilies[seed%2].gen(12, seed)
			if err != nil {
				t.Fatal(err)
			}
			if w, err = workload.NoArrivals(w); err != nil {
				t.Fatal(err)
			}
			exec, planned, _ := fidelity(t, w, seed, c.cfg)
			for k := range exec {
				if exec[k] < planned[k]-1e-9*max(1, math.Abs(planned[k])) {
					broken++
					break
				}
			}
		}
		t.Logf("%s: %d of 20 plans not carried out within tolerance", c.name, broken)
		if broken != c.want {
			t.Errorf("%s: %d of 20 plans broken, want %d", c.name, broken, c.want)
		}
	}
}
