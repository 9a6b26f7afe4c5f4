package tas

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/sched"
)

// genFloorUtility draws a utility of every family with genuine ties: most of them fall to
// a floor of 0 past a hard deadline (RDS, steps of a few equal values, hard linear
// lines, tables with a tail of 0), next to steep sigmoids that underflow to 0 (the log
// domain keeps those apart) and constants.
// Deadlines, budgets and the ends of top stretches fall in 1..D.
func genFloorUtility(t *rapid.T, T, D int) sched.Utility {
	switch rapid.IntRange(0, 6).Draw(t, "family") {
	case 0:
		soft := rapid.IntRange(1, D).Draw(t, "soft")
		return sched.RDS{Priority: float64(rapid.IntRange(1, 2).Draw(t, "w")), Soft: float64(soft), Hard: float64(rapid.IntRange(soft, 2*soft).Draw(t, "hard"))}
	case 1:
		return sched.Step{Value: float64(rapid.IntRange(1, 2).Draw(t, "v")), Deadline: float64(rapid.IntRange(1, D).Draw(t, "d"))}
	case 2:
		return sched.Linear{Priority: float64(rapid.IntRange(1, 4).Draw(t, "w")), Budget: float64(rapid.IntRange(1, D).Draw(t, "b")),
			Slope: float64(rapid.IntRange(1, 2).Draw(t, "beta")), Hard: true}
	case 3:
		v := make([]float64, T)
		top := rapid.IntRange(1, D).Draw(t, "top")
		for k := range top {
			v[k] = float64(rapid.IntRange(1, 3).Draw(t, "u"))
		}
		slices.Sort(v)
		slices.Reverse(v)
		return sched.Table{Values: v}
	case 4:
		return sched.Sigmoid{Priority: float64(rapid.IntRange(1, 2).Draw(t, "p")), Deadline: float64(rapid.IntRange(1, D).Draw(t, "d")),
			Decay: rapid.SampledFrom([]float64{5, 800}).Draw(t, "mu")}
	case 5:
		return sched.Constant{Value: float64(rapid.IntRange(0, 1).Draw(t, "c"))}
	}
	return sched.Piecewise{Points: [][2]float64{{0, 2}, {float64(rapid.IntRange(1, D).Draw(t, "x")), 1}, {float64(T), 0}}}
}

// genFloor draws an instance of floor ties: n jobs over T slots, 1–2 resources whose
// capacity varies by slot and is raised until the demand fits, release times on some;
// on half the draws every deadline falls in the first third of the horizon, so that
// several jobs must end at the floor.
func genFloor(t *rapid.T, maxJobs, maxSlots, maxDemand int) *sched.Instance {
	o := genOpts{maxJobs: maxJobs, maxSlots: maxSlots, maxCap: 4, maxDemand: maxDemand, utility: "table", resources: 2,
		release: rapid.Bool().Draw(t, "release"), varyCap: true, feasible: true}
	s := genSpec(t, o)
	T := len(s.caps[0])
	D := T
	if rapid.Bool().Draw(t, "crowded") {
		D = max(1, T/3)
	}
	for j := range s.util {
		s.util[j] = genFloorUtility(t, T, D)
	}
	return s.instance()
}

// TestFloorTiesMatchLayered: on instances whose utilities tie at a floor (and at equal
// values above it), the default path — the sweep, the layered engine where it hands over
// with its stall branches seeded and cut, and the sweep again once each stalled layer is
// decided (Stats.Resumed) — gives the reference layered engine's vector wherever that
// one is exact, and is exact there too. Where the reference runs out of branches and
// the default path does not, the default path's answer is checked by enumeration when
// the instance is small enough. Both paths must be taken on some draws.
func TestFloorTiesMatchLayered(t *testing.T) {
	resumed, stalled, pruned, beyond := 0, 0, 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		in := genFloor(rt, 14, 12, 10)
		fast, err := OnionPeel(context.Background(), in, Options{})
		ref, errRef := OnionPeel(context.Background(), in, Options{Layered: true})
		switch {
		case errors.Is(errRef, ErrInfeasible) && errors.Is(err, ErrInfeasible):
			return
		case err != nil || errRef != nil:
			rt.Fatalf("default: %v; layered: %v\n%s", err, errRef, describe(in))
		}
		got := sortedCopy(fast.Levels)
		switch {
		case ref.Exact:
			if want := sortedCopy(ref.Levels); !fast.Exact || !slices.Equal(got, want) {
				rt.Fatalf("%v (exact %v, stats %+v), layered %v\n%s", got, fast.Exact, fast.Stats, want, describe(in))
			}
		case fast.Exact:
			beyond++
			if math.Pow(float64(in.Horizon), float64(len(in.Jobs))) <= 1e6 {
				if want := bruteLevels(in); !slices.Equal(got, sortedCopy(want)) {
					rt.Fatalf("%v marked exact where the layered engine ran out of branches, optimum %v\n%s", got, sortedCopy(want), describe(in))
				}
			}
		}
		for j, lv := range fast.Levels {
			if u := in.Jobs[j].Utility.At(fast.Deadlines[j]); u != lv {
				rt.Fatalf("job %d: level %g but U(deadline %d) = %g", j, lv, fast.Deadlines[j], u)
			}
		}
		checkSchedule(rt, in, fast.Schedule, fast.Deadlines)
		if fast.Stats.Stalls > 0 {
			stalled++
			if fast.Stats.Resumed > 0 {
				resumed++
			}
			if fast.Stats.Pruned > 0 {
				pruned++
			}
		}
	})
	t.Logf("%d draws stalled: %d resumed the sweep, %d pruned stall branches; %d exact where the reference ran out of branches", stalled, resumed, pruned, beyond)
	if resumed == 0 || pruned == 0 {
		t.Fatalf("of %d draws that stalled, %d resumed the sweep and %d pruned: the test does not reach both paths", stalled, resumed, pruned)
	}
}

// TestFloorTiesSmallBudget: with a branch budget too small to explore every choice, the
// answer is never below the keep rule's (MaxBranches −1: the seed of the first stall) in
// the order the engines peel by (ln U where a sigmoid underflows), and whenever it is
// marked exact it is the optimum.
func TestFloorTiesSmallBudget(t *testing.T) {
	inexact := 0
	rapid.Check(t, func(rt *rapid.T) {
		in := genFloor(rt, 7, 6, 6)
		budget := rapid.IntRange(1, 4).Draw(rt, "budget")
		res, err := OnionPeel(context.Background(), in, Options{MaxBranches: budget})
		if errors.Is(err, ErrInfeasible) {
			return
		}
		if err != nil {
			rt.Fatal(err)
		}
		rule, err := OnionPeel(context.Background(), in, Options{MaxBranches: -1})
		if err != nil {
			rt.Fatal(err)
		}
		// Compared as the engines order them: where sigmoids underflow to 0, by ln U
		// (Stats.Domain "log"); two vectors equal in U can differ there.
		kin := keyed(in)
		keys := func(r *Result) []float64 {
			k := make([]float64, len(r.Deadlines))
			for j, d := range r.Deadlines {
				k[j] = kin.Jobs[j].Utility.At(d)
			}
			return sortedCopy(k)
		}
		if gk, fk := keys(res), keys(rule); compareExact(gk, fk) < 0 {
			rt.Fatalf("budget %d: %v (keys %v), below the keep rule's %v (keys %v)\n%s", budget, sortedCopy(res.Levels), gk, sortedCopy(rule.Levels), fk, describe(in))
		}
		got := sortedCopy(res.Levels)
		if !res.Exact {
			inexact++
			return
		}
		if want := sortedCopy(bruteLevels(in)); !slices.Equal(got, want) {
			rt.Fatalf("budget %d: %v marked exact, optimum %v\n%s", budget, got, want, describe(in))
		}
	})
	t.Logf("%d draws ran out of budget", inexact)
}

// bruteLevels is the optimum by enumeration, as U values (ordered by the underflow keys).
func bruteLevels(in *sched.Instance) []float64 {
	kin := keyed(in)
	var best, bestKey []float64
	enumerateFeasible(in, nil, func(d []int) {
		k := make([]float64, len(d))
		v := make([]float64, len(d))
		for j := range d {
			k[j], v[j] = kin.Jobs[j].Utility.At(d[j]), in.Jobs[j].Utility.At(d[j])
		}
		if ks := sortedCopy(k); bestKey == nil || compareExact(ks, bestKey) > 0 {
			bestKey, best = ks, v
		}
	})
	return best
}

// TestFloorTiesMatchBruteForce: the same against enumeration of every vector of
// completion slots, on instances small enough to enumerate.
func TestFloorTiesMatchBruteForce(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		in := genFloor(rt, 5, 6, 6)
		want := bruteForce(keyed(in))
		res, err := OnionPeel(context.Background(), in, Options{})
		if want == nil {
			if !errors.Is(err, ErrInfeasible) {
				rt.Fatalf("enumeration finds nothing feasible; OnionPeel: %v", err)
			}
			return
		}
		if err != nil {
			rt.Fatalf("%v (enumeration %v)", err, want)
		}
		kin := keyed(in)
		got := make([]float64, len(in.Jobs))
		for j := range got {
			got[j] = kin.Jobs[j].Utility.At(res.Deadlines[j])
		}
		if g := sortedCopy(got); !slices.Equal(g, want) || !res.Exact {
			rt.Fatalf("%v (exact %v, stats %+v), enumeration %v\n%s", g, res.Exact, res.Stats, want, describe(in))
		}
		checkSchedule(rt, in, res.Schedule, res.Deadlines)
	})
}

// floorInstance is a deterministic instance of genuine floor ties at the rds family's
// shape: n jobs released over the first eighth of 2n slots, map and reduce demands on 2
// and 1 units per slot, RDS utilities whose hard deadline comes a few slots after the
// release: most jobs cannot meet it, and the rest of the horizon has room for their work.
func floorInstance(n int, seed uint64) *sched.Instance {
	rng := rand.New(rand.NewPCG(seed, 29))
	T := 2 * n
	var s spec
	s.caps = constCaps(T, 2, 1)
	s.release = make([]int, n)
	for j := range n {
		rel := 1 + rng.IntN(T/8)
		s.release[j] = rel
		s.demand = append(s.demand, []int{1 + rng.IntN(6), rng.IntN(4)})
		soft := float64(rel + 1 + rng.IntN(4))
		s.util = append(s.util, sched.RDS{Priority: 1, Soft: soft, Hard: soft + float64(1+rng.IntN(int(soft)))})
	}
	return s.instance()
}

// BenchmarkFloorTies times OnionPeel on floorInstance with a branch budget of 200, by
// default and with the reference layered engine (Options.Layered), in the same run.
func BenchmarkFloorTies(b *testing.B) {
	for _, n := range []int{40, 80} {
		in := floorInstance(n, 1)
		for _, layered := range []bool{false, true} {
			b.Run(fmt.Sprintf("N=%d/layered=%v", n, layered), func(b *testing.B) {
				var res *Result
				for b.Loop() {
					var err error
					if res, err = OnionPeel(context.Background(), in, Options{NoSchedule: true, MaxBranches: 200, Layered: layered}); err != nil {
						b.Fatal(err)
					}
				}
				zeros := 0
				for _, v := range res.Levels {
					if v == 0 {
						zeros++
					}
				}
				b.ReportMetric(float64(zeros), "at-0")
				b.ReportMetric(float64(res.Stats.Branches), "branches")
				if res.Exact {
					b.ReportMetric(1, "exact")
				} else {
					b.ReportMetric(0, "exact")
				}
			})
		}
	}
}

// cancelAfter is a context that the oracle cancels when it starts its k-th feasibility
// test.
type cancelAfter struct {
	context.Context
	cancelled bool
}

func (c *cancelAfter) Err() error {
	if c.cancelled {
		return context.Canceled
	}
	return nil
}

type countingOracle struct {
	oracle
	ctx      *cancelAfter
	k, tests int
}

func (o *countingOracle) count() {
	if o.tests++; o.tests == o.k {
		o.ctx.cancelled = true
	}
}

func (o *countingOracle) feasible(d []int) bool { o.count(); return o.oracle.feasible(d) }
func (o *countingOracle) raisable(d []int, j, nd int) bool {
	o.count()
	return o.oracle.raisable(d, j, nd)
}

// TestLayeredHearsCancellation: however early or late a cancellation comes, the layered
// engine (with its seeded, cut branches and the pinned sweep) stops within one more
// feasibility test — a layer of thousands of tied jobs must not run its tests on.
func TestLayeredHearsCancellation(t *testing.T) {
	in := floorInstance(40, 1)
	cancelled := 0
	for k := 1; k <= 600; k += 13 {
		p, err := newProblem(in)
		if err != nil {
			t.Fatal(err)
		}
		ctx := &cancelAfter{Context: context.Background()}
		or := &countingOracle{oracle: edfOracle{p: p}, ctx: ctx, k: k}
		var st Stats
		e := newLayered(ctx, p, or, DefaultMaxBranches, &st)
		e.resume, e.prune = true, true
		p.u.cache()
		_, err = e.run()
		if !ctx.cancelled {
			continue // finished in fewer than k tests
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at test %d: %v", k, err)
		}
		if extra := or.tests - k; extra > 1 {
			t.Fatalf("cancelled at test %d, the engine ran %d more", k, extra)
		}
		cancelled++
	}
	if cancelled < 10 {
		t.Fatalf("only %d runs were cancelled before they finished: the test reaches too little", cancelled)
	}
}
