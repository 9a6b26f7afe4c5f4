package tas

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/coraopt/coraopt/sched"
)

// layered is the general onion-peeling engine (rush.txt Alg. 3, made exact): one
// bisection per layer over the utility values themselves, saturation tests, and
// branching where the layer stalls. It works with any feasibility oracle.
type layered struct {
	ctx         context.Context
	p           *problem
	or          oracle
	maxBranches int // stall branches that may still be explored; < 0: never branch
	branches    int
	depth       int // how many stall branches deep solve runs: only depth 0 settles jobs for good
	memo        map[string]*outcome
	pruned      map[string]*cut // fixed sets pruned, and under which cut
	stats       *Stats
	rng         *rand.Rand
	// resume lets the sweep finish the peeling once a stalled layer is decided
	// (sweepRest): true unless the layered engine is the reference (Options.Layered) or
	// some job has a parallelism cap (the sweep does not apply).
	resume bool
	// prune lets stall branches be seeded and cut (see branch): true unless the layered
	// engine is the reference (Options.Layered), which branches as it always has.
	prune bool
	// oneByOne asks the oracle one saturation or keepAlone question at a time even where
	// it can answer a layer's in one pass, and stuck's question even where keepAlone
	// answered it: the tests' reference for raiserAll, keeperAll and stuck's known.
	oneByOne bool
	// entry is keepAlone's answer for the vector stuck tests first in the branch solve is
	// starting (see stuck); solve takes it and resets it to 0, unknown.
	entry int8
	// above[j] = lastAbove(j, aboveLevel), kept for stuck.
	above      []int
	aboveLevel float64
	// cut is the bound of the outermost stall at the current level that branches: any
	// node under it that must leave more jobs at that level than an outcome already
	// found is pruned (see branch).
	cut *cut
}

// cut: some completion of the stalled node that owns it leaves count jobs at level.
type cut struct {
	level float64
	count int
}

// outcome is a finished peeling: every job's deadline and the level it was fixed at.
// Outcomes are shared through the memo and never modified.
type outcome struct {
	deadline []int
	level    []float64
	exact    bool
}

func newLayered(ctx context.Context, p *problem, or oracle, maxBranches int, st *Stats) *layered {
	return &layered{
		ctx: ctx, p: p, or: or, maxBranches: maxBranches, stats: st,
		memo: map[string]*outcome{}, pruned: map[string]*cut{},
		// The pivots only decide how fast the bisection converges, never its result; a
		// fixed seed keeps runs reproducible.
		rng: rand.New(rand.NewPCG(0x7a5, 0x0c0ffee)),
	}
}

// run peels every job.
func (e *layered) run() (*outcome, error) {
	n := e.p.n
	return e.solve(make([]int, n), make([]float64, n), math.Inf(-1))
}

// solve peels the free jobs (fixed[j] == 0) given the fixed ones; lo is a level known to
// be feasible for this fixed set (−∞ at the start).
//
// One layer: L* = the largest utility value such that every free job j can finish by
// d_j(L*) = max{t : U_j(t) ≥ L*} (the optimum's levels are utility values, so searching
// them is exact where Alg. 3's bisection on a real interval stops at a tolerance Δ).
// A free job at the level (U_j(d_j(L*)) = L*) is saturated when it cannot reach its next
// higher value, max{t : U_j(t) > L*}, while everyone else keeps L*; every optimum leaves
// it at L*, so it is fixed there. If no job is saturated the layer stalls: each job at
// the level could rise alone but not all together (only possible with tied values), so
// some of them stays at L* in every optimum — which one matters for the rest of the
// vector, so each choice is explored (memoized on the fixed set) while the branch budget
// lasts, and decided by keepRule afterwards.
func (e *layered) solve(fixed []int, level []float64, lo float64) (*outcome, error) {
	p := e.p
	fixed = slices.Clone(fixed)
	level = slices.Clone(level)
	exact := true
	free := make([]int, 0, p.n)
	// A branch starts right after its stall was decided: the sweep may take it from here.
	resume := e.depth > 0
	// What the stall's keepAlone already found about the vector stuck tests first.
	entry := e.entry
	e.entry = 0
	for {
		if err := e.ctx.Err(); err != nil {
			return nil, fmt.Errorf("tas: onion peeling: %w", err)
		}
		free = free[:0]
		for j := range p.n {
			if fixed[j] == 0 {
				free = append(free, j)
			}
		}
		if e.depth == 0 {
			p.report(p.n-len(free), e.branches, "layers")
		} else {
			p.report(0, e.branches, "layers")
		}
		if len(free) == 0 {
			return &outcome{deadline: fixed, level: level, exact: exact}, nil
		}
		if resume && e.stuck(fixed, level, free, lo, entry) {
			e.stats.Pruned++
			return nil, nil
		}
		entry = 0
		if resume {
			resume = false
			out, err := e.sweepRest(fixed, level)
			if err != nil {
				return nil, err
			}
			if out != nil {
				if e.depth == 0 {
					p.report(p.n, e.branches, "layers")
				}
				out.exact = exact
				return out, nil
			}
		}
		L, d, err := e.maxLevel(fixed, free, lo)
		if err != nil {
			return nil, err
		}
		lo = L
		var at, saturated []int
		for _, j := range free {
			if p.u.at(j, d[j]) == L {
				at = append(at, j)
			}
		}
		if len(at) == 0 {
			return nil, fmt.Errorf("tas: onion peeling: internal error: no job at level %g", L)
		}
		// L is the max-min of the free jobs, so every completion leaves one more job at
		// L besides those fixed there: past the cut, this node cannot win (see branch).
		if c := e.cut; c != nil && e.depth > 0 && L == c.level && countAt(level, fixed, L)+1 > c.count {
			e.stats.Pruned++
			return nil, nil
		}
		saturated, err = e.saturated(d, at, L)
		if err != nil {
			return nil, err
		}
		if len(saturated) > 0 {
			for _, j := range saturated {
				fixed[j], level[j] = d[j], L
			}
			continue
		}
		e.stats.Stalls++
		// The fewest jobs any optimum keeps at L is the smallest set whose keeping lets
		// the rest of the layer rise together. When one job's keeping does, exactly one
		// stays, and it is one of those: with a single such job the layer is decided;
		// with several, only they are branched on.
		candidates := at
		// Keeping a job of candidates leaves, at the branch's entry, exactly keepAlone's
		// trial for it (see stuck): feasible for every one when some qualified, for none
		// otherwise.
		var known int8 = -1
		if alone := e.keepAlone(d, at, L); len(alone) == 1 {
			fixed[alone[0]], level[alone[0]] = d[alone[0]], L
			e.stats.Decided++
			resume = true
			continue
		} else if len(alone) > 1 {
			candidates, known = alone, 1
		}
		if e.ctx.Err() != nil {
			known = 0 // keepAlone stopped early: its answers are not all in
		}
		if e.maxBranches >= 0 && e.branches < e.maxBranches {
			out, err := e.branch(fixed, level, d, at, candidates, L, exact, known)
			if err == nil && e.depth == 0 {
				p.report(p.n, e.branches, "layers") // the best branch settles every job
			}
			return out, err
		}
		for _, j := range e.keepRule(d, at, L) {
			fixed[j], level[j] = d[j], L
		}
		exact = false
		e.stats.RuleChoices++
		resume = true
	}
}

// saturated returns the jobs of at (the jobs at level L of deadline vector d, which the
// oracle just found feasible) that cannot reach their next value while every other job
// keeps d: one question per job, answered in one pass when the oracle can (raiserAll).
func (e *layered) saturated(d, at []int, L float64) ([]int, error) {
	p := e.p
	var out []int
	all, batch := e.or.(raiserAll)
	if batch && !e.oneByOne {
		js, nds := make([]int, 0, len(at)), make([]int, 0, len(at))
		for _, j := range at {
			nd := p.u.lastAbove(j, L)
			if nd < p.release[j] {
				continue
			}
			js, nds = append(js, j), append(nds, nd)
		}
		ok := make([]bool, len(js))
		if err := all.raisableAll(e.ctx, d, js, nds, ok); err != nil {
			return nil, err
		}
		k := 0
		for _, j := range at {
			if k < len(js) && js[k] == j {
				if !ok[k] {
					out = append(out, j)
				}
				k++
				continue
			}
			out = append(out, j)
		}
		return out, nil
	}
	for _, j := range at {
		// One test per job of the layer: on a long horizon with thousands tied,
		// minutes, so a cancellation is heard between them.
		if err := e.ctx.Err(); err != nil {
			return nil, fmt.Errorf("tas: onion peeling: %w", err)
		}
		nd := p.u.lastAbove(j, L)
		if nd < p.release[j] || !e.or.raisable(d, j, nd) {
			out = append(out, j)
		}
	}
	return out, nil
}

// stuck is the cut's test at the entry of a stall branch, for one feasibility test
// instead of a level search: true when the jobs fixed at the cut's level, with one
// more, exceed the cut, and the free jobs cannot all rise above lo (the branch's level,
// the cut's), so their max-min is lo and one more of them ends there.
//
// known, when not 0, is that test's answer found already (1 feasible, −1 not): at the
// entry of the branch that keeps job j of a stalled layer at lo, the fixed jobs hold
// their deadlines, j its deadline at lo, and every other free job — the rest of the
// layer, and the jobs above it, whose last slot at lo or above is their last slot above
// lo — its last slot above lo: the vector keepAlone tested for j. The test is counted
// in Stats.Probes either way.
func (e *layered) stuck(fixed []int, level []float64, free []int, lo float64, known int8) bool {
	c := e.cut
	if c == nil || e.depth == 0 || lo != c.level || countAt(level, fixed, lo)+1 <= c.count {
		return false
	}
	p := e.p
	// Every branch under the cut asks at the same level: each job's slot there is looked
	// up once (a binary search over its utility), not once per branch.
	if e.above == nil || e.aboveLevel != lo {
		e.above, e.aboveLevel = make([]int, p.n), lo
		for j := range e.above {
			e.above[j] = p.u.lastAbove(j, lo)
		}
	}
	d := slices.Clone(fixed)
	for _, j := range free {
		d[j] = e.above[j]
		if d[j] < p.release[j] {
			return true
		}
	}
	e.stats.Probes++
	if known != 0 && !e.oneByOne {
		return known < 0
	}
	return !e.or.feasible(d)
}

// sweepRest finishes the peeling of the free jobs by the backward sweep, the fixed jobs
// pinned where they are; it returns nil (and no error) when the sweep hands over, at
// the next tie it cannot decide, and the layered engine goes on from the same state.
//
// Why the answer is the layered engine's: pin every fixed job j, giving it the utility
// level[j] on slots 1..fixed[j] and a value below every other after. In the lexmax of
// the pinned instance every pinned job completes by fixed[j] — the layered state puts
// them all there together with every free job at lo, so a vector with no value below
// the others exists, and one with such a value is lexicographically smaller — and there
// it is at its best value, so its entry is level[j] whatever the rest do; and moving a
// pinned job earlier only takes room from the others. So the pinned lexmax is the fixed
// levels merged with the lexmax of the free jobs given the fixed deadlines, which is
// what solve computes from this state (merging a common multiset into two sorted
// vectors keeps their lexicographic order). The sweep computes that lexmax exactly
// when it does not hand over (see sweep.go). Pinned jobs ask for nothing: each stops at
// the end of its top stretch, fixed[j]; at boundaries past it their value is the lowest,
// so they cross first, and they fit, for the fixed deadlines are feasible by
// themselves.
func (e *layered) sweepRest(fixed []int, level []float64) (*outcome, error) {
	if !e.resume {
		return nil, nil
	}
	p := e.p
	fns := make([]sched.Utility, p.n)
	for j := range fns {
		fns[j] = pinned{u: p.u, j: j, level: level[j], until: fixed[j]}
	}
	q := *p
	q.u = &utilities{fns: fns, T: p.T}
	q.progress = nil
	var st Stats
	d, err := runSweep(e.ctx, &q, &st)
	e.stats.Evaluations += st.Evaluations
	var ho *errHandOver
	switch {
	case errors.As(err, &ho):
		return nil, nil
	case err != nil:
		return nil, err
	}
	e.stats.Resumed++
	lv := make([]float64, p.n)
	for j := range lv {
		if fixed[j] != 0 && d[j] != fixed[j] {
			return nil, fmt.Errorf("tas: onion peeling: internal error: the sweep moved a pinned job from slot %d to %d", fixed[j], d[j])
		}
		lv[j] = p.u.at(j, d[j])
	}
	return &outcome{deadline: d, level: lv, exact: true}, nil
}

// pinned is job j's utility for sweepRest: as it is while the job is free (until 0),
// else level on slots 1..until and below every utility after.
type pinned struct {
	u     *utilities
	j     int
	level float64
	until int
}

func (v pinned) At(t int) float64 {
	switch {
	case v.until == 0:
		return v.u.at(v.j, t)
	case t <= v.until:
		return v.level
	}
	return -math.MaxFloat64
}

func (v pinned) Type() string { return "pinned" }

// keepAlone returns the jobs j of at (a stalled layer at level L, deadline vector d) such
// that, with j kept at L and everyone outside at keeping d, every other job of at can
// move to its next value together. Keeping fewer jobs at L is lexicographically better
// (each job kept is one more entry at L where the others are above it), so when some job
// qualifies, every optimum keeps exactly one job of at, and one that qualifies.
func (e *layered) keepAlone(d, at []int, L float64) []int {
	p := e.p
	up := make([]int, len(at))
	for k, j := range at {
		up[k] = p.u.lastAbove(j, L)
		if up[k] < p.release[j] {
			return nil // cannot happen in a stall: every job of at can rise alone
		}
	}
	var out []int
	if all, ok := e.or.(keeperAll); ok && !e.oneByOne {
		if e.ctx.Err() != nil {
			return nil // the caller's next step reports the cancellation
		}
		// As many questions as one at a time would have asked, though one pass answers them.
		e.stats.Probes += len(at)
		yes := make([]bool, len(at))
		if all.keepAloneAll(e.ctx, d, at, up, yes) != nil {
			return nil
		}
		for k, j := range at {
			if yes[k] {
				out = append(out, j)
			}
		}
		return out
	}
	trial := slices.Clone(d)
	for _, j := range at {
		if e.ctx.Err() != nil {
			return nil // the caller's next step reports the cancellation
		}
		for k2, i := range at {
			trial[i] = up[k2]
		}
		trial[j] = d[j]
		e.stats.Probes++
		if e.or.feasible(trial) {
			out = append(out, j)
		}
	}
	return out
}

// branch explores keeping each job of candidates (of at, the stalled layer) at level L
// and returns the lexicographically best outcome. The jobs the keep rule would keep are
// tried first; when the branch budget runs out before every choice is explored, the
// best outcome found is returned, inexact. It returns nil (pruned) when every choice
// is pruned by an enclosing cut.
//
// Pruning. All outcomes under a stall at level L share the jobs fixed below L, and every
// other job ends at L or above; so one with more jobs at L than another is
// lexicographically smaller. The outermost stall at L (the cut's owner) first completes
// its state by the keep rule, without branching (seed): a feasible outcome, whose count
// of jobs at L is the cut. A node under it with c jobs fixed at L whose free jobs'
// max-min is still L leaves at least c+1 there, so when c+1 exceeds the cut it cannot
// beat the seed and is dropped, unexplored; each outcome found lowers the cut to its
// own count. A pruned node is worse than an outcome already in hand, so the owner's
// best is unchanged, and a node's best is memoized only when no cut dropped something
// that could have beaten it (its count is within the cut). When the budget lasts, the
// owner's answer is the exact best over every choice, as without pruning; when it runs
// out, the seed bounds the answer from below, so it is never worse than the keep rule's.
func (e *layered) branch(fixed []int, level []float64, d, at, candidates []int, L float64, exact bool, known int8) (*outcome, error) {
	var best *outcome
	var bestSorted []float64
	if e.prune && (e.cut == nil || e.cut.level != L) {
		seed, err := e.seed(fixed, level, d, at, L)
		if err != nil {
			return nil, err
		}
		saved := e.cut
		e.cut = &cut{level: L, count: countAt(seed.level, seed.deadline, L)}
		defer func() { e.cut = saved }()
		best, bestSorted = seed, sortedCopy(seed.level)
		// The answer is exact when every choice was explored, pruned ones included:
		// those cannot beat an outcome in hand.
		for _, j := range e.raiseOrder(d, candidates, L, true) {
			if e.branches >= e.maxBranches {
				exact = false
				break
			}
			out, err := e.tryKeep(fixed, level, d, j, L, known)
			if err != nil {
				return nil, err
			}
			if out == nil {
				continue
			}
			exact = exact && out.exact
			if s := sortedCopy(out.level); compareExact(s, bestSorted) > 0 {
				best, bestSorted = out, s
				e.cut.count = min(e.cut.count, countAt(out.level, out.deadline, L))
			}
		}
		return &outcome{deadline: best.deadline, level: best.level, exact: exact}, nil
	}
	for _, j := range e.raiseOrder(d, candidates, L, true) {
		if best != nil && e.branches >= e.maxBranches {
			exact = false
			break
		}
		out, err := e.tryKeep(fixed, level, d, j, L, known)
		if err != nil {
			return nil, err
		}
		if out == nil {
			continue
		}
		exact = exact && out.exact
		s := sortedCopy(out.level)
		if best == nil || compareExact(s, bestSorted) > 0 {
			best, bestSorted = out, s
			if e.cut != nil {
				e.cut.count = min(e.cut.count, countAt(out.level, out.deadline, L))
			}
		}
	}
	if best == nil || e.cut != nil && countAt(best.level, best.deadline, L) > e.cut.count {
		return nil, nil
	}
	return &outcome{deadline: best.deadline, level: best.level, exact: exact}, nil
}

// tryKeep solves the branch that keeps job j at level L (memoized on the fixed set);
// nil when a cut prunes it.
func (e *layered) tryKeep(fixed []int, level []float64, d []int, j int, L float64, known int8) (*outcome, error) {
	e.branches++
	e.stats.Branches++
	f2, l2 := slices.Clone(fixed), slices.Clone(level)
	f2[j], l2[j] = d[j], L
	key := memoKey(f2)
	if out, ok := e.memo[key]; ok {
		return out, nil
	}
	if c, ok := e.pruned[key]; ok && c == e.cut {
		return nil, nil // pruned under this cut before: its count only falls
	}
	e.depth++
	e.entry = known
	out, err := e.solve(f2, l2, L)
	e.depth--
	switch {
	case err != nil:
		return nil, err
	case out == nil:
		e.pruned[key] = e.cut
		return nil, nil
	}
	e.memo[key] = out
	return out, nil
}

// seed completes a stalled state by the keep rule, at this stall and every later one,
// without branching: a feasible outcome to prune against (see branch). It leaves the
// statistics of the stalls it decides uncounted, and d as it found it.
func (e *layered) seed(fixed []int, level []float64, d, at []int, L float64) (*outcome, error) {
	st := *e.stats
	budget := e.maxBranches
	defer func() {
		e.maxBranches = budget
		e.stats.RuleChoices, e.stats.Stalls, e.stats.Decided = st.RuleChoices, st.Stalls, st.Decided
	}()
	e.maxBranches = -1
	f2, l2, d2 := slices.Clone(fixed), slices.Clone(level), slices.Clone(d)
	for _, j := range e.keepRule(d2, at, L) {
		f2[j], l2[j] = d[j], L
	}
	e.depth++
	out, err := e.solve(f2, l2, L)
	e.depth--
	if err == nil && out == nil {
		err = fmt.Errorf("tas: onion peeling: internal error: the keep rule's completion was pruned")
	}
	return out, err
}

// countAt counts the jobs fixed (deadline ≠ 0) at level L.
func countAt(level []float64, deadline []int, L float64) int {
	n := 0
	for j, lv := range level {
		if deadline[j] != 0 && lv == L {
			n++
		}
	}
	return n
}

// raiseOrder sorts the jobs of a stalled layer by the cost of raising them — total
// demand, then the number of slots the deadline moves, then index — cheapest first, or
// dearest first with reverse.
func (e *layered) raiseOrder(d, at []int, L float64, reverse bool) []int {
	p := e.p
	type keyed struct {
		j            int
		demand, move int64
	}
	ks := make([]keyed, len(at))
	for i, j := range at {
		var dem int64
		for _, x := range p.eta[j] {
			dem += x
		}
		ks[i] = keyed{j: j, demand: dem, move: int64(d[j] - p.u.lastAbove(j, L))}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		c := cmp.Or(cmp.Compare(a.demand, b.demand), cmp.Compare(a.move, b.move))
		if reverse {
			c = -c
		}
		return cmp.Or(c, cmp.Compare(a.j, b.j))
	})
	out := make([]int, len(ks))
	for i, k := range ks {
		out[i] = k.j
	}
	return out
}

// keepRule decides a stalled layer once the branch budget is spent: the jobs at level L
// are offered their next value one at a time, cheapest first (raiseOrder), each keeping
// it when everything still fits; the jobs that no longer fit stay at L and are returned.
// At least one does (the layer stalled). It is a heuristic — it keeps few jobs at L, not
// necessarily the right ones — and the result is marked inexact. d is clobbered.
func (e *layered) keepRule(d, at []int, L float64) []int {
	var keep []int
	if all, ok := e.or.(raiserAll); ok && !e.oneByOne {
		keep = e.keepRuleRounds(all, d, at, L)
	} else {
		keep = e.keepRuleOneByOne(d, at, L)
	}
	if len(keep) == 0 { // cannot happen in a stall; keep the dearest rather than loop
		keep = e.raiseOrder(d, at, L, true)[:1]
	}
	return keep
}

// keepRuleOneByOne is keepRule's greedy with one feasibility test per job.
func (e *layered) keepRuleOneByOne(d, at []int, L float64) []int {
	p := e.p
	var keep []int
	for _, j := range e.raiseOrder(d, at, L, false) {
		if e.ctx.Err() != nil {
			break // the caller's next step reports the cancellation
		}
		old := d[j]
		nd := p.u.lastAbove(j, L)
		d[j] = nd
		e.stats.Probes++
		if nd < p.release[j] || !e.or.feasible(d) {
			d[j] = old
			keep = append(keep, j)
		}
	}
	return keep
}

// keepRuleRounds is keepRule's greedy decided in rounds, each costing one pass of the
// oracle's raisableAll and a few feasibility tests instead of one test per job.
//
// Why it keeps the same jobs. Moving deadlines earlier only removes room, so a job that
// cannot rise against the current vector cannot at its turn either, when the vector
// holds every raise accepted before it too: each round first drops (keeps at L) every
// undecided job that cannot rise now. Of those that can, in order P_1, P_2, …, the first
// rises at its turn (every job before it is decided and the vector is its turn's), and
// so do P_1..P_m whenever they fit all together, for each P_i's turn then sees a subset
// of them. The largest such m is found by doubling and bisection; P_{m+1} (if any) is
// then kept, for its turn's vector is the current one with P_1..P_m raised, where it
// does not fit.
func (e *layered) keepRuleRounds(all raiserAll, d, at []int, L float64) []int {
	p := e.p
	order := e.raiseOrder(d, at, L, false)
	e.stats.Probes += len(order) // as many questions as one at a time would ask
	var keep, js, nds []int
	for _, j := range order {
		if nd := p.u.lastAbove(j, L); nd < p.release[j] {
			keep = append(keep, j)
		} else {
			js, nds = append(js, j), append(nds, nd)
		}
	}
	trial := make([]int, len(d))
	// fits reports whether the first m of js rise together from d.
	fits := func(m int) bool {
		copy(trial, d)
		for k := range m {
			trial[js[k]] = nds[k]
		}
		return e.or.feasible(trial)
	}
	ok := make([]bool, len(js))
	// A round costs a pass over every slot; where rounds decide only a job or two, the
	// next jobs are offered one test each (the same greedy, so the same answer), which
	// bounds the cost at about keepRuleOneByOne's one test per job.
	slow := 0
	for len(js) > 0 {
		if e.ctx.Err() != nil {
			return keep // the caller's next step reports the cancellation
		}
		if slow > 0 {
			slow--
			j, old := js[0], d[js[0]]
			d[j] = nds[0]
			if !e.or.feasible(d) {
				d[j] = old
				keep = append(keep, j)
			}
			js, nds = js[1:], nds[1:]
			continue
		}
		if all.raisableAll(e.ctx, d, js, nds, ok[:len(js)]) != nil {
			return keep
		}
		before := len(js)
		n := 0
		for k, j := range js {
			if ok[k] {
				js[n], nds[n] = j, nds[k]
				n++
			} else {
				keep = append(keep, j)
			}
		}
		js, nds = js[:n], nds[:n]
		if n == 0 {
			break
		}
		// The first fits alone; find the largest m ≤ n with fits(m).
		lo, hi := 1, n+1 // fits(lo), and hi is past the end or does not fit
		for step := 2; lo < n; step *= 2 {
			m := min(lo+step-1, n)
			if !fits(m) {
				hi = m
				break
			}
			lo = m
		}
		for hi-lo > 1 {
			m := (lo + hi) / 2
			if fits(m) {
				lo = m
			} else {
				hi = m
			}
		}
		for k := range lo {
			d[js[k]] = nds[k]
		}
		rest := lo
		if lo < n {
			keep = append(keep, js[lo])
			rest++
		}
		js, nds = js[rest:], nds[rest:]
		if before-len(js) < 4 {
			slow = 16
		}
		// feasible(d) must hold for raisableAll's next pass: it does, d is fits(lo)'s.
	}
	return keep
}

// maxLevel returns L*, the largest utility value of a free job at which every free job
// can finish by d_j(L*) while fixed jobs keep their deadlines, and that deadline vector.
// lo must be feasible (or −∞: then "every free job at T" is tested first). The search is
// a bisection over the candidate values in (lo, hi): for each free job they are the values
// of a contiguous range of slots (utilities are non-increasing), so a uniformly random
// candidate slot is drawn from the ranges and tested; each test removes at least that
// value, and half the candidates in expectation.
func (e *layered) maxLevel(fixed, free []int, lo float64) (float64, []int, error) {
	p := e.p
	d := slices.Clone(fixed)
	// configure sets the free jobs' deadlines for level L; false when some job cannot
	// reach L at all (no slot, or only slots before its release).
	configure := func(L float64) bool {
		for _, j := range free {
			d[j] = p.u.lastAtLeast(j, L)
			if d[j] < p.release[j] {
				return false
			}
		}
		return true
	}
	if math.IsInf(lo, -1) {
		e.stats.Probes++
		if !configure(lo) || !e.or.feasible(d) {
			return 0, nil, fmt.Errorf("%w: the jobs cannot all finish within the horizon %d", ErrInfeasible, p.T)
		}
	}
	hi := math.Inf(1)
	a := make([]int, len(free)) // candidate slots of free[k] are a[k]..b[k]
	b := make([]int, len(free))
	for k, j := range free {
		a[k], b[k] = 1, p.u.lastAbove(j, lo)
	}
	for {
		if err := e.ctx.Err(); err != nil {
			return 0, nil, fmt.Errorf("tas: onion peeling: %w", err)
		}
		var total int64
		for k := range free {
			total += int64(max(0, b[k]-a[k]+1))
		}
		if total == 0 {
			break
		}
		pick := e.rng.Int64N(total)
		var v float64
		for k, j := range free {
			if c := int64(max(0, b[k]-a[k]+1)); pick < c {
				v = p.u.at(j, a[k]+int(pick))
				break
			} else {
				pick -= c
			}
		}
		if v != v {
			return 0, nil, fmt.Errorf("tas: a utility is NaN (onion peeling needs comparable values)")
		}
		e.stats.Probes++
		if configure(v) && e.or.feasible(d) {
			lo = v
			for k, j := range free {
				b[k] = p.u.lastAbove(j, lo)
			}
		} else {
			hi = v
			for k, j := range free {
				a[k] = p.u.lastAtLeast(j, hi) + 1
			}
		}
	}
	// Leave the oracle holding L*'s vector: raisable reads its state.
	if !configure(lo) || !e.or.feasible(d) {
		return 0, nil, fmt.Errorf("tas: onion peeling: internal error: level %g is no longer feasible", lo)
	}
	return lo, d, nil
}

// memoKey encodes a fixed set (deadline per job, 0 = free).
func memoKey(fixed []int) string {
	buf := make([]byte, 0, 2*len(fixed))
	for _, f := range fixed {
		buf = binary.AppendUvarint(buf, uint64(f))
	}
	return string(buf)
}

func sortedCopy(x []float64) []float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s
}

// compareExact compares sorted vectors lexicographically without tolerance: the levels
// are utility values themselves, so equal levels are bit-identical.
func compareExact(a, b []float64) int {
	for k := range min(len(a), len(b)) {
		if c := cmp.Compare(a[k], b[k]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}
