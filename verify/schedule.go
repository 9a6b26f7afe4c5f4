package verify

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/coraopt/coraopt/sched"
)

// ScheduleOptions control Schedule.
type ScheduleOptions struct {
	// ExactDemand asks Σ_t x_irt = demand (CORA's constraint (4), cora.txt §II) instead
	// of TAS's Σ_t x_irt ≥ demand (rush.txt §III-B).
	ExactDemand bool
}

// Names of the checks Schedule reports.
const (
	CheckShape       = "shape"        // one job per instance job, in order, R×T allocations
	CheckNonnegative = "nonnegative"  // every x_irt ≥ 0
	CheckCapacity    = "capacity"     // Σ_i x_irt ≤ C_rt
	CheckDemand      = "demand"       // Σ_t x_irt ≥ (or =) demand
	CheckRelease     = "release"      // nothing before a job's release slot
	CheckMaxParallel = "max-parallel" // x_irt ≤ max_parallel
	CheckCompletion  = "completion"   // reported completion = last slot holding anything
	CheckUtility     = "utility"      // reported utility = U_i(completion recomputed)
	CheckSorted      = "sorted"       // Sorted, Min and Sum recomputed from the utilities
)

// UtilityTol is the tolerance, relative to max(1, |U|), of every comparison of utility
// values in this package. Utilities are recomputed from allocations by the instance's
// own functions on every side, so equal completion slots give bit-identical values;
// the tolerance only absorbs a value that went through a decimal round trip.
const UtilityTol = 1e-9

// Schedule checks s against in from the allocation alone: shape, nonnegativity,
// capacity per resource and slot, demand, release, max_parallel, and the completion
// slots, utilities and sorted vector s reports, each recomputed. Every check is named
// (the Check* constants) and carries its largest violation: units of a resource for the
// allocation checks, slots for completion, utility for utility and sorted. When the
// shape does not match the instance the others are skipped.
func Schedule(in *sched.Instance, s *sched.Schedule, opt ScheduleOptions) Report {
	var rep Report
	if msg := shapeProblem(in, s); msg != "" {
		rep.Add(Fail(CheckShape, 1, msg))
		for _, name := range []string{CheckNonnegative, CheckCapacity, CheckDemand, CheckRelease, CheckMaxParallel,
			CheckCompletion, CheckUtility, CheckSorted} {
			rep.Add(Skip(name, "the schedule's shape does not match the instance"))
		}
		return rep
	}
	T, R := in.Horizon, len(in.Resources)
	rep.Add(Pass(CheckShape, 0, fmt.Sprintf("%d jobs × %d resources × %d slots", len(in.Jobs), R, T)))

	var neg, capa, dem, rel, par, comp, util tally
	// Units used per resource and slot, summed job by job: row by row in memory, where
	// slot by slot across the jobs was a cache miss per cell.
	used := make([][]int, R)
	for r := range used {
		used[r] = make([]int, T)
	}
	for j := range in.Jobs {
		job, js := &in.Jobs[j], &s.Jobs[j]
		for r := range R {
			got := 0
			use := used[r]
			for t, x := range js.Alloc[r] {
				use[t] += x
				slot := t + 1
				if x < 0 {
					neg.add(float64(-x), "job %s holds %d units of %s in slot %d", job.ID, x, in.Resources[r].Name, slot)
				}
				if x > 0 && slot < job.Release {
					rel.add(float64(x), "job %s holds %d units of %s in slot %d, before its release %d", job.ID, x, in.Resources[r].Name, slot, job.Release)
				}
				if job.MaxParallel > 0 && x > job.MaxParallel {
					par.add(float64(x-job.MaxParallel), "job %s holds %d units of %s in slot %d, max_parallel %d", job.ID, x, in.Resources[r].Name, slot, job.MaxParallel)
				}
				got += x
			}
			want := job.Demand[r]
			switch {
			case got < want:
				dem.add(float64(want-got), "job %s gets %d units of %s, demand %d", job.ID, got, in.Resources[r].Name, want)
			case opt.ExactDemand && got > want:
				dem.add(float64(got-want), "job %s gets %d units of %s, demand %d exactly (CORA's constraint (4))", job.ID, got, in.Resources[r].Name, want)
			}
		}
		last := sched.CompletionSlot(js.Alloc)
		if last != js.Completion {
			comp.add(math.Abs(float64(last-js.Completion)), "job %s reports completion %d, its allocation ends in slot %d", job.ID, js.Completion, last)
		}
		u := 0.0
		if last > 0 {
			u = job.Utility.At(last)
		}
		if d := math.Abs(u - js.Utility); !(d <= UtilityTol*math.Max(1, math.Abs(u))) {
			util.add(nanInf(d), "job %s reports utility %.10g, U(%d) = %.10g", job.ID, js.Utility, last, u)
		}
	}
	for r, res := range in.Resources {
		for t, u := range used[r] {
			if c := res.Capacity[t]; u > c {
				capa.add(float64(u-c), "%s in slot %d: %d units used, capacity %d", res.Name, t+1, u, c)
			}
		}
	}
	demandRule := "Σ_t x ≥ demand"
	if opt.ExactDemand {
		demandRule = "Σ_t x = demand"
	}
	rep.Add(
		neg.check(CheckNonnegative, "every allocation is ≥ 0"),
		capa.check(CheckCapacity, fmt.Sprintf("Σ_jobs x ≤ capacity in every slot of every resource (%d resource-slots)", R*T)),
		dem.check(CheckDemand, fmt.Sprintf("%s for every job and resource", demandRule)),
		rel.check(CheckRelease, "no job holds anything before its release slot"),
		par.check(CheckMaxParallel, "no job holds more than its max_parallel units of a resource in a slot"),
		comp.check(CheckCompletion, "every reported completion is the last slot of the job's allocation"),
		util.check(CheckUtility, "every reported utility is U_i(completion) recomputed"),
		sortedCheck(s),
	)
	return rep
}

// shapeProblem says why s cannot be checked against in, or "".
func shapeProblem(in *sched.Instance, s *sched.Schedule) string {
	switch {
	case in == nil:
		return "no instance"
	case s == nil:
		return "no schedule"
	case len(s.Jobs) != len(in.Jobs):
		return fmt.Sprintf("%d jobs in the schedule, %d in the instance", len(s.Jobs), len(in.Jobs))
	}
	for j := range in.Jobs {
		js := &s.Jobs[j]
		if in.Jobs[j].Utility == nil {
			return fmt.Sprintf("job %s of the instance has no utility", in.Jobs[j].ID)
		}
		if js.ID != in.Jobs[j].ID {
			return fmt.Sprintf("job %d of the schedule is %q, the instance's is %q", j, js.ID, in.Jobs[j].ID)
		}
		if len(js.Alloc) != len(in.Resources) || len(in.Jobs[j].Demand) != len(in.Resources) {
			return fmt.Sprintf("job %s: allocation for %d resources, the instance has %d", js.ID, len(js.Alloc), len(in.Resources))
		}
		for r, row := range js.Alloc {
			if len(row) != in.Horizon || len(in.Resources[r].Capacity) != in.Horizon {
				return fmt.Sprintf("job %s: %d slots of %s, the horizon is %d", js.ID, len(row), in.Resources[r].Name, in.Horizon)
			}
		}
	}
	return ""
}

// sortedCheck recomputes Sorted, Min and Sum from the jobs' reported utilities (which
// CheckUtility recomputes from the allocation).
func sortedCheck(s *sched.Schedule) Check {
	us := make([]float64, len(s.Jobs))
	sum := 0.0
	for j := range s.Jobs {
		us[j] = s.Jobs[j].Utility
		sum += us[j]
	}
	slices.Sort(us)
	var t tally
	if len(s.Sorted) != len(us) {
		t.add(math.Inf(1), "Sorted has %d entries for %d jobs", len(s.Sorted), len(us))
	} else {
		for k := range us {
			if d := math.Abs(us[k] - s.Sorted[k]); !(d <= UtilityTol*math.Max(1, math.Abs(us[k]))) {
				t.add(nanInf(d), "Sorted[%d] = %.10g, the sorted utilities have %.10g", k, s.Sorted[k], us[k])
			}
		}
	}
	if len(us) > 0 {
		if d := math.Abs(us[0] - s.Min); !(d <= UtilityTol*math.Max(1, math.Abs(us[0]))) {
			t.add(nanInf(d), "Min = %.10g, the smallest utility is %.10g", s.Min, us[0])
		}
	}
	if d := math.Abs(sum - s.Sum); !(d <= UtilityTol*float64(max(1, len(us)))*math.Max(1, math.Abs(sum))) {
		t.add(nanInf(d), "Sum = %.10g, the utilities add up to %.10g", s.Sum, sum)
	}
	return t.check(CheckSorted, "Sorted, Min and Sum are the jobs' utilities sorted, their minimum and their sum")
}

// Optimality compares a schedule's sorted utility vector with a certified optimum of the
// same instance: it fails when got is lexicographically smaller (the schedule is worse)
// and also when it is larger (then the "optimum" is not one, or the schedule is not
// feasible). MaxViolation is the difference at the first position that differs.
func Optimality(name string, got, optimum []float64) Check {
	k, c := firstDiff(got, optimum)
	switch c {
	case 0:
		return Pass(name, 0, fmt.Sprintf("the sorted utility vector equals the certified optimum (%d entries)", len(got)))
	case -1:
		return Fail(name, gap(got, optimum, k), fmt.Sprintf("lexicographically worse than the certified optimum: first difference at position %d, %s against %s",
			k+1, at(got, k), at(optimum, k)))
	}
	return Fail(name, gap(got, optimum, k), fmt.Sprintf("lexicographically better than the certified optimum at position %d (%s against %s): the optimum or the schedule's feasibility is wrong",
		k+1, at(got, k), at(optimum, k)))
}

// firstDiff compares sorted vectors with UtilityTol: the first position k where they
// differ and -1/+1 for a smaller/larger a there (0, 0 when equal; a shorter vector is
// smaller at the position where it ends).
func firstDiff(a, b []float64) (int, int) {
	for k := range min(len(a), len(b)) {
		if d := a[k] - b[k]; math.Abs(d) > UtilityTol*math.Max(1, math.Max(math.Abs(a[k]), math.Abs(b[k]))) || math.IsNaN(d) {
			if d < 0 || math.IsNaN(d) {
				return k, -1
			}
			return k, 1
		}
	}
	switch {
	case len(a) < len(b):
		return len(a), -1
	case len(a) > len(b):
		return len(b), 1
	}
	return 0, 0
}

func gap(a, b []float64, k int) float64 {
	if k < len(a) && k < len(b) {
		return nanInf(math.Abs(a[k] - b[k]))
	}
	return math.Inf(1)
}

func at(v []float64, k int) string {
	if k < len(v) {
		return fmt.Sprintf("%.10g", v[k])
	}
	return "(none)"
}

// nanInf maps NaN to +Inf, so that a NaN difference is the largest violation.
func nanInf(v float64) float64 {
	if math.IsNaN(v) {
		return math.Inf(1)
	}
	return v
}

// tally collects the violations of one check: their number, the largest and the first
// few in words.
type tally struct {
	n     int
	max   float64
	worst string
	first []string
}

const maxListed = 3

func (t *tally) add(amount float64, format string, args ...any) {
	t.n++
	msg := fmt.Sprintf(format, args...)
	if t.n == 1 || amount > t.max {
		t.max, t.worst = amount, msg
	}
	if len(t.first) < maxListed {
		t.first = append(t.first, msg)
	}
}

// check turns the tally into a Check: a pass with what was checked, or a failure with
// the count, the largest violation and the first few.
func (t *tally) check(name, what string) Check {
	if t.n == 0 {
		return Pass(name, 0, what)
	}
	detail := fmt.Sprintf("%d violation(s); largest: %s", t.n, t.worst)
	if t.n > 1 {
		detail += "; first: " + strings.Join(t.first, "; ")
	}
	return Fail(name, t.max, detail)
}
