package tas

import "math"

// room is the sweep's capacity model at a boundary: it holds a tentative set of jobs
// crossing the boundary and says whether they fit. The sweep only ever asks about the
// jobs with deadline ≤ t at boundary t, and whether one more fits: that is all either
// condition below needs.
type room interface {
	// add and sub put job j into the tentative set or take it out.
	add(j int)
	sub(j int)
	// fits reports whether the tentative set fits at boundary t: all of it can finish by
	// slot t.
	fits(t int) bool
	// fitsWith reports whether the tentative set and job j fit at t, given that the
	// tentative set does.
	fitsWith(t, j int) bool
}

// prefixRoom is rush.txt eq. (12): without release times a set fits at t iff its demand
// of every resource is at most Σ_{s≤t} C_rs.
type prefixRoom struct {
	p   *problem
	sum []int64 // demand of the tentative set per resource
}

// newPrefixRoomIn is the room of p in o, reusing its array.
func newPrefixRoomIn(p *problem, o *prefixRoom) *prefixRoom {
	o.p, o.sum = p, resize(o.sum, p.R)
	clear(o.sum)
	return o
}

func (o *prefixRoom) add(j int) {
	for r, e := range o.p.eta[j] {
		o.sum[r] += e
	}
}

func (o *prefixRoom) sub(j int) {
	for r, e := range o.p.eta[j] {
		o.sum[r] -= e
	}
}

func (o *prefixRoom) fits(t int) bool {
	for r, s := range o.sum {
		if s > o.p.prefix[r][t] {
			return false
		}
	}
	return true
}

func (o *prefixRoom) fitsWith(t, j int) bool {
	for r, s := range o.sum {
		if s+o.p.eta[j][r] > o.p.prefix[r][t] {
			return false
		}
	}
	return true
}

// windowRoom is Horn's condition for release times without caps: jobs with windows
// [r_k, d_k] can all be served (one resource, any job may take any part of a slot's
// capacity) iff every window [a, b] holds the demand of the jobs released in it and due
// in it, Σ_{k: a ≤ r_k, d_k ≤ b} η_k ≤ Σ_{s=a..b} C_s (Horn 1974; it is Hall's condition
// of the transportation problem jobs → slots, and a union of windows splits into its
// intervals). At boundary t only the windows [a, t] are new, and the tentative set is
// exactly the jobs with deadline ≤ t, so the set fits iff
//
//	min_{a ≤ t} ( Σ_{s≤t} C_s − Σ_{s<a} C_s − Σ_{k: r_k ≥ a} η_k ) ≥ 0.
//
// Per resource a segment tree over a holds w(a) = −Σ_{s<a} C_s − Σ_{k: r_k ≥ a} η_k; a
// job entering or leaving adds ∓η_k to the prefix a ≤ r_k, and the test reads a prefix
// minimum and adds Σ_{s≤t} C_s: O(log T) each.
type windowRoom struct {
	p    *problem
	tree []prefixMinTree
}

// newWindowRoomIn is the room of p in o, reusing its trees' arrays and *wbuf as
// scratch.
func newWindowRoomIn(p *problem, o *windowRoom, wbuf *[]int64) *windowRoom {
	o.p, o.tree = p, resize(o.tree, p.R)
	*wbuf = resize(*wbuf, p.T)
	w := *wbuf
	for r := range p.R {
		for a := 1; a <= p.T; a++ {
			w[a-1] = -p.prefix[r][a-1]
		}
		o.tree[r].build(w)
	}
	return o
}

func (o *windowRoom) add(j int) {
	for r, e := range o.p.eta[j] {
		if e != 0 {
			o.tree[r].addPrefix(o.p.relOf(j, r), -e)
		}
	}
}

func (o *windowRoom) sub(j int) {
	for r, e := range o.p.eta[j] {
		if e != 0 {
			o.tree[r].addPrefix(o.p.relOf(j, r), e)
		}
	}
}

func (o *windowRoom) fits(t int) bool {
	for r := range o.tree {
		if o.p.prefix[r][t]+o.tree[r].prefixMin(t) < 0 {
			return false
		}
	}
	return true
}

func (o *windowRoom) fitsWith(t, j int) bool {
	rel := o.p.release[j]
	if rel > t {
		return false
	}
	for r, e := range o.p.eta[j] {
		if e != 0 && o.p.prefix[r][t]+o.tree[r].prefixMin(o.p.relOf(j, r)) < e {
			return false
		}
	}
	return true
}

// prefixMinTree is a segment tree over positions 1..n with two operations, both on
// prefixes: add x to positions 1..k, and the minimum of positions 1..k. Additions stay
// at the nodes they cover (no pushing down): min[v] is the minimum of v's subtree
// including the additions at v and below, tag[v] what was added to all of v's subtree.
type prefixMinTree struct {
	size int
	min  []int64
	tag  []int64
}

// pad fills the positions past n; prefix queries never read them alone.
const pad = math.MaxInt64 / 4

func (s *prefixMinTree) build(w []int64) {
	s.size = 1
	for s.size < len(w) {
		s.size *= 2
	}
	// Reused arrays (Workspace) are written in full: min below, tag cleared.
	s.min = resize(s.min, 2*s.size)
	s.tag = resize(s.tag, s.size)
	clear(s.tag)
	s.min[0] = 0 // unused: the root is min[1]
	for i := range s.size {
		if i < len(w) {
			s.min[s.size+i] = w[i]
		} else {
			s.min[s.size+i] = pad
		}
	}
	for v := s.size - 1; v >= 1; v-- {
		s.min[v] = min(s.min[2*v], s.min[2*v+1])
	}
}

// addPrefix adds x to positions 1..k.
func (s *prefixMinTree) addPrefix(k int, x int64) {
	s.add(1, 0, s.size, k, x)
}

func (s *prefixMinTree) add(v, lo, hi, k int, x int64) {
	if k >= hi {
		s.min[v] += x
		if v < s.size {
			s.tag[v] += x
		}
		return
	}
	mid := (lo + hi) / 2
	s.add(2*v, lo, mid, k, x)
	if k > mid {
		s.add(2*v+1, mid, hi, k, x)
	}
	s.min[v] = min(s.min[2*v], s.min[2*v+1]) + s.tag[v]
}

// prefixMin is the minimum of positions 1..k, k ≥ 1.
func (s *prefixMinTree) prefixMin(k int) int64 {
	v, lo, hi := 1, 0, s.size
	var above int64 // additions at the ancestors of v
	best := int64(pad)
	for k < hi {
		above += s.tag[v]
		mid := (lo + hi) / 2
		if k > mid {
			best = min(best, s.min[2*v]+above)
			v, lo = 2*v+1, mid
		} else {
			v, hi = 2*v, mid
		}
	}
	return min(best, s.min[v]+above)
}
