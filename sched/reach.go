package sched

import (
	"cmp"
	"math"
	"slices"
)

// reachQuery asks how many units of one resource a job can hold in slots from..T when
// it holds at most cap per slot (0: no cap): Σ_{t=from}^{T} min(cap, C_t).
type reachQuery struct {
	job, from, cap int
	total          int64 // the answer
}

// reachable answers every query in O((T + q) log T): queries sorted by cap, slots
// activated in order of capacity; an activated slot (C_t ≤ cap) contributes C_t, every
// other slot contributes cap. Answering one at a time would cost O(T) per job.
func reachable(capacity []int, qs []reachQuery) {
	T := len(capacity)
	order := make([]int, len(qs))
	for k := range order {
		order[k] = k
	}
	capOf := func(k int) int {
		if qs[k].cap == 0 {
			return math.MaxInt
		}
		return qs[k].cap
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(capOf(a), capOf(b)) })
	slots := make([]int, T)
	for t := range slots {
		slots[t] = t
	}
	slices.SortFunc(slots, func(a, b int) int { return cmp.Compare(capacity[a], capacity[b]) })
	sum := newFenwick(T)
	count := newFenwick(T)
	next := 0
	for _, k := range order {
		c := capOf(k)
		for next < T && capacity[slots[next]] <= c {
			sum.add(slots[next], int64(capacity[slots[next]]))
			count.add(slots[next], 1)
			next++
		}
		from := qs[k].from - 1
		if from >= T {
			qs[k].total = 0
			continue
		}
		active := sum.suffix(from)
		rest := int64(T-from) - count.suffix(from)
		qs[k].total = active + rest*int64(min(c, MaxQuantity))
	}
}

// fenwick is a binary indexed tree over slots 0..n-1.
type fenwick []int64

func newFenwick(n int) fenwick { return make(fenwick, n+1) }

func (f fenwick) add(i int, v int64) {
	for i++; i < len(f); i += i & -i {
		f[i] += v
	}
}

// prefix is the sum over slots 0..i-1.
func (f fenwick) prefix(i int) int64 {
	s := int64(0)
	for ; i > 0; i -= i & -i {
		s += f[i]
	}
	return s
}

// suffix is the sum over slots i..n-1.
func (f fenwick) suffix(i int) int64 { return f.prefix(len(f)-1) - f.prefix(i) }
