package rtmr

import "slices"

// record is what the admission controller keeps per accepted job: its place in the
// priority queue and the vectors J.T^m, J.T^r of §IV-A, with the finish estimates e^m and
// e they imply.
type record struct {
	job    *Job
	abs    float64 // A + D, the EDF key
	seq    int     // admission order: breaks EDF ties (first come, first served)
	epsM   float64 // ε̃^m (Algorithm II line 1), fixed at admission
	epsR   float64 // ε̃^r (Algorithm III line 2)
	em, e  float64 // estimated map-stage finish and job finish
	tm, tr []float64
	// Scratch vectors for a tentative recomputation (Algorithm I lines 13–15), swapped
	// in at line 23 when the new job is accepted.
	nm, nr  []float64
	nem, ne float64
	started bool
	run     run
}

// Admission is the admission controller of rtmr.txt §IV-B (Algorithms I–III).
//
// The priority queue is kept as one slice in dispatch order: first the jobs that have
// started (their first map task was dispatched) in the order they started, then the
// waiting jobs in EDF order. No job is preempted once started (§IV, assumption 2), so a new
// job can only go among the waiting ones; since map tasks are dispatched in queue order,
// jobs start in queue order and the head of the waiting part is always the next to start.
type Admission struct {
	l, q     int
	order    []*record
	nStarted int     // order[:nStarted] have started
	last     *record // the job the dispatcher started latest, kept after it finishes
	seq      int
	zm, zr   []float64 // [0,…,0] for a job without predecessor (Algorithm I lines 2–3)
	ring     []float64 // placeFrom's scratch
}

// NewAdmission returns an empty controller for a cluster of l map and q reduce slots.
func NewAdmission(l, q int) *Admission {
	return &Admission{l: l, q: q, zm: make([]float64, l), zr: make([]float64, q), ring: make([]float64, max(l, q))}
}

// Len is the number of accepted jobs not yet finished.
func (a *Admission) Len() int { return len(a.order) }

// before is the EDF order with ties to the earlier admission.
func before(x, y *record) bool {
	if x.abs != y.abs {
		return x.abs < y.abs
	}
	return x.seq < y.seq
}

// insertAt is where a job with EDF key r goes among the waiting jobs.
func (a *Admission) insertAt(r *record) int {
	lo, hi := a.nStarted, len(a.order)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if before(a.order[m], r) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// predVectors are T_p^m and T_p^r for a job at position p (getPredecessor of Algorithm I
// line 1): the job before it, or at the head of the waiting jobs the job started latest
// (§IV-B: "If J were at the head of the queue, J_p is the job that has been started latest
// by the dispatcher") even if that one has finished since, or zeros.
func (a *Admission) predVectors(p int) ([]float64, []float64) {
	if p > a.nStarted {
		r := a.order[p-1]
		return r.tm, r.tr
	}
	if a.last != nil {
		return a.last.tm, a.last.tr
	}
	return a.zm, a.zr
}

// calc is Algorithm III (which runs Algorithm II on the same T_p^m for e^m, line 1):
// dstM and dstR receive J.T^m and J.T^r computed from pm and pr at time now.
func (a *Admission) calc(r *record, pm, pr []float64, now float64, dstM, dstR []float64) (em, e float64) {
	em = placeFrom(dstM, pm, r.job.M(), r.epsM, now, a.ring) // Alg. II lines 2–8, "current Time" = now
	if r.job.Reduces == 0 {
		copy(dstR, pr)
		return em, em // a map-only job is done when its maps are
	}
	e = placeFrom(dstR, pr, r.job.Reduces, r.epsR, em, a.ring) // Alg. III lines 3–9
	return em, e
}

// Admit is Algorithm I for job j arriving at now with task bounds epsM = ε̃^m and epsR =
// ε̃^r (Job.TaskBounds): false when j or one of the jobs after it in the queue would miss
// its deadline, which leaves the controller as it was.
func (a *Admission) Admit(now float64, j *Job, epsM, epsR float64) bool {
	return a.admit(now, j, epsM, epsR) != nil
}

// admit is Admit returning the accepted job's record (nil when rejected).
func (a *Admission) admit(now float64, j *Job, epsM, epsR float64) *record {
	r, p := a.decide(now, j, epsM, epsR)
	if r == nil {
		return nil
	}
	// Lines 22–23: insert J and make the tentative vectors the successors' own.
	for _, s := range a.order[p:] {
		s.tm, s.nm = s.nm, s.tm
		s.tr, s.nr = s.nr, s.tr
		s.em, s.e = s.nem, s.ne
	}
	a.order = slices.Insert(a.order, p, r)
	a.seq++
	return r
}

// Decide is Algorithm I lines 1–21 without lines 22–23: whether j would be accepted now.
func (a *Admission) Decide(now float64, j *Job, epsM, epsR float64) bool {
	r, _ := a.decide(now, j, epsM, epsR)
	return r != nil
}

// decide returns j's tentative record and queue position, or nil, leaving the successors'
// tentative vectors in their scratch fields.
func (a *Admission) decide(now float64, j *Job, epsM, epsR float64) (*record, int) {
	r := &record{job: j, abs: j.AbsDeadline(), seq: a.seq, epsM: epsM, epsR: epsR}
	p := a.insertAt(r)
	pm, pr := a.predVectors(p)
	r.tm, r.tr = make([]float64, a.l), make([]float64, a.q)
	r.em, r.e = a.calc(r, pm, pr, now, r.tm, r.tr) // lines 1–6
	if r.e > r.abs {                               // line 7: e > A + D
		return nil, 0
	}
	prevM, prevR := r.tm, r.tr // line 10: J_p = J
	for _, s := range a.order[p:] {
		if s.nm == nil {
			s.nm, s.nr = make([]float64, a.l), make([]float64, a.q)
		}
		s.nem, s.ne = a.calc(s, prevM, prevR, now, s.nm, s.nr) // lines 13–15
		if s.ne > s.abs {                                      // line 16
			return nil, 0
		}
		prevM, prevR = s.nm, s.nr // line 19
	}
	return r, p
}

// start records that the dispatcher gave r its first map task; r is the head of the
// waiting jobs (see Admission).
func (a *Admission) start(r *record) {
	if a.order[a.nStarted] != r {
		panic("rtmr: a job started out of queue order")
	}
	r.started = true
	a.nStarted++
	a.last = r
}

func (a *Admission) index(r *record) int {
	for i, s := range a.order {
		if s == r {
			return i
		}
	}
	return -1
}

// finish removes a finished job from the queue. Its vectors stay available as the
// latest-started job's when it is that job.
func (a *Admission) finish(r *record) {
	i := a.index(r)
	if i < 0 {
		return
	}
	a.order = slices.Delete(a.order, i, i+1)
	if r.started {
		a.nStarted--
	}
}
