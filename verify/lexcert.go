package verify

import (
	"fmt"
	"slices"

	"github.com/coraopt/coraopt/sched"
)

// DefaultCertificateWork bounds the work of LexmaxCertificate, measured as
// jobs² × slots × resources (one max-flow over jobs × slots edges per job).
const DefaultCertificateWork = 50_000_000

// LexmaxCertificate proves a TAS schedule lexicographically max-min optimal
// (rush.txt §III-B) without any solver, by max-flow feasibility tests that share no code
// with formulations/tas. Let u_j be job j's utility in s. The schedule is certified when
// every job is saturated at u_j: no schedule lets j finish with utility above u_j while
// every job with a lower utility keeps at least its own and every other job keeps at
// least u_j. Then, by induction over the distinct values from the lowest, any schedule
// whose sorted vector is at least s's gives every job exactly u_j (onion peeling's
// argument, rush.txt Alg. 3), so s is optimal.
//
// The condition is sufficient, not necessary: in a stalled layer (tied values; see
// formulations/tas) a job can rise alone but not together with the others, and no test
// here decides which job the optimum keeps. Then the check is skipped with the reason,
// unless one of two refutations applies, which fail it: some job can rise while every
// other keeps its own utility (s is not even Pareto optimal), or all the jobs at one
// value can rise together while every other keeps its own (a lexicographically better
// schedule). work bounds jobs²·slots·resources (0: DefaultCertificateWork); above it the
// check is skipped. Utilities are compared in onion peeling's order: U, with the jobs
// float64 ties at an underflowed 0 ordered by their logarithms (sched.UnderflowKeys).
func LexmaxCertificate(name string, in *sched.Instance, s *sched.Schedule, work int) Check {
	if msg := shapeProblem(in, s); msg != "" {
		return Skip(name, "the schedule's shape does not match the instance: "+msg)
	}
	if work <= 0 {
		work = DefaultCertificateWork
	}
	n, T, R := len(in.Jobs), in.Horizon, len(in.Resources)
	if float64(n)*float64(n)*float64(T)*float64(R) > float64(work) {
		return Skip(name, fmt.Sprintf("%d jobs × %d slots × %d resources is above the certificate's work limit (jobs²·slots·resources ≤ %d)", n, T, R, work))
	}
	// Onion peeling orders utilities that underflow to 0 by their logarithms
	// (sched.UnderflowKeys); the certificate judges the same order.
	tab := keyTable(in)
	u := make([]float64, n)
	for j := range in.Jobs {
		c := sched.CompletionSlot(s.Jobs[j].Alloc)
		if c == 0 {
			return Skip(name, fmt.Sprintf("job %s holds nothing: the schedule is infeasible", in.Jobs[j].ID))
		}
		u[j] = tab[j][c-1]
	}
	if ok, w := feasibleDeadlines(in, deadlinesAtOwn(tab, u, -1)); !ok {
		return Skip(name, "the schedule's own utilities are not feasible ("+w.describe(in)+"): the schedule is infeasible")
	}
	// lastAtLeast is max{t : U_j(t) ≥ L}; lastAbove is max{t : U_j(t) > L}; 0 when none.
	var uncertified []int
	for j := range n {
		d := make([]int, n)
		for i := range n {
			switch {
			case i == j:
				d[i] = lastAbove(tab[i], u[j])
			case u[i] < u[j]:
				d[i] = lastAtLeast(tab[i], u[i])
			default:
				d[i] = lastAtLeast(tab[i], u[j])
			}
		}
		if d[j] == 0 {
			continue // U_j never exceeds u_j: trivially saturated
		}
		if ok, _ := feasibleDeadlines(in, d); ok {
			uncertified = append(uncertified, j)
		}
	}
	if len(uncertified) == 0 {
		return Pass(name, 0, fmt.Sprintf("every job is saturated at its utility (%d max-flow tests): no job can finish better while the jobs below it keep theirs and the others keep its level, so the sorted vector is the lexmax", n))
	}
	// Refutation 1: a job rises while every other keeps its own utility.
	for _, j := range uncertified {
		d := deadlinesAtOwn(tab, u, j)
		if ok, _ := feasibleDeadlines(in, d); ok {
			better := tab[j][d[j]-1]
			return Fail(name, better-u[j], fmt.Sprintf("not Pareto optimal: job %s can finish by slot %d (utility %.6g instead of %.6g) while every other job keeps its utility",
				in.Jobs[j].ID, d[j], better, u[j]))
		}
	}
	// Refutation 2: all jobs at one value rise together.
	levels := slices.Clone(u)
	slices.Sort(levels)
	levels = slices.Compact(levels)
	for _, L := range levels {
		d := deadlinesAtOwn(tab, u, -1)
		var ids []string
		possible := true
		for j := range n {
			if u[j] == L {
				d[j] = lastAbove(tab[j], L)
				possible = possible && d[j] > 0
				ids = append(ids, in.Jobs[j].ID)
			}
		}
		if !possible {
			continue
		}
		if ok, _ := feasibleDeadlines(in, d); ok {
			return Fail(name, 0, fmt.Sprintf("the jobs at utility %.6g (%v) can all finish better while every other job keeps its utility: a lexicographically better schedule exists", L, ids))
		}
	}
	j := uncertified[0]
	return Skip(name, fmt.Sprintf("job %s at utility %.6g is not saturated (it can rise alone when the others keep its level, not when they keep their own): a stalled layer, where this certificate does not decide; the MIP cross-check does",
		in.Jobs[j].ID, u[j]))
}

// keyTable is U_j(t) for every job and slot, or the underflow keys where onion peeling
// uses them.
func keyTable(in *sched.Instance) [][]float64 {
	keys, ok := sched.UnderflowKeys(in)
	if !ok {
		return in.UtilityTable()
	}
	out := make([][]float64, len(in.Jobs))
	for j := range out {
		row := make([]float64, in.Horizon)
		for t := range row {
			row[t] = keys[j].At(t + 1)
		}
		out[j] = row
	}
	return out
}

// deadlinesAtOwn gives every job the latest slot at which it keeps its utility, and job
// raise (when ≥ 0) the latest slot at which it does better.
func deadlinesAtOwn(tab [][]float64, u []float64, raise int) []int {
	d := make([]int, len(u))
	for i := range u {
		if i == raise {
			d[i] = lastAbove(tab[i], u[i])
		} else {
			d[i] = lastAtLeast(tab[i], u[i])
		}
	}
	return d
}

func lastAtLeast(row []float64, L float64) int {
	for t := len(row); t >= 1; t-- {
		if row[t-1] >= L {
			return t
		}
	}
	return 0
}

func lastAbove(row []float64, L float64) int {
	for t := len(row); t >= 1; t-- {
		if row[t-1] > L {
			return t
		}
	}
	return 0
}
