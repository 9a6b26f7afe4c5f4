package woha

import (
	"container/heap"
	"fmt"
)

// BaselineKind is one of the ported Hadoop job schedulers of woha.txt §V-B. Under all
// three, Oozie submits a job when its prerequisites finish (JobReady) and the job
// scheduler sees independent jobs: no plan, no workflow structure beyond the deadline EDF
// inherits.
type BaselineKind int

const (
	// FIFO is Oozie + Hadoop's JobQueueTaskScheduler: jobs in submission order, a free
	// slot goes to the first job with a task waiting for its pool.
	FIFO BaselineKind = iota
	// Fair is Oozie + the FairScheduler: running jobs share each pool evenly, so a free
	// slot goes to the waiting job with the fewest running tasks in that pool (ties in
	// submission order).
	Fair
	// EDF gives the slot to a job of the workflow with the earliest absolute deadline
	// (ties in job submission order), as the paper's port of [10] does.
	EDF
)

func (k BaselineKind) String() string {
	switch k {
	case FIFO:
		return "fifo"
	case Fair:
		return "fair"
	case EDF:
		return "edf"
	}
	return fmt.Sprintf("BaselineKind(%d)", int(k))
}

// Baseline is a Picker for FIFO, Fair or EDF; every operation is O(log jobs waiting).
type Baseline struct {
	kind BaselineKind
	wfs  [][]*bJob // by handle; nil once finished
	left []int
	heap [2]bHeap
	seq  int64
}

type bJob struct {
	wf, job    int
	seq        int64 // Oozie submission order
	deadline   float64
	ready      bool
	waiting    [2]int
	unfinished [2]int
	running    [2]int
	pos        [2]int
}

// NewBaseline returns an empty FIFO, Fair or EDF picker.
func NewBaseline(kind BaselineKind) (*Baseline, error) {
	b := &Baseline{kind: kind}
	var less func(a, b *bJob, p int) bool
	switch kind {
	case FIFO:
		less = func(a, b *bJob, _ int) bool { return a.seq < b.seq }
	case Fair:
		less = func(a, b *bJob, p int) bool {
			if a.running[p] != b.running[p] {
				return a.running[p] < b.running[p]
			}
			return a.seq < b.seq
		}
	case EDF:
		less = func(a, b *bJob, _ int) bool {
			if a.deadline != b.deadline {
				return a.deadline < b.deadline
			}
			return a.seq < b.seq
		}
	default:
		return nil, fmt.Errorf("woha: unknown baseline %v", kind)
	}
	for p := range b.heap {
		b.heap[p] = bHeap{pool: p, less: less}
	}
	return b, nil
}

// Submit admits w; its deadline is t + w.Deadline.
func (b *Baseline) Submit(t float64, w *Workflow) (int, error) {
	if err := Validate([]Workflow{*w}); err != nil {
		return -1, err
	}
	h := len(b.wfs)
	jobs := make([]*bJob, len(w.Jobs))
	for j := range jobs {
		jobs[j] = &bJob{wf: h, job: j, deadline: t + w.Deadline, pos: [2]int{-1, -1},
			unfinished: [2]int{w.Jobs[j].Maps, w.Jobs[j].Reduces}}
	}
	b.wfs = append(b.wfs, jobs)
	b.left = append(b.left, len(jobs))
	return h, nil
}

func (b *Baseline) job(c Choice) (*bJob, error) {
	if c.Workflow < 0 || c.Workflow >= len(b.wfs) || b.wfs[c.Workflow] == nil {
		return nil, fmt.Errorf("woha: no active workflow %d", c.Workflow)
	}
	if c.Job < 0 || c.Job >= len(b.wfs[c.Workflow]) {
		return nil, fmt.Errorf("woha: workflow %d has no job %d", c.Workflow, c.Job)
	}
	return b.wfs[c.Workflow][c.Job], nil
}

// JobReady is Oozie submitting the job to Hadoop.
func (b *Baseline) JobReady(t float64, c Choice) error {
	j, err := b.job(c)
	if err != nil {
		return err
	}
	if j.ready {
		return fmt.Errorf("woha: workflow %d job %d reported ready twice", c.Workflow, c.Job)
	}
	j.ready = true
	j.seq = b.seq
	b.seq++
	switch {
	case j.unfinished[MapPool] > 0:
		b.release(j, MapPool)
	case j.unfinished[ReducePool] > 0:
		b.release(j, ReducePool)
	default:
		b.jobDone(j)
	}
	return nil
}

func (b *Baseline) release(j *bJob, p Pool) {
	j.waiting[p] = j.unfinished[p]
	b.heap[p].push(j)
}

func (b *Baseline) jobDone(j *bJob) {
	b.left[j.wf]--
	if b.left[j.wf] == 0 {
		b.wfs[j.wf] = nil
	}
}

// Pick returns the first job in the pool's order.
func (b *Baseline) Pick(t float64, p Pool) (Choice, bool) {
	h := &b.heap[p]
	if len(h.a) == 0 {
		return Choice{}, false
	}
	j := h.a[0]
	return Choice{Workflow: j.wf, Job: j.job}, true
}

// TaskStarted takes one waiting task of c's job onto pool p.
func (b *Baseline) TaskStarted(t float64, c Choice, p Pool) error {
	j, err := b.job(c)
	if err != nil {
		return err
	}
	if j.waiting[p] == 0 {
		return fmt.Errorf("woha: workflow %d job %d has no %s task waiting", c.Workflow, c.Job, p)
	}
	j.waiting[p]--
	j.running[p]++
	if j.waiting[p] == 0 {
		b.heap[p].remove(j)
	} else if b.kind == Fair {
		b.heap[p].fix(j)
	}
	return nil
}

// TaskFinished frees one of c's job's running tasks on pool p.
func (b *Baseline) TaskFinished(t float64, c Choice, p Pool) error {
	j, err := b.job(c)
	if err != nil {
		return err
	}
	if j.running[p] == 0 {
		return fmt.Errorf("woha: workflow %d job %d has no %s task running", c.Workflow, c.Job, p)
	}
	j.running[p]--
	j.unfinished[p]--
	if b.kind == Fair && j.pos[p] >= 0 {
		b.heap[p].fix(j)
	}
	if j.unfinished[p] > 0 {
		return nil
	}
	if p == MapPool && j.unfinished[ReducePool] > 0 {
		b.release(j, ReducePool)
		return nil
	}
	b.jobDone(j)
	return nil
}

// bHeap is one pool's waiting jobs in the baseline's order (container/heap, positions
// kept in bJob.pos).
type bHeap struct {
	pool int
	less func(a, b *bJob, p int) bool
	a    []*bJob
}

func (h *bHeap) push(j *bJob)       { heap.Push(h, j) }
func (h *bHeap) remove(j *bJob)     { heap.Remove(h, j.pos[h.pool]) }
func (h *bHeap) fix(j *bJob)        { heap.Fix(h, j.pos[h.pool]) }
func (h *bHeap) Len() int           { return len(h.a) }
func (h *bHeap) Less(i, k int) bool { return h.less(h.a[i], h.a[k], h.pool) }

func (h *bHeap) Swap(i, k int) {
	h.a[i], h.a[k] = h.a[k], h.a[i]
	h.a[i].pos[h.pool] = i
	h.a[k].pos[h.pool] = k
}

func (h *bHeap) Push(x any) {
	j := x.(*bJob)
	j.pos[h.pool] = len(h.a)
	h.a = append(h.a, j)
}

func (h *bHeap) Pop() any {
	j := h.a[len(h.a)-1]
	h.a[len(h.a)-1] = nil
	h.a = h.a[:len(h.a)-1]
	j.pos[h.pool] = -1
	return j
}
