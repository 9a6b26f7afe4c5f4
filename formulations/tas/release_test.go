package tas

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/sched"
)

// checkAgainstLayered runs OnionPeel with its default engine and with the layered engine
// (the reference) and requires the same outcome: both infeasible, or the same sorted
// vector and the same exact flag, with a schedule that meets the deadlines.
func checkAgainstLayered(t tb, in *sched.Instance) (fast, ref *Result) {
	t.Helper()
	fast, err := OnionPeel(context.Background(), in, Options{})
	ref, errRef := OnionPeel(context.Background(), in, Options{Layered: true})
	switch {
	case errRef != nil:
		if !errors.Is(errRef, ErrInfeasible) {
			t.Fatalf("layered engine: %v", errRef)
		}
		if !errors.Is(err, ErrInfeasible) {
			t.Fatalf("layered engine: %v; %s engine: res=%v err=%v", errRef, engineOf(fast), fast, err)
		}
		return nil, nil
	case err != nil:
		t.Fatalf("layered engine finds %v; default engine: %v\n%s", sortedCopy(ref.Levels), err, describe(in))
	}
	if a, b := sortedCopy(fast.Levels), sortedCopy(ref.Levels); !slices.Equal(a, b) || fast.Exact != ref.Exact {
		t.Fatalf("%s engine %v (exact %v, stats %+v)\nlayered %v (exact %v)\n%s", fast.Stats.Engine, a, fast.Exact, fast.Stats, b, ref.Exact, describe(in))
	}
	for j, lv := range fast.Levels {
		if u := in.Jobs[j].Utility.At(fast.Deadlines[j]); u != lv {
			t.Fatalf("job %d: level %g but U(deadline %d) = %g", j, lv, fast.Deadlines[j], u)
		}
	}
	checkSchedule(t, in, fast.Schedule, fast.Deadlines)
	return fast, ref
}

// engineKey names the engine that decided r and whether it handed over.
func engineKey(r *Result) string {
	if r.Stats.HandOver != "" {
		return r.Stats.Engine + "(handed over)"
	}
	return r.Stats.Engine
}

func engineOf(r *Result) string {
	if r == nil {
		return "default"
	}
	return r.Stats.Engine
}

// TestReleaseMatchesLayered: with release times (and caps), the default engine and the
// layered engine agree on random instances with ties, flat stretches, varying capacity
// and several resources.
func TestReleaseMatchesLayered(t *testing.T) {
	cases := map[string]genOpts{
		"table":          {maxJobs: 12, maxSlots: 10, maxCap: 6, maxDemand: 12, utility: "table", release: true, feasible: true},
		"table-varying":  {maxJobs: 12, maxSlots: 10, maxCap: 6, maxDemand: 12, utility: "table", release: true, varyCap: true, feasible: true},
		"real-2res":      {maxJobs: 25, maxSlots: 20, maxCap: 10, maxDemand: 25, utility: "real", release: true, resources: 2, varyCap: true, feasible: true},
		"sigmoid":        {maxJobs: 40, maxSlots: 30, maxCap: 10, maxDemand: 30, utility: "sigmoid", release: true, feasible: true},
		"mixed":          {maxJobs: 30, maxSlots: 30, maxCap: 10, maxDemand: 30, utility: "mixed", release: true, resources: 2, varyCap: true, feasible: true},
		"maxpar-table":   {maxJobs: 10, maxSlots: 8, maxCap: 6, maxDemand: 12, utility: "table", release: true, maxPar: true, feasible: true},
		"maxpar-sigmoid": {maxJobs: 25, maxSlots: 20, maxCap: 8, maxDemand: 25, utility: "sigmoid", release: true, maxPar: true, varyCap: true, feasible: true},
		"maxpar-mixed":   {maxJobs: 20, maxSlots: 20, maxCap: 8, maxDemand: 20, utility: "mixed", release: true, maxPar: true, resources: 2, feasible: true},
	}
	for name, o := range cases {
		t.Run(name, func(t *testing.T) {
			engines := map[string]int{}
			defer func() { t.Logf("engines %v", engines) }()
			rapid.Check(t, func(rt *rapid.T) {
				if r, _ := checkAgainstLayered(rt, genSpec(rt, o).instance()); r != nil {
					engines[engineKey(r)]++
				}
			})
		})
	}
}

// randomRelease draws a small instance with release times, ties (table utilities 0–9),
// capacity that varies by slot and, with caps, max_parallel on some jobs.
func randomRelease(rng *rand.Rand, caps bool) *sched.Instance {
	for {
		n, T := 2+rng.IntN(4), 2+rng.IntN(5)
		s := spec{caps: [][]int{make([]int, T)}}
		room := 0
		for t := range T {
			s.caps[0][t] = rng.IntN(5)
			room += s.caps[0][t]
		}
		total := 0
		for range n {
			d := 1 + rng.IntN(room/2+1)
			total += d
			s.demand = append(s.demand, []int{d})
			s.release = append(s.release, 1+rng.IntN(T))
			mp := 0
			if caps && rng.IntN(2) == 0 {
				mp = 1 + rng.IntN(3)
			}
			s.maxPar = append(s.maxPar, mp)
			s.util = append(s.util, randomTable(rng, T))
		}
		if total <= room {
			return s.instance()
		}
	}
}

// TestReleaseMatchesBruteForce: on thousands of small instances with release times, ties
// and (half of them) caps, the default engine, the layered engine and the brute force
// give the same sorted vector, exactly.
func TestReleaseMatchesBruteForce(t *testing.T) {
	const instances = 3000
	rng := rand.New(rand.NewPCG(23, 1))
	feasible := 0
	engines := map[string]int{}
	for k := range instances {
		in := randomRelease(rng, k%2 == 1)
		want := bruteForce(in)
		fast, ref := checkAgainstLayered(t, in)
		if want == nil {
			if fast != nil {
				t.Fatalf("instance %d: brute force finds nothing feasible, OnionPeel does\n%s", k, describe(in))
			}
			continue
		}
		if fast == nil {
			t.Fatalf("instance %d: brute force finds %v, OnionPeel reports infeasible\n%s", k, want, describe(in))
		}
		feasible++
		engines[engineKey(fast)]++
		if got := sortedCopy(fast.Levels); !fast.Exact || !ref.Exact || !slices.Equal(got, want) {
			t.Fatalf("instance %d: %v (exact %v), brute force %v\n%s", k, got, fast.Exact, want, describe(in))
		}
	}
	t.Logf("%d instances, %d feasible; engines %v", instances, feasible, engines)
	if feasible < instances/4 {
		t.Fatalf("only %d of %d instances feasible: the test checks little", feasible, instances)
	}
}

// TestEventsStallKeepRule: with branching off, a stalled layer is decided by the keep
// rule and the result is inexact. The events engine hands a stall to the layered engine
// from the state the layered engine itself would be in, so even then both give the same
// deadlines and the same exact flag. (The sweep never stalls: it gives the proven
// optimum or hands the whole instance over.)
func TestEventsStallKeepRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 2))
	stalls, inexact := 0, 0
	for k := range 3000 {
		in := randomRelease(rng, true)
		opts := Options{MaxBranches: -1}
		fast, err := OnionPeel(context.Background(), in, opts)
		opts.Layered = true
		ref, errRef := OnionPeel(context.Background(), in, opts)
		if (err == nil) != (errRef == nil) {
			t.Fatalf("instance %d: errors %v / %v", k, err, errRef)
		}
		if err != nil || fast.Stats.Engine != "events" {
			continue
		}
		if fast.Stats.Stalls > 0 {
			stalls++
		}
		if !fast.Exact {
			inexact++
		}
		if !slices.Equal(fast.Deadlines, ref.Deadlines) || fast.Exact != ref.Exact || fast.Stats.Stalls != ref.Stats.Stalls {
			t.Fatalf("instance %d: events %v (exact %v, %d stalls), layered %v (exact %v, %d stalls)\n%s", k,
				fast.Deadlines, fast.Exact, fast.Stats.Stalls, ref.Deadlines, ref.Exact, ref.Stats.Stalls, describe(in))
		}
	}
	t.Logf("events engine: %d runs stalled, %d inexact", stalls, inexact)
	if stalls == 0 || inexact == 0 {
		t.Fatalf("no stall (%d) or no inexact result (%d): the test checks nothing", stalls, inexact)
	}
}

// TestResourceReleaseMatchesBruteForce: with a first slot per job and resource
// (Options.ResourceRelease), OnionPeel's default engine and the layered engine give the
// lexmax that enumeration finds with its own max-flow, and the schedule honours every
// per-resource release.
func TestResourceReleaseMatchesBruteForce(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		o := genOpts{maxJobs: 5, maxSlots: 6, maxCap: 4, maxDemand: 6, utility: "mixed", resources: 2, release: true,
			maxPar: rapid.Bool().Draw(rt, "maxpar"), varyCap: true, feasible: true}
		in := genSpec(rt, o).instance()
		rr := randomResourceReleases(rt, in)
		if rr == nil {
			return
		}
		want := bruteForceRR(keyed(in), rr)
		for _, layered := range []bool{false, true} {
			res, err := OnionPeel(context.Background(), in, Options{ResourceRelease: rr, Layered: layered})
			if want == nil {
				if !errors.Is(err, ErrInfeasible) {
					rt.Fatalf("layered %v: enumeration finds nothing feasible; OnionPeel: %v", layered, err)
				}
				continue
			}
			if err != nil {
				rt.Fatalf("layered %v: %v (enumeration %v)", layered, err, want)
			}
			kin := keyed(in)
			got := make([]float64, len(in.Jobs))
			for j := range got {
				got[j] = kin.Jobs[j].Utility.At(res.Deadlines[j])
			}
			if g := sortedCopy(got); !slices.Equal(g, want) || !res.Exact {
				rt.Fatalf("layered %v: %v (exact %v, stats %+v), enumeration %v\n%s rr %v", layered, g, res.Exact, res.Stats, want, describe(in), rr)
			}
			checkSchedule(rt, in, res.Schedule, res.Deadlines)
			for j, js := range res.Schedule.Jobs {
				for r, row := range js.Alloc {
					for ts := 1; ts < rr[j][r]; ts++ {
						if row[ts-1] != 0 {
							rt.Fatalf("job %d holds %d of resource %d in slot %d, before its release %d there", j, row[ts-1], r, ts, rr[j][r])
						}
					}
				}
			}
		}
	})
}
