//go:build highs

package woha_test

import (
	"context"
	"github.com/coraopt/coraopt/workload/hadoop1"
	"slices"
	"testing"
	"time"

	"github.com/coraopt/coraopt/policies/woha"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/all"
)

// mipSolvers are the MIP-capable backends compiled in; HiGHS must be one (this build
// tag requires it).
func mipSolvers(t *testing.T) []solvers.Solver {
	t.Helper()
	var out []solvers.Solver
	var names []string
	for _, n := range solvers.Names() {
		sv, err := solvers.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := sv.(solvers.Describer); ok && d.Capabilities().MIP {
			out = append(out, sv)
			names = append(names, n)
		}
	}
	if !slices.Contains(names, "highs") {
		t.Fatalf("built with tag highs but no MIP-capable highs backend among %v", solvers.Names())
	}
	return out
}

// TestExactFig2MIP: Fig. 2's optimum is all three workflows, and the schedule the MIP
// returns passes CheckExact (SolveExact checks it).
func TestExactFig2MIP(t *testing.T) {
	in, err := woha.ExactInstanceOf(hadoop1.Fig2(), 3, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, sv := range mipSolvers(t) {
		res, err := woha.SolveExact(context.Background(), in, sv, solvers.Options{TimeLimit: time.Minute})
		if err != nil {
			t.Fatalf("%s: %v", sv.Name(), err)
		}
		if res.Count != 3 {
			t.Fatalf("%s: optimum %d workflows, want 3", sv.Name(), res.Count)
		}
	}
}

// TestExactGapMIP scores WOHA and the Oozie baselines against the optimum on 100 seeded
// tiny instances (true times = estimates; run with -v for the figures). Asserted: HiGHS
// proves an optimum and every other MIP backend that proves one within 5 s (lp_solve
// does not always) finds the same, its schedule passes CheckExact, it is at most the
// LP relaxation and at least every policy's count (a simulated schedule is a feasible
// point).
func TestExactGapMIP(t *testing.T) {
	svs := mipSolvers(t)
	n := uint64(100)
	if testing.Short() {
		n = 10
	}
	got := map[string]int{}
	optimal, total, short := 0, 0, map[string]int{}
	agreed, unproven := map[string]int{}, map[string]int{}
	for seed := uint64(1); seed <= n; seed++ {
		in, w := tinyCase(t, seed)
		best := -1
		for _, sv := range svs {
			limit := 5 * time.Second // lp_solve's branch and bound stalls on some of these
			if sv.Name() == "highs" {
				limit = time.Minute
			}
			res, err := woha.SolveExact(context.Background(), in, sv, solvers.Options{TimeLimit: limit})
			if err != nil && sv.Name() != "highs" {
				unproven[sv.Name()]++
				continue
			}
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, sv.Name(), err)
			}
			if best >= 0 && res.Count != best {
				t.Fatalf("seed %d: %s finds %d, another backend %d", seed, sv.Name(), res.Count, best)
			}
			best = res.Count
			agreed[sv.Name()]++
		}
		if lp := lpBound(t, in); float64(best) > lp+1e-6 {
			t.Fatalf("seed %d: MIP optimum %d above its LP relaxation %g", seed, best, lp)
		}
		optimal += best
		total += len(in.Workflows)
		for _, name := range exactPolicies {
			c, _, _ := simulateMet(t, w, name)
			if c > best {
				t.Fatalf("seed %d: %s gets %d workflows on time, above the optimum %d", seed, name, c, best)
			}
			got[name] += c
			if c < best {
				short[name]++
			}
		}
	}
	t.Logf("%d tiny instances, %d workflows: the optimum meets %d deadlines; backends proving the same optimum %v, not proving one within 5 s %v", n, total, optimal, agreed, unproven)
	for _, name := range exactPolicies {
		t.Logf("%-10s meets %3d (%.1f%% of the optimum), below the optimum on %d instances", name, got[name], 100*float64(got[name])/float64(optimal), short[name])
	}
}
