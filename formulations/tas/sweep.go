package tas

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// The backward sweep computes the same peeling as the layered engine in one pass over
// the slot boundaries, for instances without release times or caps.
//
// Why it is the same. Picture the level L rising continuously. A free job sits at
// deadline d_j(L); it crosses boundary t (its deadline goes from t+1 to t) when L passes
// U_j(t+1), and that is allowed iff the prefix slack at t can absorb its demand. The
// slack at t, Σ_{s≤t} C_s − Σ_{k: d_k ≤ t} η_k, changes only when a job crosses t, so
// whether job j may cross t depends only on which jobs reached t (were not stopped at a
// later boundary) and, among them, which ones asked first — those with smaller U(t+1). A
// job that may not cross t is saturated there (it cannot reach its next value while
// everyone else keeps theirs): it is peeled with deadline t+1, and every later request at
// t still sees the same slack. So the boundaries can be processed from T−1 down to 1: the
// jobs arriving at t, in increasing order of U_j(t+1), cross while their demand fits what
// is left of Σ_{s≤t} C_s, and the others stop at t+1. Where all arrivals fit together
// (the common case) nothing needs to be ordered at all.
//
// The correspondence needs each request to be one boundary and one job. Two things break
// that, and the sweep detects both and hands the instance to the layered engine:
//   - Tied requests at a boundary that does not admit all of them: the layered engine
//     tests them alone and together, and may stall and branch.
//   - Flat stretches. A job whose utility is flat over slots a..e gains nothing until it
//     has crossed all of a−1..e−1, so it requests them as one move. The sweep lets it
//     cross them one at a time; that is harmless unless it is stopped inside the stretch
//     after a boundary of the stretch had to choose whom to admit (it then occupied room
//     it should not have). A job that stops inside a stretch is moved back to the
//     stretch's end e, and a job whose utility cannot rise any more (U_j(t+1) = U_j(1))
//     stops where it is.
//
// Cost: O(R) per boundary where everything fits; where something must stop, one
// evaluation of U_j(t+1) per arriving job and a weighted selection of the threshold
// (expected linear), plus sorting the jobs at or above it.
type sweep struct {
	ctx    context.Context
	p      *problem
	stats  *Stats
	rng    *rand.Rand
	items  []sweepItem
	sumAll []int64 // Σ η_r over the arriving jobs
	budget []int64 // Σ_{s≤t} C_rs at the boundary being decided
	rem    []int64 // what is left of it
	group  []int64 // demand of the jobs of a tie group that fit alone
}

type sweepItem struct {
	key float64 // U_j(t+1)
	j   int32
}

// errHandOver is returned by the sweep when the instance needs the layered engine.
type errHandOver struct{ reason string }

func (e *errHandOver) Error() string { return "sweep hands over: " + e.reason }

func runSweep(ctx context.Context, p *problem, st *Stats) ([]int, error) {
	s := &sweep{ctx: ctx, p: p, stats: st, rng: rand.New(rand.NewPCG(0x5ee9, 0xbeef)),
		sumAll: make([]int64, p.R), budget: make([]int64, p.R), rem: make([]int64, p.R), group: make([]int64, p.R)}
	return s.run()
}

func (s *sweep) run() ([]int, error) {
	p := s.p
	T := p.T
	deadline := make([]int, p.n)
	top := make([]float64, p.n) // U_j(1): the most job j can get
	for j := range p.n {
		top[j] = p.u.at(j, 1)
		if top[j] != top[j] {
			return nil, fmt.Errorf("tas: job %q: utility is NaN at slot 1", p.inst.Jobs[j].ID)
		}
	}
	s.items = make([]sweepItem, p.n)
	for j := range p.n {
		s.items[j] = sweepItem{j: int32(j)}
		for r := range p.R {
			s.sumAll[r] += p.eta[j][r]
		}
	}
	// decided[t] counts the boundaries in [t, T−1] that had to choose whom to admit.
	decided := make([]int32, T+1)
	choseIn := func(a, b int) bool { return a <= b && decided[a]-decided[b+1] > 0 }
	// stop fixes job j, stopped at boundary t with U_j(t+1) = v, at the end of its
	// stretch of value v; it fails when a boundary it should not have crossed chose.
	stop := func(j, t int, v float64) error {
		e := p.u.lastAtLeast(j, v)
		if choseIn(t+1, e-1) {
			return &errHandOver{fmt.Sprintf("job %q stopped inside a flat stretch of its utility (slots %d..%d)",
				p.inst.Jobs[j].ID, t+1, e)}
		}
		deadline[j] = e
		return nil
	}
	for t := T - 1; t >= 1; t-- {
		decided[t] = decided[t+1]
		if !s.overloaded(t) {
			continue
		}
		if err := s.ctx.Err(); err != nil {
			return nil, fmt.Errorf("tas: onion peeling: %w", err)
		}
		// Evaluate the requests; jobs that cannot rise any more stop here.
		kept := s.items[:0]
		for _, it := range s.items {
			j := int(it.j)
			v := p.u.at(j, t+1)
			s.stats.Evaluations++
			if v != v {
				return nil, fmt.Errorf("tas: job %q: utility is NaN at slot %d", p.inst.Jobs[j].ID, t+1)
			}
			if v == top[j] {
				if err := stop(j, t, v); err != nil {
					return nil, err
				}
				s.remove(j)
				continue
			}
			kept = append(kept, sweepItem{key: v, j: it.j})
		}
		s.items = kept
		if !s.overloaded(t) {
			continue
		}
		decided[t]++
		s.stats.BlockingSlots++
		stopped, err := s.admit(t)
		if err != nil {
			return nil, err
		}
		for _, it := range stopped {
			if err := stop(int(it.j), t, it.key); err != nil {
				return nil, err
			}
		}
	}
	// The rest crossed every boundary: they finish at the latest slot with their best value.
	for _, it := range s.items {
		j := int(it.j)
		deadline[j] = p.u.lastAtLeast(j, top[j])
	}
	return deadline, nil
}

// overloaded reports whether the arriving jobs need more than slots 1..t offer.
func (s *sweep) overloaded(t int) bool {
	for r := range s.p.R {
		if s.sumAll[r] > s.p.prefix[r][t] {
			return true
		}
	}
	return false
}

func (s *sweep) remove(j int) {
	for r := range s.p.R {
		s.sumAll[r] -= s.p.eta[j][r]
	}
}

// admit decides boundary t: the items cross in increasing key order while they fit.
// Items below the threshold θ (the key at which the prefix by key first overflows a
// resource) all fit and are not ordered; the items at or above θ are sorted and admitted
// greedily, ties as a group. It returns the stopped items, removed from s.items.
func (s *sweep) admit(t int) ([]sweepItem, error) {
	p := s.p
	for r := range p.R {
		s.budget[r] = p.prefix[r][t]
	}
	theta := s.threshold()
	// Split: below θ first (they cross), then the rest.
	items := s.items
	k := 0
	for i := range items {
		if items[i].key < theta {
			items[i], items[k] = items[k], items[i]
			k++
		}
	}
	rem := s.rem
	copy(rem, s.budget)
	for _, it := range items[:k] {
		for r := range p.R {
			rem[r] -= p.eta[it.j][r]
		}
	}
	top := items[k:]
	slices.SortFunc(top, func(a, b sweepItem) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.j, b.j)
	})
	kept := items[:k]
	var stopped []sweepItem
	fits := func(j int32) bool {
		for r := range p.R {
			if p.eta[j][r] > rem[r] {
				return false
			}
		}
		return true
	}
	for g := 0; g < len(top); {
		h := g + 1
		for h < len(top) && top[h].key == top[g].key {
			h++
		}
		group := top[g:h]
		// Alone: who fits what is left? Together: do those all fit?
		var nFit int
		clear(s.group)
		for _, it := range group {
			if fits(it.j) {
				nFit++
				for r := range p.R {
					s.group[r] += p.eta[it.j][r]
				}
			}
		}
		if nFit > 1 {
			for r := range p.R {
				if s.group[r] > rem[r] {
					return nil, &errHandOver{fmt.Sprintf("%d jobs tie at utility %g at slot %d and cannot all rise", nFit, group[0].key, t+1)}
				}
			}
		}
		for _, it := range group {
			if fits(it.j) {
				kept = append(kept, it)
				for r := range p.R {
					rem[r] -= p.eta[it.j][r]
				}
			} else {
				stopped = append(stopped, it)
			}
		}
		g = h
	}
	// kept aliases items (it never overtakes the read position), so stopped was copied.
	s.items = kept
	for _, it := range stopped {
		s.remove(int(it.j))
	}
	return stopped, nil
}

// threshold returns θ, the smallest key such that the items with key ≤ θ overflow some
// resource's budget (it exists because the boundary is overloaded). Weighted quickselect
// with random pivots on a scratch order of s.items: expected linear time.
func (s *sweep) threshold() float64 {
	p := s.p
	items := s.items
	acc := make([]int64, p.R)
	wl := make([]int64, p.R)
	we := make([]int64, p.R)
	lo, hi := 0, len(items)
	for hi > lo {
		pivot := items[lo+s.rng.IntN(hi-lo)].key
		// Three-way partition of items[lo:hi]: < pivot, == pivot, > pivot.
		lt, i, gt := lo, lo, hi
		clear(wl)
		clear(we)
		for i < gt {
			switch k := items[i].key; {
			case k < pivot:
				for r := range p.R {
					wl[r] += p.eta[items[i].j][r]
				}
				items[lt], items[i] = items[i], items[lt]
				lt++
				i++
			case k > pivot:
				gt--
				items[gt], items[i] = items[i], items[gt]
			default:
				for r := range p.R {
					we[r] += p.eta[items[i].j][r]
				}
				i++
			}
		}
		over := func(extra ...[]int64) bool {
			for r := range p.R {
				sum := acc[r]
				for _, x := range extra {
					sum += x[r]
				}
				if sum > s.budget[r] {
					return true
				}
			}
			return false
		}
		switch {
		case over(wl):
			hi = lt
		case over(wl, we):
			return pivot
		default:
			for r := range p.R {
				acc[r] += wl[r] + we[r]
			}
			lo = gt
		}
	}
	// Unreachable when the boundary is overloaded; +∞ admits everything below it.
	return math.Inf(1)
}
