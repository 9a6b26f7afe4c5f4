package tas

import "slices"

// flowInc keeps a feasible flow of one resource's transportation network (FlowSchedule's:
// job j → slot t ∈ [release_j, d_j] at most min(max_parallel_j, C_t) units, slot t → sink
// at most C_t) while deadlines move down, one job at a time. Moving job j's deadline takes
// its flow off the slots it loses; the deficit is routed again by augmenting paths from j
// in the residual network, so a move costs what it disturbs, not a max-flow from scratch.
// Every change is logged, so a move that fails — or a test that must not stick — is
// undone exactly.
//
// Augmenting paths alternate job → slot (a forward arc with room) and slot → job (a job
// holding flow there, whose flow may move elsewhere in its window), and end at a slot with
// spare capacity. A job reaches every slot of its window except the few where it is at its
// cap, so the breadth-first search visits each slot at most once per search through a
// "next unvisited slot" union-find, and each job holding flow in a visited slot once.
type flowInc struct {
	p     *problem
	r     int
	load  []int64   // load[t]: units in slot t (1-based)
	lim   []int64   // per job: most units in one slot
	hi    []int32   // per job: current deadline
	fs    [][]fent  // per job: the slots where it holds flow
	hold  [][]int32 // per slot: the jobs holding flow there
	spare maxTree   // C_t − load_t per slot, to find a slot with room in a window
	log   []fchange
	stamp int32
	// search scratch
	slotSeen, slotNext, slotFrom []int32
	jobSeen, jobFrom, queue      []int32
	firstFree                    int32 // the first slot with room, during a search (-1: none)
}

type fent struct {
	t int32
	x int64
}

// fchange is one logged change: dx units of job j in slot t, or, with t < 0, job j's
// deadline before a move (in dx).
type fchange struct {
	j, t int32
	dx   int64
}

func newFlowInc(p *problem, r int) *flowInc {
	T := p.T
	f := &flowInc{p: p, r: r,
		load: make([]int64, T+2), lim: make([]int64, p.n), hi: make([]int32, p.n),
		fs: make([][]fent, p.n), hold: make([][]int32, T+2),
		slotSeen: make([]int32, T+2), slotNext: make([]int32, T+2), slotFrom: make([]int32, T+2),
		jobSeen: make([]int32, p.n), jobFrom: make([]int32, p.n),
	}
	f.spare.build(p.cap[r])
	for j := range p.n {
		f.lim[j] = p.eta[j][r]
		if m := p.maxPar[j]; m > 0 {
			f.lim[j] = min(f.lim[j], m)
		}
	}
	return f
}

// x is job j's flow in slot t.
func (f *flowInc) x(j int, t int32) int64 {
	for _, e := range f.fs[j] {
		if e.t == t {
			return e.x
		}
	}
	return 0
}

// add changes job j's flow in slot t by dx, and the slot's load and holders with it.
func (f *flowInc) add(j int, t int32, dx int64, logged bool) {
	if logged {
		f.log = append(f.log, fchange{j: int32(j), t: t, dx: dx})
	}
	f.load[t] += dx
	f.spare.set(int(t), f.p.cap[f.r][t-1]-f.load[t])
	es := f.fs[j]
	for i := range es {
		if es[i].t == t {
			es[i].x += dx
			if es[i].x == 0 {
				es[i] = es[len(es)-1]
				f.fs[j] = es[:len(es)-1]
				hs := f.hold[t]
				k := slices.Index(hs, int32(j))
				hs[k] = hs[len(hs)-1]
				f.hold[t] = hs[:len(hs)-1]
			}
			return
		}
	}
	f.fs[j] = append(es, fent{t: t, x: dx})
	f.hold[t] = append(f.hold[t], int32(j))
}

// init routes every job's demand with deadlines d, filling slots front to back (released
// jobs in increasing order of prio) and routing what is left by augmenting paths. It reports
// whether d is feasible; the flow is then the starting point of the moves.
func (f *flowInc) init(d, prio []int) bool {
	p := f.p
	for j := range p.n {
		f.hi[j] = int32(d[j])
	}
	rem := make([]int64, p.n)
	for j := range p.n {
		rem[j] = p.eta[j][f.r]
	}
	// Whoever is left over when a deadline passes is routed below.
	p.serveSlots(f.r, prio, d, rem, func(j, t int, x int64) { f.add(j, int32(t), x, false) })
	for j := range p.n {
		if rem[j] > 0 && f.route(j, rem[j]) < rem[j] {
			return false
		}
	}
	f.log = f.log[:0]
	return true
}

// mark and undo bracket tentative moves.
func (f *flowInc) mark() int { return len(f.log) }

func (f *flowInc) undo(m int) {
	for k := len(f.log) - 1; k >= m; k-- {
		c := f.log[k]
		if c.t < 0 {
			f.hi[c.j] = int32(c.dx)
			continue
		}
		f.add(int(c.j), c.t, -c.dx, false)
	}
	f.log = f.log[:m]
}

// shrink moves job j's deadline to nd < its current one and routes the flow it held
// after nd elsewhere. It reports whether that succeeded; on failure the flow is partly
// rerouted and the caller undoes to its mark.
func (f *flowInc) shrink(j, nd int) bool {
	f.log = append(f.log, fchange{j: int32(j), t: -1, dx: int64(f.hi[j])})
	f.hi[j] = int32(nd)
	var deficit int64
	for k := 0; k < len(f.fs[j]); {
		e := f.fs[j][k]
		if int(e.t) > nd {
			deficit += e.x
			f.add(j, e.t, -e.x, true) // swaps the last entry into k
			continue
		}
		k++
	}
	return deficit == 0 || f.route(j, deficit) == deficit
}

// prevSlot is the last slot ≤ t not yet visited by the current search (0 when none).
func (f *flowInc) prevSlot(t int32) int32 {
	root := t
	for root > 0 && f.slotSeen[root] == f.stamp {
		root = f.slotNext[root]
	}
	for t != root { // path compression
		nx := f.slotNext[t]
		f.slotNext[t] = root
		t = nx
	}
	return root
}

// reach returns a slot in job k's window with room that k can still use (it is below its
// cap there), or -1.
func (f *flowInc) reach(k int) int32 {
	if f.firstFree < 0 || f.hi[k] < f.firstFree {
		return -1 // the usual case in a busy stretch: no tree descent
	}
	lo, hi := max(f.p.relOf(k, f.r), int(f.firstFree)), int(f.hi[k])
	for lo <= hi {
		t := f.spare.firstPositive(lo, hi)
		if t < 0 {
			return -1
		}
		if f.x(k, int32(t)) < f.lim[k] {
			return int32(t)
		}
		lo = t + 1
	}
	return -1
}

// route pushes up to need units from job j (whose demand is short by need) to the sink
// and returns how many it pushed. Each search is breadth-first over jobs, each job's
// slots latest first, because free capacity lies after the busy stretch and the holders
// of late slots are the likeliest to reach it; and a job is asked for a slot with room
// in its window as soon as it is reached, so the search ends at the first job that can
// take the unit into free capacity. A search that fails has visited every slot and job
// reachable from j: no more can be pushed.
func (f *flowInc) route(j int, need int64) int64 {
	p := f.p
	var pushed int64
	for pushed < need {
		f.stamp++
		st := f.stamp
		f.queue = f.queue[:0]
		f.firstFree = int32(f.spare.firstPositive(1, p.T))
		found := int32(-1)
		discover := func(k int, from int32) bool {
			f.jobSeen[k], f.jobFrom[k] = st, from
			if t := f.reach(k); t >= 0 {
				found = t
				f.slotFrom[t] = int32(k)
				return true
			}
			f.queue = append(f.queue, int32(k))
			return false
		}
		if !discover(j, -1) {
		search:
			for qi := 0; qi < len(f.queue); qi++ {
				k := f.queue[qi]
				// Latest slots first: their holders are the likeliest to reach free
				// capacity after the busy stretch. The slots where k is at its cap are not
				// reachable from k.
				lo := int32(p.relOf(int(k), f.r))
				for t := f.prevSlot(f.hi[k]); t >= lo; t = f.prevSlot(t - 1) {
					if f.x(int(k), t) >= f.lim[k] {
						continue
					}
					f.slotSeen[t], f.slotNext[t], f.slotFrom[t] = st, t-1, k
					for _, k2 := range f.hold[t] {
						if f.jobSeen[k2] != st && discover(int(k2), t) {
							break search
						}
					}
				}
			}
		}
		if found < 0 {
			return pushed
		}
		// Bottleneck along the path, then push.
		amt := min(need-pushed, p.cap[f.r][found-1]-f.load[found])
		for t := found; ; {
			k := int(f.slotFrom[t])
			amt = min(amt, f.lim[k]-f.x(k, t))
			from := f.jobFrom[k]
			if from < 0 {
				break
			}
			amt = min(amt, f.x(k, from))
			t = from
		}
		for t := found; ; {
			k := int(f.slotFrom[t])
			f.add(k, t, amt, true)
			from := f.jobFrom[k]
			if from < 0 {
				break
			}
			f.add(k, from, -amt, true)
			t = from
		}
		pushed += amt
	}
	return pushed
}

// maxTree is a segment tree over slots 1..T holding a value per slot, answering "the
// first slot in [a, b] whose value is positive".
type maxTree struct {
	size int
	max  []int64
}

func (s *maxTree) build(v []int64) {
	s.size = 1
	for s.size < len(v) {
		s.size *= 2
	}
	s.max = make([]int64, 2*s.size)
	for i := range s.size {
		if i < len(v) {
			s.max[s.size+i] = v[i]
		}
	}
	for i := s.size - 1; i >= 1; i-- {
		s.max[i] = max(s.max[2*i], s.max[2*i+1])
	}
}

// set gives slot t (1-based) value x.
func (s *maxTree) set(t int, x int64) {
	i := s.size + t - 1
	s.max[i] = x
	for i /= 2; i >= 1; i /= 2 {
		s.max[i] = max(s.max[2*i], s.max[2*i+1])
	}
}

// firstPositive is the first slot in [a, b] (1-based) with a positive value, or -1.
func (s *maxTree) firstPositive(a, b int) int {
	return s.first(1, 0, s.size, a-1, b)
}

func (s *maxTree) first(v, lo, hi, a, b int) int {
	if hi <= a || lo >= b || s.max[v] <= 0 {
		return -1
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if a < mid {
			if t := s.first(2*v, lo, mid, a, b); t >= 0 {
				return t
			}
		}
		// Only the right child is left: descend into it without recursion.
		v, lo = 2*v+1, mid
		if lo >= b || s.max[v] <= 0 {
			return -1
		}
	}
	return lo + 1
}
