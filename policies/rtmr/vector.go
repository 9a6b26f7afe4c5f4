package rtmr

import (
	"slices"
	"sort"
)

// placeFrom runs the loop of Algorithm II lines 2–8 (and, with floor = e^m, Algorithm III
// lines 3–9) on a copy of the sorted slot-availability vector src, written to dst: k
// times, take the smallest entry t_1, set it to max(t_1, floor) + eps and re-sort. It
// returns the value the last iteration wrote (e^m, or e). k >= 1, eps > 0, len(dst) ==
// len(src) <= len(ring); ring is scratch.
//
// As printed the loop costs O(k·n log n) per job (a sort per pick), and an admission
// decision re-runs it for every job after the new one in the queue. placeFrom gets the
// same vector in O(k + n) from two observations. (1) The values written are non-decreasing
// (each is the current minimum plus eps, and the minimum never decreases), so they form a
// FIFO queue B that is sorted by construction; the smallest entry is always the head of
// B or the next unpicked entry of src (queue A) — a merge, O(1) per pick. (2) Once every
// entry of src has been picked, all n values are in B and the picks go round B in order,
// each adding eps, so the remaining k' = a·n + b picks add (a+1)·eps to the first b and
// a·eps to the rest: closed form. Entries below floor are all picked first (they are the
// smallest) when k >= their count c, and count as floor; when k < c only the k smallest
// are picked. The result equals the printed loop's up to the rounding of a·eps against
// a repeated additions (TestPlaceFromMatchesPrintedLoop).
func placeFrom(dst, src []float64, k int, eps, floor float64, ring []float64) float64 {
	n := len(src)
	c := 0 // entries below floor
	if src[0] < floor {
		c = sort.SearchFloat64s(src, floor)
	}
	if k < c {
		// The k smallest become floor + eps; the rest keep their values.
		v := floor + eps
		rest := src[k:]
		at := upperBound(rest, v)
		copy(dst, rest[:at])
		for i := at; i < at+k; i++ {
			dst[i] = v
		}
		copy(dst[at+k:], rest[at:])
		return v
	}
	ai := 0        // next unpicked entry of src (queue A)
	bh, bn := 0, 0 // queue B: ring[bh], …, bn entries
	last := 0.0
	for ; k > 0 && ai < n; k-- {
		a := max(src[ai], floor)
		if bn == 0 || a <= ring[bh] {
			ai++
			last = a + eps
		} else {
			last = ring[bh] + eps
			bh++
			if bh == n {
				bh = 0
			}
			bn--
		}
		t := bh + bn
		if t >= n {
			t -= n
		}
		ring[t] = last
		bn++
	}
	if k == 0 {
		// Merge what is left of A (all >= floor, since A's entries below floor were
		// picked first) with B into dst.
		i := 0
		for ai < n || bn > 0 {
			if bn == 0 || (ai < n && src[ai] <= ring[bh]) {
				dst[i] = src[ai]
				ai++
			} else {
				dst[i] = ring[bh]
				bh++
				if bh == n {
					bh = 0
				}
				bn--
			}
			i++
		}
		return last
	}
	// A is empty and B holds all n values, sorted from bh: k more picks go round it.
	a, b := k/n, k%n
	at := func(i int) float64 { // i-th smallest of B
		i += bh
		if i >= n {
			i -= n
		}
		return ring[i]
	}
	last = at((k-1)%n) + float64((k-1)/n)*eps + eps
	fa := float64(a) * eps
	fb := float64(a+1) * eps
	for i := b; i < n; i++ {
		dst[i-b] = at(i) + fa
	}
	for i := 0; i < b; i++ {
		dst[n-b+i] = at(i) + fb
	}
	// B's spread is at most eps, so only the junction can be out of order, by a rounding
	// step, when it is exactly eps.
	if b > 0 && dst[n-b-1] > dst[n-b] {
		slices.Sort(dst)
	}
	return last
}

// upperBound is the number of entries of the sorted s that are <= v.
func upperBound(s []float64, v float64) int {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s[m] <= v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
