package rtmr

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/simplex"
)

// feasibleSet decides by exhaustive search, independently of the MIP, whether the jobs
// of in picked by set can all meet their deadlines. The search walks integer time: at
// each unit it tries every number of map and reduce starts per job that fits the free
// slots (starting nothing included), running tasks carried as counts per remaining
// time; failed states are memoised.
func feasibleSet(in ExactInstance, set []bool) bool {
	type js struct {
		mLeft, rLeft int
		mRun, rRun   []int // mRun[k]: maps with k+1 units left
	}
	var jobs []ExactJob
	for i, j := range in.Jobs {
		if set[i] {
			jobs = append(jobs, j)
		}
	}
	st := make([]js, len(jobs))
	for i, j := range jobs {
		st[i] = js{mLeft: j.Maps, rLeft: j.Reduces, mRun: make([]int, j.MapTime), rRun: make([]int, max(j.ReduceTime, 1))}
	}
	failed := map[string]bool{}
	key := func(t int) string {
		var b strings.Builder
		fmt.Fprint(&b, t)
		for _, s := range st {
			fmt.Fprint(&b, "|", s.mLeft, s.rLeft, s.mRun, s.rRun)
		}
		return b.String()
	}
	running := func(a []int) int {
		n := 0
		for _, v := range a {
			n += v
		}
		return n
	}
	var search func(t int) bool
	search = func(t int) bool {
		done := true
		for i, s := range st {
			j := jobs[i]
			if s.mLeft > 0 || running(s.mRun) > 0 || s.rLeft > 0 || running(s.rRun) > 0 {
				done = false
			}
			if s.mLeft > 0 && t > j.lastMapStart() {
				return false
			}
			if s.rLeft > 0 && t > j.Due-j.ReduceTime {
				return false
			}
		}
		if done {
			return true
		}
		k := key(t)
		if failed[k] {
			return false
		}
		freeM, freeR := in.MapSlots, in.ReduceSlots
		for _, s := range st {
			freeM -= running(s.mRun)
			freeR -= running(s.rRun)
		}
		// choose starts job by job, then advance one unit
		var choose func(i, freeM, freeR int) bool
		choose = func(i, freeM, freeR int) bool {
			if i == len(st) {
				saved := make([]js, len(st))
				for x, s := range st {
					saved[x] = js{s.mLeft, s.rLeft, append([]int(nil), s.mRun...), append([]int(nil), s.rRun...)}
				}
				for x := range st {
					s := &st[x]
					copy(s.mRun, s.mRun[1:])
					s.mRun[len(s.mRun)-1] = 0
					copy(s.rRun, s.rRun[1:])
					s.rRun[len(s.rRun)-1] = 0
				}
				ok := search(t + 1)
				copy(st, saved)
				return ok
			}
			s := &st[i]
			j := jobs[i]
			maxM := 0
			if t >= j.Arrival {
				maxM = min(s.mLeft, freeM)
			}
			mapsDone := s.mLeft == 0 && running(s.mRun) == 0
			maxR := 0
			if mapsDone {
				maxR = min(s.rLeft, freeR)
			}
			for a := maxM; a >= 0; a-- {
				for b := maxR; b >= 0; b-- {
					s.mLeft -= a
					s.mRun[j.MapTime-1] += a
					s.rLeft -= b
					if b > 0 {
						s.rRun[j.ReduceTime-1] += b
					}
					ok := choose(i+1, freeM-a, freeR-b)
					s.mLeft += a
					s.mRun[j.MapTime-1] -= a
					s.rLeft += b
					if b > 0 {
						s.rRun[j.ReduceTime-1] -= b
					}
					if ok {
						return true
					}
				}
			}
			return false
		}
		if choose(0, freeM, freeR) {
			return true
		}
		failed[k] = true
		return false
	}
	return search(0)
}

// bruteMax is the largest feasible subset's size, by enumerating subsets.
func bruteMax(in ExactInstance) int {
	best := 0
	n := len(in.Jobs)
	for mask := 0; mask < 1<<n; mask++ {
		set := make([]bool, n)
		c := 0
		for i := range n {
			if mask&(1<<i) != 0 {
				set[i] = true
				c++
			}
		}
		if c > best && feasibleSet(in, set) {
			best = c
		}
	}
	return best
}

// The brute-force check by hand. One map slot, one reduce slot. J0: A 0, due 4, 2 maps of
// 1, 1 reduce of 2: maps 0–1, 1–2, reduce 2–4: feasible alone. J1: A 0, due 3, 1 map of
// 1, 1 reduce of 1: alone maps 0–1, reduce 1–2. Together: J1's map 0–1 and J0's maps 1–2,
// 2–3 leave J0's reduce 3–5 > 4; J0's maps first push J1's map to 2–3 and its reduce past
// 3. Infeasible together, so the optimum is 1; with J0's due at 5 both fit (J1 first).
func TestFeasibleSetWorked(t *testing.T) {
	in := ExactInstance{MapSlots: 1, ReduceSlots: 1, Jobs: []ExactJob{
		{Arrival: 0, Due: 4, Maps: 2, MapTime: 1, Reduces: 1, ReduceTime: 2},
		{Arrival: 0, Due: 3, Maps: 1, MapTime: 1, Reduces: 1, ReduceTime: 1},
	}}
	if !feasibleSet(in, []bool{true, false}) || !feasibleSet(in, []bool{false, true}) {
		t.Fatal("a job alone is infeasible")
	}
	if feasibleSet(in, []bool{true, true}) || bruteMax(in) != 1 {
		t.Fatal("both jobs accepted at due 4")
	}
	in.Jobs[0].Due = 5
	if !feasibleSet(in, []bool{true, true}) || bruteMax(in) != 2 {
		t.Fatal("both jobs rejected at due 5")
	}
}

// tinyWorkload draws a workload whose worst-case task times are whole seconds and whose
// true runtimes equal them (speed 1, factor 1), so RTMR's estimates are exact.
func tinyWorkload(rt *rapid.T) *Workload {
	return tinyFrom(func(lo, hi int, label string) int { return rapid.IntRange(lo, hi).Draw(rt, label) })
}

// tinyFrom is tinyWorkload over any source of integers in [lo, hi].
func tinyFrom(draw func(lo, hi int, label string) int) *Workload {
	return smallFrom(draw, smallSize{maxL: 3, maxQ: 2, maxJobs: 5, maxGap: 2, maxTasks: 3, maxTime: 3, maxDeadline: 12})
}

// smallSize bounds the instances smallFrom draws.
type smallSize struct {
	maxL, maxQ, maxJobs, maxGap, maxTasks, maxTime, maxDeadline int
}

func smallFrom(draw func(lo, hi int, label string) int, z smallSize) *Workload {
	c := oneWorker(draw(1, z.maxL, "l"), draw(1, z.maxQ, "q"))
	var jobs []WorkloadJob
	n := draw(1, z.maxJobs, "n")
	at := 0
	for i := range n {
		at += draw(0, z.maxGap, "gap")
		m := draw(1, z.maxTasks, "maps")
		pm := draw(1, z.maxTime, "pm")
		r := draw(0, z.maxTasks-1, "reduces")
		pr := draw(1, z.maxTime, "pr")
		sizes := make([]float64, m)
		for k := range sizes {
			sizes[k] = float64(pm)
		}
		cr := 1.0
		if r > 0 {
			cr = float64(pr*r) / float64(m*pm) // ε̃^r = c_r·η·δ/R = pr
		}
		est := &Estimates{Eta: 1, CmMax: 1, CrMax: cr}
		jobs = append(jobs, WorkloadJob{
			Job:   Job{ID: fmt.Sprint(i), Arrival: float64(at), Deadline: float64(draw(2, z.maxDeadline, "d")), MapSizes: sizes, Reduces: r, Est: est},
			Truth: Truth{MapCost: 1, ReduceCost: cr, Eta: 1},
		})
	}
	return handWorkload(c, jobs...)
}

func exactOf(t fataler, w *Workload) ExactInstance {
	var jobs []Job
	for _, j := range w.Jobs {
		jobs = append(jobs, j.Job)
	}
	in, err := ExactInstanceOf(w.Cluster, jobs, func(j *Job) Estimates { return *j.Est }, 1)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// What RTMR accepts is a feasible set (its own estimated schedule is one), so it never
// beats the exact optimum; brute force checks both.
func TestRTMRWithinExactOptimum(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		w := tinyWorkload(rt)
		in := exactOf(rt, w)
		o := drive(rt, w, mustNewRapid(rt, w.Cluster, SchedulerConfig{Feedback: rapid.Bool().Draw(rt, "fb")}))
		set := make([]bool, len(w.Jobs))
		for i, j := range o.jobs {
			set[i] = j.accepted
		}
		if !feasibleSet(in, set) {
			rt.Fatalf("RTMR's accepted set %v is infeasible for %+v", set, in)
		}
		if best := bruteMax(in); o.accepted > best {
			rt.Fatalf("RTMR accepted %d > optimum %d", o.accepted, best)
		}
	})
}

func mustNewRapid(rt *rapid.T, c Cluster, opt SchedulerConfig) *RTMR {
	s, err := NewRTMR(c, opt)
	if err != nil {
		rt.Fatal(err)
	}
	return s
}

// The LP relaxation of the exact MIP (built-in simplex, plain build) bounds the brute
// force optimum from above.
func TestExactLPRelaxationBoundsBruteForce(t *testing.T) {
	sv, err := solvers.Get("simplex")
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(rt *rapid.T) {
		in := exactOf(rt, tinyWorkload(rt))
		e, err := BuildExactMIP(in)
		if err != nil {
			rt.Fatal(err)
		}
		lp := e.Model.Clone()
		for i := range lp.NumVars() {
			lp.SetType(lp.VarAt(i), model.Continuous)
		}
		p, err := lp.Compile()
		if err != nil {
			rt.Fatal(err)
		}
		sol, err := sv.Solve(context.Background(), p, solvers.Options{})
		if err != nil || sol.Status != solvers.Optimal {
			rt.Fatalf("LP relaxation: %v %v", err, sol)
		}
		if best := bruteMax(in); sol.Objective < float64(best)-1e-6 {
			rt.Fatalf("LP relaxation %g below the brute-force optimum %d", sol.Objective, best)
		}
		if sol.Objective > float64(len(in.Jobs))+1e-6 || math.IsNaN(sol.Objective) {
			rt.Fatalf("LP relaxation %g above the number of jobs", sol.Objective)
		}
	})
}

// TestExactGap scores RTMR's online acceptance against the offline optimum on 1,000
// seeded tiny instances (run with -v for the figures): with true runtimes equal to the
// estimates (RTMR never exceeds the optimum, asserted) and with runtimes a factor
// uniform in [0.5, 1] of them (where the feedback controller can learn; reported).
func TestExactGap(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	for _, lo := range []float64{1, 0.5} {
		for _, opt := range []SchedulerConfig{{Feedback: true}, {}, {Feedback: true, FeedbackKeepTighter: true}} {
			rng := rand.New(rand.NewPCG(20, 12))
			draw := func(lo, hi int, _ string) int { return lo + rng.IntN(hi-lo+1) }
			var got, best, jobs, short, over int
			for range n {
				w := tinyFrom(draw)
				w.Seed = rng.Uint64()
				for i := range w.Jobs {
					w.Jobs[i].Truth.NoiseLo = lo
				}
				in := exactOf(t, w)
				o := drive(t, w, mustNew(t, w.Cluster, opt))
				b := bruteMax(in)
				if lo == 1 && o.accepted > b {
					t.Fatalf("RTMR accepted %d > optimum %d on %+v", o.accepted, b, in)
				}
				got += o.accepted
				best += b
				jobs += len(w.Jobs)
				if o.accepted < b {
					short++
				}
				if o.accepted > b {
					over++
				}
			}
			t.Logf("runtimes [%.1f, 1]×estimate, %s tighter=%v: accepted %d of %d jobs, worst-case optimum %d (%.1f%%); below it on %d, above it on %d of %d instances",
				lo, mustNew(t, oneWorker(1, 1), opt).Name(), opt.FeedbackKeepTighter, got, jobs, best, 100*float64(got)/float64(best), short, over, n)
		}
	}
}
