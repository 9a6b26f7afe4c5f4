package woha

import (
	"container/heap"
	"fmt"
	"math"
)

// Pool is a Hadoop-1 slot pool.
type Pool uint8

const (
	MapPool Pool = iota
	ReducePool
)

func (p Pool) String() string {
	if p == MapPool {
		return "map"
	}
	return "reduce"
}

// Choice names one job of one submitted workflow: the handle Submit returned and the
// job's index in that workflow's Jobs.
type Choice struct {
	Workflow int
	Job      int
}

// Picker is what a simulator drives: it reports events and asks, for each free slot,
// which job's task runs there. Readiness of jobs (all prerequisites finished) is the
// caller's to decide and report with JobReady; a Picker tracks, from JobReady and the task
// events, how many tasks of each job wait for each pool (reduces wait for all maps of
// their job to finish). Pick does not change what it would pick next; TaskStarted does.
type Picker interface {
	Submit(t float64, w *Workflow) (handle int, err error)
	JobReady(t float64, c Choice) error
	TaskStarted(t float64, c Choice, p Pool) error
	TaskFinished(t float64, c Choice, p Pool) error
	Pick(t float64, p Pool) (Choice, bool)
}

// Order selects how the progress-based scheduler keeps workflows ordered.
type Order int

const (
	// OrderDSL is Algorithm 2: a ct list and priority lists, linked through the workflow,
	// each a deterministic 1-2-3 skip list [21] as the paper has it.
	OrderDSL Order = iota
	// OrderHeap keeps the same two orders in indexed binary heaps.
	OrderHeap
	// OrderNaive recomputes every workflow's lag on every Pick and scans for the largest,
	// the "naive solution" of woha.txt §IV-B and Fig. 13 a.
	OrderNaive
	// OrderRandomDSL is Algorithm 2 on randomized skip lists (Pugh [20]) instead.
	OrderRandomDSL
)

func (o Order) String() string {
	switch o {
	case OrderDSL:
		return "dsl"
	case OrderHeap:
		return "heap"
	case OrderNaive:
		return "naive"
	case OrderRandomDSL:
		return "random-dsl"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// SchedulerConfig configures the progress-based scheduler.
type SchedulerConfig struct {
	Rule  Rule  // intra-workflow job priority (§V-C)
	Slots int   // the cluster's slots n the plan generator is told about (§IV-A)
	Order Order // how workflows are kept in order; all three pick the same
	// FixedCap, when > 0, skips the resource-cap search and plans every workflow on
	// FixedCap slots (Fig. 2 a uses the whole cluster, 6).
	FixedCap int
	Seed     uint64 // skip list levels; any value gives the same picks
}

// Scheduler is progress-based scheduling (woha.txt §IV-B): each free slot goes to the
// workflow with the largest lag F(ttd) − ρ among those with a task waiting for that
// pool, and within it to the most urgent ready job under the workflow's job ranks.
type Scheduler struct {
	cfg   SchedulerConfig
	wfs   []*wfState // by handle; nil once finished
	ct    orderedSet
	pri   [2]orderedSet
	naive []*wfState // OrderNaive: every unfinished workflow
}

type wfState struct {
	handle   int
	w        *Workflow
	rank     []int
	plan     Plan
	met      bool
	changeAt []float64 // absolute time of each plan step, D − TTD, ascending
	cum      []int64   // tasks required once step k has passed
	idx      int       // W_h.i: steps already passed
	next     float64   // W_h.t: changeAt[idx], +Inf after the last
	rho      int64     // ρ: tasks started
	p        int64     // W_h.p: cum[idx−1] − ρ as of the last update
	waiting  [2]int    // tasks waiting for each pool, over all ready jobs
	jobs     []jobState
	jobq     [2]jobHeap
	left     int // jobs not finished
	sl       [numLists]slNode
	dsl      [numLists]*dslNode
	hpos     [numLists]int
	naivePos int
}

type jobState struct {
	ready      bool
	waiting    [2]int // tasks not yet started, per pool (reduces only once maps are done)
	unfinished [2]int // tasks not yet finished, per pool
	qpos       [2]int
}

// NewScheduler returns an empty progress-based scheduler.
func NewScheduler(cfg SchedulerConfig) (*Scheduler, error) {
	if cfg.Slots < 1 && cfg.FixedCap < 1 {
		return nil, fmt.Errorf("woha: SchedulerConfig.Slots must be >= 1, got %d", cfg.Slots)
	}
	switch cfg.Rule {
	case HLF, LPF, MPF:
	default:
		return nil, fmt.Errorf("woha: unknown rule %v", cfg.Rule)
	}
	s := &Scheduler{cfg: cfg}
	switch cfg.Order {
	case OrderDSL:
		s.ct = newDetSkipList(listCT)
		s.pri[MapPool] = newDetSkipList(listPriMap)
		s.pri[ReducePool] = newDetSkipList(listPriReduce)
	case OrderRandomDSL:
		s.ct = newSkipList(listCT, cfg.Seed^0x9e3779b97f4a7c15)
		s.pri[MapPool] = newSkipList(listPriMap, cfg.Seed^0xbf58476d1ce4e5b9)
		s.pri[ReducePool] = newSkipList(listPriReduce, cfg.Seed^0x94d049bb133111eb)
	case OrderHeap:
		s.ct = newHeapSet(listCT)
		s.pri[MapPool] = newHeapSet(listPriMap)
		s.pri[ReducePool] = newHeapSet(listPriReduce)
	case OrderNaive:
	default:
		return nil, fmt.Errorf("woha: unknown order %v", cfg.Order)
	}
	return s, nil
}

// Submit validates w, ranks its jobs under SchedulerConfig.Rule and plans it: GenerateReqs on
// SchedulerConfig.FixedCap slots, or on the cap SearchCap finds within SchedulerConfig.Slots. The
// deadline is t + w.Deadline (t is the submission time S_i). The scheduler keeps w: it
// must not change until the workflow has finished.
func (s *Scheduler) Submit(t float64, w *Workflow) (int, error) {
	if err := Validate([]Workflow{*w}); err != nil {
		return -1, err
	}
	rank := Ranks(w, s.cfg.Rule)
	var plan Plan
	met := true
	var err error
	if s.cfg.FixedCap > 0 {
		plan, err = GenerateReqs(w, rank, s.cfg.FixedCap)
		met = plan.Makespan <= w.Deadline
	} else {
		plan, met, err = SearchCap(w, rank, s.cfg.Slots)
	}
	if err != nil {
		return -1, err
	}
	return s.SubmitPlanned(t, w, rank, plan, met)
}

// SubmitPlanned admits w with a plan and job ranks computed elsewhere (by the client, in
// WOHA's architecture). w must have passed Validate and plan must be w's.
func (s *Scheduler) SubmitPlanned(t float64, w *Workflow, rank []int, plan Plan, met bool) (int, error) {
	if len(rank) != len(w.Jobs) {
		return -1, fmt.Errorf("woha: %d ranks for %d jobs", len(rank), len(w.Jobs))
	}
	h := &wfState{handle: len(s.wfs), w: w, rank: rank, plan: plan, met: met, left: len(w.Jobs)}
	deadline := t + w.Deadline
	h.changeAt = make([]float64, len(plan.Steps))
	h.cum = make([]int64, len(plan.Steps))
	var c int64
	for k, st := range plan.Steps {
		c += int64(st.Req)
		h.changeAt[k] = deadline - st.TTD
		h.cum[k] = c
	}
	h.next = math.Inf(1)
	if len(h.changeAt) > 0 {
		h.next = h.changeAt[0]
	}
	h.jobs = make([]jobState, len(w.Jobs))
	for j := range h.jobs {
		h.jobs[j].qpos = [2]int{-1, -1}
		h.jobs[j].unfinished = [2]int{w.Jobs[j].Maps, w.Jobs[j].Reduces}
	}
	for p := range h.jobq {
		h.jobq[p] = jobHeap{rank: rank, jobs: h.jobs, pool: p}
	}
	h.hpos = [numLists]int{-1, -1, -1}
	s.wfs = append(s.wfs, h)
	if s.ct != nil {
		if h.idx < len(h.changeAt) {
			s.ct.insert(h)
		}
	} else {
		h.naivePos = len(s.naive)
		s.naive = append(s.naive, h)
	}
	return h.handle, nil
}

// PlanOf returns the plan a workflow was admitted with and whether it meets the deadline
// on its own.
func (s *Scheduler) PlanOf(handle int) (Plan, bool) {
	if handle < 0 || handle >= len(s.wfs) || s.wfs[handle] == nil {
		return Plan{}, false
	}
	return s.wfs[handle].plan, s.wfs[handle].met
}

func (s *Scheduler) state(c Choice) (*wfState, *jobState, error) {
	if c.Workflow < 0 || c.Workflow >= len(s.wfs) || s.wfs[c.Workflow] == nil {
		return nil, nil, fmt.Errorf("woha: no active workflow %d", c.Workflow)
	}
	h := s.wfs[c.Workflow]
	if c.Job < 0 || c.Job >= len(h.jobs) {
		return nil, nil, fmt.Errorf("woha: workflow %q has no job %d", h.w.ID, c.Job)
	}
	return h, &h.jobs[c.Job], nil
}

// advance applies every plan step due by t (Alg. 2 lines 8-11, 14).
func (h *wfState) advance(t float64) {
	for h.idx < len(h.changeAt) && h.changeAt[h.idx] <= t {
		h.idx++
	}
	h.next = math.Inf(1)
	if h.idx < len(h.changeAt) {
		h.next = h.changeAt[h.idx]
	}
	h.p = -h.rho
	if h.idx > 0 {
		h.p += h.cum[h.idx-1]
	}
}

// detach takes h out of the priority lists it is in, before its key changes.
func (s *Scheduler) detach(h *wfState) {
	if s.ct == nil {
		return
	}
	for p := range s.pri {
		if h.waiting[p] > 0 {
			s.pri[p].remove(h)
		}
	}
}

func (s *Scheduler) attach(h *wfState) {
	if s.ct == nil {
		return
	}
	for p := range s.pri {
		if h.waiting[p] > 0 {
			s.pri[p].insert(h)
		}
	}
}

// JobReady reports that all of a job's prerequisites have finished: its map tasks wait
// for map slots (or, with no maps, its reduces for reduce slots).
func (s *Scheduler) JobReady(t float64, c Choice) error {
	h, js, err := s.state(c)
	if err != nil {
		return err
	}
	if js.ready {
		return fmt.Errorf("woha: workflow %q job %q reported ready twice", h.w.ID, h.w.Jobs[c.Job].ID)
	}
	js.ready = true
	switch {
	case js.unfinished[MapPool] > 0:
		s.release(h, c.Job, MapPool)
	case js.unfinished[ReducePool] > 0:
		s.release(h, c.Job, ReducePool)
	default:
		s.jobDone(h)
	}
	return nil
}

// release makes all of a job's tasks of pool p wait for slots.
func (s *Scheduler) release(h *wfState, j int, p Pool) {
	js := &h.jobs[j]
	js.waiting[p] = js.unfinished[p]
	if h.waiting[p] == 0 && s.ct != nil {
		h.waiting[p] = js.waiting[p]
		s.pri[p].insert(h)
	} else {
		h.waiting[p] += js.waiting[p]
	}
	h.jobq[p].push(j)
}

func (s *Scheduler) jobDone(h *wfState) {
	h.left--
	if h.left > 0 {
		return
	}
	if s.ct != nil {
		if h.idx < len(h.changeAt) {
			s.ct.remove(h)
		}
	} else {
		last := s.naive[len(s.naive)-1]
		s.naive[h.naivePos] = last
		last.naivePos = h.naivePos
		s.naive = s.naive[:len(s.naive)-1]
	}
	s.wfs[h.handle] = nil
}

// Pick is Algorithm 2 without its last two lines: it brings every workflow whose
// requirement changed by t up to date, then returns the most lagging workflow that has a
// task waiting for pool p, and that workflow's most urgent such job.
func (s *Scheduler) Pick(t float64, p Pool) (Choice, bool) {
	var best *wfState
	if s.ct == nil {
		for _, h := range s.naive {
			h.advance(t)
			if h.waiting[p] > 0 && (best == nil || priLess(h, best)) {
				best = h
			}
		}
	} else {
		for {
			h := s.ct.first()
			if h == nil || h.next > t {
				break
			}
			s.ct.removeFirst()
			s.detach(h)
			h.advance(t)
			s.attach(h)
			if h.idx < len(h.changeAt) {
				s.ct.insert(h)
			}
		}
		best = s.pri[p].first()
	}
	if best == nil {
		return Choice{}, false
	}
	return Choice{Workflow: best.handle, Job: best.jobq[p].top()}, true
}

// TaskStarted counts one more task of c's job started on pool p: ρ grows by one (Alg. 2
// lines 21-23).
func (s *Scheduler) TaskStarted(t float64, c Choice, p Pool) error {
	h, js, err := s.state(c)
	if err != nil {
		return err
	}
	if js.waiting[p] == 0 {
		return fmt.Errorf("woha: workflow %q job %q has no %s task waiting", h.w.ID, h.w.Jobs[c.Job].ID, p)
	}
	s.detach(h)
	h.rho++
	h.p--
	js.waiting[p]--
	h.waiting[p]--
	if js.waiting[p] == 0 {
		h.jobq[p].remove(c.Job)
	}
	s.attach(h)
	return nil
}

// TaskFinished counts one task of c's job finished on pool p. The last map releases the
// job's reduces; the last task finishes the job.
func (s *Scheduler) TaskFinished(t float64, c Choice, p Pool) error {
	h, js, err := s.state(c)
	if err != nil {
		return err
	}
	if !js.ready || (p == ReducePool && js.unfinished[MapPool] > 0) || js.unfinished[p]-js.waiting[p] <= 0 {
		return fmt.Errorf("woha: workflow %q job %q has no %s task running", h.w.ID, h.w.Jobs[c.Job].ID, p)
	}
	js.unfinished[p]--
	if js.unfinished[p] > 0 {
		return nil
	}
	if p == MapPool && js.unfinished[ReducePool] > 0 {
		s.release(h, c.Job, ReducePool)
		return nil
	}
	s.jobDone(h)
	return nil
}

// AssignTask is Algorithm 2 whole: Pick, then TaskStarted on the pick.
func (s *Scheduler) AssignTask(t float64, p Pool) (Choice, bool) {
	c, ok := s.Pick(t, p)
	if ok {
		_ = s.TaskStarted(t, c, p) // cannot fail: Pick only returns jobs with a waiting task
	}
	return c, ok
}

// jobHeap holds a workflow's jobs with tasks waiting for one pool, lowest rank first
// (container/heap, positions kept in jobState.qpos).
type jobHeap struct {
	a    []int
	rank []int
	jobs []jobState
	pool int
}

func (q *jobHeap) top() int           { return q.a[0] }
func (q *jobHeap) push(j int)         { heap.Push(q, j) }
func (q *jobHeap) remove(j int)       { heap.Remove(q, q.jobs[j].qpos[q.pool]) }
func (q *jobHeap) Len() int           { return len(q.a) }
func (q *jobHeap) Less(i, j int) bool { return q.rank[q.a[i]] < q.rank[q.a[j]] }

func (q *jobHeap) Swap(i, j int) {
	q.a[i], q.a[j] = q.a[j], q.a[i]
	q.jobs[q.a[i]].qpos[q.pool] = i
	q.jobs[q.a[j]].qpos[q.pool] = j
}

func (q *jobHeap) Push(x any) {
	j := x.(int)
	q.jobs[j].qpos[q.pool] = len(q.a)
	q.a = append(q.a, j)
}

func (q *jobHeap) Pop() any {
	j := q.a[len(q.a)-1]
	q.a = q.a[:len(q.a)-1]
	q.jobs[j].qpos[q.pool] = -1
	return j
}
