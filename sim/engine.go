package sim

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/workload"
)

// MaxIdleTicks is how many consecutive ticks with nothing running, nothing started
// and nothing else pending end a run as stalled. A policy may wait on purpose (for a
// time, not for an event), so the limit is generous.
const MaxIdleTicks = 1000

// Options control one run.
type Options struct {
	// Seed selects the true runtimes (workload.TaskRuntime's streams).
	Seed uint64
	// Timing measures the wall-clock time of every decision round (Result.Timing).
	// Off, a run's result depends on nothing but the workload, the policy and Seed.
	Timing bool
	// Record keeps every task placement (Result.Placements): what the invariant checks
	// and the Gantt chart need; it costs memory proportional to the number of tasks.
	Record bool
}

// Result is what one run produced. Metrics (metrics.go) summarises it.
type Result struct {
	Policy string
	Jobs   []JobResult // in workload order
	// Events counts the events applied; Rounds the decision rounds (one per distinct
	// event time with something to decide).
	Events, Rounds int
	// Busy is the busy slot-seconds per pool (slots held, slow-start waits included);
	// CapacitySeconds ∫ min(capacity, slots) dt; both over [0, Makespan] per pool.
	Busy, CapacitySeconds []float64
	// Overcommitted is the part of Busy held above the capacity in force,
	// ∫ max(0, busy − min(capacity, slots)) dt per pool: a capacity drop does not
	// preempt the tasks already running, so until enough of them finish the pool holds
	// more slots than the trace allows. Busy − Overcommitted ≤ CapacitySeconds.
	Overcommitted []float64
	Makespan      float64
	Clairvoyant   bool
	Placements    []Placement // with Options.Record
	Timing        *Timing     // with Options.Timing

	// Admission is set when the policy decides admission (policies.Admitter).
	Admission bool
}

// JobResult is one job's outcome.
type JobResult struct {
	ID         string
	Arrival    float64
	Completion float64 // NaN when rejected
	Rejected   bool
	// SlotSeconds is the slot time the job's tasks held (slow-start waits included):
	// rtmr.txt §V's "slot time used" by the job.
	SlotSeconds float64
}

// Placement is one task's run.
type Placement struct {
	Job, Stage, Task int
	Worker, Pool     int
	Slot             int     // which of the worker's slots of the pool, 0-based
	Start, Finish    float64 // Finish − Start = Runtime / speed, or more after a slow-start wait
	Runtime          float64 // true base runtime
}

// Timing holds wall-clock decision times (nanoseconds per round).
type Timing struct {
	DecisionNanos []int64
}

// event is one entry of the queue, ordered by (time, kind, seq).
type event struct {
	time   float64
	kind   policies.EventKind
	seq    uint64
	job    int32
	stage  int32
	task   int32
	worker int32
	slot   int32
	pool   int32
}

func (a *event) less(b *event) bool {
	if a.time != b.time {
		return a.time < b.time
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.seq < b.seq
}

// queue is a binary min-heap of events (container/heap's interface calls cost a third
// of the engine's time in profiles of the FIFO benchmark).
type queue []event

func (q *queue) push(e event) {
	*q = append(*q, e)
	h := *q
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].less(&h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *queue) pop() event {
	h := *q
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h[r].less(&h[l]) {
			m = r
		}
		if !h[m].less(&h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	*q = h
	return top
}

// engine is one run's state; it is also the policy's View.
type engine struct {
	w      *workload.Workload
	p      policies.Policy
	hooks  policies.Hooks // p's optional interfaces, resolved once
	opt    Options
	info   []policies.JobInfo
	stream []uint64
	q      queue
	seq    uint64
	now    float64

	pools      []workload.Pool
	capNow     []int
	busy       []int
	capHist    [][]policies.CapacityPoint
	workers    []policies.Worker
	workerBusy [][]int   // [worker][pool]
	firstFree  []int     // [pool]: no worker before it has a free slot of the pool
	freeSlots  [][][]int // [worker][pool] free slot ids, with Record

	stageBase []int // job j's stages are stageBase[j] … stageBase[j+1]-1 in the flat arrays
	pend, run []int32
	done      []int32
	// threshold[k] is how many tasks of the previous stage must have finished before
	// stage k's tasks may start (slow start); waiting[j] holds the finish events of j's
	// tasks whose work is done while the previous stage still runs.
	threshold  []int32
	waiting    [][]event
	stageOf    []int32
	held       []int32 // [job*len(pools)+pool]
	depsLeft   []int32
	dependents [][]int32
	arrived    []bool
	rejected   []bool
	finishedAt []float64 // NaN until finished
	finRec     [][]policies.TaskRecord
	runRec     [][]policies.TaskRecord
	placeIdx   [][]int32 // running placements' indices per job, with Record

	active      []int
	activeDirty bool
	remaining   int // admitted jobs not finished, plus jobs not yet arrived

	res        *Result
	busyInt    []float64
	lastChange float64 // time of the last busy-count change, for the busy integral
	capInt     []float64
	overInt    []float64 // ∫ max(0, busy − capacity) dt
	idleTicks  int
	eventNanos int64 // policy time in this instant's event callbacks, with Options.Timing
}

// call runs a policy callback, timing it with Options.Timing.
func (e *engine) call(f func()) {
	if !e.opt.Timing {
		f()
		return
	}
	t0 := time.Now()
	f()
	e.eventNanos += time.Since(t0).Nanoseconds()
}

// Run simulates w under policy p. It fails when a policy misbehaves (picks a job that
// cannot run), when admitted jobs can never finish (capacity that stays 0, or a policy
// that leaves every slot idle), or when ctx is cancelled.
func Run(ctx context.Context, w *workload.Workload, p policies.Policy, opt Options) (*Result, error) {
	e, err := newEngine(w, p, opt)
	if err != nil {
		return nil, err
	}
	if err := e.loop(ctx); err != nil {
		return nil, fmt.Errorf("sim: %s: %w", p.Name(), err)
	}
	return e.res, nil
}

func newEngine(w *workload.Workload, p policies.Policy, opt Options) (*engine, error) {
	if len(w.Cluster.Workers) == 0 || len(w.Cluster.Pools) == 0 {
		return nil, fmt.Errorf("sim: workload %q has no workers or pools (call Validate)", w.Name)
	}
	n, np := len(w.Jobs), len(w.Cluster.Pools)
	e := &engine{w: w, p: p, hooks: policies.HooksOf(p), opt: opt, pools: w.Cluster.Pools,
		res: &Result{Policy: p.Name(), Jobs: make([]JobResult, n), Busy: make([]float64, np), CapacitySeconds: make([]float64, np), Overcommitted: make([]float64, np)}}
	e.capNow = make([]int, np)
	e.busy = make([]int, np)
	e.busyInt = make([]float64, np)
	e.firstFree = make([]int, np)
	e.capInt = make([]float64, np)
	e.overInt = make([]float64, np)
	e.capHist = make([][]policies.CapacityPoint, np)
	for k, pool := range e.pools {
		e.capNow[k] = pool.Slots
		e.capHist[k] = []policies.CapacityPoint{{Time: 0, Slots: pool.Slots}}
	}
	e.workers = policies.Workers(w)
	for _, wk := range e.workers {
		e.workerBusy = append(e.workerBusy, make([]int, np))
		if opt.Record {
			free := make([][]int, np)
			for k, s := range wk.Slots {
				for id := s - 1; id >= 0; id-- {
					free[k] = append(free[k], id)
				}
			}
			e.freeSlots = append(e.freeSlots, free)
		}
	}
	order := policies.RankOrder(w)
	e.info = policies.JobInfos(w)
	e.stream = make([]uint64, n)
	e.stageBase = make([]int, n+1)
	e.dependents = make([][]int32, n)
	e.depsLeft = make([]int32, n)
	for i := range w.Jobs {
		j := &w.Jobs[i]
		for _, d := range e.info[i].After {
			e.dependents[d] = append(e.dependents[d], int32(i))
		}
		e.depsLeft[i] = int32(len(j.After))
		e.stream[i] = workload.JobStream(opt.Seed, j.ID)
		e.stageBase[i+1] = e.stageBase[i] + len(j.Stages)
		e.res.Jobs[i] = JobResult{ID: j.ID, Arrival: j.Arrival, Completion: math.NaN()}
	}
	ns := e.stageBase[n]
	e.pend, e.run, e.done = make([]int32, ns), make([]int32, ns), make([]int32, ns)
	e.threshold = make([]int32, ns)
	e.waiting = make([][]event, n)
	for i := range w.Jobs {
		for s, st := range e.info[i].Stages {
			k := e.stageBase[i] + s
			e.pend[k] = int32(st.Tasks)
			e.threshold[k] = int32(st.StartAfter)
		}
	}
	e.stageOf = make([]int32, n)
	e.held = make([]int32, n*np)
	e.arrived = make([]bool, n)
	e.rejected = make([]bool, n)
	e.finishedAt = make([]float64, n)
	for i := range e.finishedAt {
		e.finishedAt[i] = math.NaN()
	}
	e.finRec = make([][]policies.TaskRecord, n)
	e.runRec = make([][]policies.TaskRecord, n)
	if opt.Record {
		e.placeIdx = make([][]int32, n)
	}
	e.remaining = n
	for _, st := range w.Cluster.Capacity {
		names := make([]string, 0, len(st.Slots))
		for name := range st.Slots {
			names = append(names, name)
		}
		slices.Sort(names) // map order must not leak into the event order
		for _, name := range names {
			e.pushEvent(event{time: st.Time, kind: policies.EventCapacity, job: -1, pool: int32(w.Cluster.PoolIndex(name)), slot: int32(st.Slots[name])})
		}
	}
	for _, i := range order {
		e.pushEvent(event{time: w.Jobs[i].Arrival, kind: policies.EventArrival, job: int32(i)})
	}
	if t := e.hooks.Ticker; t != nil {
		if !(t.Interval() > 0) || math.IsInf(t.Interval(), 0) {
			return nil, fmt.Errorf("sim: policy %s: tick interval %g must be a finite number > 0", p.Name(), t.Interval())
		}
		e.pushEvent(event{time: 0, kind: policies.EventTick, job: -1})
	}
	if c := e.hooks.Clairvoyant; c != nil {
		c.UseOracle(oracle{e})
		e.res.Clairvoyant = true
	}
	if e.hooks.Admitter != nil {
		e.res.Admission = true
	}
	if ta := e.hooks.TraceAware; ta != nil {
		ta.UseCapacityTrace(slices.Clone(w.Cluster.Capacity))
	}
	if opt.Timing {
		e.res.Timing = &Timing{}
	}
	return e, nil
}

type oracle struct{ e *engine }

func (o oracle) TrueRuntime(job, stage, task int) float64 {
	return workload.TaskRuntime(o.e.stream[job], &o.e.w.Jobs[job].Stages[stage], stage, task)
}

func (e *engine) pushEvent(ev event) {
	ev.seq = e.seq
	e.seq++
	e.q.push(ev)
}

func (e *engine) loop(ctx context.Context) error {
	rounder := e.hooks.Rounder
	for batch := 0; len(e.q) > 0; batch++ {
		if batch&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		t := e.q[0].time
		e.advance(t)
		tick := false
		for len(e.q) > 0 && e.q[0].time == t {
			ev := e.q.pop()
			if ev.kind == policies.EventTick {
				if e.remaining == 0 {
					continue // the last tick scheduled before the last job finished
				}
				tick = true
			}
			e.res.Events++
			if err := e.apply(ctx, ev); err != nil {
				return err
			}
		}
		if e.remaining == 0 {
			continue
		}
		var start time.Time
		if e.opt.Timing {
			start = time.Now()
		}
		if rounder != nil {
			rounder.StartRound(ctx, e)
			if err := ctx.Err(); err != nil {
				return err // a solve the policy started was cut short: no decision to act on
			}
			if err := e.aborted(); err != nil {
				return err
			}
		}
		started, err := e.dispatch()
		if err != nil {
			return err
		}
		e.res.Rounds++
		if e.opt.Timing {
			// The round, plus what the policy spent in Admit, Tick and Observe on the
			// events of this instant (RDS decides in Tick, RTMR in Admit).
			e.res.Timing.DecisionNanos = append(e.res.Timing.DecisionNanos, time.Since(start).Nanoseconds()+e.eventNanos)
			e.eventNanos = 0
		}
		if tick {
			if err := e.afterTick(started); err != nil {
				return err
			}
		}
	}
	e.advance(e.now)
	for i := range e.res.Jobs {
		if !e.rejected[i] && math.IsNaN(e.finishedAt[i]) {
			return fmt.Errorf("job %s never completed: %d admitted jobs are stuck (a capacity that stays 0, or a policy that leaves every slot idle)", e.w.Jobs[i].ID, e.remaining)
		}
	}
	return nil
}

// aborted is the policy's reason it cannot go on (policies.Aborter), or nil.
func (e *engine) aborted() error {
	if a := e.hooks.Aborter; a != nil {
		return a.Aborted()
	}
	return nil
}

// afterTick schedules the next tick while jobs remain, and calls a run stalled when
// MaxIdleTicks ticks in a row found nothing running, nothing started and no other
// event pending: nothing can change any more but the policy's mind, and it did not.
func (e *engine) afterTick(started int) error {
	running := 0
	for _, b := range e.busy {
		running += b
	}
	if started == 0 && running == 0 && len(e.q) == 0 {
		e.idleTicks++
	} else {
		e.idleTicks = 0
	}
	if e.idleTicks >= MaxIdleTicks {
		return fmt.Errorf("stalled at t=%g: %d jobs remain, nothing runs and the policy starts nothing", e.now, e.remaining)
	}
	e.pushEvent(event{time: e.now + e.hooks.Ticker.Interval(), kind: policies.EventTick, job: -1})
	return nil
}

// advance moves the clock to t, integrating busy slots and capacity.
func (e *engine) advance(t float64) {
	dt := t - e.now
	if dt > 0 {
		for k := range e.pools {
			c := min(e.capNow[k], e.pools[k].Slots)
			e.busyInt[k] += float64(e.busy[k]) * dt
			e.capInt[k] += float64(c) * dt
			if over := e.busy[k] - c; over > 0 {
				e.overInt[k] += float64(over) * dt
			}
		}
	}
	e.now = t
}

func (e *engine) apply(ctx context.Context, ev event) error {
	obs := e.hooks.Observer
	pe := policies.Event{Kind: ev.kind, Time: ev.time, Job: int(ev.job), Stage: -1, Task: -1, Worker: -1, Pool: -1}
	switch ev.kind {
	case policies.EventCapacity:
		e.capNow[ev.pool] = int(ev.slot)
		h := &e.capHist[ev.pool]
		if last := &(*h)[len(*h)-1]; last.Time == ev.time {
			last.Slots = int(ev.slot)
		} else {
			*h = append(*h, policies.CapacityPoint{Time: ev.time, Slots: int(ev.slot)})
		}
		pe.Pool = int(ev.pool)
	case policies.EventArrival:
		j := int(ev.job)
		e.arrived[j] = true
		if e.depRejected(j) {
			e.reject(j, obs)
			return nil
		}
		if a := e.hooks.Admitter; a != nil {
			admit := true
			e.call(func() { admit = a.Admit(e, j) })
			if err := e.aborted(); err != nil {
				return err
			}
			if !admit {
				e.reject(j, obs)
				return nil
			}
		}
		e.active = append(e.active, j) // arrivals are queued in rank order: Active stays sorted
	case policies.EventTaskFinish:
		if !e.finishTask(ev) {
			return nil // work done, slot held until the previous stage ends: nothing to tell
		}
		pe.Stage, pe.Task, pe.Worker, pe.Pool = int(ev.stage), int(ev.task), int(ev.worker), int(ev.pool)
	case policies.EventJobFinish:
		j := int(ev.job)
		e.finishedAt[j] = ev.time
		e.res.Jobs[j].Completion = ev.time
		e.res.Makespan = max(e.res.Makespan, ev.time)
		copy(e.res.Busy, e.busyInt) // utilization is over [0, makespan]
		copy(e.res.CapacitySeconds, e.capInt)
		copy(e.res.Overcommitted, e.overInt)
		e.remaining--
		e.activeDirty = true
		for _, d := range e.dependents[j] {
			e.depsLeft[d]--
		}
		if obs != nil {
			e.call(func() { obs.Observe(e, pe) })
		}
		e.finRec[j] = nil // released: an Observer keeps what it needs
		return nil
	case policies.EventTick:
		e.call(func() { e.hooks.Ticker.Tick(ctx, e) })
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := e.aborted(); err != nil {
			return err
		}
	}
	if obs != nil {
		e.call(func() { obs.Observe(e, pe) })
	}
	return nil
}

func (e *engine) totalTasks(j int) int {
	n := 0
	for _, st := range e.info[j].Stages {
		n += st.Tasks
	}
	return n
}

func (e *engine) depRejected(j int) bool {
	for _, d := range e.info[j].After {
		if e.rejected[d] {
			return true
		}
	}
	return false
}

// reject marks j rejected and, with it, every arrived job waiting for it (jobs that
// arrive later are rejected at their arrival).
func (e *engine) reject(j int, obs policies.Observer) {
	if e.rejected[j] {
		return
	}
	e.rejected[j] = true
	e.res.Jobs[j].Rejected = true
	e.remaining--
	e.activeDirty = true
	if obs != nil {
		e.call(func() {
			obs.Observe(e, policies.Event{Kind: policies.EventReject, Time: e.now, Job: j, Stage: -1, Task: -1, Worker: -1, Pool: -1})
		})
	}
	for _, d := range e.dependents[j] {
		if e.arrived[d] {
			e.reject(int(d), obs)
		}
	}
}

// finishTask releases a task's slot and reports true, or, when the task started under
// slow start and its stage's predecessor still runs, parks the event until that stage
// ends and reports false.
func (e *engine) finishTask(ev event) bool {
	j, s, p := int(ev.job), int(ev.stage), int(ev.pool)
	if s > int(e.stageOf[j]) {
		e.waiting[j] = append(e.waiting[j], ev)
		return false
	}
	k := e.stageBase[j] + s
	e.run[k]--
	e.done[k]++
	e.held[j*len(e.pools)+p]--
	e.busy[p]--
	e.workerBusy[ev.worker][p]--
	e.firstFree[p] = min(e.firstFree[p], int(ev.worker))
	rr := e.runRec[j]
	for x := range rr {
		if rr[x].Stage == s && rr[x].Task == int(ev.task) {
			rec := rr[x]
			rec.Finish = ev.time
			e.res.Jobs[j].SlotSeconds += ev.time - rec.Start
			if e.finRec[j] == nil {
				// One allocation per job: growing by doubling cost a gigabyte of
				// garbage on the 100,000-job benchmark.
				e.finRec[j] = make([]policies.TaskRecord, 0, e.totalTasks(j))
			}
			e.finRec[j] = append(e.finRec[j], rec)
			rr[x] = rr[len(rr)-1]
			e.runRec[j] = rr[:len(rr)-1]
			break
		}
	}
	if e.opt.Record {
		pi := e.placeIdx[j]
		for x, idx := range pi {
			pl := &e.res.Placements[idx]
			if pl.Stage == s && pl.Task == int(ev.task) {
				pl.Finish = ev.time // later than Start + Runtime/speed if it waited
				e.freeSlots[ev.worker][p] = append(e.freeSlots[ev.worker][p], pl.Slot)
				pi[x] = pi[len(pi)-1]
				e.placeIdx[j] = pi[:len(pi)-1]
				break
			}
		}
	}
	if int(e.done[k]) == e.info[j].Stages[s].Tasks {
		e.stageOf[j]++
		if int(e.stageOf[j]) == len(e.info[j].Stages) {
			e.pushEvent(event{time: ev.time, kind: policies.EventJobFinish, job: ev.job})
		}
		// The tasks that finished their work early now finish: same time, same batch.
		for _, w := range e.waiting[j] {
			w.time = ev.time
			e.pushEvent(w)
		}
		e.waiting[j] = e.waiting[j][:0]
	}
	return true
}

// dispatch offers the free slots to the policy (see the policies package doc) and
// returns how many tasks started.
func (e *engine) dispatch() (int, error) {
	started := 0
	for p := range e.pools {
		if e.busy[p] >= min(e.capNow[p], e.pools[p].Slots) {
			continue
		}
		// firstFree[p] is a lower bound on the first worker with a free slot of p, so
		// a large cluster is not scanned from worker 0 at every round.
		hint := -1
		wk := e.firstFree[p]
		for ; wk < len(e.workers); wk++ {
			for e.workerBusy[wk][p] < e.workers[wk].Slots[p] && e.busy[p] < e.capNow[p] {
				j, ok := e.p.Pick(e, policies.Slot{Pool: p, Worker: wk, Speed: e.workers[wk].Speed})
				if !ok {
					break
				}
				if j < 0 || j >= len(e.info) || !e.Runnable(j, p) {
					return started, fmt.Errorf("t=%g: picked job %d for a slot of pool %q, but it has no runnable task there", e.now, j, e.pools[p].Name)
				}
				e.start(j, p, wk)
				started++
			}
			if hint < 0 && e.workerBusy[wk][p] < e.workers[wk].Slots[p] {
				hint = wk
			}
			if e.busy[p] >= e.capNow[p] {
				break
			}
		}
		if hint < 0 {
			hint = min(wk, len(e.workers)) // workers past the stop were not looked at
		}
		e.firstFree[p] = hint
	}
	return started, nil
}

func (e *engine) start(j, p, wk int) {
	s := int(e.stageOf[j])
	if k := e.stageBase[j] + s; e.info[j].Stages[s].Pool != p || e.pend[k] == 0 {
		s++ // the next stage, open under slow start (Runnable said so)
	}
	k := e.stageBase[j] + s
	st := &e.w.Jobs[j].Stages[s]
	task := st.Tasks - int(e.pend[k])
	e.pend[k]--
	e.run[k]++
	e.held[j*len(e.pools)+p]++
	e.busy[p]++
	e.workerBusy[wk][p]++
	rt := workload.TaskRuntime(e.stream[j], st, s, task)
	fin := e.now + rt/e.workers[wk].Speed
	e.runRec[j] = append(e.runRec[j], policies.TaskRecord{Stage: s, Task: task, Worker: wk, Start: e.now})
	ev := event{time: fin, kind: policies.EventTaskFinish, job: int32(j), stage: int32(s), task: int32(task), worker: int32(wk), pool: int32(p)}
	if e.opt.Record {
		free := &e.freeSlots[wk][p]
		id := (*free)[len(*free)-1]
		*free = (*free)[:len(*free)-1]
		e.placeIdx[j] = append(e.placeIdx[j], int32(len(e.res.Placements)))
		e.res.Placements = append(e.res.Placements, Placement{Job: j, Stage: s, Task: task, Worker: wk, Pool: p, Slot: id, Start: e.now, Finish: fin, Runtime: rt})
		ev.slot = int32(id)
	}
	e.pushEvent(ev)
}

// View.

func (e *engine) Now() float64                    { return e.now }
func (e *engine) TimeUnit() float64               { return e.w.TimeUnit }
func (e *engine) Pools() []workload.Pool          { return e.pools }
func (e *engine) Capacity(pool int) int           { return e.capNow[pool] }
func (e *engine) Busy(pool int) int               { return e.busy[pool] }
func (e *engine) Workers() []policies.Worker      { return e.workers }
func (e *engine) WorkerBusy(worker, pool int) int { return e.workerBusy[worker][pool] }
func (e *engine) NumJobs() int                    { return len(e.info) }
func (e *engine) Job(j int) *policies.JobInfo     { return &e.info[j] }
func (e *engine) Ready(j int) bool                { return e.depsLeft[j] == 0 }
func (e *engine) Stage(j int) int                 { return int(e.stageOf[j]) }
func (e *engine) Pending(j, s int) int            { return int(e.pend[e.stageBase[j]+s]) }
func (e *engine) Running(j, s int) int            { return int(e.run[e.stageBase[j]+s]) }
func (e *engine) Done(j, s int) int               { return int(e.done[e.stageBase[j]+s]) }
func (e *engine) Held(j, pool int) int            { return int(e.held[j*len(e.pools)+pool]) }
func (e *engine) Rejected(j int) bool             { return e.rejected[j] }

func (e *engine) CapacityHistory(pool int) []policies.CapacityPoint {
	h := e.capHist[pool]
	return h[:len(h):len(h)]
}

func (e *engine) Active() []int {
	if e.activeDirty {
		out := e.active[:0]
		for _, j := range e.active {
			if !e.rejected[j] && math.IsNaN(e.finishedAt[j]) {
				out = append(out, j)
			}
		}
		e.active = out
		e.activeDirty = false
	}
	return e.active[:len(e.active):len(e.active)]
}

func (e *engine) Runnable(j, pool int) bool {
	if !e.arrived[j] || e.rejected[j] || e.depsLeft[j] != 0 {
		return false
	}
	s := int(e.stageOf[j])
	st := e.info[j].Stages
	if s >= len(st) {
		return false
	}
	k := e.stageBase[j] + s
	if st[s].Pool == pool && e.pend[k] > 0 {
		return true
	}
	// Slow start: the next stage is open once enough of this one has finished.
	return s+1 < len(st) && st[s+1].Pool == pool && e.pend[k+1] > 0 && e.done[k] >= e.threshold[k+1]
}

func (e *engine) Finished(j int) []policies.TaskRecord {
	r := e.finRec[j]
	return r[:len(r):len(r)]
}

func (e *engine) RunningTasks(j int) []policies.TaskRecord {
	r := e.runRec[j]
	return r[:len(r):len(r)]
}

func (e *engine) Completion(j int) (float64, bool) {
	c := e.finishedAt[j]
	return c, !math.IsNaN(c)
}
