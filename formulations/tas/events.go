package tas

import (
	"context"
	"fmt"
	"math"
)

// runEvents computes the layered engine's peeling for instances with parallelism caps,
// where the sweep does not apply (see the package documentation): with a cap, moving a
// job's deadline changes what it can do in the slots it keeps, so the boundaries are no
// longer independent. Instead of one bisection of max-flows per layer, the level rises
// one utility value at a time and only the jobs at the current level move, each move
// checked by rerouting the flow it disturbs (flowInc).
//
// Why this is the layered engine's result. Let v be the lowest value U_j(d_j) among the
// free jobs and G the free jobs at v. Every free job sits at d_j(v) (it moved only at
// lower levels, past slots of lower value), so the vector is the layered engine's at level
// v, which is feasible. The next candidate level is feasible iff the jobs of G can all
// move to their next values together — then the level rises — and otherwise v is the
// layer's L*, and a job of G is saturated iff it cannot move alone while everyone else
// keeps v, exactly the layered engine's test. Saturated jobs are fixed; the others stay
// at v and are tried again, together, with the fixed jobs where they were. If no job of G
// is saturated the layer stalls, and the layered engine takes over from this very state
// (same fixed set, same level), so branching, the keep rule, the budget and Result.Exact
// are its own.
//
// Cost: one heap operation and about one utility evaluation per move of one job past one
// value, plus the augmenting paths of the moves that take flow away from a job; a move
// that leaves only empty slots costs O(slots the job holds). Moves that fail are undone
// from a log.
func runEvents(ctx context.Context, p *problem, budget int, st *Stats) (*outcome, error) {
	st.Engine, st.Oracle = "events", "flow"
	n := p.n
	d := make([]int, n)
	for j := range d {
		d[j] = p.T
	}
	// The start is any feasible flow; the fewer units sit late in their windows, the
	// fewer moves must reroute. Filling in the order of the deadlines the jobs would get
	// without caps (the sweep, which ignores caps) puts each job's flow before where its
	// deadline is likely to end up; any order would give the same result.
	prio := d
	var guess Stats
	if g, err := runSweep(ctx, p, &guess); err == nil {
		prio = g
	}
	nets := make([]*flowInc, p.R)
	for r := range nets {
		nets[r] = newFlowInc(p, r)
		st.Probes++
		if !nets[r].init(d, prio) {
			return nil, fmt.Errorf("%w: the jobs cannot all finish within the horizon %d", ErrInfeasible, p.T)
		}
	}
	fixed := make([]int, n)
	level := make([]float64, n)
	val := make([]float64, n)
	var h pairHeap // free jobs by −U_j(d_j): the lowest value on top, ties by index
	for j := range n {
		v := p.u.at(j, p.T)
		st.Evaluations++
		if v != v {
			return nil, fmt.Errorf("tas: job %q: utility is NaN at slot %d", p.inst.Jobs[j].ID, p.T)
		}
		val[j] = v
		h.push(sweepItem{key: -v, j: int32(j)})
	}
	marks := make([]int, p.R)
	mark := func() {
		for r, f := range nets {
			marks[r] = f.mark()
		}
	}
	undo := func() {
		for r, f := range nets {
			f.undo(marks[r])
		}
	}
	move := func(j, nd int) bool {
		st.Probes++
		for r, f := range nets {
			if p.eta[j][r] > 0 && !f.shrink(j, nd) {
				return false
			}
		}
		return true
	}
	var group, nds, sat []int
	nfixed := 0
	for events := 0; h.len() > 0; events++ {
		if events&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("tas: onion peeling: %w", err)
			}
		}
		v := -h.top().key
		group, nds = group[:0], nds[:0]
		for h.len() > 0 && -h.top().key == v {
			j := int(h.pop().j)
			group = append(group, j)
			nds = append(nds, p.u.lastAboveBelow(j, v, d[j], &st.Evaluations))
		}
		// Together: can the level rise past v?
		ok := true
		for k, j := range group {
			if nds[k] < p.release[j] {
				ok = false
			}
		}
		mark()
		if ok {
			for k, j := range group {
				if !move(j, nds[k]) {
					ok = false
					break
				}
			}
		}
		if ok {
			for k, j := range group {
				d[j] = nds[k]
				nv := p.u.at(j, d[j])
				st.Evaluations++
				if nv != nv {
					return nil, fmt.Errorf("tas: job %q: utility is NaN at slot %d", p.inst.Jobs[j].ID, d[j])
				}
				val[j] = nv
				h.push(sweepItem{key: -nv, j: int32(j)})
			}
			// The moves stick: drop their log.
			for _, f := range nets {
				f.log = f.log[:0]
			}
			continue
		}
		undo()
		// v is the layer's level: fix the jobs that cannot move alone (a lone job just
		// failed to).
		sat = sat[:0]
		for k, j := range group {
			if len(group) == 1 || nds[k] < p.release[j] || !move(j, nds[k]) {
				sat = append(sat, j)
			}
			undo()
		}
		if len(sat) == 0 {
			st.HandOver = fmt.Sprintf("stall at level %g: %d jobs can each rise alone, not together; the layered engine branches", v, len(group))
			p.u.cache()
			e := newLayered(ctx, p, &flowOracle{p: p}, budget, st)
			e.prune = true
			return e.solve(fixed, level, v)
		}
		for _, j := range sat {
			fixed[j], level[j] = d[j], v
		}
		nfixed += len(sat)
		p.report(nfixed, 0, "events")
		for _, j := range group {
			if fixed[j] == 0 {
				h.push(sweepItem{key: -v, j: int32(j)})
			}
		}
	}
	return &outcome{deadline: fixed, level: level, exact: true}, nil
}

// lastAboveBelow is max{t < d : U_j(t) > L}, or 0, for U_j(d) = L: it gallops down from
// d, so a move past one slot — the common case with continuous utilities — costs one
// evaluation. It adds the evaluations to *evals.
func (u *utilities) lastAboveBelow(j int, L float64, d int, evals *int64) int {
	if math.IsInf(L, -1) {
		return u.T
	}
	hi := d // U_j(hi) ≤ L
	lo := 0 // U_j(lo) > L, or lo = 0
	for step := 1; ; step *= 2 {
		t := hi - step
		if t < 1 {
			break
		}
		*evals++
		if u.at(j, t) > L {
			lo = t
			break
		}
		hi = t
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		*evals++
		if u.at(j, mid) > L {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}
