package sched

import (
	"fmt"
	"math"
	"strings"
)

// Validate checks a hand-built instance against every rule Decode applies (see the
// package documentation), with Horizon given and every Capacity holding Horizon
// entries. It returns a *ValidationError or nil, and does not modify in.
func (in *Instance) Validate() error {
	var ps problems
	if in.Horizon < 1 || in.Horizon > MaxHorizon {
		ps.add("horizon", "must be between 1 and %d, got %d", MaxHorizon, in.Horizon)
	}
	if len(in.Resources) == 0 {
		ps.add("resources", "must have at least 1 resource")
	}
	if len(in.Jobs) == 0 {
		ps.add("jobs", "must have at least 1 job")
	}
	for r := range in.Resources {
		p := pathKey(pathIndex("resources", r), "capacity")
		for t, c := range in.Resources[r].Capacity {
			checkRange(&ps, pathIndex(p, t), c, 0, MaxQuantity)
		}
	}
	for i := range in.Jobs {
		p := pathIndex("jobs", i)
		if len(in.Jobs[i].Demand) != len(in.Resources) {
			ps.add(pathKey(p, "demand"), "has %d entries, there are %d resources", len(in.Jobs[i].Demand), len(in.Resources))
		}
		if in.Jobs[i].Utility == nil {
			ps.add(pathKey(p, "utility"), "required")
		}
	}
	checkLocal(in, &ps, true)
	if !ps.under("horizon") {
		checkGlobal(in, &ps)
	}
	return ps.err()
}

func checkRange(ps *problems, path string, v, lo, hi int) bool {
	switch {
	case v < lo:
		ps.add(path, "must be >= %d", lo)
	case v > hi:
		ps.add(path, "must be <= %d", hi)
	default:
		return true
	}
	return false
}

func checkFinite(ps *problems, path string, v float64) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		ps.add(path, "must be a finite number, got %v", v)
		return false
	}
	return true
}

// checkLocal applies the rules that need no horizon: ranges, per-type parameters,
// uniqueness, positive demand.
func checkLocal(in *Instance, ps *problems, handBuilt bool) {
	names := map[string]int{}
	for r := range in.Resources {
		p := pathIndex("resources", r)
		name := in.Resources[r].Name
		if ps.under(pathKey(p, "name")) {
			continue
		}
		if name == "" {
			ps.add(pathKey(p, "name"), "must not be empty")
			continue
		}
		if first, dup := names[name]; dup {
			ps.add(pathKey(p, "name"), "duplicate resource name %q (also resources[%d])", name, first)
			continue
		}
		names[name] = r
	}
	ids := map[string]int{}
	for i := range in.Jobs {
		j := &in.Jobs[i]
		p := pathIndex("jobs", i)
		if !ps.under(pathKey(p, "id")) {
			if first, dup := ids[j.ID]; dup {
				ps.add(pathKey(p, "id"), "duplicate job id %q (also jobs[%d])", j.ID, first)
			} else if j.ID == "" {
				ps.add(pathKey(p, "id"), "must not be empty")
			} else {
				ids[j.ID] = i
			}
		}
		dp := pathKey(p, "demand")
		if !ps.under(dp) && j.Demand != nil {
			positive := false
			for r, d := range j.Demand {
				name := fmt.Sprintf("[%d]", r)
				if r < len(in.Resources) {
					name = in.Resources[r].Name
				}
				checkRange(ps, pathKey(dp, name), d, 0, MaxQuantity)
				positive = positive || d > 0
			}
			if !positive {
				ps.add(dp, "must be positive for at least one resource")
			}
		}
		checkRange(ps, pathKey(p, "release"), j.Release, 1, MaxHorizon)
		checkRange(ps, pathKey(p, "max_parallel"), j.MaxParallel, 0, MaxQuantity)
		checkRange(ps, pathKey(p, "task_slots"), j.TaskSlots, 1, MaxHorizon)
		if j.Utility != nil {
			checkUtility(ps, pathKey(p, "utility"), j.Utility)
		}
		if j.Runtime != nil {
			checkRuntime(ps, pathKey(p, "runtime"), j.Runtime, handBuilt)
		}
	}
	if in.Robust != nil {
		checkRobust(ps, "robust", in.Robust)
	}
}

func checkUtility(ps *problems, path string, u Utility) {
	f := func(key string, v float64) bool { return checkFinite(ps, pathKey(path, key), v) }
	switch u := u.(type) {
	case Sigmoid:
		f("priority", u.Priority)
		f("deadline", u.Deadline)
		if f("decay", u.Decay) && u.Decay < 0 {
			ps.add(pathKey(path, "decay"), "must be >= 0")
		}
	case Linear:
		f("priority", u.Priority)
		f("budget", u.Budget)
		if f("slope", u.Slope) && u.Slope < 0 {
			ps.add(pathKey(path, "slope"), "must be >= 0")
		}
	case Step:
		f("value", u.Value)
		f("deadline", u.Deadline)
		f("late", u.Late)
	case Constant:
		f("value", u.Value)
	case Piecewise:
		pp := pathKey(path, "points")
		if len(u.Points) == 0 && !ps.under(pp) {
			ps.add(pp, "must have at least 1 point")
		}
		for k, pt := range u.Points {
			kp := pathIndex(pp, k)
			if ps.under(kp) || !checkFinite(ps, pathIndex(kp, 0), pt[0]) || !checkFinite(ps, pathIndex(kp, 1), pt[1]) {
				continue
			}
			if k > 0 && !ps.under(pathIndex(pp, k-1)) && pt[0] <= u.Points[k-1][0] {
				ps.add(kp, "t = %v does not come after t = %v of points[%d]: points must be sorted by t, strictly increasing",
					pt[0], u.Points[k-1][0], k-1)
			}
		}
	case Table:
		vp := pathKey(path, "values")
		if len(u.Values) == 0 && !ps.under(vp) {
			ps.add(vp, "must have at least 1 value")
		}
		for k, v := range u.Values {
			checkFinite(ps, pathIndex(vp, k), v)
		}
	case RDS:
		f("priority", u.Priority)
		okSoft := f("soft", u.Soft)
		if okSoft && u.Soft <= 0 {
			ps.add(pathKey(path, "soft"), "must be > 0")
			okSoft = false
		}
		if f("hard", u.Hard) && okSoft {
			switch {
			case u.Hard < u.Soft:
				ps.add(pathKey(path, "hard"), "must be >= soft (%v)", u.Soft)
			case u.Hard > 2*u.Soft:
				ps.add(pathKey(path, "hard"), "must be <= 2·soft = %v, or the SLO decay δ goes negative (rds.txt eq. 4)", 2*u.Soft)
			}
		}
	}
}

func checkRuntime(ps *problems, path string, rt *Runtime, handBuilt bool) {
	key := func(k string) string { return pathKey(path, k) }
	positive := func(k string, v float64) {
		if checkFinite(ps, key(k), v) && v <= 0 {
			ps.add(key(k), "must be > 0")
		}
	}
	unused := func(k string, set bool) {
		if set && handBuilt {
			ps.add(key(k), "not used by runtime type %q", rt.Type)
		}
	}
	tasks := func() { checkRange(ps, key("tasks"), rt.Tasks, 1, MaxQuantity) }
	switch rt.Type {
	case "impulse":
		positive("mean", rt.Mean)
		tasks()
		unused("std", rt.Std != 0)
		unused("samples", rt.Samples != nil)
		unused("probabilities", rt.Probabilities != nil)
		unused("bin_width", rt.BinWidth != 0)
	case "gaussian":
		positive("mean", rt.Mean)
		if checkFinite(ps, key("std"), rt.Std) && rt.Std < 0 {
			ps.add(key("std"), "must be >= 0")
		}
		tasks()
		unused("samples", rt.Samples != nil)
		unused("probabilities", rt.Probabilities != nil)
		unused("bin_width", rt.BinWidth != 0)
	case "empirical":
		sp := key("samples")
		if len(rt.Samples) < 2 && !ps.under(sp) {
			ps.add(sp, "must have at least 2 samples, got %d", len(rt.Samples))
		}
		for k, v := range rt.Samples {
			if checkFinite(ps, pathIndex(sp, k), v) && v < 0 {
				ps.add(pathIndex(sp, k), "must be >= 0")
			}
		}
		tasks()
		unused("mean", rt.Mean != 0)
		unused("std", rt.Std != 0)
		unused("probabilities", rt.Probabilities != nil)
		unused("bin_width", rt.BinWidth != 0)
	case "pmf":
		pp := key("probabilities")
		if len(rt.Probabilities) == 0 && !ps.under(pp) {
			ps.add(pp, "must have at least 1 probability")
		}
		sum, ok := 0.0, !ps.under(pp)
		for k, v := range rt.Probabilities {
			if !checkFinite(ps, pathIndex(pp, k), v) {
				ok = false
				continue
			}
			if v < 0 {
				ps.add(pathIndex(pp, k), "must be >= 0")
				ok = false
			}
			sum += v
		}
		if ok && len(rt.Probabilities) > 0 && math.Abs(sum-1) > 1e-9 {
			ps.add(pp, "sum to %v, must sum to 1 (within 1e-9)", sum)
		}
		positive("bin_width", rt.BinWidth)
		unused("mean", rt.Mean != 0)
		unused("std", rt.Std != 0)
		unused("samples", rt.Samples != nil)
	default:
		ps.add(key("type"), "unknown runtime type %q (one of %s)", rt.Type, strings.Join(runtimeTypes, ", "))
	}
}

func checkRobust(ps *problems, path string, r *Robust) {
	tp := pathKey(path, "theta")
	if checkFinite(ps, tp, r.Theta) && (r.Theta <= 0 || r.Theta >= 1) {
		ps.add(tp, "must be in (0, 1), got %v", r.Theta)
	}
	dp := pathKey(path, "delta")
	if checkFinite(ps, dp, r.Delta) && r.Delta < 0 {
		ps.add(dp, "must be >= 0")
	}
	checkRange(ps, pathKey(path, "bins"), r.Bins, 2, MaxBins)
}

// checkGlobal applies the rules that need the horizon: capacity lengths, releases and
// tables within it, non-increasing utilities on 1..T, and room for the demand.
func checkGlobal(in *Instance, ps *problems) {
	T := in.Horizon
	capsOK := true
	for r := range in.Resources {
		p := pathKey(pathIndex("resources", r), "capacity")
		if n := len(in.Resources[r].Capacity); n != T {
			ps.add(p, "array has %d entries, horizon is %d", n, T)
		}
		if ps.under(pathIndex("resources", r)) {
			capsOK = false
		}
	}
	checkAgainstHorizon(in, ps, true)
	demandOK := true
	for i := range in.Jobs {
		p := pathIndex("jobs", i)
		for _, k := range []string{"demand", "release", "max_parallel"} {
			if ps.under(pathKey(p, k)) {
				demandOK = false
			}
		}
	}
	if capsOK && demandOK && len(in.Resources) > 0 {
		checkFit(in, ps)
	}
}

// checkAgainstHorizon checks every job against T = in.Horizon: release and table length
// (when final) and non-increasing utility on 1..T. With final false, T is only a lower
// bound on the horizon, and only what stays true for a longer horizon is checked.
func checkAgainstHorizon(in *Instance, ps *problems, final bool) {
	T := in.Horizon
	for i := range in.Jobs {
		j := &in.Jobs[i]
		p := pathIndex("jobs", i)
		rp := pathKey(p, "release")
		if final && !ps.under(rp) && j.Release > T {
			ps.add(rp, "%d is after the horizon %d", j.Release, T)
		}
		up := pathKey(p, "utility")
		if j.Utility == nil || ps.under(up) {
			continue
		}
		if tab, ok := j.Utility.(Table); ok && len(tab.Values) > T {
			if final {
				ps.add(pathKey(up, "values"), "has %d values, horizon is %d (a shorter table is extended with its last value, a longer one is an error)", len(tab.Values), T)
			}
			continue
		}
		checkMonotone(ps, up, j.Utility, T)
	}
}

// checkMonotone reports a utility that is not finite at slot 1 or T, or that increases
// somewhere on 1..T.
func checkMonotone(ps *problems, path string, u Utility, T int) {
	for _, t := range []int{1, T} {
		if v := u.At(t); math.IsNaN(v) || math.IsInf(v, 0) {
			ps.add(path, "U(%d) = %v; utilities must be finite", t, v)
			return
		}
	}
	if t, ok := firstIncrease(u, T); ok {
		ps.add(path, "increases from U(%d) = %v to U(%d) = %v; utilities must be non-increasing in the completion slot",
			t, u.At(t), t+1, u.At(t+1))
	}
}

// checkFit reports resources whose total capacity over the horizon cannot hold the
// total demand, and jobs that cannot get their demand by slot T at all given their
// release slot and max_parallel.
func checkFit(in *Instance, ps *problems) {
	T := in.Horizon
	for r := range in.Resources {
		res := &in.Resources[r]
		total, capacity := int64(0), int64(0)
		for i := range in.Jobs {
			total += int64(in.Jobs[i].Demand[r])
		}
		for _, c := range res.Capacity {
			capacity += int64(c)
		}
		if total > capacity {
			ps.add(pathIndex("resources", r), "total demand %d of %q exceeds total capacity %d over horizon %d",
				total, res.Name, capacity, T)
		}
	}
	for r := range in.Resources {
		res := &in.Resources[r]
		constant := isConstant(res.Capacity)
		var queries []reachQuery
		for i := range in.Jobs {
			if in.Jobs[i].Demand[r] > 0 {
				queries = append(queries, reachQuery{job: i, from: in.Jobs[i].Release, cap: in.Jobs[i].MaxParallel})
			}
		}
		if constant {
			for k := range queries {
				q := &queries[k]
				q.total = int64(rateOf(res.Capacity[0], q.cap)) * int64(max(0, T-q.from+1))
			}
		} else {
			reachable(res.Capacity, queries)
		}
		for _, q := range queries {
			j := &in.Jobs[q.job]
			d := j.Demand[r]
			if int64(d) <= q.total {
				continue
			}
			p := pathIndex("jobs", q.job)
			if rate := rateOf(res.Capacity[0], j.MaxParallel); constant && rate > 0 {
				need := j.Release - 1 + (d+rate-1)/rate
				ps.add(p, "cannot finish by the horizon: %d units of %q at most %d per slot from release %d need %d slots, horizon is %d",
					d, res.Name, rate, j.Release, need, T)
			} else {
				ps.add(p, "cannot finish by the horizon: only %d of its %d units of %q fit in slots %d..%d%s",
					q.total, d, res.Name, j.Release, T, parallelNote(j.MaxParallel))
			}
		}
	}
}

func parallelNote(m int) string {
	if m == 0 {
		return ""
	}
	return fmt.Sprintf(" at max_parallel %d", m)
}

func isConstant(capacity []int) bool {
	for _, c := range capacity {
		if c != capacity[0] {
			return false
		}
	}
	return true
}

// rateOf is the most units per slot a job may hold: min(max_parallel, capacity).
func rateOf(capacity, maxParallel int) int {
	if maxParallel > 0 {
		return min(capacity, maxParallel)
	}
	return capacity
}
