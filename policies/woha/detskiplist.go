package woha

// detSkipList is the deterministic 1-2-3 skip list of Munro, Papadakis and Sedgewick
// ([21] in woha.txt), the structure the paper builds its double skip list on. Invariant:
// between any two consecutive nodes of height > l (the header and the end of the list
// count as infinitely tall) there are 1, 2 or 3 nodes of height exactly l — the gaps of
// a 2-3-4 tree, whose keys of tree level l−1 are the skip list's nodes of height l.
//
// We keep the invariant bottom-up, with a backward link at every level, rather than by
// [21]'s top-down passes, because that is what makes the head cheap: the first node
// always has height 1 (the first gap at level 1 is never empty), so deleting it unlinks
// one node and repairs gaps upward, and a 2-3-4 tree does O(1) amortized repairs per
// update (Huddleston and Mehlhorn: (a, b)-trees with b ≥ 2a). Insertion is an O(log n)
// search plus O(1) amortized splits; deleting any node is O(1) amortized plus, for a
// node taller than 1, O(height) to hand its tower to its successor.
type detSkipList struct {
	id   int
	head dslNode // infinitely tall; head.next[i] is the first node of list i
	top  int     // height of the tallest node, 0 when empty
	n    int
}

// dslMaxLevel bounds a node's height; a 2-3-4 tree of height 24 holds at least 2^24 − 1
// keys.
const dslMaxLevel = 24

type dslNode struct {
	key  float64
	tie  int
	w    *wfState
	h    int
	next [dslMaxLevel]*dslNode
	prev [dslMaxLevel]*dslNode
}

func newDetSkipList(id int) *detSkipList {
	s := &detSkipList{id: id}
	s.head.h = dslMaxLevel + 1
	return s
}

func (s *detSkipList) len() int { return s.n }

func (s *detSkipList) first() *wfState {
	if f := s.head.next[0]; f != nil {
		return f.w
	}
	return nil
}

func (s *detSkipList) node(w *wfState) *dslNode {
	n := w.dsl[s.id]
	if n == nil {
		n = &dslNode{w: w, tie: w.handle}
		w.dsl[s.id] = n
	}
	return n
}

// gap returns the first member, last member and size of the level-l gap holding x
// (x.h == l). Gaps hold at most four nodes, so this is O(1).
func (s *detSkipList) gap(x *dslNode, l int) (first, last *dslNode, size int) {
	first, last, size = x, x, 1
	for y := x.prev[l-1]; y != &s.head && y.h == l; y = y.prev[l-1] {
		first = y
		size++
	}
	for y := x.next[l-1]; y != nil && y.h == l; y = y.next[l-1] {
		last = y
		size++
	}
	return first, last, size
}

// raise lifts y from height l to l+1, linking it into list l after the nearest taller
// node before it.
func (s *detSkipList) raise(y *dslNode) {
	l := y.h
	p := y.prev[l-1]
	for p != &s.head && p.h <= l {
		p = p.prev[l-1]
	}
	q := p.next[l]
	y.next[l], y.prev[l] = q, p
	p.next[l] = y
	if q != nil {
		q.prev[l] = y
	}
	y.h++
}

// lower drops y from height l+1 to l.
func (s *detSkipList) lower(y *dslNode) {
	l := y.h - 1
	p, q := y.prev[l], y.next[l]
	p.next[l] = q
	if q != nil {
		q.prev[l] = p
	}
	y.next[l], y.prev[l] = nil, nil
	y.h--
}

func (s *detSkipList) insert(w *wfState) {
	x := s.node(w)
	x.key = setKey(s.id, w)
	key, tie := x.key, x.tie
	p := &s.head
	for i := s.top - 1; i >= 0; i-- {
		for y := p.next[i]; y != nil && (y.key < key || (y.key == key && y.tie < tie)); y = p.next[i] {
			p = y
		}
	}
	q := p.next[0]
	x.next[0], x.prev[0] = q, p
	p.next[0] = x
	if q != nil {
		q.prev[0] = x
	}
	x.h = 1
	s.n++
	if s.top == 0 {
		s.top = 1
	}
	// Split gaps of four upward: raising the second member leaves gaps of one and two.
	for l, y := 1, x; ; l++ {
		first, _, size := s.gap(y, l)
		if size <= 3 {
			return
		}
		if l == dslMaxLevel {
			panic("woha: deterministic skip list exceeds its maximum height")
		}
		y = first.next[l-1]
		s.raise(y)
		if l+1 > s.top {
			s.top = l + 1
		}
	}
}

func (s *detSkipList) removeFirst() *wfState {
	x := s.head.next[0]
	if x == nil {
		return nil
	}
	s.unlink(x)
	return x.w
}

func (s *detSkipList) remove(w *wfState) { s.unlink(w.dsl[s.id]) }

func (s *detSkipList) unlink(x *dslNode) {
	if x.h > 1 {
		s.swapWithSuccessor(x)
	}
	// x has height 1 now: take it out of its level-1 gap.
	first, last, size := s.gap(x, 1)
	left, right := first.prev[0], last.next[0]
	p, q := x.prev[0], x.next[0]
	p.next[0] = q
	if q != nil {
		q.prev[0] = p
	}
	x.next[0], x.prev[0] = nil, nil
	x.h = 0
	s.n--
	if size > 1 {
		return
	}
	s.refill(left, right)
}

// swapWithSuccessor hands x's tower (height H > 1) to the node after it, which has
// height 1 because the level-1 gap after a taller node is never empty, and leaves x
// with height 1 in the successor's place. The order of the two is briefly wrong; x is
// about to go.
func (s *detSkipList) swapWithSuccessor(x *dslNode) {
	y := x.next[0]
	h := x.h
	for i := 1; i < h; i++ {
		p, q := x.prev[i], x.next[i]
		y.prev[i], y.next[i] = p, q
		p.next[i] = y
		if q != nil {
			q.prev[i] = y
		}
		x.next[i], x.prev[i] = nil, nil
	}
	p, q := x.prev[0], y.next[0]
	p.next[0] = y
	y.prev[0], y.next[0] = p, x
	x.prev[0], x.next[0] = y, q
	if q != nil {
		q.prev[0] = x
	}
	y.h, x.h = h, 1
}

// refill repairs an empty level-l gap between left and right (both taller than l, or
// the head / the end) for l = 1, 2, ...: borrow from a sibling gap with two or more
// members (a rotation, done), or merge with a sibling of one member, which takes a
// member from the gap above, possibly emptying it.
func (s *detSkipList) refill(left, right *dslNode) {
	for l := 1; ; l++ {
		if left == &s.head && right == nil {
			// The top gap emptied: the list is one level shorter.
			s.top = l - 1
			return
		}
		// The parent gap's member next to the empty gap, and the sibling gap's member
		// next to that: right and the first after it if right is a member (height
		// l+1), else left (right is then the parent gap's end, so left is a member) and
		// the last before it.
		sep, sib := left, left.prev[l-1]
		if right != nil && right.h == l+1 {
			sep, sib = right, right.next[l-1]
		}
		if _, _, ss := s.gap(sib, l); ss >= 2 {
			s.lower(sep) // sep joins the empty gap,
			s.raise(sib) // sib separates in its place
			return
		}
		pf, pl, ps := s.gap(sep, l+1)
		pleft, pright := pf.prev[l], pl.next[l]
		s.lower(sep) // the two gaps and sep become one gap of two
		if ps > 1 {
			return
		}
		left, right = pleft, pright
	}
}
