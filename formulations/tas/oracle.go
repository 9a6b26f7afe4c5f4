package tas

// oracle decides whether a deadline vector is feasible, and whether one job alone can
// move to an earlier deadline. The layered engine uses one of three, chosen by what the
// instance has:
//
//	prefixOracle  no release times, no caps: rush.txt eq. (12) per resource, O(n + T) a test,
//	              and a range-minimum over the prefix slack answers raisable in O(1)
//	edfOracle     release times, no caps: slot-by-slot EDF, exact (preemptive EDF is
//	              optimal on one divisible resource), O((n + T) log n) a test and a raise
//	flowOracle    some job has max_parallel: max-flow per resource (FlowSchedule's network)
type oracle interface {
	// feasible reports whether every job can finish by d[j]; every d[j] is in
	// [release_j, T].
	feasible(d []int) bool
	// raisable is called after feasible(d) returned true, with d unchanged; it reports
	// whether job j alone can finish by nd < d[j] while every other job keeps d.
	raisable(d []int, j, nd int) bool
}

// prefixOracle tests rush.txt eq. (12) and keeps the prefix slack of the last feasible
// vector for raisable.
type prefixOracle struct {
	p     *problem
	due   []int64   // scratch: demand due at each slot
	slack [][]int64 // slack[r][t] = Σ_{s≤t} C_rs − Σ_{k: d_k ≤ t} η_kr for t = 1..T
	rmq   []sparseMin
	built bool
}

func newPrefixOracle(p *problem) *prefixOracle {
	o := &prefixOracle{p: p, due: make([]int64, p.T+1), slack: make([][]int64, p.R), rmq: make([]sparseMin, p.R)}
	for r := range o.slack {
		o.slack[r] = make([]int64, p.T+1)
	}
	return o
}

func (o *prefixOracle) feasible(d []int) bool {
	p := o.p
	o.built = false
	for r := range p.R {
		clear(o.due)
		for j, dj := range d {
			o.due[dj] += p.eta[j][r]
		}
		var sum int64
		s := o.slack[r]
		for t := 1; t <= p.T; t++ {
			sum += o.due[t]
			s[t] = p.prefix[r][t] - sum
			if s[t] < 0 {
				return false
			}
		}
	}
	return true
}

// raisable: moving job j from d[j] to nd adds η_jr to the demand due by every slot in
// [nd, d[j]−1], so it is feasible iff the minimum slack there is at least η_jr for every
// resource.
func (o *prefixOracle) raisable(d []int, j, nd int) bool {
	p := o.p
	if !o.built {
		for r := range p.R {
			o.rmq[r].build(o.slack[r][1:])
		}
		o.built = true
	}
	for r := range p.R {
		if e := p.eta[j][r]; e > 0 && o.rmq[r].min(nd-1, d[j]-2) < e {
			return false
		}
	}
	return true
}

// sparseMin answers range-minimum queries in O(1) after an O(T log T) build.
type sparseMin struct {
	lv [][]int64 // lv[k][i] = min of a[i : i+2^k]
}

func (s *sparseMin) build(a []int64) {
	n := len(a)
	if len(s.lv) == 0 {
		s.lv = [][]int64{nil}
	}
	s.lv[0] = append(s.lv[0][:0], a...)
	k := 1
	for ; 1<<k <= n; k++ {
		if len(s.lv) <= k {
			s.lv = append(s.lv, nil)
		}
		prev := s.lv[k-1]
		half := 1 << (k - 1)
		cur := s.lv[k][:0]
		for i := 0; i+(1<<k) <= n; i++ {
			cur = append(cur, min(prev[i], prev[i+half]))
		}
		s.lv[k] = cur
	}
	s.lv = s.lv[:k]
}

// min of a[lo..hi] inclusive (0-based); lo ≤ hi.
func (s *sparseMin) min(lo, hi int) int64 {
	k := 0
	for 1<<(k+1) <= hi-lo+1 {
		k++
	}
	return min(s.lv[k][lo], s.lv[k][hi-(1<<k)+1])
}

// edfOracle simulates EDF with release times.
type edfOracle struct{ p *problem }

func (o edfOracle) feasible(d []int) bool { return o.p.fillSlots(nil, d) == nil }

func (o edfOracle) raisable(d []int, j, nd int) bool { return tryDeadline(o, d, j, nd) }

// flowOracle tests feasibility by max-flow per resource.
type flowOracle struct {
	p   *problem
	net flowNet
}

func (o *flowOracle) feasible(d []int) bool { return o.p.flowFeasible(&o.net, d) }

func (o *flowOracle) raisable(d []int, j, nd int) bool { return tryDeadline(o, d, j, nd) }

// tryDeadline re-tests feasibility with job j's deadline moved to nd.
func tryDeadline(o oracle, d []int, j, nd int) bool {
	old := d[j]
	d[j] = nd
	ok := o.feasible(d)
	d[j] = old
	return ok
}
