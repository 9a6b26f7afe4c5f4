package tas

import (
	"fmt"
	"math"
	"slices"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/sched"
)

// tb is what the checks need from *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// spec describes a test instance compactly.
type spec struct {
	caps    [][]int // caps[r][t-1]
	demand  [][]int // demand[j][r]
	util    []sched.Utility
	release []int // optional
	maxPar  []int // optional
}

func (s spec) instance() *sched.Instance {
	T := len(s.caps[0])
	in := &sched.Instance{Name: "test", Horizon: T, HorizonSource: "file"}
	for r, c := range s.caps {
		in.Resources = append(in.Resources, sched.Resource{Name: fmt.Sprintf("r%d", r), Capacity: slices.Clone(c)})
	}
	for j := range s.demand {
		job := sched.Job{ID: fmt.Sprintf("j%d", j), Demand: slices.Clone(s.demand[j]), Release: 1, TaskSlots: 1, Utility: s.util[j]}
		if s.release != nil {
			job.Release = s.release[j]
		}
		if s.maxPar != nil {
			job.MaxParallel = s.maxPar[j]
		}
		in.Jobs = append(in.Jobs, job)
	}
	return in
}

func constCaps(T int, c ...int) [][]int {
	out := make([][]int, len(c))
	for r := range c {
		out[r] = make([]int, T)
		for t := range out[r] {
			out[r][t] = c[r]
		}
	}
	return out
}

func table(v ...float64) sched.Utility { return sched.Table{Values: v} }

// bruteForce enumerates every vector of completion slots, keeps the feasible ones
// (checked independently of the package: the prefix condition, or a Ford–Fulkerson
// max-flow when some job has a release time or a cap) and returns the lexicographically
// largest sorted utility vector, or nil when none is feasible.
func bruteForce(in *sched.Instance) []float64 { return bruteForceRR(in, nil) }

// bruteForceRR is bruteForce with per-resource releases rr (see flowFeasibleRR).
func bruteForceRR(in *sched.Instance, rr [][]int) []float64 {
	var best []float64
	enumerateFeasible(in, rr, func(d []int) {
		v := make([]float64, len(d))
		for j := range v {
			v[j] = in.Jobs[j].Utility.At(d[j])
		}
		slices.Sort(v)
		if best == nil || sched.CompareSorted(v, best, 0) > 0 {
			best = v
		}
	})
	return best
}

// enumerateFeasible calls visit with every vector of completion slots that is feasible
// (the prefix condition, or Ford–Fulkerson with the per-resource releases rr when some
// job has a release time or a cap or rr is given); visit must not keep d.
func enumerateFeasible(in *sched.Instance, rr [][]int, visit func(d []int)) {
	n, T := len(in.Jobs), in.Horizon
	general := rr != nil
	for _, j := range in.Jobs {
		if j.Release > 1 || j.MaxParallel > 0 {
			general = true
		}
	}
	d := make([]int, n)
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			if general && flowFeasibleRR(in, rr, d) || !general && prefixFeasible(in, d) {
				visit(d)
			}
			return
		}
		for t := max(1, in.Jobs[k].Release); t <= T; t++ {
			d[k] = t
			rec(k + 1)
		}
	}
	rec(0)
}

func prefixFeasible(in *sched.Instance, d []int) bool {
	for r, res := range in.Resources {
		for t := 1; t <= in.Horizon; t++ {
			var due, capa int
			for j := range in.Jobs {
				if d[j] <= t {
					due += in.Jobs[j].Demand[r]
				}
			}
			for s := 1; s <= t; s++ {
				capa += res.Capacity[s-1]
			}
			if due > capa {
				return false
			}
		}
	}
	return true
}

// flowFeasibleFF is an adjacency-matrix Ford–Fulkerson with BFS augmenting paths,
// written separately from the package's Dinic.
func flowFeasibleFF(in *sched.Instance, d []int) bool { return flowFeasibleRR(in, nil, d) }

// flowFeasibleRR is flowFeasibleFF with job j's units of resource r placed from slot
// rr[j][r] on (nil: its release); a job must still complete by d[j].
func flowFeasibleRR(in *sched.Instance, rr [][]int, d []int) bool {
	n, T := len(in.Jobs), in.Horizon
	V := 2 + n + T // 0 source, 1 sink, jobs 2.., slots 2+n..
	for r, res := range in.Resources {
		c := make([][]int, V)
		for i := range c {
			c[i] = make([]int, V)
		}
		want := 0
		for j, job := range in.Jobs {
			c[0][2+j] = job.Demand[r]
			want += job.Demand[r]
			from := max(1, job.Release)
			if rr != nil {
				from = max(from, rr[j][r])
			}
			for t := from; t <= d[j]; t++ {
				x := res.Capacity[t-1]
				if job.MaxParallel > 0 {
					x = min(x, job.MaxParallel)
				}
				c[2+j][2+n+t-1] = x
			}
		}
		for t := 1; t <= T; t++ {
			c[2+n+t-1][1] = res.Capacity[t-1]
		}
		flow := 0
		for {
			prev := make([]int, V)
			for i := range prev {
				prev[i] = -1
			}
			prev[0] = 0
			q := []int{0}
			for len(q) > 0 && prev[1] < 0 {
				u := q[0]
				q = q[1:]
				for v := range V {
					if prev[v] < 0 && c[u][v] > 0 {
						prev[v] = u
						q = append(q, v)
					}
				}
			}
			if prev[1] < 0 {
				break
			}
			aug := math.MaxInt
			for v := 1; v != 0; v = prev[v] {
				aug = min(aug, c[prev[v]][v])
			}
			for v := 1; v != 0; v = prev[v] {
				c[prev[v]][v] -= aug
				c[v][prev[v]] += aug
			}
			flow += aug
		}
		if flow < want {
			return false
		}
	}
	return true
}

// checkSchedule verifies s against in independently: capacities, demands, release
// times, caps, completion slots and utilities, and that every job meets deadline d.
func checkSchedule(t tb, in *sched.Instance, s *sched.Schedule, d []int) {
	t.Helper()
	if len(s.Jobs) != len(in.Jobs) {
		t.Fatalf("schedule has %d jobs, instance %d", len(s.Jobs), len(in.Jobs))
	}
	for r, res := range in.Resources {
		for ts := 1; ts <= in.Horizon; ts++ {
			used := 0
			for j := range s.Jobs {
				x := s.Jobs[j].Alloc[r][ts-1]
				if x < 0 {
					t.Fatalf("job %d resource %d slot %d: negative allocation %d", j, r, ts, x)
				}
				if x > 0 && ts < max(1, in.Jobs[j].Release) {
					t.Fatalf("job %d uses slot %d before its release %d", j, ts, in.Jobs[j].Release)
				}
				if mp := in.Jobs[j].MaxParallel; mp > 0 && x > mp {
					t.Fatalf("job %d holds %d > max_parallel %d in slot %d", j, x, mp, ts)
				}
				used += x
			}
			if used > res.Capacity[ts-1] {
				t.Fatalf("resource %d slot %d: %d used > capacity %d", r, ts, used, res.Capacity[ts-1])
			}
		}
	}
	for j, js := range s.Jobs {
		last := 0
		for r := range in.Resources {
			got := 0
			for ts, x := range js.Alloc[r] {
				got += x
				if x > 0 {
					last = max(last, ts+1)
				}
			}
			if got < in.Jobs[j].Demand[r] {
				t.Fatalf("job %d resource %d: got %d < demand %d", j, r, got, in.Jobs[j].Demand[r])
			}
		}
		if last != js.Completion {
			t.Fatalf("job %d: completion %d, allocation ends in %d", j, js.Completion, last)
		}
		if d != nil && last > d[j] {
			t.Fatalf("job %d completes in %d after its deadline %d", j, last, d[j])
		}
		if u := in.Jobs[j].Utility.At(last); u != js.Utility {
			t.Fatalf("job %d: utility %g, U(%d) = %g", j, js.Utility, last, u)
		}
	}
}

// genOpts shapes random instances.
type genOpts struct {
	maxJobs, maxSlots, maxCap, maxDemand, resources int
	utility                                         string // "table" (integers 0–9), "real", "sigmoid", "mixed"
	release, maxPar                                 bool
	varyCap                                         bool
	// feasible raises capacities until each resource's total capacity covers its total
	// demand (release times and caps can still make an instance infeasible).
	feasible bool
}

func genSpec(t *rapid.T, o genOpts) spec {
	n := rapid.IntRange(1, o.maxJobs).Draw(t, "n")
	T := rapid.IntRange(1, o.maxSlots).Draw(t, "T")
	R := 1
	if o.resources > 1 {
		R = rapid.IntRange(1, o.resources).Draw(t, "R")
	}
	var s spec
	s.caps = make([][]int, R)
	for r := range R {
		s.caps[r] = make([]int, T)
		c0 := rapid.IntRange(1, o.maxCap).Draw(t, "cap")
		for ts := range T {
			s.caps[r][ts] = c0
			if o.varyCap {
				s.caps[r][ts] = rapid.IntRange(0, o.maxCap).Draw(t, "capt")
			}
		}
	}
	for range n {
		dem := make([]int, R)
		tot := 0
		for r := range R {
			dem[r] = rapid.IntRange(0, o.maxDemand).Draw(t, "demand")
			tot += dem[r]
		}
		if tot == 0 {
			dem[rapid.IntRange(0, R-1).Draw(t, "r")] = 1
		}
		s.demand = append(s.demand, dem)
		s.util = append(s.util, genUtility(t, o.utility, T))
	}
	if o.feasible {
		for r := range R {
			need := 0
			for j := range n {
				need += s.demand[j][r]
			}
			for ts := range T {
				need -= s.caps[r][ts]
			}
			for ts := range T {
				if need <= 0 {
					break
				}
				add := (need + T - ts - 1) / (T - ts)
				s.caps[r][ts] += add
				need -= add
			}
		}
	}
	if o.release {
		s.release = make([]int, n)
		for j := range n {
			s.release[j] = rapid.IntRange(1, T).Draw(t, "release")
		}
	}
	if o.maxPar {
		s.maxPar = make([]int, n)
		for j := range n {
			s.maxPar[j] = rapid.IntRange(0, o.maxCap).Draw(t, "maxpar")
		}
	}
	return s
}

func genUtility(t *rapid.T, kind string, T int) sched.Utility {
	switch kind {
	case "real":
		v := make([]float64, T)
		for k := range v {
			v[k] = rapid.Float64Range(0, 10).Draw(t, "u")
		}
		slices.Sort(v)
		slices.Reverse(v)
		return sched.Table{Values: v}
	case "sigmoid":
		return sched.Sigmoid{
			Priority: rapid.Float64Range(0.5, 5).Draw(t, "p"),
			Deadline: rapid.Float64Range(0, float64(T)+1).Draw(t, "d"),
			Decay:    rapid.Float64Range(0.05, 3).Draw(t, "mu"),
		}
	}
	if kind == "mixed" {
		// Families whose float values tie and go flat: steep sigmoids saturate at their
		// priority and underflow to 0, steps and integer lines tie across jobs.
		switch rapid.IntRange(0, 4).Draw(t, "family") {
		case 0:
			return sched.Sigmoid{
				Priority: float64(rapid.IntRange(1, 3).Draw(t, "p")),
				Deadline: float64(rapid.IntRange(1, T).Draw(t, "d")),
				Decay:    rapid.SampledFrom([]float64{0.5, 5, 40, 800}).Draw(t, "mu"),
			}
		case 1:
			return sched.Step{Value: float64(rapid.IntRange(1, 5).Draw(t, "v")), Deadline: float64(rapid.IntRange(1, T).Draw(t, "d")),
				Late: float64(rapid.IntRange(0, 1).Draw(t, "late"))}
		case 2:
			return sched.Linear{Priority: float64(rapid.IntRange(0, 5).Draw(t, "w")), Budget: float64(rapid.IntRange(1, T).Draw(t, "b")),
				Slope: float64(rapid.IntRange(0, 2).Draw(t, "beta")), Hard: rapid.Bool().Draw(t, "hard")}
		case 3:
			return sched.Constant{Value: float64(rapid.IntRange(0, 3).Draw(t, "c"))}
		}
		return genUtility(t, "real", T)
	}
	v := make([]float64, T)
	for k := range v {
		v[k] = float64(rapid.IntRange(0, 9).Draw(t, "u"))
	}
	slices.Sort(v)
	slices.Reverse(v)
	return sched.Table{Values: v}
}
