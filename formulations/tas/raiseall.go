package tas

import (
	"context"
	"fmt"
)

// raiserAll is implemented by an oracle that can answer many raisable questions about
// one deadline vector in a single pass, cheaper than one test each.
type raiserAll interface {
	// raisableAll is called after feasible(d) returned true, with d unchanged; ok[k]
	// reports raisable(d, js[k], nds[k]) for every k. It returns the context's error when
	// ctx is cancelled during the pass.
	raisableAll(ctx context.Context, d, js, nds []int, ok []bool) error
}

// raisableAll answers the layered engine's saturation tests of one layer together, on
// Horn's windows instead of one whole-horizon EDF run per job (issue 29: 97% of a trace's
// bound).
//
// Why it is exact. Per resource, with release times and no caps, deadlines d are
// feasible iff every window [a, b] has slack f(a, b) = Σ_{s=a..b} C_s −
// Σ_{k: rel_k ≥ a, d_k ≤ b} η_k ≥ 0 (Horn's condition; the package doc). Moving job j
// alone from d_j to nd < d_j adds η_j to exactly the windows with a ≤ rel_j and
// nd ≤ b < d_j, and changes no other; d being feasible, the move is feasible iff
// min{f(a, b) : a ≤ rel_j, nd ≤ b ≤ d_j − 1} ≥ η_j on every resource j demands. That is a
// rectangle minimum. Sweeping a upward, the slacks f(a, ·) over b change by range
// additions: from a to a+1 the jobs released at a leave every window (+η_k on b ≥ d_k)
// and slot a's capacity leaves every window (−C_a); a segment tree over b that keeps each
// entry's historic minimum through those additions answers, at a = rel_j, the minimum
// over every a' ≤ rel_j and b in [nd, d_j − 1] at once. The additions of a step are made
// before its subtraction, so no intermediate state is below both real ones and the
// historic minima are those of the real states. Entries b < a hold stale values, never
// asked: a question at a = rel_j asks only b ≥ nd ≥ rel_j.
//
// Cost: O((n + T) log T) per resource for the whole layer, against O(n + T log n) per
// question before.
func (o edfOracle) raisableAll(ctx context.Context, d, js, nds []int, ok []bool) error {
	p := o.p
	for k := range ok {
		ok[k] = true
	}
	w := p.windowScratch(len(js))
	for r := range p.R {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("tas: onion peeling: %w", err)
		}
		asked := false
		for k, j := range js {
			w.ask[k] = -1
			if ok[k] && p.eta[j][r] > 0 {
				w.ask[k], asked = j, true
			}
		}
		if !asked {
			continue
		}
		p.sweepWindows(w, r, d, func(a int, ks []int) {
			for _, k := range ks {
				j := js[k]
				if w.t.min(nds[k]-1, d[j]-2) < p.eta[j][r] {
					ok[k] = false
				}
			}
		})
	}
	return nil
}

// sweepWindows runs the sweep of resource r for deadline vector d: a segment tree over
// the window ends b holds the slacks f(a, b) as the window start a goes from 1 to T
// (entry b−1 is b), each entry keeping its historic minimum. At each a, before the
// tree moves on to a+1, visit is called with the questions k whose job w.ask[k] (−1:
// none) is released at a on r.
func (p *problem) sweepWindows(w *windowScratch, r int, d []int, visit func(a int, ks []int)) {
	T := p.T
	t, due, start, order, qStart, qOrder, init, fill := &w.t, w.due, w.start, w.order, w.qStart, w.qOrder, w.init, w.fill
	clear(due)
	clear(start)
	clear(qStart)
	for j := range p.n {
		due[d[j]] += p.eta[j][r]
		start[p.relOf(j, r)+1]++
	}
	for _, j := range w.ask {
		if j >= 0 {
			qStart[p.relOf(j, r)+1]++
		}
	}
	for a := 1; a <= T+1; a++ {
		start[a] += start[a-1]
		qStart[a] += qStart[a-1]
	}
	// The jobs and the questions bucketed by release: order[start[a]:start[a+1]] are
	// released at a, and so are the questions qOrder[qStart[a]:qStart[a+1]].
	copy(fill, start)
	for j := range p.n {
		a := p.relOf(j, r)
		order[fill[a]] = j
		fill[a]++
	}
	copy(fill, qStart)
	for k, j := range w.ask {
		if j >= 0 {
			a := p.relOf(j, r)
			qOrder[fill[a]] = k
			fill[a]++
		}
	}
	// f(1, b) = C_1 + … + C_b − Σ_{d_k ≤ b} η_k: every job is released at 1 or later.
	var sum int64
	for b := 1; b <= T; b++ {
		sum += due[b]
		init[b] = p.prefix[r][b] - sum
	}
	t.build(init[1:])
	for a := 1; a <= T; a++ {
		visit(a, qOrder[qStart[a]:qStart[a+1]])
		if a == T {
			break
		}
		for _, j := range order[start[a]:start[a+1]] {
			if e := p.eta[j][r]; e > 0 {
				t.add(d[j]-1, T-1, e)
			}
		}
		if c := p.cap[r][a-1]; c != 0 {
			t.add(a, T-1, -c)
		}
	}
}

// windowScratch holds the arrays of one pass (raisableAll, keepAloneAll), allocated once
// per problem and reused: a stalled layer makes thousands of passes.
type windowScratch struct {
	t                                  histTree
	due, init, hist                    []int64
	start, order, qStart, qOrder, fill []int
	ask, raised                        []int
}

// windowScratch returns the problem's pass arrays, sized for q questions.
func (p *problem) windowScratch(q int) *windowScratch {
	w := p.windows
	if w == nil {
		T := p.T
		w = &windowScratch{due: make([]int64, T+2), init: make([]int64, T+1), hist: make([]int64, T),
			start: make([]int, T+2), order: make([]int, p.n), qStart: make([]int, T+2), fill: make([]int, T+2)}
		p.windows = w
	}
	if cap(w.qOrder) < q {
		w.qOrder, w.ask = make([]int, q), make([]int, q)
	}
	w.qOrder, w.ask = w.qOrder[:q], w.ask[:q]
	return w
}

// histTree is a segment tree over int64 values with range addition and range minimum
// of each entry's historic minimum: the least value the entry has held since build.
type histTree struct {
	n   int
	mn  []int64 // minimum of the current values under the node
	hmn []int64 // minimum of the historic minima under the node
	ad  []int64 // addition pending for the children
	had []int64 // least prefix sum of the pending additions, the empty one (0) included
}

func (t *histTree) build(a []int64) {
	t.n = len(a)
	size := 1
	for size < t.n {
		size <<= 1
	}
	if cap(t.mn) < 2*size {
		t.mn, t.hmn = make([]int64, 2*size), make([]int64, 2*size)
		t.ad, t.had = make([]int64, 2*size), make([]int64, 2*size)
	}
	t.mn, t.hmn, t.ad, t.had = t.mn[:2*size], t.hmn[:2*size], t.ad[:2*size], t.had[:2*size]
	t.buildNode(1, 0, t.n-1, a)
}

func (t *histTree) buildNode(x, lo, hi int, a []int64) {
	t.ad[x], t.had[x] = 0, 0
	if lo == hi {
		t.mn[x], t.hmn[x] = a[lo], a[lo]
		return
	}
	mid := (lo + hi) / 2
	t.buildNode(2*x, lo, mid, a)
	t.buildNode(2*x+1, mid+1, hi, a)
	t.mn[x], t.hmn[x] = min(t.mn[2*x], t.mn[2*x+1]), min(t.hmn[2*x], t.hmn[2*x+1])
}

// apply adds v to every value under x as a sequence of additions whose least prefix
// sum was h: the values dipped by h on the way, and the historic minima see the dip.
func (t *histTree) apply(x int, v, h int64) {
	t.hmn[x] = min(t.hmn[x], t.mn[x]+h)
	t.mn[x] += v
	t.had[x] = min(t.had[x], t.ad[x]+h)
	t.ad[x] += v
}

func (t *histTree) push(x int) {
	if t.ad[x] != 0 || t.had[x] != 0 {
		t.apply(2*x, t.ad[x], t.had[x])
		t.apply(2*x+1, t.ad[x], t.had[x])
		t.ad[x], t.had[x] = 0, 0
	}
}

// add adds v to entries lo..hi (0-based, inclusive); nothing when lo > hi.
func (t *histTree) add(lo, hi int, v int64) {
	if lo > hi {
		return
	}
	t.addNode(1, 0, t.n-1, lo, hi, v)
}

func (t *histTree) addNode(x, nlo, nhi, lo, hi int, v int64) {
	if hi < nlo || nhi < lo {
		return
	}
	if lo <= nlo && nhi <= hi {
		t.apply(x, v, min(v, 0))
		return
	}
	t.push(x)
	mid := (nlo + nhi) / 2
	t.addNode(2*x, nlo, mid, lo, hi, v)
	t.addNode(2*x+1, mid+1, nhi, lo, hi, v)
	t.mn[x], t.hmn[x] = min(t.mn[2*x], t.mn[2*x+1]), min(t.hmn[2*x], t.hmn[2*x+1])
}

// min returns the least historic minimum of entries lo..hi (0-based, inclusive), lo ≤ hi.
func (t *histTree) min(lo, hi int) int64 {
	return t.minNode(1, 0, t.n-1, lo, hi)
}

func (t *histTree) minNode(x, nlo, nhi, lo, hi int) int64 {
	if lo <= nlo && nhi <= hi {
		return t.hmn[x]
	}
	t.push(x)
	mid := (nlo + nhi) / 2
	switch {
	case hi <= mid:
		return t.minNode(2*x, nlo, mid, lo, hi)
	case lo > mid:
		return t.minNode(2*x+1, mid+1, nhi, lo, hi)
	}
	return min(t.minNode(2*x, nlo, mid, lo, hi), t.minNode(2*x+1, mid+1, nhi, lo, hi))
}

// keeperAll is implemented by an oracle that can answer the layered engine's keepAlone
// questions of one stalled layer in a single pass.
type keeperAll interface {
	// keepAloneAll sets ok[k] to whether the vector d with every job at[i] moved to
	// up[i] < d[at[i]], except at[k] left at d[at[k]], is feasible. up[i] is at least
	// the job's release. It returns the context's error when ctx is cancelled.
	keepAloneAll(ctx context.Context, d, at, up []int, ok []bool) error
}

// keepAloneAll answers, for each job of a stalled layer, whether keeping it where it is
// lets all the others rise together (layered.keepAlone), in one pass per resource instead
// of one EDF run per job.
//
// Why it is exact. Let d' be d with every job of the layer raised (infeasible: the layer
// stalled) and f' its window slacks (see raisableAll). Leaving job j at d_j instead of
// up_j takes η_j out of exactly the windows of the rectangle R_j = {a ≤ rel_j,
// up_j ≤ b ≤ d_j − 1}, so the trial is feasible iff every window outside R_j has
// f' ≥ 0 and every window inside has f' ≥ −η_j. The first holds iff the violated windows
// (f' < 0) fit in R_j, that is iff their bounding box does (R_j is a product of
// intervals): the largest a of a violated window is at most rel_j, and their least and
// largest b lie in [up_j, d_j − 1]. The same sweep as raisableAll gives both: at each a
// the current minimum over b ≥ a says whether row a holds a violated window; each
// entry's historic minimum at the end is min_{a ≤ b} f'(a, b), since entry b stops being
// lowered once a passes it; and the rectangle minima are asked at a = rel_j. A job with
// no demand of a resource changes nothing there: it qualifies only if that resource has
// no violated window.
func (o edfOracle) keepAloneAll(ctx context.Context, d, at, up []int, ok []bool) error {
	p := o.p
	for k := range ok {
		ok[k] = true
	}
	T := p.T
	w := p.windowScratch(len(at))
	raised := append(w.raised[:0], d...)
	w.raised = raised
	for k, j := range at {
		raised[j] = up[k]
	}
	hist := w.hist
	for r := range p.R {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("tas: onion peeling: %w", err)
		}
		for k, j := range at {
			w.ask[k] = -1
			if p.eta[j][r] > 0 {
				w.ask[k] = j
			}
		}
		lastRow := 0 // the largest a of a violated window, 0: none
		p.sweepWindows(w, r, raised, func(a int, ks []int) {
			if w.t.cur(a-1, T-1) < 0 {
				lastRow = a
			}
			for _, k := range ks {
				j := at[k]
				if w.t.min(up[k]-1, d[j]-2) < -p.eta[j][r] {
					ok[k] = false
				}
			}
		})
		if lastRow == 0 {
			continue
		}
		w.t.leaves(hist)
		lo, hi := -1, -1 // least and largest b of a violated window
		for i, h := range hist {
			if h < 0 {
				if lo < 0 {
					lo = i + 1
				}
				hi = i + 1
			}
		}
		for k, j := range at {
			if p.eta[j][r] == 0 || lastRow > p.relOf(j, r) || lo < up[k] || hi > d[j]-1 {
				ok[k] = false
			}
		}
	}
	return nil
}

// cur returns the least current value of entries lo..hi (0-based, inclusive), lo ≤ hi.
func (t *histTree) cur(lo, hi int) int64 {
	return t.curNode(1, 0, t.n-1, lo, hi)
}

func (t *histTree) curNode(x, nlo, nhi, lo, hi int) int64 {
	if lo <= nlo && nhi <= hi {
		return t.mn[x]
	}
	t.push(x)
	mid := (nlo + nhi) / 2
	switch {
	case hi <= mid:
		return t.curNode(2*x, nlo, mid, lo, hi)
	case lo > mid:
		return t.curNode(2*x+1, mid+1, nhi, lo, hi)
	}
	return min(t.curNode(2*x, nlo, mid, lo, hi), t.curNode(2*x+1, mid+1, nhi, lo, hi))
}

// leaves writes every entry's historic minimum into out (len n).
func (t *histTree) leaves(out []int64) { t.leavesNode(1, 0, t.n-1, out) }

func (t *histTree) leavesNode(x, lo, hi int, out []int64) {
	if lo == hi {
		out[lo] = t.hmn[x]
		return
	}
	t.push(x)
	mid := (lo + hi) / 2
	t.leavesNode(2*x, lo, mid, out)
	t.leavesNode(2*x+1, mid+1, hi, out)
}
