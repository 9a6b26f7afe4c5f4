package tas

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/coraopt/coraopt/sched"
)

// Violation says why a set of target completion slots cannot all be met.
//
// For a prefix violation (Job < 0) the jobs due by Slot need Demand units of Resource
// while slots 1..Slot offer only Capacity: rush.txt eq. (12) fails at Slot. For a missed
// deadline (Job ≥ 0, reported when release times or parallelism caps apply, where no
// prefix condition is exact) Job still needed Demand units of Resource after its deadline
// Slot, and Capacity is 0. Reason is set for malformed input (a deadline out of range, a
// wrong number of deadlines, a malformed instance).
type Violation struct {
	Slot     int
	Resource int // index into Instance.Resources
	Demand   int64
	Capacity int64
	Job      int
	Reason   string
}

func (v *Violation) Error() string {
	switch {
	case v.Reason != "":
		return "tas: " + v.Reason
	case v.Job >= 0:
		return fmt.Sprintf("tas: job %d misses its deadline %d: %d units of resource %d left", v.Job, v.Slot, v.Demand, v.Resource)
	}
	return fmt.Sprintf("tas: slots 1..%d: demand %d of resource %d exceeds capacity %d", v.Slot, v.Demand, v.Resource, v.Capacity)
}

// EDF returns the earliest-deadline-first schedule in which job i completes by slot
// deadlines[i], or the first violated condition when it cannot.
//
// Resources are independent in this model (a job's units of one resource are not tied to
// its units of another; only its completion, the last slot holding anything, couples
// them), so the deadlines are feasible iff they are feasible for each resource, and EDF
// runs per resource. Capacities may vary by slot.
//
// Without release times and parallelism caps the test is rush.txt eq. (12) generalised to
// time-varying capacity: Σ_{k: d_k ≤ t} η_kr ≤ Σ_{s ≤ t} C_rs for every slot t and
// resource r (Theorem 2). The first failing (slot, resource) is reported. The schedule
// then serves jobs in deadline order (ties by index), each taking what is left of every
// slot until its demand is met; it is integral, and a job shares a slot only with its
// neighbours in that order.
//
// With release times the slots are filled one at a time: in each slot the released jobs
// are served in deadline order up to their remaining demand (and parallelism cap) and the
// slot's capacity. With release times alone this is exact (preemptive EDF is optimal on one
// resource whose per-slot capacity any job may use). With MaxParallel it is not: EDF can
// miss a deadline a smarter split would meet; FlowSchedule is exact there.
func EDF(inst *sched.Instance, deadlines []int) (*sched.Schedule, *Violation) {
	p, err := newProblem(inst)
	if err != nil {
		return nil, &Violation{Job: -1, Reason: err.Error()}
	}
	if v := p.checkDeadlines(deadlines); v != nil {
		return nil, v
	}
	s := sched.NewSchedule(inst)
	if !p.general {
		if v := p.prefixViolation(deadlines); v != nil {
			return nil, v
		}
		p.fillSequential(s, deadlines)
	} else if v := p.fillSlots(s, deadlines); v != nil {
		return nil, v
	}
	s.Finalize(inst)
	return s, nil
}

// checkDeadlines reports deadlines that are not one slot in [release_j, T] per job.
func (p *problem) checkDeadlines(d []int) *Violation {
	if len(d) != p.n {
		return &Violation{Job: -1, Reason: fmt.Sprintf("%d deadlines for %d jobs", len(d), p.n)}
	}
	for j, dj := range d {
		if dj < p.release[j] || dj > p.T {
			return &Violation{Job: j, Slot: dj, Reason: fmt.Sprintf("job %q: deadline %d outside [release %d, horizon %d]",
				p.inst.Jobs[j].ID, dj, p.release[j], p.T)}
		}
	}
	return nil
}

// prefixViolation checks rush.txt eq. (12) per resource; deadlines must be in 1..T.
func (p *problem) prefixViolation(d []int) *Violation {
	due := make([]int64, p.T+1)
	for r := range p.R {
		clear(due)
		for j, dj := range d {
			due[dj] += p.eta[j][r]
		}
		var sum int64
		for t := 1; t <= p.T; t++ {
			sum += due[t]
			if sum > p.prefix[r][t] {
				return &Violation{Slot: t, Resource: r, Demand: sum, Capacity: p.prefix[r][t], Job: -1}
			}
		}
	}
	return nil
}

// edfOrder returns the jobs sorted by deadline, ties by index.
func edfOrder(d []int) []int {
	order := make([]int, len(d))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(d[a], d[b]) })
	return order
}

// fillSequential writes the EDF schedule when the prefix condition holds and no job has a
// release time or cap: per resource, jobs in deadline order take capacity front to back.
func (p *problem) fillSequential(s *sched.Schedule, d []int) {
	order := edfOrder(d)
	for r := range p.R {
		t, left := 1, p.cap[r][0]
		for _, j := range order {
			need := p.eta[j][r]
			row := s.Jobs[j].Alloc[r]
			for need > 0 && t <= p.T {
				if left == 0 {
					t++
					if t <= p.T {
						left = p.cap[r][t-1]
					}
					continue
				}
				give := min(need, left)
				row[t-1] += int(give)
				need -= give
				left -= give
			}
		}
	}
}

// fillSlots runs slot-by-slot EDF honouring release times and parallelism caps, writes
// the allocation into s (when not nil) and reports the first missed deadline.
func (p *problem) fillSlots(s *sched.Schedule, d []int) *Violation {
	rem := make([]int64, p.n)
	for r := range p.R {
		for j := range p.n {
			rem[j] = p.eta[j][r]
		}
		grant := func(j, t int, x int64) {
			if s != nil {
				s.Jobs[j].Alloc[r][t-1] += int(x)
			}
		}
		if j := p.serveSlots(r, d, d, rem, grant); j >= 0 {
			return &Violation{Slot: d[j], Resource: r, Demand: rem[j], Job: j}
		}
	}
	return nil
}

// serveSlots runs slot-by-slot EDF on resource r: in each slot the released jobs with
// demand left (rem, updated in place) are served in increasing order of key, ties by
// index, each up to its demand, its cap and what is left of the slot; grant is told
// every grant. It stops at the end of the first slot t where the first job in that order
// still needs units and is due (due[j] ≤ t), and returns that job, or −1.
func (p *problem) serveSlots(r int, key, due []int, rem []int64, grant func(j, t int, x int64)) int {
	rel, byRelease := p.releaseOrder(r)
	h := &jobHeap{d: key, idx: make([]int, 0, 64)}
	next := 0
	var carry []int
	for t := 1; t <= p.T; t++ {
		for next < p.n && rel[byRelease[next]] <= t {
			if j := byRelease[next]; rem[j] > 0 {
				h.push(j)
			}
			next++
		}
		left := p.cap[r][t-1]
		carry = carry[:0]
		for left > 0 && h.Len() > 0 {
			j := h.pop()
			give := min(rem[j], left)
			if p.maxPar[j] > 0 {
				give = min(give, p.maxPar[j])
			}
			grant(j, t, give)
			rem[j] -= give
			left -= give
			if rem[j] > 0 {
				carry = append(carry, j)
			}
		}
		for _, j := range carry {
			h.push(j)
		}
		if h.Len() > 0 {
			if j := h.idx[0]; due[j] <= t {
				return j
			}
		}
	}
	return -1
}

// releaseOrder returns the first slot of resource r of every job and the jobs sorted by
// it (ties by index), computed once per problem: every EDF run of the layered engine
// needs them and they never change.
func (p *problem) releaseOrder(r int) (rel, order []int) {
	if p.relOrder == nil {
		p.relOrder = make([][]int, p.R)
		p.relByR = make([][]int, p.R)
	}
	if p.relOrder[r] == nil {
		rel := p.release
		if p.resRel != nil {
			rel = make([]int, p.n)
			for j := range rel {
				rel[j] = p.relOf(j, r)
			}
		}
		p.relByR[r], p.relOrder[r] = rel, edfOrder(rel)
	}
	return p.relByR[r], p.relOrder[r]
}

// jobHeap orders job indices by deadline, ties by index: a strict order, so the jobs
// come out in the same sequence however the heap is laid out. Typed rather than through
// container/heap, whose boxing of every index was a fifth of an EDF run.
type jobHeap struct {
	idx []int
	d   []int
}

func (h *jobHeap) Len() int { return len(h.idx) }

func (h *jobHeap) less(a, b int) bool {
	ja, jb := h.idx[a], h.idx[b]
	if h.d[ja] != h.d[jb] {
		return h.d[ja] < h.d[jb]
	}
	return ja < jb
}

func (h *jobHeap) push(j int) {
	h.idx = append(h.idx, j)
	for i := len(h.idx) - 1; i > 0; {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			break
		}
		h.idx[i], h.idx[parent] = h.idx[parent], h.idx[i]
		i = parent
	}
}

func (h *jobHeap) pop() int {
	top := h.idx[0]
	last := len(h.idx) - 1
	h.idx[0] = h.idx[last]
	h.idx = h.idx[:last]
	for i := 0; ; {
		c := 2*i + 1
		if c >= last {
			break
		}
		if c+1 < last && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			break
		}
		h.idx[i], h.idx[c] = h.idx[c], h.idx[i]
		i = c
	}
	return top
}
