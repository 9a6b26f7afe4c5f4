package rds

import (
	"container/heap"
	"fmt"
	"math"
	"slices"
)

// Dispatch is the task scheduler with dynamic slots, rds.txt Algorithm 1. adjust[c] is
// the resource adjustment Δu_c(t) still wanted by claim c (a job, or one phase of a job);
// each free slot goes to the claim with the largest adjustment (line 5), which then
// drops by slotSize (line 9); this repeats until every slot is assigned (line 11) or no
// claim can take another. caps[c] is the most slots claim c can use (its pending tasks);
// nil caps means no limit, a negative cap is read as 0.
//
// Slots keep being handed out after every adjustment is satisfied, as the algorithm's
// stopping rule Σ u = r_a says: the dispatcher is work-conserving, and a claim whose
// adjustment is negative gets slots only when every other claim's adjustment is lower.
// Ties go to the lower index, so callers order claims by their tie-break rule (the
// simulator orders jobs by arrival and id). It returns the slots per claim, using a
// heap: O((slots + claims)·log claims).
func Dispatch(adjust []float64, caps []int, slots int, slotSize float64) ([]int, error) {
	if caps != nil && len(caps) != len(adjust) {
		return nil, fmt.Errorf("rds: dispatch: %d caps for %d claims", len(caps), len(adjust))
	}
	if slots < 0 {
		return nil, fmt.Errorf("rds: dispatch: %d slots", slots)
	}
	if !(slotSize > 0) || math.IsInf(slotSize, 0) {
		return nil, fmt.Errorf("rds: dispatch: slot size must be finite and > 0, got %g", slotSize)
	}
	for c, a := range adjust {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return nil, fmt.Errorf("rds: dispatch: adjustment of claim %d is %g", c, a)
		}
	}
	got := make([]int, len(adjust))
	h := &claimHeap{adjust: slices.Clone(adjust)}
	for c := range adjust {
		if caps == nil || caps[c] > 0 {
			h.items = append(h.items, c)
		}
	}
	heap.Init(h)
	for s := 0; s < slots && h.Len() > 0; s++ {
		c := h.items[0]
		got[c]++
		h.adjust[c] -= slotSize
		if caps != nil && got[c] >= caps[c] {
			heap.Pop(h)
		} else {
			heap.Fix(h, 0)
		}
	}
	return got, nil
}

// claimHeap is a max-heap of claim indices by remaining adjustment, lower index first
// among equals.
type claimHeap struct {
	items  []int
	adjust []float64
}

func (h *claimHeap) Len() int { return len(h.items) }
func (h *claimHeap) Less(a, b int) bool {
	ca, cb := h.items[a], h.items[b]
	if h.adjust[ca] != h.adjust[cb] {
		return h.adjust[ca] > h.adjust[cb]
	}
	return ca < cb
}
func (h *claimHeap) Swap(a, b int) { h.items[a], h.items[b] = h.items[b], h.items[a] }
func (h *claimHeap) Push(x any)    { h.items = append(h.items, x.(int)) }
func (h *claimHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// DispatchFluid is the limit of Dispatch as the slot size goes to zero: capacity is
// poured into the claims with the largest remaining adjustment, so the claims that
// receive anything end at one common level λ (water-filling):
//
//	a_c = min(cap_c, max(0, adjust_c − λ)),   Σ_c a_c = capacity,
//
// or every claim at its cap when the caps add up to less than the capacity. caps nil
// means no limit (+Inf entries are allowed); a negative cap is read as 0.
func DispatchFluid(adjust, caps []float64, capacity float64) ([]float64, error) {
	if caps != nil && len(caps) != len(adjust) {
		return nil, fmt.Errorf("rds: dispatch: %d caps for %d claims", len(caps), len(adjust))
	}
	if !(capacity >= 0) || math.IsInf(capacity, 0) {
		return nil, fmt.Errorf("rds: dispatch: capacity must be finite and >= 0, got %g", capacity)
	}
	capOf := func(c int) float64 {
		if caps == nil {
			return math.Inf(1)
		}
		return math.Max(0, caps[c])
	}
	total := 0.0
	for c, a := range adjust {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return nil, fmt.Errorf("rds: dispatch: adjustment of claim %d is %g", c, a)
		}
		if caps != nil && math.IsNaN(caps[c]) {
			return nil, fmt.Errorf("rds: dispatch: cap of claim %d is NaN", c)
		}
		total += capOf(c)
	}
	out := make([]float64, len(adjust))
	if total <= capacity {
		for c := range out {
			out[c] = capOf(c)
		}
		return out, nil
	}
	// filled(λ) = Σ_c clamp(adjust_c − λ, 0, cap_c) is continuous, piecewise linear and
	// nonincreasing in λ; its breakpoints are adjust_c (claim c starts receiving) and
	// adjust_c − cap_c (claim c is full). Walk them downwards from the top until the
	// capacity is reached, then solve the linear piece for λ.
	type bp struct {
		at    float64
		slope int // change of −d filled/dλ when λ passes below at
	}
	bps := make([]bp, 0, 2*len(adjust))
	for c, a := range adjust {
		cp := capOf(c)
		if cp == 0 {
			continue
		}
		bps = append(bps, bp{a, +1})
		if !math.IsInf(cp, 1) {
			bps = append(bps, bp{a - cp, -1})
		}
	}
	slices.SortFunc(bps, func(x, y bp) int {
		switch {
		case x.at > y.at:
			return -1
		case x.at < y.at:
			return 1
		}
		return y.slope - x.slope
	})
	lambda, filled, active := math.Inf(1), 0.0, 0
	for _, b := range bps {
		if active > 0 {
			if next := filled + float64(active)*(lambda-b.at); next >= capacity {
				break
			} else {
				filled = next
			}
		}
		lambda = b.at
		active += b.slope
	}
	if active > 0 {
		lambda -= (capacity - filled) / float64(active)
	}
	for c, a := range adjust {
		out[c] = math.Min(capOf(c), math.Max(0, a-lambda))
	}
	return out, nil
}
