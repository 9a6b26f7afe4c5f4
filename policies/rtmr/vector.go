package rtmr

import (
	"slices"
	"sort"
)

// place runs the loop of Algorithm II lines 2–8 (and, with floor = e^m, Algorithm III lines
// 3–9) on the sorted slot-availability vector t: k times, take the smallest entry t_1,
// set it to max(t_1, floor) + eps and re-sort. It returns the value the last iteration
// wrote (e^m, or e), and leaves t sorted. k must be >= 1 and eps > 0.
//
// The loop as printed costs O(k log n) per job; an admission decision re-runs it for every
// job after the new one in the queue, so place computes the same vector in O(n) once the
// spread of t is at most eps: from then on the greedy choice visits the entries in
// cyclic order (each pick moves the smallest entry past the largest), so k = a·n + b picks
// add (a+1)·eps to the b smallest entries and a·eps to the rest — the entries rotate.
// Until then it does the printed step one pick at a time (a binary search and a memmove).
// The result equals the printed loop's up to floating-point rounding of a·eps versus a
// repeated additions (TestPlaceMatchesPrintedLoop).
func place(t []float64, k int, eps, floor float64) float64 {
	n := len(t)
	// c entries are below floor. The printed loop picks them first (they are the smallest)
	// and each becomes floor + eps; entries it never picks keep their value.
	c := sort.SearchFloat64s(t, floor) // first index with t[i] >= floor
	if k < c {
		v := floor + eps
		// Drop the k smallest, then insert k copies of v where they sort.
		copy(t, t[k:])
		rest := t[:n-k]
		at := upperBound(rest, v)
		copy(t[at+k:], t[at:n-k])
		for i := at; i < at+k; i++ {
			t[i] = v
		}
		return v
	}
	for i := 0; i < c; i++ {
		t[i] = floor
	}
	last := 0.0
	for k > 0 {
		if t[n-1]-t[0] <= eps {
			return rotate(t, k, eps)
		}
		v := t[0] + eps
		last = v
		k--
		at := upperBound(t[1:], v) // entries of t[1:] that are <= v move one left
		copy(t[:at], t[1:at+1])
		t[at] = v
	}
	return last
}

// rotate does k picks on a sorted t whose spread is at most eps (see place).
func rotate(t []float64, k int, eps float64) float64 {
	n := len(t)
	a, b := k/n, k%n
	last := t[(k-1)%n] + float64((k-1)/n)*eps + eps
	fa := float64(a) * eps
	fb := float64(a+1) * eps
	for i := 0; i < b; i++ {
		t[i] += fb
	}
	for i := b; i < n; i++ {
		t[i] += fa
	}
	if b > 0 {
		// [t_b … t_{n-1}] + a·eps ≤ [t_0 … t_{b-1}] + (a+1)·eps: rotate left by b.
		slices.Reverse(t[:b])
		slices.Reverse(t[b:])
		slices.Reverse(t)
	}
	// A spread of exactly eps can leave neighbours out of order by one rounding step.
	if !slices.IsSorted(t) {
		slices.Sort(t)
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
