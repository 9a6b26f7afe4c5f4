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

// TestRaisableAllMatchesEDF: for a feasible deadline vector of a random instance with
// release times (per resource on some draws) and capacities that vary by slot, the
// one-pass answer of raisableAll to "can job j alone finish by nd?" is the whole-horizon
// EDF run's (tryDeadline), for every job and every earlier slot from its release, asked
// all at once in a shuffled order with repeats.
func TestRaisableAllMatchesEDF(t *testing.T) {
	yes, no := 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		in, p, or, d, feasible := feasibleDeadlines(rt)
		if !feasible {
			return // infeasible even at the horizon
		}
		var js, nds []int
		for j := range p.n {
			for nd := p.release[j]; nd < d[j]; nd++ {
				js, nds = append(js, j), append(nds, nd)
			}
		}
		if len(js) == 0 {
			return
		}
		idx := make([]int, len(js))
		for k := range idx {
			idx[k] = k
		}
		idx = rapid.Permutation(idx).Draw(rt, "pairs")
		extra := rapid.IntRange(0, len(idx)).Draw(rt, "repeats")
		idx = append(idx, idx[:extra]...)
		qj, qn := make([]int, len(idx)), make([]int, len(idx))
		for k, i := range idx {
			qj[k], qn[k] = js[i], nds[i]
		}
		ok := make([]bool, len(idx))
		if err := or.raisableAll(context.Background(), d, qj, qn, ok); err != nil {
			rt.Fatal(err)
		}
		for k := range ok {
			want := or.raisable(d, qj[k], qn[k])
			if ok[k] != want {
				rt.Fatalf("job %d from %d to %d: one pass says %v, EDF %v (d %v)\n%s", qj[k], d[qj[k]], qn[k], ok[k], want, d, describe(in))
			}
			if want {
				yes++
			} else {
				no++
			}
		}
	})
	t.Logf("%d raisable, %d not", yes, no)
	if yes == 0 || no == 0 {
		t.Fatalf("%d raisable and %d not: the test does not reach both answers", yes, no)
	}
}

// TestSaturationOnePassMatchesOneByOne: the layered engine gives the same outcome —
// deadlines, levels, exactness and every statistic — whether a layer's saturation
// tests, a stall's keepAlone tests and the keep rule's are answered in one pass (in
// rounds, for the keep rule) and a stall branch's entry test by keepAlone's answer, or
// all by one EDF run each, on instances with release times
// whose utilities tie at floors (stalls, branches and the keep rule included) and with
// small branch budgets.
func TestSaturationOnePassMatchesOneByOne(t *testing.T) {
	stalls, compared, rules, pruned := 0, 0, 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		in := genFloor(rt, 14, 12, 10)
		for j := range in.Jobs { // the one-pass answers need release times
			in.Jobs[j].Release = rapid.IntRange(1, max(1, in.Horizon/2)).Draw(rt, "release")
		}
		budget := rapid.SampledFrom([]int{-1, 2, DefaultMaxBranches}).Draw(rt, "budget")
		fast := rapid.Bool().Draw(rt, "fast")
		run := func(oneByOne bool) (*outcome, Stats, error) {
			p, err := newProblem(in)
			if err != nil {
				rt.Fatal(err)
			}
			if p.hasCap {
				return nil, Stats{}, errSkip
			}
			var st Stats
			e := newLayered(context.Background(), p, edfOracle{p: p}, budget, &st)
			e.resume, e.prune, e.oneByOne = fast, fast, oneByOne
			p.u.cache()
			out, err := e.run()
			return out, st, err
		}
		a, sa, errA := run(false)
		b, sb, errB := run(true)
		if errors.Is(errA, errSkip) {
			return
		}
		if fmt.Sprint(errA) != fmt.Sprint(errB) {
			rt.Fatalf("one pass: %v; one by one: %v", errA, errB)
		}
		if errA != nil {
			return
		}
		if !slices.Equal(a.deadline, b.deadline) || !slices.Equal(a.level, b.level) || a.exact != b.exact || sa != sb {
			rt.Fatalf("one pass %v %v %v %+v\none by one %v %v %v %+v\n%s", a.deadline, a.level, a.exact, sa, b.deadline, b.level, b.exact, sb, describe(in))
		}
		compared++
		if sa.Stalls > 0 {
			stalls++
		}
		if sa.RuleChoices > 0 {
			rules++
		}
		if sa.Pruned > 0 {
			pruned++
		}
	})
	t.Logf("%d outcomes compared, %d with stalls, %d decided by the keep rule, %d with pruned branches", compared, stalls, rules, pruned)
	if stalls == 0 || rules == 0 {
		t.Fatal("no draw stalled or used the keep rule: the test does not reach the branches")
	}
}

var errSkip = errors.New("skip")

// TestOnePassMatchesOneByOneOnFloorInstances: the same comparison on floorInstance (RDS
// ties at the rds family's shape, release times, two resources) at sizes whose stalls
// branch, prune (stuck's test answered by keepAlone) and run out of budget.
func TestOnePassMatchesOneByOneOnFloorInstances(t *testing.T) {
	pruned := 0
	for _, n := range []int{20, 30, 40} {
		for seed := uint64(1); seed <= 3; seed++ {
			in := floorInstance(n, seed)
			run := func(oneByOne bool) (*outcome, Stats) {
				p, err := newProblem(in)
				if err != nil {
					t.Fatal(err)
				}
				p.oneByOne = oneByOne
				var st Stats
				out, err := peel(context.Background(), p, 200, false, &st, nil)
				if err != nil {
					t.Fatal(err)
				}
				return out, st
			}
			a, sa := run(false)
			b, sb := run(true)
			if !slices.Equal(a.deadline, b.deadline) || !slices.Equal(a.level, b.level) || a.exact != b.exact || sa != sb {
				t.Fatalf("n %d seed %d: one pass %v %v %v %+v\none by one %v %v %v %+v", n, seed, a.deadline, a.level, a.exact, sa, b.deadline, b.level, b.exact, sb)
			}
			pruned += sa.Pruned
		}
	}
	if pruned == 0 {
		t.Fatal("no branch was pruned: stuck's known answers are not reached")
	}
}

// TestKeepAloneAllMatchesEDF: for a feasible deadline vector and a random set of jobs
// each moved to a random earlier slot from its release, the one-pass answer of
// keepAloneAll to "is the vector with all of them moved but job k feasible?" is a
// whole-horizon EDF run's, for every k; per-resource releases and jobs without demand of
// a resource included.
func TestKeepAloneAllMatchesEDF(t *testing.T) {
	yes, no := 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		in, p, or, d, feasible := feasibleDeadlines(rt)
		if !feasible {
			return // infeasible even at the horizon
		}
		var at, up []int
		for j := range p.n {
			if d[j] > p.release[j] && rapid.Bool().Draw(rt, "in layer") {
				at = append(at, j)
				up = append(up, rapid.IntRange(p.release[j], d[j]-1).Draw(rt, "up"))
			}
		}
		if len(at) == 0 {
			return
		}
		ok := make([]bool, len(at))
		if err := or.keepAloneAll(context.Background(), d, at, up, ok); err != nil {
			rt.Fatal(err)
		}
		for k := range at {
			trial := slices.Clone(d)
			for i, j := range at {
				trial[j] = up[i]
			}
			trial[at[k]] = d[at[k]]
			want := or.feasible(trial)
			if ok[k] != want {
				rt.Fatalf("keeping job %d of %v (up %v, d %v): one pass says %v, EDF %v\n%s", at[k], at, up, d, ok[k], want, describe(in))
			}
			if want {
				yes++
			} else {
				no++
			}
		}
	})
	t.Logf("%d feasible, %d not", yes, no)
	if yes == 0 || no == 0 {
		t.Fatalf("%d feasible and %d not: the test does not reach both answers", yes, no)
	}
}

// traceInstance is a deterministic instance shaped like a parallel-job trace scaled to
// 90% load (scripts/swf-nasa-like.sh's shape in slots): 128 units per slot, jobs of
// 1–128 units per slot (powers of two, most small) for a heavy-tailed 1–60 slots,
// released one after another at the gaps that load needs, each worth 1 up to three times
// its runtime after its release and 0 after: step utilities that tie at 0 for real.
func traceInstance(n int, seed uint64) *sched.Instance {
	rng := rand.New(rand.NewPCG(seed, 33))
	shares := []float64{0.42, 0.55, 0.66, 0.76, 0.85, 0.92, 0.97, 1}
	var s spec
	type job struct{ size, run int }
	jobs := make([]job, n)
	work := 0
	for j := range jobs {
		v, k := rng.Float64(), 0
		for k < 7 && v > shares[k] {
			k++
		}
		run := min(600, 1+int(math.Exp(1.5+1.5*rng.NormFloat64())))
		jobs[j] = job{size: 1 << k, run: run}
		work += jobs[j].size * jobs[j].run
	}
	gap := float64(work) / float64(n) / (128 * 0.9)
	at := 1.0
	s.release = make([]int, n)
	for j, jb := range jobs {
		at += gap * rng.ExpFloat64()
		s.release[j] = int(at)
		s.demand = append(s.demand, []int{jb.size * jb.run})
		s.util = append(s.util, sched.Step{Value: 1, Deadline: float64(s.release[j] + 2*jb.run)})
	}
	s.caps = constCaps(int(at)+work/128+100, 128)
	return s.instance()
}

// BenchmarkTraceTies times the bound's onion peeling on traceInstance, where the sweep
// hands the genuine ties at 0 to the layered engine, with the layered engine's questions
// answered in one pass (raiseall.go) and one EDF run each (the reference), in the same
// run: compare the two ns/op of one N.
func BenchmarkTraceTies(b *testing.B) {
	for _, n := range []int{500, 1000} {
		in := traceInstance(n, 1)
		for _, oneByOne := range []bool{false, true} {
			b.Run(fmt.Sprintf("N=%d/oneByOne=%v", n, oneByOne), func(b *testing.B) {
				var st Stats
				var out *outcome
				for b.Loop() {
					p, err := newProblem(in)
					if err != nil {
						b.Fatal(err)
					}
					p.oneByOne = oneByOne
					st = Stats{}
					if out, err = peel(context.Background(), p, DefaultMaxBranches, false, &st, nil); err != nil {
						b.Fatal(err)
					}
				}
				zeros := 0
				for _, v := range out.level {
					if v == 0 {
						zeros++
					}
				}
				b.ReportMetric(float64(zeros), "at-0")
				b.ReportMetric(float64(st.Branches), "branches")
				b.ReportMetric(float64(st.Stalls), "stalls")
				b.ReportMetric(float64(in.Horizon), "slots")
			})
		}
	}
}

// feasibleDeadlines draws a two-resource instance with release times (per resource on
// some draws) and capacities that vary by slot, and a deadline per job from its release,
// moved to the horizon one job at a time until the vector is feasible; ok is false when
// it is infeasible even at the horizon.
func feasibleDeadlines(rt *rapid.T) (*sched.Instance, *problem, edfOracle, []int, bool) {
	o := genOpts{maxJobs: 12, maxSlots: 16, maxCap: 5, maxDemand: 8, utility: "table", resources: 2,
		release: true, varyCap: true, feasible: true}
	in := genSpec(rt, o).instance()
	p, err := newProblem(in)
	if err != nil {
		rt.Fatal(err)
	}
	if err := p.setResourceReleases(randomResourceReleases(rt, in)); err != nil {
		rt.Fatal(err)
	}
	or := edfOracle{p: p}
	d := make([]int, p.n)
	for j := range d {
		d[j] = rapid.IntRange(p.release[j], p.T).Draw(rt, "d")
	}
	for j := 0; !or.feasible(d); j++ {
		if j == p.n {
			return in, p, or, d, false
		}
		d[j] = p.T
	}
	return in, p, or, d, true
}
