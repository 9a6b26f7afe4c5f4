package woha

// orderedSet keeps workflows in a strict total order (keys are unique: ties break on the
// workflow handle). A workflow's key must not change while it is in a set: callers remove
// it, change the key, and insert it again, as Algorithm 2 does.
type orderedSet interface {
	insert(w *wfState)
	remove(w *wfState) // w must be in the set; O(1) when w is first
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

func ctLess(a, b *wfState) bool {
	if a.next != b.next {
		return a.next < b.next
	}
	return a.handle < b.handle
}

// priLess puts the largest lag F(ttd) − ρ first (woha.txt §IV-B).
func priLess(a, b *wfState) bool {
	if a.p != b.p {
		return a.p > b.p
	}
	return a.handle < b.handle
}

// skipList is one of the two lists of Algorithm 2's double skip list. Pugh's skip list
// [20] with levels drawn from a seeded generator, so runs repeat exactly: a search,
// insertion or arbitrary deletion costs O(log n) expected, and deleting the first element
// only unlinks it from the head's pointers, O(its height) = O(1) expected. The paper
// builds on the deterministic 1-2-3 skip list [21] for worst-case bounds; see doc.go.
type skipList struct {
	id    int
	less  func(a, b *wfState) bool
	head  slNode
	level int
	n     int
	rng   uint64
}

type slNode struct {
	w    *wfState
	next []*slNode
}

const slMaxLevel = 24 // 4^24 elements before the top level saturates

func newSkipList(id int, less func(a, b *wfState) bool, seed uint64) *skipList {
	return &skipList{id: id, less: less, head: slNode{next: make([]*slNode, slMaxLevel)}, rng: seed | 1}
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
	if n.next == nil {
		// A workflow keeps its height in this list for life, so steady-state
		// reinsertions allocate nothing.
		n.w = w
		n.next = make([]*slNode, s.randomLevel())
	}
	h := len(n.next)
	if h > s.level {
		s.level = h
	}
	x := &s.head
	for l := s.level - 1; l >= 0; l-- {
		for y := x.next[l]; y != nil && s.less(y.w, w); y = x.next[l] {
			x = y
		}
		if l < h {
			n.next[l] = x.next[l]
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
	// The first node is every level's first node up to its height: no search.
	for l := range n.next {
		s.head.next[l] = n.next[l]
		n.next[l] = nil
	}
	s.n--
	s.shrink()
	return n.w
}

func (s *skipList) remove(w *wfState) {
	n := &w.sl[s.id]
	if s.head.next[0] == n {
		s.removeFirst()
		return
	}
	x := &s.head
	for l := s.level - 1; l >= 0; l-- {
		for y := x.next[l]; y != nil && s.less(y.w, w); y = x.next[l] {
			x = y
		}
		if l < len(n.next) && x.next[l] == n {
			x.next[l] = n.next[l]
			n.next[l] = nil
		}
	}
	s.n--
	s.shrink()
}

func (s *skipList) shrink() {
	for s.level > 0 && s.head.next[s.level-1] == nil {
		s.level--
	}
}

// heapSet is the "simple heap" alternative: a binary heap indexed by each workflow's
// position, O(log n) for every operation including deleting the first element.
type heapSet struct {
	id   int
	less func(a, b *wfState) bool
	a    []*wfState
}

func newHeapSet(id int, less func(a, b *wfState) bool) *heapSet {
	return &heapSet{id: id, less: less}
}

func (h *heapSet) len() int { return len(h.a) }

func (h *heapSet) first() *wfState {
	if len(h.a) == 0 {
		return nil
	}
	return h.a[0]
}

func (h *heapSet) insert(w *wfState) {
	h.a = append(h.a, w)
	w.hpos[h.id] = len(h.a) - 1
	h.up(len(h.a) - 1)
}

func (h *heapSet) removeFirst() *wfState {
	if len(h.a) == 0 {
		return nil
	}
	w := h.a[0]
	h.remove(w)
	return w
}

func (h *heapSet) remove(w *wfState) {
	i := w.hpos[h.id]
	last := len(h.a) - 1
	if i != last {
		h.a[i] = h.a[last]
		h.a[i].hpos[h.id] = i
	}
	h.a[last] = nil
	h.a = h.a[:last]
	w.hpos[h.id] = -1
	if i < last {
		if !h.down(i) {
			h.up(i)
		}
	}
}

func (h *heapSet) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(h.a[i], h.a[p]) {
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
		if r := c + 1; r < n && h.less(h.a[r], h.a[c]) {
			c = r
		}
		if !h.less(h.a[c], h.a[i]) {
			break
		}
		h.swap(i, c)
		i = c
	}
	return i > start
}

func (h *heapSet) swap(i, j int) {
	h.a[i], h.a[j] = h.a[j], h.a[i]
	h.a[i].hpos[h.id] = i
	h.a[j].hpos[h.id] = j
}
