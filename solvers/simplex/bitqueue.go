package simplex

import "math/bits"

// bitQueue is the priority queue of the hyper-sparse solves and of the Forrest–Tomlin
// update: the keys (eta indices or positions in U's pivot order) are distinct ints in
// [0, n), kept as a bit set with a cursor at or below the least key (minimum mode) or at
// or above the greatest (maximum mode). A triangular solve almost always pushes keys
// beyond the one it just popped, so the cursor only moves one way and a whole traversal
// costs one pass over n/64 words plus a bit operation per key — cheaper than a binary
// heap's sifts, which cost 6–7% of a solve. A key pushed behind the cursor moves the
// cursor back, so the pops come in exactly the order of a heap: every result bit is the
// same.
type bitQueue struct {
	words []uint64
	cur   int // minimum mode: no key below cur; maximum mode: none above it
	count int
}

// reset empties q and sizes it for keys below n, with the cursor for min (or max) pops.
// A traversal pops every key it pushes, so q is normally empty already.
func (q *bitQueue) reset(n int, max bool) {
	if q.count != 0 {
		clear(q.words)
	}
	if nw := (n + 63) >> 6; len(q.words) < nw {
		q.words = make([]uint64, nw+nw/4)
	}
	q.count = 0
	if max {
		q.cur = -1
	} else {
		q.cur = len(q.words) << 6
	}
}

func (q *bitQueue) grow(k int) {
	w := make([]uint64, (k>>6)+1+len(q.words)/4)
	copy(w, q.words)
	q.words = w
}

// pushMin adds key k in minimum mode.
func (q *bitQueue) pushMin(k int) {
	if k>>6 >= len(q.words) {
		q.grow(k)
	}
	*elem(q.words, k>>6) |= 1 << uint(k&63)
	q.count++
	if k < q.cur {
		q.cur = k
	}
}

// popMin removes and returns the least key; q must not be empty.
func (q *bitQueue) popMin() int {
	w := q.cur >> 6
	for {
		if x := *elem(q.words, w); x != 0 {
			b := bits.TrailingZeros64(x)
			*elem(q.words, w) = x &^ (1 << uint(b))
			q.count--
			k := w<<6 | b
			q.cur = k
			return k
		}
		w++
	}
}

// pushMax adds key k in maximum mode.
func (q *bitQueue) pushMax(k int) {
	if k>>6 >= len(q.words) {
		q.grow(k)
	}
	*elem(q.words, k>>6) |= 1 << uint(k&63)
	q.count++
	if k > q.cur {
		q.cur = k
	}
}

// popMax removes and returns the greatest key; q must not be empty.
func (q *bitQueue) popMax() int {
	w := q.cur >> 6
	for {
		if x := *elem(q.words, w); x != 0 {
			b := 63 - bits.LeadingZeros64(x)
			*elem(q.words, w) = x &^ (1 << uint(b))
			q.count--
			k := w<<6 | b
			q.cur = k
			return k
		}
		w--
	}
}
