package tas

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/sched"
)

// SumOptions control SumBound. The zero value is ready to use.
type SumOptions struct {
	// Credit[j] is the resource whose units carry job j's utility; it must be one the
	// job demands. nil or −1: the resource of the job's largest demand (the first on a
	// tie). Any choice gives a bound; the resource the job uses last gives the tightest.
	Credit []int
	// Window is how many slots from a job's release get an arc of their own (default
	// DefaultSumWindow); later slots are reached through geometrically spaced arcs that
	// credit the start of their range.
	Window int
	// MaxWork refuses networks whose jobs × arcs, summed over the resources, exceed it
	// (default DefaultSumMaxWork; successive shortest paths make a search of the arcs
	// for about every job, more under load); SumBound then returns the bound of every
	// job alone (Method "alone").
	MaxWork float64
	// ResourceRelease[j][r], when given, is the first slot job j may use resource r
	// (Options.ResourceRelease).
	ResourceRelease [][]int
	// MaxParallel[j][r], when positive, caps the units of resource r job j may hold in
	// one slot, in place of the instance's max_parallel (a cap per resource, which the
	// instance format cannot state). nil: the instance's.
	MaxParallel [][]int
}

// Default sizes of SumBound's network.
const (
	DefaultSumWindow = 64
	// DefaultSumMaxWork admits the 100-job generated families at 60 s slots and about
	// 500 jobs of workload.Arrivals at 90% load (1.3 s of CPU; 1,000 take 7.2 s,
	// BenchmarkSumBound).
	DefaultSumMaxWork = 3e7
)

// SumResult is an upper bound on Σ_j U_j(T_j) over every feasible schedule.
type SumResult struct {
	// Bound is the upper bound: the Lagrangian value of the transportation relaxation at
	// the slot prices of its optimal flow, raised by 1e-9 relative for float error.
	Bound float64
	// Primal is the value of the optimal flow itself (a point of the relaxation, so at
	// most its optimum); Bound − Primal is the duality gap left by float error.
	Primal float64
	// Method is "transportation" or, when the network exceeds MaxWork, "alone" (each job
	// at its best utility from its release on).
	Method string
	Arcs   int
}

// SumBound bounds the sum of utilities of TAS over every feasible schedule of in (see
// the package documentation, "A bound on the sum").
func SumBound(ctx context.Context, in *sched.Instance, opts SumOptions) (*SumResult, error) {
	p, err := newProblem(in)
	if err != nil {
		return nil, err
	}
	if err := p.setResourceReleases(opts.ResourceRelease); err != nil {
		return nil, err
	}
	if c := opts.MaxParallel; c != nil && len(c) != p.n {
		return nil, fmt.Errorf("tas: sum bound: %d rows of caps for %d jobs", len(c), p.n)
	}
	for j, row := range opts.MaxParallel {
		if len(row) != p.R {
			return nil, fmt.Errorf("tas: sum bound: job %q: %d caps for %d resources", in.Jobs[j].ID, len(row), p.R)
		}
	}
	window := cmp.Or(opts.Window, DefaultSumWindow)
	maxWork := cmp.Or(opts.MaxWork, DefaultSumMaxWork)
	credit := make([]int, p.n)
	for j := range p.n {
		credit[j] = -1
		if opts.Credit != nil && opts.Credit[j] >= 0 {
			if r := opts.Credit[j]; r >= p.R || p.eta[j][r] == 0 {
				return nil, fmt.Errorf("tas: sum bound: job %q: credit resource %d has no demand", in.Jobs[j].ID, r)
			}
			credit[j] = opts.Credit[j]
			continue
		}
		for r := range p.R {
			if credit[j] < 0 || p.eta[j][r] > p.eta[j][credit[j]] {
				credit[j] = r
			}
		}
	}
	arcs, work := 0, 0.0
	d := newDyadic(p.T)
	for r := range p.R {
		a, jobs := 2*d.P+p.T, 0 // tree and sink arcs
		for j := range p.n {
			if p.eta[j][r] > 0 {
				a += 1 + len(sumOptions(p, d, j, r, window))
				jobs++
			}
		}
		arcs += a
		work += float64(a) * float64(jobs)
	}
	if work > maxWork {
		b := 0.0
		for j := range p.n {
			b += p.values.at(j, p.release[j])
		}
		return &SumResult{Bound: RaiseForFloatError(b), Primal: math.NaN(), Method: "alone", Arcs: arcs}, nil
	}
	res := &SumResult{Method: "transportation", Arcs: arcs}
	for r := range p.R {
		bound, primal, err := sumOnResource(ctx, p, r, credit, opts.MaxParallel, window)
		if err != nil {
			return nil, err
		}
		res.Bound += bound
		res.Primal += primal
	}
	res.Bound = RaiseForFloatError(res.Bound)
	return res, nil
}

// RaiseForFloatError adds the margin of 1e-9 relative that keeps a bound computed in
// float64 above the real value it bounds; a caller that adds terms of its own to a
// bound (sim adds the utilities of jobs with no work) raises them by the same margin.
func RaiseForFloatError(b float64) float64 { return b + 1e-9*(math.Abs(b)+1) }

// sumOption is one way a unit of a job can be placed: in slot lo itself (direct), or
// in any slot of [lo, hi] through the tree node covering that range, credited U(lo)/η.
type sumOption struct {
	lo, hi int
	node   int // heap index of the dyadic node, 0 for a direct option
	direct bool
}

// dyadic is the tree over slots 1..T: a perfect binary tree on P = 2^⌈log₂ T⌉ leaves in
// heap order (node i has children 2i and 2i+1; leaf P+s−1 is slot s).
type dyadic struct{ T, P int }

func newDyadic(T int) dyadic {
	P := 1
	for P < T {
		P *= 2
	}
	return dyadic{T: T, P: P}
}

// span is the range of slots of node i (possibly past T).
func (d dyadic) span(i int) (lo, hi int) {
	level := 0
	for (i << level) < d.P {
		level++
	}
	first := i<<level - d.P + 1
	return first, first + 1<<level - 1
}

// cover appends the nodes whose ranges partition [lo, T] (at most 2·log₂ P of them,
// growing geometrically away from lo).
func (d dyadic) cover(out []sumOption, lo int) []sumOption {
	var rec func(i, a, b int)
	rec = func(i, a, b int) {
		if b < lo || a > d.T {
			return
		}
		if a >= lo && b <= d.T || a >= lo && a == b {
			out = append(out, sumOption{lo: a, hi: min(b, d.T), node: i, direct: i >= d.P})
			return
		}
		m := (a + b) / 2
		rec(2*i, a, m)
		rec(2*i+1, m+1, b)
	}
	rec(1, 1, d.P)
	return out
}

// sumOptions lists job j's options: its first window slots from its release, each on
// its own, then the dyadic ranges that partition the rest of the horizon.
func sumOptions(p *problem, d dyadic, j, r, window int) []sumOption {
	var out []sumOption
	rel := p.relOf(j, r)
	last := min(p.T, rel+window-1)
	for s := rel; s <= last; s++ {
		out = append(out, sumOption{lo: s, hi: s, node: d.P + s - 1, direct: true})
	}
	if last < p.T {
		out = d.cover(out, last+1)
	}
	return out
}

// sumOnResource solves resource r's transportation problem — every job's units of r
// into slots from its release on, within the capacities, the credited jobs earning
// U_j(lo)/η_jr per unit placed through an option starting at lo — by min-cost flow,
// and returns the Lagrangian bound at the flow's slot prices and the flow's own value.
func sumOnResource(ctx context.Context, p *problem, r int, credit []int, caps [][]int, window int) (bound, primal float64, err error) {
	T := p.T
	var jobs []int
	for j := range p.n {
		if p.eta[j][r] > 0 {
			jobs = append(jobs, j)
		}
	}
	if len(jobs) == 0 {
		return 0, 0, nil
	}
	d := newDyadic(T)
	// Nodes: source, jobs, the tree in heap order (its leaves are the slots), sink —
	// every arc goes from a lower node to a higher one.
	src := 0
	jobNode := func(k int) int { return 1 + k }
	tree := func(i int) int { return 1 + len(jobs) + i - 1 }
	sink := 1 + len(jobs) + 2*d.P - 1
	g := newMinCostFlow(sink + 1)
	var total int64
	var opts []sumOption
	for k, j := range jobs {
		eta := p.eta[j][r]
		total += eta
		g.arc(src, jobNode(k), eta, 0)
		if credit[j] != r {
			for _, o := range d.cover(opts[:0], p.relOf(j, r)) {
				g.arc(jobNode(k), tree(o.node), eta, 0)
			}
			continue
		}
		for _, o := range credited(p, d, j, r, caps, window) {
			g.arc(jobNode(k), tree(o.node), o.cap, -o.gain)
		}
	}
	for i := 1; i < d.P; i++ {
		for _, c := range []int{2 * i, 2*i + 1} {
			if lo, _ := d.span(c); lo <= T {
				g.arc(tree(i), tree(c), infCap, 0)
			}
		}
	}
	for s := 1; s <= T; s++ {
		g.arc(tree(d.P+s-1), sink, p.cap[r][s-1], 0)
	}
	flow, cost, err := g.run(ctx, src, sink, total)
	if err != nil {
		return 0, 0, err
	}
	if flow < total {
		return 0, 0, fmt.Errorf("%w: sum bound: resource %d: %d of %d units fit", ErrInfeasible, r, flow, total)
	}
	// Slot prices from the potentials: λ_s = max(0, φ_sink − φ_slot(s)), the reduced
	// cost of a saturated slot → sink arc.
	lambda := make([]float64, T+1)
	for s := 1; s <= T; s++ {
		lambda[s] = max(0, g.pot[sink]-g.pot[tree(d.P+s-1)])
	}
	bound, err = lagrangian(p, r, d, jobs, credit, caps, window, lambda)
	if err != nil {
		return 0, 0, err
	}
	return bound, -cost, nil
}

// lagrangian is the Lagrangian bound of resource r's transportation problem at slot
// prices λ ≥ 0: Σ_s C_s λ_s plus, per job, the best placement of its η units when each
// unit at s pays λ_s instead of using capacity — the greedy of its options by value
// U_j(lo)/η − price (an option over [lo, hi] pays the least price there), each slot of
// its window taking at most max_parallel units. Weak duality makes it an upper bound for
// every λ ≥ 0, whatever produced λ.
func lagrangian(p *problem, r int, d dyadic, jobs, credit []int, caps [][]int, window int, lambda []float64) (float64, error) {
	T := p.T
	// Least price per tree node, bottom up (nodes past T: +∞).
	least := make([]float64, 2*d.P)
	for i := range least {
		least[i] = math.Inf(1)
	}
	for s := 1; s <= T; s++ {
		if lambda[s] < 0 || math.IsNaN(lambda[s]) {
			return 0, errors.New("tas: sum bound: a slot price is negative")
		}
		least[d.P+s-1] = lambda[s]
	}
	for i := d.P - 1; i >= 1; i-- {
		least[i] = min(least[2*i], least[2*i+1])
	}
	b := 0.0
	for s := 1; s <= T; s++ {
		b += float64(p.cap[r][s-1]) * lambda[s]
	}
	type val struct {
		v   float64
		cap int64
	}
	var vals []val
	var opts []sumOption
	for _, j := range jobs {
		eta := p.eta[j][r]
		if credit[j] != r {
			// Its units earn nothing and pay the least price from its release on.
			b -= float64(eta) * minOver(d.cover(opts[:0], p.relOf(j, r)), least)
			continue
		}
		vals = vals[:0]
		for _, o := range credited(p, d, j, r, caps, window) {
			vals = append(vals, val{o.gain - least[o.node], o.cap})
		}
		slices.SortFunc(vals, func(a, b val) int { return cmp.Compare(b.v, a.v) })
		left := eta
		for _, x := range vals {
			take := min(left, x.cap)
			b += float64(take) * x.v
			if left -= take; left == 0 {
				break
			}
		}
		if left > 0 {
			return 0, fmt.Errorf("tas: sum bound: job %q has no room for %d units", p.inst.Jobs[j].ID, left)
		}
	}
	return b, nil
}

// creditOption is an arc of job j's credited units: to tree node node, at most cap
// units, each earning gain.
type creditOption struct {
	node int
	cap  int64
	gain float64
}

// credited lists job j's options on its credit resource r with their credit U_j(lo)/η
// and capacity: max_parallel on the slots of its window, η elsewhere.
func credited(p *problem, d dyadic, j, r int, caps [][]int, window int) []creditOption {
	eta := p.eta[j][r]
	per := perSlot(p, caps, j, r)
	opts := sumOptions(p, d, j, r, window)
	out := make([]creditOption, len(opts))
	for k, o := range opts {
		c := eta
		if o.direct && o.lo-p.relOf(j, r) < window {
			c = per
		}
		out[k] = creditOption{node: o.node, cap: c, gain: p.values.at(j, o.lo) / float64(eta)}
	}
	return out
}

// perSlot is the most units of resource r job j may hold in one slot.
func perSlot(p *problem, caps [][]int, j, r int) int64 {
	per := p.eta[j][r]
	if p.maxPar[j] > 0 {
		per = min(per, p.maxPar[j])
	}
	if caps != nil && caps[j][r] > 0 {
		per = min(per, int64(caps[j][r]))
	}
	return per
}

func minOver(opts []sumOption, least []float64) float64 {
	m := math.Inf(1)
	for _, o := range opts {
		m = min(m, least[o.node])
	}
	return m
}
