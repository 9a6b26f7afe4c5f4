package cora

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/sched"
)

// DefaultFallbackScale is the utility scale used when no power of ten up to it makes
// every utility value an integer: utilities are then rounded to three decimals, so the
// quantization error is at most 5·10⁻⁴ in the instance's own units.
const DefaultFallbackScale = 1000

// maxExactInt is 2⁵³: scaled utilities beyond it are not integers a float64 can hold.
const maxExactInt = 1 << 53

// Utilities are the integer utilities u_it = round(scale·U_i(t)) of cora.txt §II-A ("we
// multiply it by a constant coefficient to convert it into an integer with negligible
// quantization error"), with what the rounding cost.
type Utilities struct {
	// Scale is the constant the utilities were multiplied by.
	Scale float64
	// U[i][t-1] is u_it for job i and slot t.
	U [][]int64
	// MaxError is max |scale·U_i(t) − u_it| / scale over all i, t: the largest rounding
	// error in the instance's own utility units.
	MaxError float64
	// Merged counts pairs of distinct utility values, adjacent in sorted order, that round
	// to the same integer. Rounding is monotone, so it never reverses two values; but a
	// merge turns a strict preference into a tie, and the lexmax of the rounded problem
	// can then differ from that of the instance. OrderPreserved is Merged == 0.
	Merged         int
	OrderPreserved bool
	// MergedExample is one merged pair (the two values and their common integer), for
	// messages; zero when nothing merged.
	MergedExample [3]float64
	// Distinct is the number of distinct values U_i(t) over all jobs and slots.
	Distinct int
}

// Quantize computes the integer utilities of inst at the given scale. A scale of 0
// chooses the default: the smallest 10^d, d = 0…3, at which every U_i(t) is an integer
// (within 10⁻⁹ relative), so integer and short decimal utilities are represented exactly
// and with the smallest integers; DefaultFallbackScale otherwise.
func Quantize(inst *sched.Instance, scale float64) (*Utilities, error) {
	if inst == nil {
		return nil, errors.New("cora: nil instance")
	}
	if inst.Horizon < 1 {
		return nil, fmt.Errorf("cora: horizon %d: must be at least 1", inst.Horizon)
	}
	vals := make([][]float64, len(inst.Jobs))
	for i := range inst.Jobs {
		if inst.Jobs[i].Utility == nil {
			return nil, fmt.Errorf("cora: job %q: no utility", inst.Jobs[i].ID)
		}
		row := make([]float64, inst.Horizon)
		for t := range row {
			v := inst.Jobs[i].Utility.At(t + 1)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("cora: job %q: utility %v in slot %d is not finite", inst.Jobs[i].ID, v, t+1)
			}
			row[t] = v
		}
		vals[i] = row
	}
	switch {
	case scale == 0:
		scale = defaultScale(vals)
	case math.IsNaN(scale) || math.IsInf(scale, 0) || scale <= 0:
		return nil, fmt.Errorf("cora: utility scale %v: must be a positive finite number", scale)
	}
	out := &Utilities{Scale: scale, U: make([][]int64, len(vals))}
	for i, row := range vals {
		ur := make([]int64, len(row))
		for t, v := range row {
			s := scale * v
			if math.Abs(s) > maxExactInt {
				return nil, fmt.Errorf("cora: job %q: scaled utility %g·%g in slot %d exceeds 2^53, beyond the integers float64 holds exactly; use a smaller scale",
					inst.Jobs[i].ID, scale, v, t+1)
			}
			r := math.Round(s)
			ur[t] = int64(r)
			out.MaxError = math.Max(out.MaxError, math.Abs(s-r)/scale)
		}
		out.U[i] = ur
	}
	out.countMerges(vals)
	return out, nil
}

// defaultScale is the smallest 10^d, d = 0..3, making every value an integer.
func defaultScale(vals [][]float64) float64 {
	for s := 1.0; s <= DefaultFallbackScale; s *= 10 {
		ok := true
		for _, row := range vals {
			for _, v := range row {
				x := s * v
				if math.Abs(x-math.Round(x)) > 1e-9*math.Max(1, math.Abs(x)) {
					ok = false
					break
				}
			}
			if !ok {
				break
			}
		}
		if ok {
			return s
		}
	}
	return DefaultFallbackScale
}

// countMerges finds distinct values that round to the same integer.
func (u *Utilities) countMerges(vals [][]float64) {
	var all []float64
	for _, row := range vals {
		all = append(all, row...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	u.Distinct = len(all)
	for k := 1; k < len(all); k++ {
		a, b := math.Round(u.Scale*all[k-1]), math.Round(u.Scale*all[k])
		if a == b {
			if u.Merged == 0 {
				u.MergedExample = [3]float64{all[k-1], all[k], a}
			}
			u.Merged++
		}
	}
	u.OrderPreserved = u.Merged == 0
}

// mergeWarning describes the merged values, or "" when the order is preserved.
func (u *Utilities) mergeWarning() string {
	if u.OrderPreserved {
		return ""
	}
	e := u.MergedExample
	return fmt.Sprintf("rounding the utilities at scale %g merges %s pair(s) of distinct values into ties (e.g. %.6g and %.6g both become %.0f): the lexmax of the rounded problem can differ from the instance's; a larger --scale separates them",
		u.Scale, thousands(u.Merged), e[0], e[1], e[2])
}
