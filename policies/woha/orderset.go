package woha

// orderedSet keeps workflows in a strict total order (keys are unique: ties break on the
// workflow handle). A workflow's key must not change while it is in a set: callers remove
// it, change the key, and insert it again, as Algorithm 2 does.
type orderedSet interface {
	insert(w *wfState)
	remove(w *wfState) // w must be in the set
	first() *wfState   // nil when empty
	removeFirst() *wfState
	len() int
}

// The three orders a workflow can be in: the ct list (next requirement change) and one
// priority list per slot pool, holding the workflows with a task waiting for that pool.
const (
	listCT = iota
	listPriMap
	listPriReduce
	numLists
)

// priLess puts the largest lag F(ttd) − ρ first (woha.txt §IV-B).
func priLess(a, b *wfState) bool {
	if a.p != b.p {
		return a.p > b.p
	}
	return a.handle < b.handle
}

// setKey is the order every set keeps: key ascending, then tie (the workflow handle)
// ascending. The ct list's key is the next change time; a priority list's key is −lag,
// so the largest lag comes first. Keys live in the nodes and heap slots themselves so a
// comparison does not chase a pointer to the workflow.
func setKey(id int, w *wfState) float64 {
	if id == listCT {
		return w.next
	}
	return -float64(w.p) // exact: lags stay far below 2^53
}

// skipList is the randomized variant of Algorithm 2's lists (OrderRandomDSL): Pugh's
// skip list [20] with levels drawn from a seeded generator (runs repeat exactly) and a
// backward pointer at every level. A search or insertion costs O(log n) expected;
// deleting any node, the first included, only relinks its neighbours, O(its height) =
// O(1) expected. The paper's own lists are deterministic (detSkipList).
type skipList struct {
	id    int
	head  slNode
	level int
	n     int
	rng   uint64
}

const slMaxLevel = 12 // p = 1/4: 4^12 ≈ 16.7 million elements before the top saturates

type slNode struct {
	key  float64
	tie  int
	w    *wfState
	h    int // height, 0 until first inserted
	next []*slNode
	prev []*slNode
}

func newSkipList(id int, seed uint64) *skipList {
	s := &skipList{id: id, rng: seed | 1}
	s.head.next = make([]*slNode, slMaxLevel)
	s.head.prev = make([]*slNode, slMaxLevel)
	return s
}

// randomLevel draws a height with P(h > k) = 4^-k (p = 1/4, Pugh's suggestion).
func (s *skipList) randomLevel() int {
	// xorshift64*
	s.rng ^= s.rng >> 12
	s.rng ^= s.rng << 25
	s.rng ^= s.rng >> 27
	r := s.rng * 2685821657736338717
	h := 1
	for h < slMaxLevel && r&3 == 0 {
		h++
		r >>= 2
	}
	return h
}

func (s *skipList) len() int { return s.n }

func (s *skipList) first() *wfState {
	if f := s.head.next[0]; f != nil {
		return f.w
	}
	return nil
}

func (s *skipList) insert(w *wfState) {
	n := &w.sl[s.id]
	if n.h == 0 {
		// A workflow keeps its height in this list for life.
		n.w = w
		n.tie = w.handle
		n.h = s.randomLevel()
		links := make([]*slNode, 2*n.h)
		n.next, n.prev = links[:n.h:n.h], links[n.h:]
	}
	n.key = setKey(s.id, w)
	if n.h > s.level {
		s.level = n.h
	}
	key, tie := n.key, n.tie
	x := &s.head
	for l := s.level - 1; l >= 0; l-- {
		for y := x.next[l]; y != nil && (y.key < key || (y.key == key && y.tie < tie)); y = x.next[l] {
			x = y
		}
		if l < n.h {
			y := x.next[l]
			n.next[l] = y
			n.prev[l] = x
			if y != nil {
				y.prev[l] = n
			}
			x.next[l] = n
		}
	}
	s.n++
}

func (s *skipList) removeFirst() *wfState {
	n := s.head.next[0]
	if n == nil {
		return nil
	}
	s.unlink(n)
	return n.w
}

func (s *skipList) remove(w *wfState) { s.unlink(&w.sl[s.id]) }

func (s *skipList) unlink(n *slNode) {
	for l := 0; l < n.h; l++ {
		p, y := n.prev[l], n.next[l]
		p.next[l] = y
		if y != nil {
			y.prev[l] = p
		}
		n.next[l], n.prev[l] = nil, nil
	}
	s.n--
	for s.level > 0 && s.head.next[s.level-1] == nil {
		s.level--
	}
}

// heapSet is the "simple heap" alternative: a binary heap indexed by each workflow's
// position, O(log n) for every operation including deleting the first element.
type heapSet struct {
	id int
	a  []heapSlot
}

type heapSlot struct {
	key float64
	tie int
	w   *wfState
}

func newHeapSet(id int) *heapSet { return &heapSet{id: id} }

func (h *heapSet) len() int { return len(h.a) }

func (h *heapSet) first() *wfState {
	if len(h.a) == 0 {
		return nil
	}
	return h.a[0].w
}

func (h *heapSet) insert(w *wfState) {
	h.a = append(h.a, heapSlot{key: setKey(h.id, w), tie: w.handle, w: w})
	w.hpos[h.id] = len(h.a) - 1
	h.up(len(h.a) - 1)
}

func (h *heapSet) removeFirst() *wfState {
	if len(h.a) == 0 {
		return nil
	}
	w := h.a[0].w
	h.remove(w)
	return w
}

func (h *heapSet) remove(w *wfState) {
	i := w.hpos[h.id]
	last := len(h.a) - 1
	if i != last {
		h.a[i] = h.a[last]
		h.a[i].w.hpos[h.id] = i
	}
	h.a[last] = heapSlot{}
	h.a = h.a[:last]
	w.hpos[h.id] = -1
	if i < last {
		if !h.down(i) {
			h.up(i)
		}
	}
}

func (h *heapSet) less(i, j int) bool {
	a, b := &h.a[i], &h.a[j]
	return a.key < b.key || (a.key == b.key && a.tie < b.tie)
}

func (h *heapSet) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h.swap(i, p)
		i = p
	}
}

func (h *heapSet) down(i int) bool {
	start := i
	n := len(h.a)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if r := c + 1; r < n && h.less(r, c) {
			c = r
		}
		if !h.less(c, i) {
			break
		}
		h.swap(i, c)
		i = c
	}
	return i > start
}

func (h *heapSet) swap(i, j int) {
	h.a[i], h.a[j] = h.a[j], h.a[i]
	h.a[i].w.hpos[h.id] = i
	h.a[j].w.hpos[h.id] = j
}
