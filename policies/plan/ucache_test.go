package plan

import (
	"fmt"
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// TestUtilityCacheIsExact: a cached planning utility returns, bit for bit, what the
// uncached one (LogSigmoid, or lifted by eps) returns, whatever order the slots are
// asked in and however often; equal parameters share one entry.
func TestUtilityCacheIsExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ls := NewLogSigmoid(sched.Sigmoid{Priority: rapid.Float64Range(0.01, 5).Draw(t, "p"),
			Deadline: rapid.Float64Range(-50, 300).Draw(t, "d"), Decay: rapid.Float64Range(0, 6).Draw(t, "mu")})
		eps := 1e-9 * float64(rapid.IntRange(0, 3).Draw(t, "later"))
		var want sched.Utility = ls
		if eps > 0 {
			want = lifted{u: ls, eps: eps}
		}
		var uc UtilityCache
		uc.next(1, rapid.IntRange(0, 300).Draw(t, "horizon"))
		got := uc.lookup(ls, eps)
		if _, ok := got.(*cachedLog); !ok {
			t.Fatalf("lookup of a LogSigmoid gave %T", got)
		}
		for _, s := range rapid.SliceOfN(rapid.IntRange(0, 600), 1, 60).Draw(t, "slots") {
			if g, w := got.At(s), want.At(s); math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("At(%d) = %v cached, %v uncached", s, g, w)
			}
		}
		if again := uc.lookup(ls, eps); again != got {
			t.Fatal("equal parameters got a second entry")
		}
		if got.Type() != want.Type() {
			t.Fatalf("type %q, want %q", got.Type(), want.Type())
		}
	})
}

// TestUtilityCachePassesOthersThrough: a utility that is not ln U of a sigmoid (or a
// nil cache) is returned as Build made it before the cache: itself, lifted when eps > 0.
func TestUtilityCachePassesOthersThrough(t *testing.T) {
	var uc UtilityCache
	lin := sched.Linear{Priority: 2, Budget: 10, Slope: 0.5}
	if u := uc.lookup(lin, 0); u != sched.Utility(lin) {
		t.Errorf("linear, eps 0: %#v", u)
	}
	if u, ok := uc.lookup(lin, 1e-9).(lifted); !ok || u.eps != 1e-9 {
		t.Errorf("linear, eps 1e-9: %#v", u)
	}
	ls := NewLogSigmoid(sched.Sigmoid{Priority: 2, Deadline: 5, Decay: 1})
	var none *UtilityCache
	if u := none.lookup(ls, 0); u != sched.Utility(ls) {
		t.Errorf("nil cache: %#v", u)
	}
	if len(uc.m) != 0 {
		t.Errorf("the cache holds %d entries of utilities it does not cache", len(uc.m))
	}
}

// TestUtilityCacheDropsUnused: entries no Build used in the last two are dropped once
// the map outgrows a few plans' parts.
func TestUtilityCacheDropsUnused(t *testing.T) {
	var uc UtilityCache
	uc.next(1, 10)
	for i := range 200 {
		uc.lookup(NewLogSigmoid(sched.Sigmoid{Priority: 1, Deadline: float64(i), Decay: 1}), 0)
	}
	for range 3 {
		uc.next(1, 10)
		uc.lookup(NewLogSigmoid(sched.Sigmoid{Priority: 1, Deadline: 0, Decay: 1}), 0)
	}
	if len(uc.m) != 1 {
		t.Errorf("%d entries kept, want the 1 in use", len(uc.m))
	}
}

// finView is the part of a View that Means reads.
type finView struct {
	policies.View
	jobs []policies.JobInfo
	fin  [][]policies.TaskRecord
}

func (v *finView) Job(j int) *policies.JobInfo          { return &v.jobs[j] }
func (v *finView) Finished(j int) []policies.TaskRecord { return v.fin[j] }

// TestMeansAreMeanTaskRuntime: Means.Mean equals policies.MeanTaskRuntime bit for bit
// as finished records arrive one by one, for stages with finished tasks, with a
// declared runtime only, and with neither; a record list that shrinks (another run)
// starts the sums over.
func TestMeansAreMeanTaskRuntime(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := &finView{jobs: []policies.JobInfo{{Stages: []policies.StageInfo{
			{Tasks: 50}, {Tasks: 50, Runtime: &workload.Runtime{Type: "fixed", Mean: 42}}, {Tasks: 50}}}},
			fin: make([][]policies.TaskRecord, 1)}
		var m Means
		check := func() {
			for s := range 3 {
				if g, w := m.Mean(v, 0, s), policies.MeanTaskRuntime(v, 0, s); math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("after %d records, stage %d: %v, want %v", len(v.fin[0]), s, g, w)
				}
			}
		}
		check()
		for range rapid.IntRange(0, 60).Draw(t, "records") {
			start := rapid.Float64Range(0, 1000).Draw(t, "start")
			v.fin[0] = append(v.fin[0], policies.TaskRecord{Stage: rapid.IntRange(0, 1).Draw(t, "stage"),
				Start: start, Finish: start + rapid.Float64Range(0, 300).Draw(t, "elapsed")})
			if rapid.Bool().Draw(t, "ask") {
				check()
			}
		}
		check()
		v.fin[0] = v.fin[0][:len(v.fin[0])/2]
		check()
		m.Forget(0)
		check()
	})
}

// TestUtilityCacheRecyclesExactly: across slot grids (every key new, the old entries
// dropped and their value arrays given to new entries), every entry — a new one on a
// recycled array, and a dropped one an older plan still holds — returns bit for bit
// what the uncached utility returns.
func TestUtilityCacheRecyclesExactly(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var uc UtilityCache
		parts := rapid.IntRange(1, 20).Draw(t, "parts")
		type held struct {
			got  sched.Utility
			want LogSigmoid
		}
		var old []held
		for grid := range rapid.IntRange(1, 8).Draw(t, "grids") {
			horizon := rapid.IntRange(1, 80).Draw(t, "horizon")
			for range rapid.IntRange(1, 4).Draw(t, "builds") {
				uc.next(parts, horizon)
				for i := range parts {
					ls := NewLogSigmoid(sched.Sigmoid{Priority: 1 + float64(i), Deadline: float64(3*i - grid), Decay: 0.5})
					old = append(old, held{uc.lookup(ls, 0), ls})
				}
				for _, h := range old[max(0, len(old)-3*parts):] {
					s := rapid.IntRange(0, 100).Draw(t, "slot")
					if g, w := h.got.At(s), h.want.At(s); math.Float64bits(g) != math.Float64bits(w) {
						t.Fatalf("grid %d, At(%d) = %v cached, %v uncached", grid, s, g, w)
					}
				}
			}
		}
		for _, h := range old {
			for s := range 90 {
				if g, w := h.got.At(s), h.want.At(s); math.Float64bits(g) != math.Float64bits(w) {
					t.Fatalf("at the end, At(%d) = %v cached, %v uncached", s, g, w)
				}
			}
		}
		if len(uc.m) > parts+parts/2+64+parts {
			t.Errorf("%d entries kept for %d parts", len(uc.m), parts)
		}
	})
}

// TestUtilityCachePlanIsLookupOfPlanUtility: the unboxed path gives the utility the
// boxed one gives (same type, bit for bit the same values), for sigmoids of any
// priority sign, other utilities, with and without log, and with a nil cache.
func TestUtilityCachePlanIsLookupOfPlanUtility(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var u sched.Utility = sched.Sigmoid{Priority: rapid.Float64Range(-1, 5).Draw(t, "p"),
			Deadline: rapid.Float64Range(-50, 300).Draw(t, "d"), Decay: rapid.Float64Range(0, 6).Draw(t, "mu")}
		if rapid.Bool().Draw(t, "linear") {
			u = sched.Linear{Priority: 2, Budget: rapid.Float64Range(0, 100).Draw(t, "b"), Slope: 0.5}
		}
		elapsed, k := rapid.Float64Range(-10, 100).Draw(t, "elapsed"), rapid.Float64Range(0.1, 8).Draw(t, "k")
		log := rapid.Bool().Draw(t, "log")
		eps := 1e-9 * float64(rapid.IntRange(0, 2).Draw(t, "later"))
		var a, b UtilityCache
		caches := []*UtilityCache{&a, &b}
		if rapid.Bool().Draw(t, "nil") {
			caches = []*UtilityCache{nil, nil}
		}
		caches[0].next(1, 50)
		caches[1].next(1, 50)
		got := caches[0].plan(u, elapsed, k, log, eps)
		want := caches[1].lookup(PlanUtility(u, elapsed, k, log), eps)
		if fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
			t.Fatalf("%T, want %T", got, want)
		}
		for s := range 60 {
			if g, w := got.At(s), want.At(s); math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("At(%d) = %v, want %v", s, g, w)
			}
		}
	})
}

// TestUtilityCacheCarriesAcrossBoundary: a plan on the next slot grid (the same
// sigmoid shifted one slot later, as at a slot boundary of aligned slots) reads, bit
// for bit, the values the uncached utility returns, at every slot, whether its entry
// took its predecessor's values over or computed them; and the predecessor, asked
// again, still returns its own.
func TestUtilityCacheCarriesAcrossBoundary(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		u := sched.Sigmoid{Priority: rapid.Float64Range(0.01, 5).Draw(t, "p"),
			Deadline: rapid.Float64Range(-50, 300).Draw(t, "d"), Decay: rapid.Float64Range(0, 6).Draw(t, "mu")}
		// Whole numbers of time units, or arbitrary ones (where the shift may round).
		elapsed, k := float64(rapid.IntRange(-10, 100).Draw(t, "elapsed")), float64(rapid.IntRange(1, 8).Draw(t, "k"))
		if rapid.Bool().Draw(t, "real") {
			elapsed, k = rapid.Float64Range(-10, 100).Draw(t, "elapsedr"), rapid.Float64Range(0.1, 8).Draw(t, "kr")
		}
		eps := 1e-9 * float64(rapid.IntRange(0, 2).Draw(t, "later"))
		horizon := rapid.IntRange(2, 80).Draw(t, "horizon")
		var uc UtilityCache
		uc.next(1, horizon)
		before := uc.plan(u, elapsed, k, true, eps)
		for _, s := range rapid.SliceOfN(rapid.IntRange(0, horizon), 0, 40).Draw(t, "asked") {
			before.At(s)
		}
		uc.next(1, horizon)
		after := uc.plan(u, elapsed+k, k, true, eps)
		want := PlanUtility(u, elapsed+k, k, true)
		wantBefore := PlanUtility(u, elapsed, k, true)
		for s := range horizon + 3 {
			if g, w := after.At(s), want.At(s)+eps; math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("next grid: At(%d) = %v cached, %v uncached", s, g, w)
			}
			if g, w := before.At(s), wantBefore.At(s)+eps; math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("previous grid: At(%d) = %v cached, %v uncached", s, g, w)
			}
		}
	})
}

// TestUtilityCacheCarryHappens: where the shift is exact (whole time units), the next
// grid's entry starts with the values the previous grid computed, one slot earlier.
func TestUtilityCacheCarryHappens(t *testing.T) {
	u := sched.Sigmoid{Priority: 2, Deadline: 40, Decay: 0.3}
	var uc UtilityCache
	uc.next(1, 30)
	before := uc.plan(u, 10, 1, true, 1e-9).(*cachedLog)
	for s := range 30 {
		before.At(s)
	}
	uc.next(1, 30)
	after := uc.plan(u, 11, 1, true, 1e-9).(*cachedLog)
	for s := range 29 {
		if v := after.vals[s]; v != v {
			t.Fatalf("slot %d of the next grid was not carried over", s)
		}
	}
	if v := after.vals[29]; v == v {
		t.Fatalf("slot 29 of the next grid holds %v, which the previous grid never computed", v)
	}
}
