package sim_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/policies/fifo"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
	"github.com/coraopt/coraopt/workload/hadoop1"
)

// loose is issue 17's relaxation: the one the dense path built.
var loose = sim.BoundOptions{NoEarliestCompletion: true, NoAfterRelease: true}

// checkCompactMatchesDense peels the relaxation in its compact form and in the dense
// form issue 17's Bound built (a table per job) and requires the same result: the same
// sorted levels and exact flag peeled as given (the float values, as the dense path
// did), and the same again with the compact form's default order, which only differs
// where a sigmoid underflows to 0.
func checkCompactMatchesDense(t fataler, w *workload.Workload, seed uint64, slot, until float64) {
	t.Helper()
	compact, dense, _, err := sim.Relaxation(w, seed, slot, until, loose)
	if err != nil {
		t.Fatal(err)
	}
	if len(compact.Jobs) == 0 {
		return
	}
	ctx := context.Background()
	want, err := tas.OnionPeel(ctx, dense, tas.Options{NoSchedule: true})
	if err != nil {
		t.Fatal(err)
	}
	given, err := tas.OnionPeel(ctx, compact, tas.Options{NoSchedule: true, AsGiven: true})
	if err != nil {
		t.Fatal(err)
	}
	w1, g1 := slices.Sorted(slices.Values(want.Levels)), slices.Sorted(slices.Values(given.Levels))
	if !slices.Equal(w1, g1) || want.Exact != given.Exact {
		t.Fatalf("slot %g: dense %v (exact %v), compact as given %v (exact %v)", slot, w1, want.Exact, g1, given.Exact)
	}
	keyed, err := tas.OnionPeel(ctx, compact, tas.Options{NoSchedule: true})
	if err != nil {
		t.Fatal(err)
	}
	underflow := false
	for k := range dense.Jobs {
		underflow = underflow || slices.Contains(dense.Jobs[k].Utility.(sched.Table).Values, 0)
	}
	if k1 := slices.Sorted(slices.Values(keyed.Levels)); !underflow && !slices.Equal(w1, k1) {
		t.Fatalf("slot %g: dense %v, compact %v (no utility is 0)", slot, w1, k1)
	}
}

// TestCompactRelaxationMatchesDense: on every generated family, at several slot
// lengths, the compact relaxation gives what the dense one gave.
func TestCompactRelaxationMatchesDense(t *testing.T) {
	gens := map[string]func() (*workload.Workload, error){
		"cora":   func() (*workload.Workload, error) { return workload.CORAWorkload(30, 1) },
		"rush":   func() (*workload.Workload, error) { return workload.RUSHWorkload(30, 1, 1.5) },
		"rds":    func() (*workload.Workload, error) { return workload.RDSWorkload(12, 1) },
		"woha":   func() (*workload.Workload, error) { return hadoop1.WOHAFamily("woha", 2, 1) },
		"rtmr-1": func() (*workload.Workload, error) { return hadoop1.RTMRFamily("rtmr-1", 1, "within") },
		"rtmr-2": func() (*workload.Workload, error) { return hadoop1.RTMRFamily("rtmr-2", 1, "within") },
	}
	for name, gen := range gens {
		w, err := gen()
		if err != nil {
			t.Fatal(err)
		}
		m, err := sim.Measure(context.Background(), w, fifo.New(), 1, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, slot := range []float64{60, 300, 1800} {
			t.Run(fmt.Sprintf("%s/slot=%g", name, slot), func(t *testing.T) {
				checkCompactMatchesDense(t, w, 1, slot, m.Makespan)
			})
		}
	}
}

// TestCompactRelaxationMatchesDenseRandom: the same on the random workloads of
// TestNoPolicyBeatsTheBound (every utility family, capacity traces, workers of several
// speeds, slow start).
func TestCompactRelaxationMatchesDenseRandom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := randomWorkload(t)
		seed := rapid.Uint64().Draw(t, "seed")
		slot := rapid.SampledFrom([]float64{1, 2.5, 5, 20}).Draw(t, "slot")
		m, err := sim.Measure(context.Background(), w, fifo.New(), seed, false)
		if err != nil {
			t.Fatal(err)
		}
		checkCompactMatchesDense(t, w, seed, slot, m.Makespan+rapid.Float64Range(0, 50).Draw(t, "later"))
	})
}

// fataler is what the checks need of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}
