package woha

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// lockstep drives several Pickers with the same events and fails on the first Pick on
// which they disagree.
type lockstep struct {
	t  *rapid.T
	ps []Picker
}

func (l lockstep) Submit(t float64, w *Workflow) (int, error) {
	h0 := -1
	for i, p := range l.ps {
		h, err := p.Submit(t, w)
		if err != nil {
			return -1, err
		}
		if i == 0 {
			h0 = h
		} else if h != h0 {
			l.t.Fatalf("handles differ: %d vs %d", h, h0)
		}
	}
	return h0, nil
}

func (l lockstep) each(f func(p Picker) error) error {
	for _, p := range l.ps {
		if err := f(p); err != nil {
			return err
		}
	}
	return nil
}

func (l lockstep) JobReady(t float64, c Choice) error {
	return l.each(func(p Picker) error { return p.JobReady(t, c) })
}
func (l lockstep) TaskStarted(t float64, c Choice, pool Pool) error {
	return l.each(func(p Picker) error { return p.TaskStarted(t, c, pool) })
}
func (l lockstep) TaskFinished(t float64, c Choice, pool Pool) error {
	return l.each(func(p Picker) error { return p.TaskFinished(t, c, pool) })
}
func (l lockstep) Pick(t float64, pool Pool) (Choice, bool) {
	c0, ok0 := l.ps[0].Pick(t, pool)
	for i, p := range l.ps[1:] {
		c, ok := p.Pick(t, pool)
		if c != c0 || ok != ok0 {
			l.t.Fatalf("t=%v pool %s: picker %d picks %+v %v, picker 0 picks %+v %v", t, pool, i+1, c, ok, c0, ok0)
		}
	}
	return c0, ok0
}

func newOrders(rt *rapid.T, rule Rule, slots, fixed int) []Picker {
	var ps []Picker
	for _, o := range []Order{OrderNaive, OrderHeap, OrderDSL, OrderRandomDSL} {
		s, err := NewScheduler(SchedulerConfig{Rule: rule, Slots: slots, Order: o, FixedCap: fixed,
			Seed: rapid.Uint64().Draw(rt, "seed")})
		if err != nil {
			rt.Fatal(err)
		}
		ps = append(ps, s)
	}
	return ps
}

// The naive, heap and double-skip-list schedulers pick the same job on every Pick of a
// random run: random workflows arriving at random times, true runtimes off the
// estimates, and extra Picks at instants where nothing is started.
func TestOrdersPickIdentically(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		ws := rapidWorkload(rt, 12, 30)
		rule := Rule(rapid.IntRange(0, 2).Draw(rt, "rule"))
		mapSlots := rapid.IntRange(1, 6).Draw(rt, "mapSlots")
		redSlots := rapid.IntRange(1, 4).Draw(rt, "redSlots")
		fixed := 0
		if rapid.Bool().Draw(rt, "fixedCap") {
			fixed = rapid.IntRange(1, 12).Draw(rt, "cap")
		}
		noise := rapid.SliceOfN(rapid.Float64Range(0.5, 2), 64, 64).Draw(rt, "noise")
		ls := lockstep{t: rt, ps: newOrders(rt, rule, mapSlots+redSlots, fixed)}
		c := toyCluster{t: rt, slots: [2]int{mapSlots, redSlots}, runtime: func(w, j int, p Pool) float64 {
			base := ws[w].Jobs[j].MapTime
			if p == ReducePool {
				base = ws[w].Jobs[j].ReduceTime
			}
			return math.Round(base*noise[(w*7+j*3+int(p))%len(noise)]*4) / 4
		}}
		c.run(ls, ws)
	})
}

// The ordered sets behave like a sorted slice under random insertions, arbitrary
// deletions and head deletions.
func TestOrderedSetsMatchSortedSlice(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 60).Draw(rt, "n")
		ws := make([]*wfState, n)
		for i := range ws {
			ws[i] = &wfState{handle: i, hpos: [numLists]int{-1, -1, -1}}
		}
		sets := []orderedSet{newSkipList(listPriMap, rapid.Uint64().Draw(rt, "seed")), newHeapSet(listPriMap), newDetSkipList(listPriMap)}
		var model []*wfState
		in := make([]bool, n)
		for step := rapid.IntRange(0, 300).Draw(rt, "steps"); step > 0; step-- {
			switch op := rapid.IntRange(0, 3).Draw(rt, "op"); {
			case op <= 1: // insert or re-key
				i := rapid.IntRange(0, n-1).Draw(rt, "i")
				if in[i] {
					for _, s := range sets {
						s.remove(ws[i])
					}
					model = slices.DeleteFunc(model, func(w *wfState) bool { return w == ws[i] })
				}
				ws[i].p = int64(rapid.IntRange(-5, 5).Draw(rt, "key"))
				for _, s := range sets {
					s.insert(ws[i])
				}
				in[i] = true
				model = append(model, ws[i])
				slices.SortFunc(model, func(a, b *wfState) int {
					if priLess(a, b) {
						return -1
					}
					return 1
				})
			case op == 2: // head deletion
				var want *wfState
				if len(model) > 0 {
					want = model[0]
					model = model[1:]
					in[want.handle] = false
				}
				for k, s := range sets {
					if got := s.removeFirst(); got != want {
						rt.Fatalf("set %d removeFirst = %v, want %v", k, got, want)
					}
				}
			case op == 3: // arbitrary deletion
				if len(model) == 0 {
					continue
				}
				k := rapid.IntRange(0, len(model)-1).Draw(rt, "k")
				w := model[k]
				model = slices.Delete(model, k, k+1)
				in[w.handle] = false
				for _, s := range sets {
					s.remove(w)
				}
			}
			for k, s := range sets {
				if s.len() != len(model) {
					rt.Fatalf("set %d has %d elements, model %d", k, s.len(), len(model))
				}
				var want *wfState
				if len(model) > 0 {
					want = model[0]
				}
				if s.first() != want {
					rt.Fatalf("set %d first = %v, want %v", k, s.first(), want)
				}
			}
			// Both skip lists' bottom levels are the whole order, and the deterministic one
			// keeps its gap invariant.
			sl := sets[0].(*skipList)
			k := 0
			for x := sl.head.next[0]; x != nil; x = x.next[0] {
				if k >= len(model) || x.w != model[k] {
					rt.Fatalf("skip list position %d differs from the model", k)
				}
				k++
			}
			if err := checkDetSkipList(sets[2].(*detSkipList), model); err != nil {
				rt.Fatal(err)
			}
		}
	})
}

// Within the most lagging workflow the slot goes to its most urgent ready job; the lag
// counts every started task, map or reduce.
func TestSchedulerPicksByLagThenRank(t *testing.T) {
	// Two ready roots: "leaf" (no dependents, HLF level 0) listed first, "root" (level 1)
	// second; HLF must prefer "root" although it is listed later.
	w := Workflow{ID: "w", Deadline: 100, Jobs: []Job{
		{ID: "leaf", Maps: 2, MapTime: 1},
		{ID: "root", Maps: 1, MapTime: 1},
		{ID: "after", Maps: 1, MapTime: 1, After: []string{"root"}},
	}}
	other := Workflow{ID: "o", Deadline: 100, Jobs: []Job{{ID: "x", Maps: 5, MapTime: 1}}}
	for _, o := range []Order{OrderNaive, OrderHeap, OrderDSL, OrderRandomDSL} {
		s, err := NewScheduler(SchedulerConfig{Rule: HLF, Slots: 4, Order: o})
		if err != nil {
			t.Fatal(err)
		}
		// Plans by hand: w needs 2 tasks by time 10 and 2 more by 20; o needs 3 by 5.
		hw, _ := s.SubmitPlanned(0, &w, Ranks(&w, HLF), Plan{Cap: 2, Makespan: 90, Steps: []Step{{90, 2}, {80, 2}}}, true)
		ho, _ := s.SubmitPlanned(0, &other, []int{0}, Plan{Cap: 3, Makespan: 95, Steps: []Step{{95, 3}}}, true)
		for _, c := range []Choice{{hw, 0}, {hw, 1}, {ho, 0}} {
			if err := s.JobReady(0, c); err != nil {
				t.Fatal(err)
			}
		}
		var got []Choice
		for _, at := range []float64{0, 0, 5, 5, 5, 10, 10, 10} {
			c, ok := s.AssignTask(at, MapPool)
			if !ok {
				t.Fatalf("%v: nothing at %v", o, at)
			}
			got = append(got, c)
		}
		// t=0: both lag 0, w has the lower handle (w −1); then o (0 > −1).
		// t=5: o needs 3: lag 3−1 = 2 → o, o (lag 0) then w (−1) vs o (0) → o (−1).
		// t=10: w needs 2: lag 2−1 = 1 → w's leaf (root's one map is started), then w (0)
		// vs o (−1) → leaf again; then w has no map waiting ("after" is not ready) → o.
		want := []Choice{{hw, 1}, {ho, 0}, {ho, 0}, {ho, 0}, {ho, 0}, {hw, 0}, {hw, 0}, {ho, 0}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%v picks (-want +got):\n%s", o, diff)
		}
	}
}

// checkDetSkipList verifies the 1-2-3 invariant (every gap at every level has 1-3
// members, nothing is taller than top), the links at every level in both directions, and
// that the bottom level is the model's order.
func checkDetSkipList(s *detSkipList, model []*wfState) error {
	k := 0
	for x := s.head.next[0]; x != nil; x = x.next[0] {
		if k >= len(model) || x.w != model[k] {
			return fmt.Errorf("deterministic skip list position %d differs from the model", k)
		}
		k++
	}
	if k != len(model) || s.n != len(model) {
		return fmt.Errorf("deterministic skip list holds %d (n=%d), model %d", k, s.n, len(model))
	}
	if len(model) == 0 {
		if s.top != 0 {
			return fmt.Errorf("empty list with top %d", s.top)
		}
		return nil
	}
	for l := 1; l <= s.top; l++ {
		i := l - 1
		size := 0
		prev := &s.head
		for x := s.head.next[i]; ; x = x.next[i] {
			if x != nil && x.prev[i] != prev {
				return fmt.Errorf("level %d: broken backward link", l)
			}
			if x != nil && x.h < l {
				return fmt.Errorf("level %d: node of height %d in the list", l, x.h)
			}
			if x != nil && x.h > s.top {
				return fmt.Errorf("node of height %d above top %d", x.h, s.top)
			}
			if x == nil || x.h > l {
				if size < 1 || size > 3 {
					return fmt.Errorf("level %d: gap of %d members", l, size)
				}
				size = 0
			} else {
				size++
			}
			if x == nil {
				break
			}
			prev = x
		}
	}
	if s.head.next[s.top] != nil {
		return fmt.Errorf("a node above top %d", s.top)
	}
	return nil
}

// At scale the 1-2-3 skip list keeps its invariant and a 2-3-4 tree's height, at most
// log2(n+1) levels, through inserts, re-keys, head deletions and arbitrary deletions.
func TestDetSkipListLarge(t *testing.T) {
	const n = 5000
	rng := rand.New(rand.NewPCG(1, 2))
	ws := make([]*wfState, n)
	for i := range ws {
		ws[i] = &wfState{handle: i, p: int64(rng.IntN(50))}
	}
	s := newDetSkipList(listPriMap)
	in := make([]bool, n)
	var model []*wfState
	sortModel := func() {
		slices.SortFunc(model, func(a, b *wfState) int {
			if priLess(a, b) {
				return -1
			}
			return 1
		})
	}
	for _, i := range rng.Perm(n) {
		s.insert(ws[i])
		in[i] = true
		model = append(model, ws[i])
	}
	sortModel()
	if err := checkDetSkipList(s, model); err != nil {
		t.Fatal(err)
	}
	if bound := math.Log2(n + 1); float64(s.top) > bound {
		t.Fatalf("height %d above log2(n+1) = %.1f", s.top, bound)
	}
	for step := 0; step < 20000; step++ {
		i := rng.IntN(n)
		switch {
		case in[i] && step%3 == 0: // re-key
			s.remove(ws[i])
			ws[i].p = int64(rng.IntN(50))
			s.insert(ws[i])
		case in[i]:
			s.remove(ws[i])
			in[i] = false
		case step%5 == 0:
			if w := s.removeFirst(); w != nil {
				in[w.handle] = false
			}
			fallthrough
		default:
			ws[i].p = int64(rng.IntN(50))
			s.insert(ws[i])
			in[i] = true
		}
		if step%2500 == 0 {
			model = model[:0]
			for k, ok := range in {
				if ok {
					model = append(model, ws[k])
				}
			}
			sortModel()
			if err := checkDetSkipList(s, model); err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
		}
	}
}

// The four orders also agree on arbitrary event sequences no cluster would produce in
// that order: time jumps of any size, Picks that are never started, starts of jobs the
// scheduler did not pick, finishes in any order, submissions at any moment.
func TestOrdersAgreeOnRandomEvents(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		ls := lockstep{t: rt, ps: newOrders(rt, Rule(rapid.IntRange(0, 2).Draw(rt, "rule")), 4, 0)}
		var jobs []*jobBook
		deps := map[[2]int][]int{} // (wf, job) → dependents
		now := 0.0
		wfs := 0
		ready := func(x *jobBook) {
			x.ready = true
			if err := ls.JobReady(now, Choice{x.wf, x.j}); err != nil {
				rt.Fatal(err)
			}
			switch {
			case x.unfinished[MapPool] > 0:
				x.waiting[MapPool] = x.unfinished[MapPool]
			case x.unfinished[ReducePool] > 0:
				x.waiting[ReducePool] = x.unfinished[ReducePool]
			}
		}
		var finish func(x *jobBook)
		finish = func(x *jobBook) {
			for _, k := range deps[[2]int{x.wf, x.j}] {
				y := jobs[k]
				y.prereqsLeft--
				if y.prereqsLeft == 0 {
					ready(y)
					if y.unfinished == [2]int{} {
						finish(y)
					}
				}
			}
		}
		for step := rapid.IntRange(1, 200).Draw(rt, "steps"); step > 0; step-- {
			switch rapid.IntRange(0, 4).Draw(rt, "op") {
			case 0: // submit
				w := rapidWorkflow(rt)
				w.ID = fmt.Sprintf("w%d", wfs)
				h, err := ls.Submit(now, &w)
				if err != nil {
					rt.Fatal(err)
				}
				wfs++
				base := len(jobs)
				for j := range w.Jobs {
					jobs = append(jobs, &jobBook{wf: h, j: j, prereqsLeft: len(w.Jobs[j].After),
						unfinished: [2]int{w.Jobs[j].Maps, w.Jobs[j].Reduces}})
				}
				for j := range w.Jobs {
					for _, pre := range w.Jobs[j].After {
						k := base + int(pre[0]-'a')
						deps[[2]int{h, k - base}] = append(deps[[2]int{h, k - base}], base+j)
					}
				}
				for j := range w.Jobs {
					if x := jobs[base+j]; x.prereqsLeft == 0 && !x.ready {
						ready(x)
						if x.unfinished == [2]int{} {
							finish(x)
						}
					}
				}
			case 1: // time passes
				now += float64(rapid.IntRange(0, 40).Draw(rt, "dt"))
			case 2: // a Pick, started or not
				pool := Pool(rapid.IntRange(0, 1).Draw(rt, "pool"))
				c, ok := ls.Pick(now, pool)
				if ok && rapid.Bool().Draw(rt, "start") {
					x := jobs[indexOf(rt, jobs, func(x *jobBook) bool { return x.wf == c.Workflow && x.j == c.Job })]
					if err := ls.TaskStarted(now, c, pool); err != nil {
						rt.Fatal(err)
					}
					x.waiting[pool]--
					x.running[pool]++
				}
			case 3: // start any waiting task, picked or not
				x, pool, ok := drawJob(rt, jobs, "start-any", func(x *jobBook) [2]int { return x.waiting })
				if !ok {
					continue
				}
				if err := ls.TaskStarted(now, Choice{x.wf, x.j}, pool); err != nil {
					rt.Fatal(err)
				}
				x.waiting[pool]--
				x.running[pool]++
			case 4: // finish any running task
				x, pool, ok := drawJob(rt, jobs, "finish-any", func(x *jobBook) [2]int { return x.running })
				if !ok {
					continue
				}
				if err := ls.TaskFinished(now, Choice{x.wf, x.j}, pool); err != nil {
					rt.Fatal(err)
				}
				x.running[pool]--
				x.unfinished[pool]--
				if x.unfinished[pool] == 0 {
					if pool == MapPool && x.unfinished[ReducePool] > 0 {
						x.waiting[ReducePool] = x.unfinished[ReducePool]
					} else {
						finish(x)
					}
				}
			}
			for _, pool := range []Pool{MapPool, ReducePool} {
				ls.Pick(now, pool)
			}
		}
	})
}

// jobBook is TestOrdersAgreeOnRandomEvents' own record of one job.
type jobBook struct {
	wf, j       int
	prereqsLeft int
	ready       bool
	waiting     [2]int
	running     [2]int
	unfinished  [2]int
}

// drawJob draws one job with count(job) > 0 in some pool, and that pool (maps first).
func drawJob(rt *rapid.T, jobs []*jobBook, label string, count func(*jobBook) [2]int) (*jobBook, Pool, bool) {
	var cands []*jobBook
	for _, x := range jobs {
		if c := count(x); c[MapPool]+c[ReducePool] > 0 {
			cands = append(cands, x)
		}
	}
	if len(cands) == 0 {
		return nil, 0, false
	}
	x := cands[rapid.IntRange(0, len(cands)-1).Draw(rt, label)]
	if count(x)[MapPool] > 0 {
		return x, MapPool, true
	}
	return x, ReducePool, true
}

func indexOf[T any](rt *rapid.T, xs []T, f func(T) bool) int {
	for i, x := range xs {
		if f(x) {
			return i
		}
	}
	rt.Fatalf("not found")
	return -1
}
