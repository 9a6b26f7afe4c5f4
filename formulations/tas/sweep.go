package tas

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"slices"
)

// The backward sweep computes the onion peeling in one pass over the slot boundaries,
// for instances without release times or caps.
//
// The picture. Let the level L rise continuously. A free job sits at deadline
// d_j(L) = max{t : U_j(t) ≥ L}; it crosses boundary t (its deadline goes from t+1 to t)
// when L passes U_j(t+1), which is allowed iff the prefix slack at t,
// Σ_{s≤t} C_s − Σ_{k: d_k ≤ t} η_k, can absorb its demand; if not, the job is saturated
// and peeled with deadline t+1. The slack at t changes only when a job crosses t, so the
// fate of a request at t depends only on which jobs reached t and which of them asked
// first — those with smaller U(t+1). The boundaries can therefore be decided from T−1 down
// to 1: the jobs arriving at t cross in increasing order of U_j(t+1) while their demand
// fits what is left of Σ_{s≤t} C_s, and the others stop at t+1. Where all arrivals fit
// (the common case) nothing is ordered at all.
//
// Why the result is exact: a certificate. A feasible vector of deadlines, each the latest
// slot at its job's level ℓ_j, is lexicographically max-min optimal if every job j is
// blocked: with the jobs below ℓ_j at their deadlines and every other job at
// d_k(ℓ_j), j cannot reach its next value (move to max{t : U_j(t) > ℓ_j}). (Induction on
// the levels: the lowest level is the max-min because its jobs are blocked, every optimum
// keeps exactly those jobs there, and so on.) A job the sweep stops at t is blocked at
// boundary t by construction — the jobs that crossed t ahead of it are exactly the jobs
// with deadline ≤ t and U_k(t+1) < ℓ_j — and a job at its best value U_j(1) has no next
// value. So whatever the sweep returns without handing over is certified.
//
// Two things need care, and are handled or handed to the layered engine:
//   - Flat stretches. A job whose utility is flat on slots a..e gains nothing until it has
//     crossed all of a−1..e−1; it asks for them as one move, which succeeds or fails as a
//     whole. The sweep lets it cross them one at a time. If it then stops inside the
//     stretch, its deadline is moved back to e; when a boundary in between had to choose
//     whom to admit while the job held room there, the job is made to leave at e−1 and the
//     sweep is rolled back to e−1 and resumed. Such a job was blocked at the boundary where
//     it stopped; that is re-checked each time the sweep passes that boundary again (a job
//     that crossed it ahead may since have been found to leave above it), and when it no
//     longer holds the fact is withdrawn and the sweep rolled back to e−1 again. The
//     rollbacks are bounded; past the bound the sweep hands over.
//   - Tied requests at a boundary that does not admit all of them: the layered engine
//     tests them alone and together, and may stall and branch. The sweep admits a tie group
//     only when every member that fits alone fits together, and hands over otherwise.
//
// A job at its best value U_j(1) asks for nothing more: it leaves at the end of its top
// stretch, max{t : U_j(t) = U_j(1)}, whatever happens.
//
// Cost: O(R) per boundary where everything fits. Where something must stop, only the
// jobs at the top of the order are looked at: a max-heap holds every arriving job under
// an upper bound of its U_j(t+1) — utilities are non-increasing, so U_j(s) at an earlier
// slot s ≤ t+1 bounds it — and jobs are taken off it, evaluated and ordered exactly only
// while their bound could reach the threshold. A bound stays valid for the boundaries
// above s and is refreshed when it expires, looking further ahead (up to 256 slots) while
// the job stays unevaluated, so a job long past its deadline costs a few evaluations in
// all. Per deciding boundary that is O((k + m) log n) for k jobs at or above the threshold
// and m evaluated below it.
type sweep struct {
	ctx   context.Context
	p     *problem
	stats *Stats

	// room holds the tentative set of crossing jobs — the arriving jobs, less those an
	// admission has set aside — and answers whether it fits at a boundary.
	room     room
	fitAlone []bool // scratch: members of a tie group that fit alone

	// Per job: an upper bound ub[j] = U_j(ubSlot[j]), valid at boundary t while
	// ubSlot[j] ≤ t+1, and the look-ahead used at its next refresh.
	ub     []float64
	ubSlot []int32
	span   []int32
	// maxSpan is spanCap(T).
	maxSpan int32
	bound   indexedHeap // arriving jobs by ub, largest first
	expire  expiries    // per boundary t: jobs whose bound may expire there
	exact   pairHeap    // scratch: evaluated jobs by U_j(t+1), largest first
	taken   []sweepItem // scratch: jobs taken off the top, in decreasing key order
	spare   []sweepItem // scratch: evaluated jobs below the threshold
	stopped []sweepItem // admit's answer

	// run's arrays, kept here so that a Workspace can hand them to the next run (each
	// is written in full before it is read; see run).
	deadline           []int
	leaveAt, releaseAt [][]int32
	witness            [][]leaveFact
	log                []stopEntry
	decided            []int32
	window             windowRoom
	prefix             prefixRoom
	wbuf               []int64
}

// stopEntry is one stop of run's log: job j stopped at boundary t.
type stopEntry struct{ t, j int32 }

type sweepItem struct {
	key float64 // U_j(t+1)
	j   int32
}

const (
	minSpan = 2
	maxSpan = 256
)

// spanCap is the longest look-ahead of a bound: maxSpan, or T/16 on long horizons, so a
// job long past its deadline costs about as many refreshes on 10⁴ slots as on 10³.
func spanCap(T int) int32 { return int32(max(maxSpan, T/16)) }

// errHandOver is returned by the sweep when the instance needs the layered engine.
type errHandOver struct{ reason string }

func (e *errHandOver) Error() string { return "sweep hands over: " + e.reason }

func runSweep(ctx context.Context, p *problem, st *Stats) ([]int, error) {
	return runSweepIn(ctx, p, st, &sweep{})
}

// runSweepIn is runSweep in s, reusing the arrays a previous run left in it (a
// Workspace's sweep): the deadlines returned are s's.
func runSweepIn(ctx context.Context, p *problem, st *Stats, s *sweep) ([]int, error) {
	s.ctx, s.p, s.stats, s.maxSpan = ctx, p, st, spanCap(p.T)
	if p.general {
		s.room = newWindowRoomIn(p, &s.window, &s.wbuf)
	} else {
		s.room = newPrefixRoomIn(p, &s.prefix)
	}
	// ub, ubSlot and span are written for every job before they are read (run).
	s.ub = resize(s.ub, p.n)
	s.ubSlot = resize(s.ubSlot, p.n)
	s.span = resize(s.span, p.n)
	s.bound.reset(s.ub)
	// A refresh per evaluation: about 20–30 per job on the online planners' plans.
	s.expire.reset(p.T+1, 16*p.n)
	return s.run()
}

// leaveFact records that job j, stopped at boundary t inside a flat stretch of value v,
// must leave at e−1 (deadline e); it is re-checked whenever the sweep passes t.
type leaveFact struct {
	j int32
	e int
	v float64
}

func (s *sweep) run() ([]int, error) {
	p := s.p
	T := p.T
	s.deadline = resize(s.deadline, p.n)
	deadline := s.deadline
	clear(deadline)
	// leaveAt[t] lists the jobs that stop at boundary t (deadline t+1) without asking to
	// cross it: jobs at their best value, and jobs that stopped inside a flat stretch.
	// (Reused lists are emptied, keeping their arrays.)
	s.leaveAt = emptyLists(s.leaveAt, T+1)
	leaveAt := s.leaveAt
	// releaseAt[t] lists the jobs released in slot t+1: they cannot cross boundary t.
	s.releaseAt = emptyLists(s.releaseAt, T+1)
	releaseAt := s.releaseAt
	s.witness = emptyLists(s.witness, T) // facts checked at boundary t
	witness := s.witness
	for j := range p.n {
		top := p.u.at(j, 1)
		if top != top {
			return nil, fmt.Errorf("tas: job %q: utility is NaN at slot 1", p.inst.Jobs[j].ID)
		}
		e := p.u.lastAtLeast(j, top)
		s.stats.Evaluations += int64(bits.Len(uint(T))) + 1
		if rel := p.release[j]; rel > 1 {
			releaseAt[rel-1] = append(releaseAt[rel-1], int32(j))
		}
		// A job whose top stretch ends before its release never reaches its top value;
		// its release stops it.
		if e == 1 || e < p.release[j] {
			continue
		}
		leaveAt[e-1] = append(leaveAt[e-1], int32(j))
	}
	for j := range p.n {
		s.span[j] = minSpan
		s.refresh(j, T-1, false)
		s.bound.push(int32(j))
		s.room.add(j)
	}
	if !s.room.fits(T) {
		return nil, fmt.Errorf("%w: the jobs cannot all finish within the horizon %d", ErrInfeasible, T)
	}
	// log records every stop in processing order, so a rollback can undo the stops made
	// at the boundaries it revisits.
	if cap(s.log) < p.n {
		s.log = make([]stopEntry, 0, p.n)
	}
	log := s.log[:0]
	defer func() { s.log = log[:0] }() // keep a grown array for the next run
	stopAt := func(j, t, d int) {
		deadline[j] = d
		s.bound.remove(int32(j))
		s.remove(j)
		log = append(log, stopEntry{int32(t), int32(j)})
	}
	// decided[t] counts the boundaries in [t, T−1] whose set of crossing jobs was used: to
	// choose whom to admit, or to check a fact.
	s.decided = resize(s.decided, T+1)
	decided := s.decided
	clear(decided)
	choseIn := func(a, b int) bool { return a <= b && decided[a]-decided[b+1] > 0 }
	rollbacks := 0
	var leaving []int32 // jobs made to leave later at the boundary being decided
	for t := T - 1; t >= 1; t-- {
		if err := s.ctx.Err(); err != nil {
			return nil, fmt.Errorf("tas: onion peeling: %w", err)
		}
		decided[t] = decided[t+1]
		for k := s.expire.head[t]; k >= 0; k = s.expire.entry[k].next {
			j := s.expire.entry[k].job
			if s.bound.has(j) && int(s.ubSlot[j]) == t+2 {
				s.refresh(int(j), t, true)
				s.bound.fix(j)
			}
		}
		for _, j := range leaveAt[t] {
			if s.bound.has(j) {
				stopAt(int(j), t, t+1)
			}
		}
		rollbackTo := 0
		leaving = leaving[:0]
		// stop fixes job j, stopped at t with U_j(t+1) = v, at the end e of its stretch
		// of value v, or makes it leave at e−1 when a boundary in t+1..e−1 chose whom to
		// admit while j held room there. A job stopped by the crossing jobs (fact) is
		// re-checked whenever the sweep passes t again; one stopped by its release stays
		// stopped.
		stop := func(j int, v float64, fact bool) {
			e := p.u.lastAtLeast(j, v)
			if !choseIn(t+1, e-1) {
				stopAt(j, t, e)
				return
			}
			s.bound.remove(int32(j))
			s.remove(j)
			leaveAt[e-1] = append(leaveAt[e-1], int32(j))
			leaving = append(leaving, int32(j))
			if fact {
				witness[t] = append(witness[t], leaveFact{j: int32(j), e: e, v: v})
			}
			rollbackTo = max(rollbackTo, e-1)
		}
		for _, j := range releaseAt[t] {
			if s.bound.has(j) {
				s.stats.Evaluations++
				stop(int(j), p.u.at(int(j), t+1), false)
			}
		}
		if rollbackTo == 0 && (len(witness[t]) > 0 || s.overloaded(t)) {
			decided[t]++
			if s.overloaded(t) {
				s.stats.BlockingSlots++
				stopped, err := s.admit(t)
				if err != nil {
					return nil, err
				}
				for _, it := range stopped {
					stop(int(it.j), it.key, true)
				}
			}
			if rollbackTo == 0 && len(witness[t]) > 0 {
				// Re-check the facts witnessed here. One whose job is no longer blocked at t
				// (a job that crossed t ahead of it has since been found to leave above t) is
				// withdrawn, and the sweep resumes where that job would have left.
				kept := witness[t][:0]
				for _, f := range witness[t] {
					if deadline[f.j] == f.e && !s.blocked(t, int(f.j), f.v) {
						leaveAt[f.e-1] = slices.DeleteFunc(leaveAt[f.e-1], func(x int32) bool { return x == f.j })
						rollbackTo = max(rollbackTo, f.e-1)
						s.stats.Withdrawn++
						continue
					}
					kept = append(kept, f)
				}
				witness[t] = kept
			}
		}
		if rollbackTo == 0 {
			continue
		}
		// Undo every stop made at boundaries rollbackTo..t and resume at rollbackTo. Jobs
		// stopped at t that are to leave later are not in the log: put them back too.
		if rollbacks++; rollbacks > maxRollbacks(p.n) {
			return nil, &errHandOver{fmt.Sprintf("more than %d flat-stretch rollbacks", maxRollbacks(p.n))}
		}
		s.stats.Rollbacks++
		for len(log) > 0 && int(log[len(log)-1].t) <= rollbackTo {
			j := int(log[len(log)-1].j)
			log = log[:len(log)-1]
			deadline[j] = 0
			s.restore(j)
		}
		for _, j := range leaving {
			if deadline[j] == 0 {
				s.restore(int(j))
			}
		}
		t = rollbackTo + 1
	}
	// The rest crossed every boundary: they finish in slot 1.
	for _, e := range s.bound.heap {
		deadline[e.j] = 1
	}
	return deadline, nil
}

// restore puts a stopped job back among the arriving ones.
func (s *sweep) restore(j int) {
	if s.bound.has(int32(j)) {
		return
	}
	s.bound.push(int32(j))
	s.room.add(j)
}

// refresh gives job j a new upper bound, U_j at slot t+1−span (at least 1), valid from
// boundary t down to that slot minus one, and schedules its expiry. A bound that expired
// unused looks twice as far ahead next time; one that had to be evaluated against the
// exact value looks half as far.
func (s *sweep) refresh(j, t int, grow bool) {
	if grow {
		s.span[j] = min(2*s.span[j], s.maxSpan)
	} else {
		s.span[j] = max(s.span[j]/2, minSpan)
	}
	slot := max(1, t+1-int(s.span[j]))
	s.ub[j] = s.p.u.at(j, slot)
	s.stats.Evaluations++
	s.ubSlot[j] = int32(slot)
	if slot >= 2 {
		s.expire.add(slot-2, int32(j))
	}
}

// emptyLists is ls with n empty lists, each keeping its array.
func emptyLists[T any](ls [][]T, n int) [][]T {
	ls = resize(ls, n)
	for i := range ls {
		ls[i] = ls[i][:0]
	}
	return ls
}

// maxRollbacks bounds the sweep's rollbacks before it hands over: each settles or
// withdraws one flat-stretch fact, and in practice there are few.
func maxRollbacks(n int) int { return 8*n + 64 }

// takeTop takes jobs off the bound heap in decreasing order of U_j(t+1) into s.taken,
// until done says stop; jobs evaluated but not taken are left in s.spare. Both must be
// given back with giveBack.
func (s *sweep) takeTop(t int, done func(key float64) bool) error {
	p := s.p
	s.taken, s.spare = s.taken[:0], s.spare[:0]
	s.exact.reset()
	for {
		// The exact maximum among the remaining is the top of s.exact once no bound
		// reaches it.
		for s.bound.len() > 0 && (s.exact.len() == 0 || s.bound.topKey() >= s.exact.top().key) {
			j := s.bound.pop()
			v := p.u.at(int(j), t+1)
			s.stats.Evaluations++
			if v != v {
				return fmt.Errorf("tas: job %q: utility is NaN at slot %d", p.inst.Jobs[j].ID, t+1)
			}
			s.exact.push(sweepItem{key: v, j: j})
		}
		if s.exact.len() == 0 || done(s.exact.top().key) {
			break
		}
		s.taken = append(s.taken, s.exact.pop())
	}
	s.spare = append(s.spare, s.exact.items...)
	return nil
}

// giveBack returns jobs evaluated at boundary t to the bound heap, with a tighter bound:
// their bound reached the threshold, so it was loose.
func (s *sweep) giveBack(items []sweepItem, t int) {
	for _, it := range items {
		s.refresh(int(it.j), t, false)
		s.bound.push(it.j)
	}
}

// blocked reports whether job j (not arriving) cannot cross boundary t at level v: it is
// released after t, or it does not fit beside the arriving jobs with U(t+1) < v.
func (s *sweep) blocked(t, j int, v float64) bool {
	if s.p.release[j] > t {
		return true
	}
	if err := s.takeTop(t, func(key float64) bool { return key < v }); err != nil {
		return true // a NaN utility: keep the fact; the next decision reports it
	}
	for _, it := range s.taken {
		s.room.sub(int(it.j))
	}
	blocked := !s.room.fitsWith(t, j)
	for _, it := range s.taken {
		s.room.add(int(it.j))
	}
	s.giveBack(s.taken, t)
	s.giveBack(s.spare, t)
	return blocked
}

// overloaded reports whether the arriving jobs do not all fit at boundary t.
func (s *sweep) overloaded(t int) bool { return !s.room.fits(t) }

func (s *sweep) remove(j int) { s.room.sub(j) }

// admit decides boundary t. Jobs cross in increasing order of U_j(t+1) while they fit.
// Those below the threshold θ — the key at which the jobs ordered by key first fail to
// fit — all fit and are never ordered; the jobs at or above θ are taken off the top of
// the heap (until the rest fits, then the rest of θ's tie group) and admitted greedily in
// increasing order, ties as a group. It returns the stopped jobs, which the caller
// removes; everyone else stays arriving.
func (s *sweep) admit(t int) ([]sweepItem, error) {
	seen, found, theta := 0, false, 0.0
	setAside := func() {
		for ; seen < len(s.taken); seen++ {
			s.room.sub(int(s.taken[seen].j))
		}
	}
	err := s.takeTop(t, func(key float64) bool {
		setAside()
		if !found && seen > 0 && s.room.fits(t) {
			found, theta = true, s.taken[seen-1].key
		}
		return found && key < theta
	})
	setAside()
	if err != nil {
		for _, it := range s.taken {
			s.room.add(int(it.j))
		}
		s.giveBack(s.taken, t)
		s.giveBack(s.spare, t)
		return nil, err
	}
	s.giveBack(s.spare, t)
	// The jobs not taken are below θ and cross; the room holds them.
	top := s.taken
	slices.SortFunc(top, func(a, b sweepItem) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.j, b.j)
	})
	stopped := s.stopped[:0]
	defer func() { s.stopped = stopped[:0] }() // its array is reused by the next admit
	for g := 0; g < len(top); {
		h := g + 1
		for h < len(top) && top[h].key == top[g].key {
			h++
		}
		group := top[g:h]
		// Alone: who fits beside the crossing jobs? Together: do those all fit?
		s.fitAlone = s.fitAlone[:0]
		nFit := 0
		for _, it := range group {
			ok := s.room.fitsWith(t, int(it.j))
			s.fitAlone = append(s.fitAlone, ok)
			if ok {
				nFit++
			}
		}
		for k, it := range group {
			if s.fitAlone[k] {
				s.room.add(int(it.j))
			}
		}
		if nFit > 1 && !s.room.fits(t) {
			// The sweep ends here; its state is dropped.
			s.giveBack(top, t)
			return nil, &errHandOver{fmt.Sprintf("%d jobs tie at utility %g at slot %d and cannot all rise", nFit, group[0].key, t+1)}
		}
		for k, it := range group {
			if s.fitAlone[k] {
				s.giveBack([]sweepItem{it}, t)
			} else {
				stopped = append(stopped, it)
			}
		}
		g = h
	}
	// The stopped jobs go back on the heap and into the room: the caller's stop removes
	// them, or keeps them until they leave.
	for _, it := range stopped {
		s.bound.push(it.j)
		s.room.add(int(it.j))
	}
	return stopped, nil
}

// indexedHeap is a max-heap of job indices by key[j], with positions for removal. Each
// entry carries a copy of its key, read when the job is pushed or fixed (key[j] changes
// only while j is out of the heap, or just before fix): comparisons then read the heap
// array alone instead of chasing every index into key.
type indexedHeap struct {
	key  []float64
	heap []heapEntry
	pos  []int32 // -1: absent
}

type heapEntry struct {
	key float64
	j   int32
}

// reset empties h for keys key, reusing its arrays.
func (h *indexedHeap) reset(key []float64) {
	h.key = key
	h.pos = resize(h.pos, len(key))
	for i := range h.pos {
		h.pos[i] = -1
	}
	if cap(h.heap) < len(key) {
		h.heap = make([]heapEntry, 0, len(key))
	}
	h.heap = h.heap[:0]
}

func (h *indexedHeap) len() int         { return len(h.heap) }
func (h *indexedHeap) top() int32       { return h.heap[0].j }
func (h *indexedHeap) topKey() float64  { return h.heap[0].key }
func (h *indexedHeap) has(j int32) bool { return h.pos[j] >= 0 }

func (h *indexedHeap) push(j int32) {
	if h.pos[j] >= 0 {
		return
	}
	h.pos[j] = int32(len(h.heap))
	h.heap = append(h.heap, heapEntry{key: h.key[j], j: j})
	h.up(len(h.heap) - 1)
}

func (h *indexedHeap) pop() int32 {
	j := h.heap[0].j
	h.remove(j)
	return j
}

func (h *indexedHeap) remove(j int32) {
	i := int(h.pos[j])
	if i < 0 {
		return
	}
	last := len(h.heap) - 1
	h.swap(i, last)
	h.heap = h.heap[:last]
	h.pos[j] = -1
	if i < last {
		h.fixAt(i)
	}
}

// fix restores the order after key[j] changed.
func (h *indexedHeap) fix(j int32) {
	if i := int(h.pos[j]); i >= 0 {
		h.heap[i].key = h.key[j]
		h.fixAt(i)
	}
}

func (h *indexedHeap) fixAt(i int) {
	if !h.down(i) {
		h.up(i)
	}
}

func (h *indexedHeap) less(a, b int) bool { return h.heap[a].key > h.heap[b].key }

func (h *indexedHeap) swap(a, b int) {
	h.heap[a], h.heap[b] = h.heap[b], h.heap[a]
	h.pos[h.heap[a].j] = int32(a)
	h.pos[h.heap[b].j] = int32(b)
}

// up and down move the entry at i by holding it aside and shifting the others into the
// hole: the comparisons and the final places are a swapping sift's, with half the
// writes.
func (h *indexedHeap) up(i int) {
	e := h.heap[i]
	start := i
	for i > 0 {
		parent := (i - 1) / 2
		if !(e.key > h.heap[parent].key) {
			break
		}
		h.heap[i] = h.heap[parent]
		h.pos[h.heap[i].j] = int32(i)
		i = parent
	}
	if i != start {
		h.heap[i] = e
		h.pos[e.j] = int32(i)
	}
}

func (h *indexedHeap) down(i int) bool {
	start := i
	n := len(h.heap)
	e := h.heap[i]
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && h.less(r, l) {
			c = r
		}
		if !(h.heap[c].key > e.key) {
			break
		}
		h.heap[i] = h.heap[c]
		h.pos[h.heap[i].j] = int32(i)
		i = c
	}
	if i != start {
		h.heap[i] = e
		h.pos[e.j] = int32(i)
	}
	return i > start
}

// expiries are lists of jobs per boundary, each in the order added, in flat arrays:
// the sweep adds one entry per bound it refreshes (tens of thousands on a 1,000-job
// horizon of a few hundred slots), which as a slice per boundary cost an allocation
// every few entries.
type expiries struct {
	head, tail []int32 // per boundary: first and last entry, -1 when empty
	entry      []expiry
}

type expiry struct {
	next, job int32 // the next entry of its boundary (-1: none), its job
}

// reset empties every list, reusing the arrays; capacity is the entries to make room
// for when the entry array has less.
func (e *expiries) reset(boundaries, capacity int) {
	e.head, e.tail = resize(e.head, boundaries), resize(e.tail, boundaries)
	for t := range e.head {
		e.head[t], e.tail[t] = -1, -1
	}
	if cap(e.entry) < capacity {
		e.entry = make([]expiry, 0, capacity)
	}
	e.entry = e.entry[:0]
}

// add appends job j to boundary t's list.
func (e *expiries) add(t int, j int32) {
	k := int32(len(e.entry))
	e.entry = append(e.entry, expiry{next: -1, job: j})
	if e.tail[t] < 0 {
		e.head[t] = k
	} else {
		e.entry[e.tail[t]].next = k
	}
	e.tail[t] = k
}

// pairHeap is a max-heap of items by key (ties: lower index first).
type pairHeap struct{ items []sweepItem }

func (h *pairHeap) reset()             { h.items = h.items[:0] }
func (h *pairHeap) len() int           { return len(h.items) }
func (h *pairHeap) top() sweepItem     { return h.items[0] }
func (h *pairHeap) less(a, b int) bool { return pairAbove(h.items[a], h.items[b]) }

// pairAbove orders the heap: larger key first, then lower index.
func pairAbove(x, y sweepItem) bool {
	return x.key > y.key || (x.key == y.key && x.j < y.j)
}

// push and pop sift with a hole, as indexedHeap does: a swapping sift's comparisons and
// places.
func (h *pairHeap) push(it sweepItem) {
	h.items = append(h.items, it)
	i := len(h.items) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !pairAbove(it, h.items[parent]) {
			break
		}
		h.items[i] = h.items[parent]
		i = parent
	}
	h.items[i] = it
}

func (h *pairHeap) pop() sweepItem {
	top := h.items[0]
	last := len(h.items) - 1
	e := h.items[last]
	h.items = h.items[:last]
	if last == 0 {
		return top
	}
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		c := l
		if r := l + 1; r < last && h.less(r, l) {
			c = r
		}
		if !pairAbove(h.items[c], e) {
			break
		}
		h.items[i] = h.items[c]
		i = c
	}
	h.items[i] = e
	return top
}
