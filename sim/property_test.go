package sim_test

import (
	"context"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// randomWorkload draws a small workload: a containers pool or a heterogeneous
// map/reduce cluster, maybe a capacity trace, up to 5 jobs with one or two stages,
// `after` edges to earlier jobs, and every kind of utility and runtime.
func randomWorkload(t *rapid.T) *workload.Workload {
	w := &workload.Workload{Name: "random", TimeUnit: rapid.SampledFrom([]float64{1, 5}).Draw(t, "time_unit")}
	pools := []string{"containers"}
	if rapid.Bool().Draw(t, "hadoop1") {
		pools = []string{"map", "reduce"}
		for k := range rapid.IntRange(1, 2).Draw(t, "worker_kinds") {
			w.Cluster.Workers = append(w.Cluster.Workers, workload.Worker{
				Count: rapid.IntRange(1, 2).Draw(t, fmt.Sprintf("count%d", k)),
				Slots: map[string]int{"map": rapid.IntRange(1, 2).Draw(t, fmt.Sprintf("map%d", k)), "reduce": 1},
				Speed: rapid.SampledFrom([]float64{0.5, 1, 2}).Draw(t, fmt.Sprintf("speed%d", k)),
			})
		}
	} else {
		w.Cluster.Pools = []workload.Pool{{Name: "containers", Slots: rapid.IntRange(1, 3).Draw(t, "slots")}}
	}
	if rapid.Bool().Draw(t, "trace") {
		at := 0.0
		for k := range rapid.IntRange(1, 3).Draw(t, "steps") {
			at += rapid.Float64Range(1, 15).Draw(t, fmt.Sprintf("step%d", k))
			slots := map[string]int{}
			for _, p := range pools {
				slots[p] = rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("cap%d%s", k, p))
			}
			w.Cluster.Capacity = append(w.Cluster.Capacity, workload.CapacityStep{Time: at, Slots: slots})
		}
		// End with capacity, so every job can finish.
		last := map[string]int{}
		for _, p := range pools {
			last[p] = 1
		}
		w.Cluster.Capacity = append(w.Cluster.Capacity, workload.CapacityStep{Time: at + 20, Slots: last})
	}
	n := rapid.IntRange(1, 5).Draw(t, "jobs")
	for i := range n {
		j := workload.Job{ID: fmt.Sprintf("j%d", i), Arrival: float64(rapid.IntRange(0, 20).Draw(t, fmt.Sprintf("arr%d", i))),
			Priority: float64(rapid.IntRange(1, 5).Draw(t, fmt.Sprintf("prio%d", i)))}
		if rapid.Bool().Draw(t, fmt.Sprintf("hasdl%d", i)) {
			j.Deadline = float64(rapid.IntRange(1, 40).Draw(t, fmt.Sprintf("dl%d", i)))
		}
		d := rapid.Float64Range(1, 30).Draw(t, fmt.Sprintf("ud%d", i))
		switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("ut%d", i)) {
		case 0:
			j.Utility = sched.Sigmoid{Priority: j.Priority, Deadline: d, Decay: rapid.Float64Range(0, 3).Draw(t, fmt.Sprintf("decay%d", i))}
		case 1:
			j.Utility = sched.Linear{Priority: j.Priority, Budget: d, Slope: rapid.Float64Range(0, 1).Draw(t, fmt.Sprintf("slope%d", i))}
		case 2:
			j.Utility = sched.Step{Value: j.Priority, Deadline: d}
		default:
			j.Utility = sched.RDS{Priority: j.Priority, Soft: d, Hard: d * rapid.Float64Range(1, 2).Draw(t, fmt.Sprintf("hard%d", i))}
		}
		for s := range rapid.IntRange(1, len(pools)).Draw(t, fmt.Sprintf("stages%d", i)) {
			st := workload.Stage{Pool: pools[s], Tasks: rapid.IntRange(1, 4).Draw(t, fmt.Sprintf("tasks%d_%d", i, s))}
			switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("rt%d_%d", i, s)) {
			case 0:
				st.Runtime = &workload.Runtime{Type: "fixed", Value: float64(rapid.IntRange(1, 8).Draw(t, fmt.Sprintf("v%d_%d", i, s)))}
			case 1:
				st.Runtime = &workload.Runtime{Type: "exponential", Mean: 4}
			case 2:
				st.Runtime = &workload.Runtime{Type: "gaussian", Mean: 5, Std: 2}
			default:
				st.TaskRuntimes = make([]float64, st.Tasks)
				for k := range st.TaskRuntimes {
					st.TaskRuntimes[k] = rapid.Float64Range(0.5, 9).Draw(t, fmt.Sprintf("x%d_%d_%d", i, s, k))
				}
			}
			if s > 0 && rapid.Bool().Draw(t, fmt.Sprintf("slow%d", i)) {
				st.SlowStart = rapid.SampledFrom([]float64{0.05, 0.5, 0.8}).Draw(t, fmt.Sprintf("slowf%d", i))
			}
			j.Stages = append(j.Stages, st)
		}
		if i > 0 && rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("dep%d", i)) == 0 {
			j.After = []string{fmt.Sprintf("j%d", rapid.IntRange(0, i-1).Draw(t, fmt.Sprintf("on%d", i)))}
			j.Workflow = "w"
		}
		w.Jobs = append(w.Jobs, j)
	}
	if err := w.Validate(); err != nil {
		t.Fatalf("generated an invalid workload: %v", err)
	}
	return w
}

// TestNoPolicyBeatsTheBound runs every registered policy on random small workloads,
// checks every invariant of each run and that its utilizations lie in [0, 1] (capacity
// traces drop under running tasks), and checks that no run's sorted utilities
// exceed the offline lexmax bound lexicographically and no run's sum exceeds the sum
// bound. 1,000 workloads × every policy with
// -rapid.checks=1000 (the acceptance run); the default keeps `go test` quick.
func TestNoPolicyBeatsTheBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := randomWorkload(t)
		seed := rapid.Uint64().Draw(t, "seed")
		slot := rapid.SampledFrom([]float64{1, 2.5, 5}).Draw(t, "slot")
		var runs []*sim.Metrics
		until := 0.0
		for _, name := range all.Names() {
			p, _ := all.New(name)
			r, err := sim.Run(context.Background(), w, p, sim.Options{Seed: seed, Record: true})
			if e, ok := p.(interface{ Err() error }); ok && e.Err() != nil {
				// The policy says it cannot model this workload (WOHA without deadlines or
				// estimates, RTMR without data sizes and estimates): its run is not its own.
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := sim.CheckInvariants(w, seed, r); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			m := sim.Summarize(w, r)
			for pool, u := range m.Utilization {
				if !(u >= 0 && u <= 1) {
					t.Fatalf("%s: utilization of %s is %g, outside [0, 1]", name, pool, u)
				}
			}
			if m.AdmissionMetrics != nil && !(m.SuccessfulUtilization >= 0 && m.SuccessfulUtilization <= 1) {
				t.Fatalf("%s: successful utilization %g, outside [0, 1]", name, m.SuccessfulUtilization)
			}
			runs = append(runs, m)
			until = max(until, r.Makespan)
		}
		b, err := sim.Bound(context.Background(), w, seed, slot, until)
		if err != nil {
			t.Fatal(err)
		}
		if !b.Exact {
			t.Fatalf("OnionPeel could not prove this relaxation's lexmax (tied values past its branch budget)")
		}
		for _, m := range runs {
			if sim.BeatsBound(m.SortedUtilities, b.SortedUtilities, 0) {
				t.Fatalf("%s beats the bound:\n policy %v\n bound  %v", m.Name, m.SortedUtilities, b.SortedUtilities)
			}
			if m.SumUtility > b.SumBound {
				t.Fatalf("%s: sum of utilities %v above the sum bound %v (%s)", m.Name, m.SumUtility, b.SumBound, b.SumBoundMethod)
			}
		}
		// The lexmax bound's point lies in the sum bound's relaxation once the sum bound
		// drops the stage caps (the lexmax relaxation has none), so its sum is below.
		uncapped, err := sim.BoundWith(context.Background(), w, seed, slot, until, sim.BoundOptions{NoStageCaps: true})
		if err != nil {
			t.Fatal(err)
		}
		if uncapped.SumBound < b.SumUtility || b.SumBoundMethod != "transportation" || uncapped.SumBound < b.SumBound-1e-12*(1+b.SumBound) {
			t.Fatalf("sum bound %v (%s), without stage caps %v; the lexmax vector's sum %v", b.SumBound, b.SumBoundMethod, uncapped.SumBound, b.SumUtility)
		}
		// Slots of twice the length nest the finer ones, so the coarser relaxation
		// contains the finer one's points: its bound is never lower.
		coarse, err := sim.Bound(context.Background(), w, seed, 2*slot, until)
		if err != nil {
			t.Fatal(err)
		}
		if coarse.Exact && sched.CompareSorted(coarse.SortedUtilities, b.SortedUtilities, 0) < 0 {
			t.Fatalf("slot %g gives a lower bound than slot %g:\n %v\n %v", 2*slot, slot, coarse.SortedUtilities, b.SortedUtilities)
		}
	})
}
