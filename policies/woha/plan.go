package woha

import (
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Step is one entry (ttd, req) of a progress requirement list F_i (woha.txt §IV-A): the
// plan schedules Req more tasks TTD seconds before the end of its simulated run, which the
// scheduler reads as TTD seconds before the workflow's deadline.
type Step struct {
	TTD float64
	Req int
}

// Plan is the scheduling plan GenerateReqs derives for one workflow.
type Plan struct {
	Cap      int     // n, the slots the simulated run had
	Makespan float64 // the simulated workspan on Cap slots
	Steps    []Step  // TTD strictly decreasing, Req > 0
}

// Tasks is Σ Req, every task of the workflow.
func (p *Plan) Tasks() int {
	n := 0
	for _, s := range p.Steps {
		n += s.Req
	}
	return n
}

type planEventKind uint8

const (
	evFree     planEventKind = iota // slots come back (FREE)
	evMapsDone                      // a job's last map wave ends: its reduces may start (ADD with m = 0)
	evDone                          // a job's last reduce wave ends: dependents may become ready
)

type planEvent struct {
	kind planEventKind
	v    int // slots for evFree, job index otherwise
}

// eventQueue is a time-ordered event queue; events at the same time come out in the
// order they went in, so runs never depend on heap internals.
type eventQueue[T any] struct {
	items timedItems[T]
	seq   int
}

type timed[T any] struct {
	t   float64
	seq int
	v   T
}

type timedItems[T any] []timed[T]

func (h timedItems[T]) Len() int { return len(h) }
func (h timedItems[T]) Less(a, b int) bool {
	if h[a].t != h[b].t {
		return h[a].t < h[b].t
	}
	return h[a].seq < h[b].seq
}
func (h timedItems[T]) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *timedItems[T]) Push(x any)   { *h = append(*h, x.(timed[T])) }
func (h *timedItems[T]) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (q *eventQueue[T]) push(t float64, v T) {
	heap.Push(&q.items, timed[T]{t: t, seq: q.seq, v: v})
	q.seq++
}

func (q *eventQueue[T]) len() int { return len(q.items) }

// next is the earliest event's time; the queue must not be empty.
func (q *eventQueue[T]) next() float64 { return q.items[0].t }

func (q *eventQueue[T]) pop() (float64, T) {
	e := heap.Pop(&q.items).(timed[T])
	return e.t, e.v
}

// rankHeap is the active job queue A, most urgent (lowest rank) first.
type rankHeap struct {
	jobs []int
	rank []int
}

func (h rankHeap) Len() int           { return len(h.jobs) }
func (h rankHeap) Less(a, b int) bool { return h.rank[h.jobs[a]] < h.rank[h.jobs[b]] }
func (h rankHeap) Swap(a, b int)      { h.jobs[a], h.jobs[b] = h.jobs[b], h.jobs[a] }
func (h *rankHeap) Push(x any)        { h.jobs = append(h.jobs, x.(int)) }
func (h *rankHeap) Pop() any {
	x := h.jobs[len(h.jobs)-1]
	h.jobs = h.jobs[:len(h.jobs)-1]
	return x
}

// GenerateReqs is Algorithm 1 of woha.txt: it simulates w alone on n slots, always
// giving free slots to the most urgent active job (rank 0 first), and records how many
// tasks it starts when. rank must be a permutation of the job indices (see Ranks) and w
// must have passed Validate.
//
// Where the printed pseudo code cannot be what was meant, we follow the prose (the
// package doc lists each reading): slots given to a wave of tasks come back by a FREE
// event when the wave ends; free slots keep going to the next job in A until none is
// left; all events of one instant are applied before slots are handed out; and a job's
// dependents are released when its last reduce wave ends, not when it starts.
func GenerateReqs(w *Workflow, rank []int, n int) (Plan, error) {
	if n < 1 {
		return Plan{}, fmt.Errorf("woha: GenerateReqs: resource cap must be >= 1, got %d", n)
	}
	if len(rank) != len(w.Jobs) {
		return Plan{}, fmt.Errorf("woha: GenerateReqs: %d ranks for %d jobs", len(rank), len(w.Jobs))
	}
	d := compile(w)
	nj := len(w.Jobs)
	mapsLeft := make([]int, nj)
	redsLeft := make([]int, nj)
	waiting := make([]int, nj) // unfinished prerequisites
	for j := range w.Jobs {
		mapsLeft[j] = w.Jobs[j].Maps
		redsLeft[j] = w.Jobs[j].Reduces
		waiting[j] = len(d.prereq[j])
	}
	var ev eventQueue[planEvent]
	push := func(t float64, k planEventKind, v int) { ev.push(t, planEvent{kind: k, v: v}) }
	active := &rankHeap{rank: rank}
	// activate puts a job whose prerequisites are done into A, or finishes it at once
	// when it has no task left to run.
	activate := func(t float64, j int) {
		if mapsLeft[j] > 0 || redsLeft[j] > 0 {
			heap.Push(active, j)
			return
		}
		push(t, evDone, j)
	}
	for j := 0; j < nj; j++ {
		if waiting[j] == 0 {
			activate(0, j)
		}
	}
	free := 0
	push(0, evFree, n)
	var times []float64
	var reqs []int
	record := func(t float64, k int) {
		if m := len(times); m > 0 && times[m-1] == t {
			reqs[m-1] += k
			return
		}
		times = append(times, t)
		reqs = append(reqs, k)
	}
	t := 0.0
	for ev.len() > 0 {
		t = ev.next()
		for ev.len() > 0 && ev.next() == t {
			_, e := ev.pop()
			switch e.kind {
			case evFree:
				free += e.v
			case evMapsDone:
				if redsLeft[e.v] > 0 {
					heap.Push(active, e.v)
				} else {
					push(t, evDone, e.v)
				}
			case evDone:
				for _, k := range d.dependents[e.v] {
					waiting[k]--
					if waiting[k] == 0 {
						activate(t, k)
					}
				}
			}
		}
		for free > 0 && active.Len() > 0 {
			j := active.jobs[0]
			job := &w.Jobs[j]
			// Maps first; a job is back in A for its reduces only once its maps are done.
			left, dur, end := &mapsLeft[j], job.MapTime, evMapsDone
			if *left == 0 {
				left, dur, end = &redsLeft[j], job.ReduceTime, evDone
			}
			k := min(*left, free)
			record(t, k)
			free -= k
			*left -= k
			push(t+dur, evFree, k)
			if *left == 0 {
				heap.Pop(active)
				push(t+dur, end, j)
			}
		}
	}
	p := Plan{Cap: n, Makespan: t, Steps: make([]Step, len(times))}
	for i := range times {
		// Lines 37-39: event time becomes time to the end of the run.
		p.Steps[i] = Step{TTD: t - times[i], Req: reqs[i]}
	}
	return p, nil
}

// SearchCap is the improvement of woha.txt §IV-A: a binary search, with GenerateReqs as
// the subroutine, for the smallest resource cap in [1, slots] whose plan finishes within
// w's relative deadline. met is false when even slots does not, and the plan is then the
// one for slots. The search assumes the simulated workspan does not grow with the cap;
// list scheduling does not promise that (Graham's anomalies), so on such a workflow the
// answer is a cap that meets the deadline with one fewer slot missing it, not
// necessarily the smallest.
func SearchCap(w *Workflow, rank []int, slots int) (plan Plan, met bool, err error) {
	if slots < 1 {
		return Plan{}, false, fmt.Errorf("woha: SearchCap: slots must be >= 1, got %d", slots)
	}
	best, err := GenerateReqs(w, rank, slots)
	if err != nil {
		return Plan{}, false, err
	}
	if best.Makespan > w.Deadline {
		return best, false, nil
	}
	lo, hi := 1, slots // invariant: hi meets the deadline; every cap below lo was tried and missed
	for lo < hi {
		mid := lo + (hi-lo)/2
		p, err := GenerateReqs(w, rank, mid)
		if err != nil {
			return Plan{}, false, err
		}
		if p.Makespan <= w.Deadline {
			hi, best = mid, p
		} else {
			lo = mid + 1
		}
	}
	return best, true, nil
}

// MarshalBinary encodes the plan as the client would send it to the master: cap and
// step count as uvarints, the workspan and each TTD as IEEE-754 float64, each Req as a
// uvarint.
func (p *Plan) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 2*binary.MaxVarintLen64+8+len(p.Steps)*10)
	b = binary.AppendUvarint(b, uint64(p.Cap))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p.Makespan))
	b = binary.AppendUvarint(b, uint64(len(p.Steps)))
	for _, s := range p.Steps {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.TTD))
		b = binary.AppendUvarint(b, uint64(s.Req))
	}
	return b, nil
}

// Size is the plan's encoded size in bytes (woha.txt §VI-B, Fig. 13 b).
func (p *Plan) Size() int {
	b, _ := p.MarshalBinary()
	return len(b)
}

var errPlanShort = errors.New("truncated")

// UnmarshalBinary decodes what MarshalBinary wrote and checks that it is a plan: TTDs
// finite, within [0, workspan] and strictly decreasing, every Req at least 1.
func (p *Plan) UnmarshalBinary(b []byte) error {
	uv := func(what string) (uint64, error) {
		v, k := binary.Uvarint(b)
		if k <= 0 {
			return 0, fmt.Errorf("woha: plan: %s: %w", what, errPlanShort)
		}
		b = b[k:]
		return v, nil
	}
	f64 := func(what string) (float64, error) {
		if len(b) < 8 {
			return 0, fmt.Errorf("woha: plan: %s: %w", what, errPlanShort)
		}
		v := math.Float64frombits(binary.LittleEndian.Uint64(b))
		b = b[8:]
		return v, nil
	}
	c, err := uv("cap")
	if err != nil {
		return err
	}
	if c < 1 || c > math.MaxInt32 {
		return fmt.Errorf("woha: plan: cap %d out of range", c)
	}
	ms, err := f64("makespan")
	if err != nil {
		return err
	}
	if !finite(ms) || ms < 0 {
		return fmt.Errorf("woha: plan: makespan %v is not a finite number >= 0", ms)
	}
	n, err := uv("steps")
	if err != nil {
		return err
	}
	if n > uint64(len(b))/9 {
		return fmt.Errorf("woha: plan: %d steps cannot fit in %d bytes", n, len(b))
	}
	q := Plan{Cap: int(c), Makespan: ms, Steps: make([]Step, n)}
	for i := range q.Steps {
		ttd, err := f64(fmt.Sprintf("steps[%d].ttd", i))
		if err != nil {
			return err
		}
		if !finite(ttd) || ttd < 0 || ttd > ms || (i > 0 && ttd >= q.Steps[i-1].TTD) {
			return fmt.Errorf("woha: plan: steps[%d].ttd %v must be finite, in [0, %v] and below the previous", i, ttd, ms)
		}
		r, err := uv(fmt.Sprintf("steps[%d].req", i))
		if err != nil {
			return err
		}
		if r < 1 || r > math.MaxInt32 {
			return fmt.Errorf("woha: plan: steps[%d].req %d out of range", i, r)
		}
		q.Steps[i] = Step{TTD: ttd, Req: int(r)}
	}
	if len(b) != 0 {
		return fmt.Errorf("woha: plan: %d trailing bytes", len(b))
	}
	*p = q
	return nil
}
