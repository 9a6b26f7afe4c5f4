package all_test

import (
	"context"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/internal/fidelity"
	"github.com/coraopt/coraopt/policies/oracle"
	"github.com/coraopt/coraopt/policies/plan"
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

// broken runs the oracle of shape cfg on w and reports whether its run fell below its
// first plan (within tolerance) at any sorted position.
func broken(t fataler, w *workload.Workload, seed uint64, cfg plan.Config) (*fidelity.Result, bool) {
	r, err := fidelity.Run(context.Background(), w, oracle.New(cfg), seed)
	if err != nil {
		t.Fatal(err)
	}
	return r, r.Below > 0
}

// fataler is what broken needs of a *testing.T or a *rapid.T.
type fataler interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
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
		if r, bad := broken(rt, w, seed, plan.Config{}); bad {
			rt.Fatalf("%s, %d jobs, seed %d: %d sorted positions below the plan within tolerance\nexecuted %v\nplanned  %v",
				fam.name, n, seed, r.Below, r.Executed, r.Planned)
		}
	})
}

// TestPaperMechanismsBreakFidelity decides what made the planners miss their own
// plans (issue 28): on 20 fixed 12-job workloads of the cora and rush families with
// no arrivals, the oracle carried out by promises keeps every plan within tolerance on
// the staged model (1 broken on the pooled one), while the papers' hand-over — the
// plan's first slot as target containers — breaks 14 of them on the papers' pooled
// model and 4 on the staged one.
// The counts are pinned (docs/findings.md quotes them).
func TestPaperMechanismsBreakFidelity(t *testing.T) {
	cases := []struct {
		name string
		cfg  plan.Config
		want int // plans broken, of 20
	}{
		{"staged, promises", plan.Config{}, 0},
		{"pooled, promises", plan.Config{Model: plan.Pooled}, 1},
		{"staged, targets", plan.Config{Dispatch: plan.DispatchTargets}, 4},
		{"pooled, targets (the papers')", plan.Config{Model: plan.Pooled, Dispatch: plan.DispatchTargets}, 14},
	}
	for _, c := range cases {
		nbroken := 0
		for seed := uint64(1); seed <= 20; seed++ {
			w, err := fidelityFamilies[seed%2].gen(12, seed)
			if err != nil {
				t.Fatal(err)
			}
			if w, err = workload.NoArrivals(w); err != nil {
				t.Fatal(err)
			}
			if _, bad := broken(t, w, seed, c.cfg); bad {
				nbroken++
			}
		}
		t.Logf("%s: %d of 20 plans not carried out within tolerance", c.name, nbroken)
		if nbroken != c.want {
			t.Errorf("%s: %d of 20 plans broken, want %d", c.name, nbroken, c.want)
		}
	}
}
