package plan

import (
	"math"

	"github.com/coraopt/coraopt/sched"
)

// UtilityCache keeps the values of the planning utilities (ln U of a sigmoid, shifted to
// the slot grid, with its stage's lift) from one decision instant to the next. With
// aligned slots (DispatchPlan) a part's utility is the same function at every instant
// of a slot unless its job's tail changed, so a job's values are computed once per slot
// grid instead of at every instant (and, where the grid's shift is exact in float64,
// carried over to the next grid: carryOver): onion peeling evaluates ln U tens of
// thousands of times per 1,000-job plan (each an exp and a log1p). A value is the number the
// uncached utility returns, computed by the same expression, so plans are bit for bit
// the same. Hold one per planner (Options.Utilities); the zero value is ready.
//
// Only plans of at most maxCachedValues part-slots use it: past that the values no
// longer stay in the processor's caches, and reading one from memory (~66 ns
// per value at 1,000 jobs, 236 slots, 2,000 parts, on a loaded 2-core machine) costs
// more than computing it again
// (~25 ns).
type UtilityCache struct {
	m   map[logKey]*cachedLog
	gen uint32 // Build calls so far; entries unused for two are dropped
	// horizon is the slots of the current Build: a new entry's values are sized for it.
	horizon int
	// free holds the value arrays of dropped entries for new ones. At every slot
	// boundary every part's key changes, so without it each boundary allocated a new
	// array per part (grown by doubling): a burst of allocation that made those
	// decisions the slowest ones and brought the garbage collector's cycles forward.
	free [][]float64
}

// maxCachedValues bounds parts × slots of a plan whose utilities are cached: 512 KiB
// of values, a core's L2 cache on the machines measured.
const maxCachedValues = 1 << 16

type logKey struct {
	logPriority, deadline, decay, eps float64
}

// cachedLog is LogSigmoid u (eps = 0) or lifted{u, eps}, memoized per slot.
type cachedLog struct {
	u    LogSigmoid
	eps  float64
	vals []float64 // vals[t]: the value at slot t, NaN until computed
	used uint32
}

func (c *cachedLog) At(t int) float64 {
	if t >= 0 && t < len(c.vals) {
		if v := c.vals[t]; v == v {
			return v
		}
	}
	v := c.u.At(t)
	if c.eps != 0 {
		v += c.eps // lifted.At's expression
	}
	if t >= 0 && v == v {
		if t >= len(c.vals) {
			n := len(c.vals)
			c.vals = append(c.vals, make([]float64, max(t+1, 2*n)-n)...)
			for i := n; i < len(c.vals); i++ {
				c.vals[i] = math.NaN()
			}
		}
		c.vals[t] = v
	}
	return v
}

func (c *cachedLog) Type() string { return c.u.Type() }

// lookup is the cached form of u (lifted by eps when eps > 0), or u itself (lifted)
// when u is not a LogSigmoid.
func (uc *UtilityCache) lookup(u sched.Utility, eps float64) sched.Utility {
	ls, ok := u.(LogSigmoid)
	if !ok || uc == nil {
		if eps > 0 {
			return lifted{u: u, eps: eps}
		}
		return u
	}
	return uc.lookupLog(ls, eps)
}

// plan is uc.lookup(PlanUtility(u, elapsed, k, log), eps), without boxing the shifted
// sigmoid and (when uc is not nil) its logarithm into interfaces on their way into the
// cache: two small allocations per part and decision, one where no cache is used.
func (uc *UtilityCache) plan(u sched.Utility, elapsed, k float64, log bool, eps float64) sched.Utility {
	if sg, ok := u.(sched.Sigmoid); ok && log {
		if s := shiftSigmoid(sg, elapsed, k); s.Priority > 0 {
			if uc == nil {
				return uc.lookup(NewLogSigmoid(s), eps)
			}
			return uc.lookupLog(NewLogSigmoid(s), eps)
		}
	}
	return uc.lookup(PlanUtility(u, elapsed, k, log), eps)
}

// lookupLog is lookup of a LogSigmoid (uc not nil).
func (uc *UtilityCache) lookupLog(ls LogSigmoid, eps float64) sched.Utility {
	if uc.m == nil {
		uc.m = map[logKey]*cachedLog{}
	}
	k := logKey{ls.LogPriority, ls.Deadline, ls.Decay, eps}
	c := uc.m[k]
	if c == nil {
		c = &cachedLog{u: ls, eps: eps}
		if !uc.carryOver(c, k) {
			c.vals = uc.values()
		}
		uc.m[k] = c
	}
	c.used = uc.gen
	return c
}

// carryOver gives a new entry the values its predecessor on the previous slot grid
// computed, when they are bit for bit its own. At a slot boundary (aligned slots) the
// grid moves one slot later, so each part's shifted deadline D' is, in the reals, the
// previous grid's D less one, and its value at slot t is the previous one at t+1. In
// float64 that holds exactly when D' + 1 is exactly D: then float64(t) − D' and
// float64(t+1) − D are the rounding of one real number, so LogSigmoid.Of computes the
// same z from the same Decay, and the same value (lifted by the same eps). Where the
// shift rounded (D' + 1 is not exact, or D' is not the previous D less one) the key
// finds no predecessor and the values are computed again: a boundary's new grid used
// to recompute every value the sweep asked for (issue 28, "slot boundaries").
//
// The predecessor's array is taken over, shifted in place, rather than copied: after
// the boundary no plan asks for the previous grid's values, and the predecessor, should
// one still be asked, computes them again (as a dropped entry does). It reports
// whether c got values this way.
func (uc *UtilityCache) carryOver(c *cachedLog, k logKey) bool {
	d, exact := plusOne(k.deadline)
	if !exact {
		return false
	}
	prev := k
	prev.deadline = d
	o := uc.m[prev]
	if o == nil || len(o.vals) < 2 {
		return false
	}
	v := o.vals
	o.vals = nil
	copy(v, v[1:]) // NaN, not computed, stays NaN
	v[len(v)-1] = math.NaN()
	for len(v) < uc.horizon {
		v = append(v, math.NaN())
	}
	c.vals = v
	return true
}

// plusOne is x + 1 in float64 and whether that sum is exact (Knuth's TwoSum: the
// rounding error of a + b is recovered exactly, barring overflow).
func plusOne(x float64) (float64, bool) {
	s := x + 1
	bb := s - x
	err := (x - (s - bb)) + (1 - bb)
	return s, err == 0 && !math.IsInf(s, 0) && s == s
}

// values is a value array of the current horizon, every value NaN (not computed): a
// dropped entry's when there is one.
func (uc *UtilityCache) values() []float64 {
	var v []float64
	if n := len(uc.free); n > 0 && cap(uc.free[n-1]) >= uc.horizon {
		v = uc.free[n-1][:uc.horizon]
		uc.free[n-1] = nil
		uc.free = uc.free[:n-1]
	} else {
		v = make([]float64, uc.horizon)
	}
	for i := range v {
		v[i] = math.NaN()
	}
	return v
}

// next starts a Build of parts over horizon slots: entries no plan used in the last two
// are dropped once the map holds half as many again as a plan's parts (after a slot
// boundary it holds the old grid's and the new one's), and their value arrays are kept
// for new entries. A dropped entry that an older plan still holds keeps working: it
// loses its values, not its function, and computes them again.
func (uc *UtilityCache) next(parts, horizon int) {
	if uc == nil {
		return
	}
	uc.gen++
	uc.horizon = horizon
	if len(uc.m) > parts+parts/2+64 {
		for k, c := range uc.m {
			if uc.gen-c.used > 2 {
				delete(uc.m, k)
				if len(uc.free) < parts+64 && cap(c.vals) > 0 {
					uc.free = append(uc.free, c.vals[:0])
				}
				c.vals = nil
			}
		}
	}
}
