// Package schedtest draws random valid sched.Instances for property tests
// (pgregory.net/rapid), together with a feasible schedule that proves them valid.
//
// Every instance it returns passes sched.Instance.Validate, so Decode(Encode(x)) == x
// holds for it and any solver may assume a feasible allocation exists: the generator
// builds the instance around a witness allocation (each job's demand is what the witness
// gives it, within capacity, release and max_parallel), so the witness's sorted utility
// vector is a lower bound for any lexmax solver.
//
//	rapid.Check(t, func(t *rapid.T) {
//		in := schedtest.Instance(t, schedtest.Config{MaxJobs: 6, Release: true})
//		s := tas.OnionPeel(in) // for example
//		...
//	})
package schedtest

import (
	"fmt"
	"slices"

	"github.com/coraopt/coraopt/sched"
	"pgregory.net/rapid"
)

// Config shapes the random instances. The zero value gives 1–8 jobs, 1–12 slots, one
// resource of constant capacity 1–10 per slot, and table, sigmoid, linear and step
// utilities; release 1, no parallelism cap, task_slots 1, no runtime, no robust block.
type Config struct {
	MinJobs, MaxJobs   int // number of jobs N (default 1..8)
	MinSlots, MaxSlots int // horizon T (default 1..12)
	MaxResources       int // R is drawn from 1..MaxResources (default 1)
	MaxCapacity        int // capacity per slot is drawn from 1..MaxCapacity (default 10)
	// VaryingCapacity draws each slot's capacity separately from 0..MaxCapacity (RDS's
	// time-varying capacity); otherwise a resource has the same capacity in every slot.
	VaryingCapacity bool
	// Utilities lists the families to draw from: "table", "sigmoid", "linear", "step",
	// "constant", "piecewise", "rds" (default the first four). Tables hold integers 0–9
	// with T entries (shorter ones with ShortTables), the kind of ties onion peeling
	// must branch on.
	Utilities   []string
	ShortTables bool
	Release     bool // draw release slots from 1..T
	MaxParallel bool // draw max_parallel from {0 (no cap)} ∪ 1..MaxCapacity
	TaskSlots   bool // draw task_slots from 1..3
	Runtime     bool // give some jobs a runtime distribution of a random type
	Robust      bool // add a robust block
}

func (c Config) withDefaults() Config {
	if c.MaxJobs == 0 {
		c.MaxJobs = 8
	}
	c.MinJobs = max(c.MinJobs, 1)
	c.MaxJobs = max(c.MaxJobs, c.MinJobs)
	if c.MaxSlots == 0 {
		c.MaxSlots = 12
	}
	c.MinSlots = max(c.MinSlots, 1)
	c.MaxSlots = max(c.MaxSlots, c.MinSlots)
	c.MaxResources = max(c.MaxResources, 1)
	if c.MaxCapacity == 0 {
		c.MaxCapacity = 10
	}
	if len(c.Utilities) == 0 {
		c.Utilities = []string{"table", "sigmoid", "linear", "step"}
	}
	return c
}

// Instance draws a valid instance. See Feasible for the witness schedule.
func Instance(t *rapid.T, cfg Config) *sched.Instance {
	in, _ := Feasible(t, cfg)
	return in
}

// Feasible draws a valid instance and a feasible schedule for it (finalized: completion
// slots, utilities and the sorted vector are filled in).
func Feasible(t *rapid.T, cfg Config) (*sched.Instance, *sched.Schedule) {
	cfg = cfg.withDefaults()
	T := rapid.IntRange(cfg.MinSlots, cfg.MaxSlots).Draw(t, "T")
	R := rapid.IntRange(1, cfg.MaxResources).Draw(t, "R")
	N := rapid.IntRange(cfg.MinJobs, cfg.MaxJobs).Draw(t, "N")
	in := &sched.Instance{Name: "rapid", Horizon: T, HorizonSource: "file", Resources: make([]sched.Resource, R)}
	for r := range in.Resources {
		capacity := make([]int, T)
		if cfg.VaryingCapacity {
			for s := range capacity {
				capacity[s] = rapid.IntRange(0, cfg.MaxCapacity).Draw(t, fmt.Sprintf("cap%d_%d", r, s+1))
			}
		} else {
			c := rapid.IntRange(1, cfg.MaxCapacity).Draw(t, fmt.Sprintf("cap%d", r))
			for s := range capacity {
				capacity[s] = c
			}
		}
		in.Resources[r] = sched.Resource{Name: fmt.Sprintf("r%d", r), Capacity: capacity}
	}
	free := make([][]int, R)
	for r := range free {
		free[r] = slices.Clone(in.Resources[r].Capacity)
	}
	alloc := make([][][]int, N)
	in.Jobs = make([]sched.Job, N)
	for i := range in.Jobs {
		j := &in.Jobs[i]
		j.ID = fmt.Sprintf("j%d", i)
		j.Release, j.TaskSlots = 1, 1
		if cfg.Release {
			j.Release = rapid.IntRange(1, T).Draw(t, "release")
		}
		if cfg.MaxParallel {
			j.MaxParallel = rapid.IntRange(0, cfg.MaxCapacity).Draw(t, "max_parallel")
		}
		if cfg.TaskSlots {
			j.TaskSlots = rapid.IntRange(1, 3).Draw(t, "task_slots")
		}
		alloc[i] = witness(t, in, free, j, cfg)
		j.Demand = make([]int, R)
		for r := range alloc[i] {
			for _, x := range alloc[i][r] {
				j.Demand[r] += x
			}
		}
		j.Utility = drawUtility(t, T, cfg)
		if cfg.Runtime && rapid.Bool().Draw(t, "has_runtime") {
			j.Runtime = drawRuntime(t)
		}
	}
	if cfg.Robust {
		in.Robust = &sched.Robust{
			Theta: rapid.Float64Range(0.01, 0.99).Draw(t, "theta"),
			Delta: rapid.Float64Range(0, 2).Draw(t, "delta"),
			Bins:  rapid.IntRange(2, 512).Draw(t, "bins"),
		}
	}
	s := sched.NewSchedule(in)
	for i := range s.Jobs {
		s.Jobs[i].Alloc = alloc[i]
	}
	s.Finalize(in)
	return in, s
}

// witness allocates job j some units in free capacity from its release on, at most
// max_parallel per slot, and at least one unit in total (adding capacity when none is
// left: to the last slot, or to every slot when capacities are constant).
func witness(t *rapid.T, in *sched.Instance, free [][]int, j *sched.Job, cfg Config) [][]int {
	T, R := in.Horizon, len(in.Resources)
	uses := make([]bool, R)
	any := false
	for r := range uses {
		uses[r] = rapid.Bool().Draw(t, "uses")
		any = any || uses[r]
	}
	if !any {
		uses[rapid.IntRange(0, R-1).Draw(t, "resource")] = true
	}
	perSlot := func(r, s int) int {
		if j.MaxParallel > 0 {
			return min(free[r][s], j.MaxParallel)
		}
		return free[r][s]
	}
	a := make([][]int, R)
	total := 0
	for r := range a {
		a[r] = make([]int, T)
		if !uses[r] {
			continue
		}
		for s := j.Release - 1; s < T; s++ {
			x := rapid.IntRange(0, perSlot(r, s)).Draw(t, "units")
			a[r][s] = x
			free[r][s] -= x
			total += x
		}
	}
	if total > 0 {
		return a
	}
	r := slices.Index(uses, true)
	if cfg.VaryingCapacity {
		in.Resources[r].Capacity[T-1]++
		free[r][T-1]++
	} else {
		for s := range T {
			in.Resources[r].Capacity[s]++
			free[r][s]++
		}
	}
	a[r][T-1] = 1
	free[r][T-1]--
	return a
}

func drawUtility(t *rapid.T, T int, cfg Config) sched.Utility {
	hi := float64(T + 1)
	switch rapid.SampledFrom(cfg.Utilities).Draw(t, "utility") {
	case "table":
		n := T
		if cfg.ShortTables {
			n = rapid.IntRange(1, T).Draw(t, "table_len")
		}
		v := make([]float64, n)
		u := rapid.IntRange(0, 9).Draw(t, "u1")
		for k := range v {
			if k > 0 {
				u = max(0, u-rapid.IntRange(0, 3).Draw(t, "drop"))
			}
			v[k] = float64(u)
		}
		return sched.Table{Values: v}
	case "sigmoid":
		return sched.Sigmoid{
			Priority: rapid.Float64Range(0, 10).Draw(t, "priority"),
			Deadline: rapid.Float64Range(0, hi).Draw(t, "deadline"),
			Decay:    rapid.Float64Range(0, 5).Draw(t, "decay"),
		}
	case "linear":
		return sched.Linear{
			Priority: rapid.Float64Range(0, 10).Draw(t, "priority"),
			Budget:   rapid.Float64Range(0, hi).Draw(t, "budget"),
			Slope:    rapid.Float64Range(0, 2).Draw(t, "slope"),
			Hard:     rapid.Bool().Draw(t, "hard"),
		}
	case "step":
		v := rapid.Float64Range(0, 10).Draw(t, "value")
		return sched.Step{
			Value:    v,
			Deadline: rapid.Float64Range(0, hi).Draw(t, "deadline"),
			Late:     rapid.Float64Range(0, v).Draw(t, "late"),
		}
	case "constant":
		return sched.Constant{Value: rapid.Float64Range(0, 10).Draw(t, "value")}
	case "piecewise":
		k := rapid.IntRange(1, 4).Draw(t, "points")
		pts := make([][2]float64, k)
		x := rapid.Float64Range(0, float64(T)).Draw(t, "t0")
		u := rapid.Float64Range(0, 10).Draw(t, "u0")
		for p := range pts {
			if p > 0 {
				x += rapid.Float64Range(0.5, 3).Draw(t, "dt")
				u -= rapid.Float64Range(0, 3).Draw(t, "du")
			}
			pts[p] = [2]float64{x, u}
		}
		return sched.Piecewise{Points: pts}
	case "rds":
		soft := rapid.Float64Range(0.5, hi).Draw(t, "soft")
		return sched.RDS{
			Priority: rapid.Float64Range(0, 10).Draw(t, "priority"),
			Soft:     soft,
			Hard:     rapid.Float64Range(soft, 2*soft).Draw(t, "hard"),
		}
	}
	t.Fatalf("schedtest: unknown utility family in Config.Utilities %q", cfg.Utilities)
	return nil
}

func drawRuntime(t *rapid.T) *sched.Runtime {
	switch rapid.SampledFrom([]string{"impulse", "gaussian", "empirical", "pmf"}).Draw(t, "runtime") {
	case "impulse":
		return &sched.Runtime{Type: "impulse", Mean: rapid.Float64Range(0.1, 5).Draw(t, "mean"), Tasks: rapid.IntRange(1, 100).Draw(t, "tasks")}
	case "gaussian":
		return &sched.Runtime{Type: "gaussian", Mean: rapid.Float64Range(0.1, 5).Draw(t, "mean"),
			Std: rapid.Float64Range(0, 2).Draw(t, "std"), Tasks: rapid.IntRange(1, 100).Draw(t, "tasks")}
	case "empirical":
		s := make([]float64, rapid.IntRange(2, 6).Draw(t, "samples"))
		for k := range s {
			s[k] = rapid.Float64Range(0, 5).Draw(t, "sample")
		}
		return &sched.Runtime{Type: "empirical", Samples: s, Tasks: rapid.IntRange(1, 100).Draw(t, "tasks")}
	default:
		w := make([]float64, rapid.IntRange(1, 6).Draw(t, "bins"))
		sum := 0.0
		for k := range w {
			w[k] = rapid.Float64Range(0, 1).Draw(t, "weight")
			sum += w[k]
		}
		if sum == 0 {
			w[0], sum = 1, 1
		}
		for k := range w {
			w[k] /= sum
		}
		return &sched.Runtime{Type: "pmf", Probabilities: w, BinWidth: rapid.Float64Range(0.1, 3).Draw(t, "bin_width")}
	}
}
