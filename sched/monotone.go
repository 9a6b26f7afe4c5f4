package sched

import (
	"math"
	"slices"
)

// increases reports whether U(t+1) exceeds U(t) by more than the rounding tolerance
// 1e-12·max(1, |U(t)|).
func increases(u Utility, t int) bool {
	a, b := u.At(t), u.At(t+1)
	return b > a+1e-12*math.Max(1, math.Abs(a))
}

// firstIncrease returns the first slot t in 1..T-1 with U(t+1) > U(t) (beyond rounding).
//
// It never walks all T slots for the built-in families, so a file with many jobs and a
// long horizon is checked in time proportional to its size: piecewise-linear families
// are affine between their breakpoints, so on the integer slots inside one piece every
// step has the same sign and checking the slots next to each breakpoint is enough; a
// sigmoid can only increase when its priority is negative, and then its steps grow
// towards the deadline, so a bisection finds the first one. Tables are scanned (their
// length is bounded by the file); other Utility implementations are scanned in full.
func firstIncrease(u Utility, T int) (int, bool) {
	if T < 2 {
		return 0, false
	}
	switch u := u.(type) {
	case Constant:
		return 0, false
	case Sigmoid:
		return sigmoidIncrease(u, T)
	case Linear:
		bps := []float64{u.Budget}
		if u.Slope > 0 {
			bps = append(bps, u.Budget+u.Priority/u.Slope)
		}
		return breakpointIncrease(u, T, bps)
	case Step:
		return breakpointIncrease(u, T, []float64{u.Deadline})
	case RDS:
		return breakpointIncrease(u, T, []float64{u.Soft, u.Hard})
	case Piecewise:
		bps := make([]float64, len(u.Points))
		for k, p := range u.Points {
			bps[k] = p[0]
		}
		return breakpointIncrease(u, T, bps)
	case Table:
		return scanIncrease(u, min(T, len(u.Values)+1))
	}
	return scanIncrease(u, T)
}

func scanIncrease(u Utility, T int) (int, bool) {
	for t := 1; t < T; t++ {
		if increases(u, t) {
			return t, true
		}
	}
	return 0, false
}

// breakpointIncrease checks the steps (t, t+1) next to each breakpoint x — t in
// {⌊x⌋−1, ⌊x⌋, ⌊x⌋+1} — plus the first and last step.
func breakpointIncrease(u Utility, T int, bps []float64) (int, bool) {
	cand := []int{1, T - 1}
	for _, x := range bps {
		if math.IsNaN(x) || x < 0 || x > float64(T)+1 {
			continue
		}
		f := int(math.Floor(x))
		for t := f - 1; t <= f+1; t++ {
			if t >= 1 && t <= T-1 {
				cand = append(cand, t)
			}
		}
	}
	slices.Sort(cand)
	for _, t := range slices.Compact(cand) {
		if increases(u, t) {
			return t, true
		}
	}
	return 0, false
}

// sigmoidIncrease: p/(1+e^{μ(t−d)}) with μ ≥ 0 is non-increasing unless p < 0 and μ > 0.
// Then every step is an increase whose size peaks at t ≈ d−½ and grows before it, while
// the tolerance shrinks with |U|; so the first step over tolerance, if any, is found by
// bisection on [1, peak].
func sigmoidIncrease(u Sigmoid, T int) (int, bool) {
	if u.Priority >= 0 || u.Decay <= 0 {
		return 0, false
	}
	peak := T - 1
	if u.Deadline < float64(T) {
		peak = max(1, int(math.Floor(u.Deadline)))
	}
	hit := 0
	for t := max(1, peak-1); t <= min(T-1, peak+1); t++ {
		if increases(u, t) {
			hit = t
			break
		}
	}
	if hit == 0 {
		return 0, false
	}
	lo, hi := 1, hit // increases(hi) holds
	for lo < hi {
		mid := lo + (hi-lo)/2
		if increases(u, mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, true
}
