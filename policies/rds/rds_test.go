package rds

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	frds "github.com/coraopt/coraopt/formulations/rds"
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/workload"
)

// TestRDSWorkload: both variants complete rds.txt's Table 3 workload (100 jobs, the
// generator's half-green capacity trace) over three seeds, with the simulator's
// invariants holding, no solver fallback, and sorted utilities that never beat the
// offline bound (slots of 600 s). The same seed gives the same run twice.
func TestRDSWorkload(t *testing.T) {
	if testing.Short() {
		t.Skip("three 100-job runs per variant; -short skips them")
	}
	ctx := context.Background()
	for seed := uint64(1); seed <= 3; seed++ {
		w, err := workload.RDSWorkload(100, seed)
		if err != nil {
			t.Fatal(err)
		}
		var runs []*sim.Result
		for _, f := range []Forecast{AR, Ideal} {
			p := mustNew(t, Config{Forecast: f})
			res, err := sim.Run(ctx, w, p, sim.Options{Seed: seed, Record: true})
			if err != nil {
				t.Fatalf("seed %d, %s: %v", seed, p.Name(), err)
			}
			if err := sim.CheckInvariants(w, seed, res); err != nil {
				t.Fatalf("seed %d, %s: %v", seed, p.Name(), err)
			}
			if p.Fallbacks() != 0 {
				t.Errorf("seed %d, %s: %d fallbacks, last: %v", seed, p.Name(), p.Fallbacks(), p.LastError())
			}
			if want := int(math.Ceil(res.Makespan / DefaultInterval)); p.Ticks() < want-1 || p.Ticks() > want+1 {
				t.Errorf("seed %d, %s: %d ticks over a makespan of %g s, want about %d", seed, p.Name(), p.Ticks(), res.Makespan, want)
			}
			runs = append(runs, res)
		}
		until := max(runs[0].Makespan, runs[1].Makespan)
		b, err := sim.Bound(ctx, w, seed, 600, until)
		if err != nil {
			t.Fatal(err)
		}
		for _, res := range runs {
			m := sim.Summarize(w, res)
			if sim.BeatsBound(m.SortedUtilities, b.SortedUtilities, 1e-12) {
				t.Errorf("seed %d, %s beats the bound: %v vs %v", seed, res.Policy, m.SortedUtilities, b.SortedUtilities)
			}
			t.Logf("seed %d %s: met %d/%d, miss penalty %.4g, sum utility %.4g (bound %.4g)", seed, res.Policy,
				m.DeadlinesMet, m.JobsWithDeadline, m.DeadlineMissPenalty, m.SumUtility, b.SumUtility)
		}
		if seed == 1 {
			again, err := sim.Run(ctx, w, mustNew(t, Config{}), sim.Options{Seed: seed, Record: true})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(again.Placements, runs[0].Placements) {
				t.Error("seed 1: a second rds run placed tasks differently")
			}
		}
	}
}

// shortJobCase: a long job L (600 one-minute tasks, deadline 4,000 s: the QP's
// reference wants about 9 of the 10 slots) and a short job S (10 one-minute tasks)
// arriving at minute 1 with a 5-minute deadline — before the next tick at minute 10.
func shortJobCase() *workload.Workload {
	stage := func(n int) []workload.Stage {
		return []workload.Stage{{Pool: "slots", Tasks: n, Runtime: &workload.Runtime{Type: "fixed", Value: 60}}}
	}
	w := &workload.Workload{Name: "fast-path", TimeUnit: 60,
		Cluster: workload.Cluster{Pools: []workload.Pool{{Name: "slots", Slots: 10}}},
		Jobs: []workload.Job{
			{ID: "L", Priority: 1, Deadline: 4000, Utility: sched.RDS{Priority: 1, Soft: 4000.0 / 60, Hard: 4000.0 / 60}, Stages: stage(600)},
			{ID: "S", Arrival: 60, Priority: 1, Deadline: 300, Utility: sched.RDS{Priority: 1, Soft: 5, Hard: 5}, Stages: stage(10)},
		}}
	if err := w.Validate(); err != nil {
		panic(err)
	}
	return w
}

// TestFastPath (rds.txt §4.3): without the fast path the short job waits for the next
// tick — it gets only the slots the long job's target leaves — and misses its
// deadline; with it, Algorithm 1 serves it at once and it meets the deadline.
func TestFastPath(t *testing.T) {
	w := shortJobCase()
	for _, off := range []bool{false, true} {
		p := mustNew(t, Config{NoFastPath: off})
		res, err := sim.Run(context.Background(), w, p, sim.Options{Seed: 1, Record: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.CheckInvariants(w, 1, res); err != nil {
			t.Fatal(err)
		}
		s := res.Jobs[1]
		met := s.Completion <= s.Arrival+300
		t.Logf("fast path off=%t: S completes at %g s, L at %g s", off, s.Completion, res.Jobs[0].Completion)
		if met == off {
			t.Errorf("fast path off=%t: S completes at %g s, deadline %g s", off, s.Completion, s.Arrival+300)
		}
	}
}

// TestLearnsGains: with explicit runtimes (no declared distribution) the unit of work
// is one task, and the prior gain (L·speed = 600 tasks per slot per interval) is far
// off; RLS learns from the observed progress that a map slot finishes about 600/30 =
// 20 tasks per interval and a reduce slot about 600/90 ≈ 6.7.
func TestLearnsGains(t *testing.T) {
	runtimes := func(n int, r float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = r
		}
		return out
	}
	w := &workload.Workload{Name: "learn", TimeUnit: 60,
		Cluster: workload.Cluster{Pools: []workload.Pool{{Name: "map", Slots: 10}, {Name: "reduce", Slots: 5}}},
		Jobs: []workload.Job{{ID: "a", Priority: 1, Deadline: 6000,
			Utility: sched.RDS{Priority: 1, Soft: 100, Hard: 150},
			Stages: []workload.Stage{{Pool: "map", Tasks: 800, TaskRuntimes: runtimes(800, 30)},
				{Pool: "reduce", Tasks: 150, TaskRuntimes: runtimes(150, 90)}}}}}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	p := mustNew(t, Config{})
	res, err := sim.Run(context.Background(), w, p, sim.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	g, ok := p.Estimate(0)
	t.Logf("completion %g s, learned gains %+v after %d ticks", res.Jobs[0].Completion, g, p.Ticks())
	if !ok || math.Abs(g.Map-20) > 2 || math.Abs(g.Reduce-600.0/90) > 1 {
		t.Errorf("learned gains %+v, want about {Map: 20, Reduce: 6.67}", g)
	}
}

// TestNewRejectsBadConfig: settings the controller cannot run with fail at New, a
// backend among them: one that is not registered, or that cannot solve its problem
// (eq. 3 is a QP, the shortfall problem an LP), is New's error naming the setting.
func TestNewRejectsBadConfig(t *testing.T) {
	bad := map[string]struct {
		cfg  Config
		want string
	}{
		"negative interval": {Config{Interval: -1}, "control interval"},
		"infinite interval": {Config{Interval: math.Inf(1)}, "control interval"},
		"forgetting > 1":    {Config{Forgetting: 1.5}, ""},
		"negative prior":    {Config{PriorCovariance: -1}, ""},
		"NaN history":       {Config{History: []float64{30, math.NaN()}}, "history"},
		"unknown forecast":  {Config{Forecast: 7}, "forecast"},
		"zero horizon":      {Config{Params: &frds.Params{}}, ""},
		"unknown backend":   {Config{Backend: "nosuch"}, `backend: unknown solver "nosuch"`},
		"LP-only for eq. 3": {Config{Backend: "simplex"}, `backend: solver "simplex" cannot solve QPs`},
		"unknown shortfall": {Config{ShortfallBackend: "nosuch"}, `shortfall-backend: unknown solver "nosuch"`},
	}
	for name, c := range bad {
		if _, err := New(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, c.want)
		}
	}
	p, err := New(Config{})
	if err != nil || p.Name() != "rds" || p.Interval() != DefaultInterval {
		t.Fatalf("defaults: %v, %v", p, err)
	}
	lp, err := solvers.Select("", solvers.LP)
	if err != nil {
		t.Fatal(err)
	}
	if p.rhc.QP.Name != DefaultBackend || p.rhc.LP.Name != lp.Name {
		t.Errorf("default backends %s and %s, want %s and the default LP backend %s", p.rhc.QP.Name, p.rhc.LP.Name, DefaultBackend, lp.Name)
	}
	if p := mustNew(t, Config{Backend: "qp", ShortfallBackend: "qp"}); p.rhc.LP.Name != "qp" {
		t.Errorf("shortfall backend %s, want qp", p.rhc.LP.Name)
	}
}

var _ policies.Ticker = (*Policy)(nil)
var _ policies.Observer = (*Policy)(nil)
var _ policies.TraceAware = (*Policy)(nil)

// TestOtherFamilies: RDS also completes the cora and rush 100-job workloads (one pool,
// sigmoid utilities, jobs of a few minutes, shorter than the control interval) on
// seeds 1–5, with the simulator's invariants and no solver fallback.
func TestOtherFamilies(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		cora, err := workload.CORAWorkload(100, seed)
		if err != nil {
			t.Fatal(err)
		}
		rush, err := workload.RUSHWorkload(100, seed, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []*workload.Workload{cora, rush} {
			p := mustNew(t, Config{})
			res, err := sim.Run(context.Background(), w, p, sim.Options{Seed: seed, Record: true})
			if err != nil {
				t.Fatalf("%s: %v", w.Name, err)
			}
			if err := sim.CheckInvariants(w, seed, res); err != nil {
				t.Fatalf("%s: %v", w.Name, err)
			}
			if p.Fallbacks() != 0 {
				t.Errorf("%s: %d fallbacks, last: %v", w.Name, p.Fallbacks(), p.LastError())
			}
		}
	}
}

// TestSingleCapacityRow pins the package documentation's comparison: on the nine jobs
// of the rds workload (seed 1) eq. 3's single capacity row gives a deadline-miss
// penalty of 5.664; the separate map and reduce rows, 4.181.
func TestSingleCapacityRow(t *testing.T) {
	w, err := workload.RDSWorkload(9, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		single  bool
		penalty float64
	}{{true, 5.663941123290058}, {false, 4.181235552456901}} {
		res, err := sim.Run(context.Background(), w, mustNew(t, Config{SingleCapacityRow: c.single}), sim.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := sim.Summarize(w, res).DeadlineMissPenalty; math.Abs(got-c.penalty) > 1e-6*c.penalty {
			t.Errorf("single row %t: miss penalty %.16g, pinned %.16g", c.single, got, c.penalty)
		}
	}
}
