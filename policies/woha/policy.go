package woha

import (
	"context"
	"fmt"
	"math"

	"github.com/coraopt/coraopt/policies"
)

// Policy runs a Picker (the progress-based Scheduler or a Baseline) in the simulator
// through policies.Policy. It groups the view's jobs into workflows by their Workflow
// field (a job without one is a workflow of its own), submits each workflow when its
// first job arrives, reports a job ready once it has arrived and every job it waits
// for has finished (Oozie's submission), and forwards task starts and finishes.
//
// What a plan is built from: a job's declared estimates (workload estimates.map_time,
// reduce_time) when given, else the mean of its stage's declared runtime distribution;
// a workload with explicit task_runtimes and no estimates cannot be planned (Err). The
// workflow's submission time is its earliest job arrival and its relative deadline the
// earliest member deadline less that: the engine's view of a declared workflow.
//
// Pools are named "map" and "reduce"; a job has at most one stage in each, the map
// stage first. The plan's cap is searched within the map + reduce slots of the
// cluster, as woha.txt §IV-A plans on all n slots.
type Policy struct {
	name   string
	newP   func(slots int) (Picker, error)
	p      Picker
	err    error
	inited bool

	wfOf     []int    // job index → workflow slot in wfs
	jobOf    []int    // job index → job index in its woha.Workflow
	wfs      []*wfRef // workflows of the view in first-rank order
	pool     []int8   // view pool → MapPool, ReducePool, or -1
	reported []bool   // JobReady sent
	byHandle []int    // Picker handle → workflow slot in wfs
}

type wfRef struct {
	w         Workflow
	jobs      []int // view job indices, in w.Jobs order
	handle    int
	submitted bool
}

// Config configures the progress-based scheduler as a simulator policy; the zero value
// is WOHA under HLF (§V-C) with the searched resource cap (§IV-A).
type Config struct {
	Rule Rule // intra-workflow job priority (§V-C)
	// FixedCap, when > 0, plans every workflow on FixedCap slots instead of the
	// searched cap (Fig. 2 a plans on the whole cluster).
	FixedCap int
}

// New returns the progress-based scheduler (woha.txt §IV-B) as the simulator policy
// woha-hlf, woha-lpf or woha-mpf (woha-<rule>-cap<N> with a FixedCap); an unknown rule
// or a negative cap is an error.
func New(cfg Config) (*Policy, error) {
	switch cfg.Rule {
	case HLF, LPF, MPF:
	default:
		return nil, fmt.Errorf("woha: unknown rule %v", cfg.Rule)
	}
	if cfg.FixedCap < 0 {
		return nil, fmt.Errorf("woha: fixed cap must be >= 0, got %d", cfg.FixedCap)
	}
	name := "woha-" + cfg.Rule.String()
	if cfg.FixedCap > 0 {
		name += fmt.Sprintf("-cap%d", cfg.FixedCap)
	}
	return &Policy{name: name, newP: func(slots int) (Picker, error) {
		return NewScheduler(SchedulerConfig{Rule: cfg.Rule, Slots: slots, FixedCap: cfg.FixedCap})
	}}, nil
}

// NewOozie returns a §V-B baseline — Oozie submitting each job when its prerequisites
// finish, under Hadoop's FIFO, Fair or EDF job scheduler — as the simulator policy
// oozie-fifo, oozie-fair or oozie-edf; an unknown kind is an error.
func NewOozie(kind BaselineKind) (*Policy, error) {
	if _, err := NewBaseline(kind); err != nil {
		return nil, err
	}
	return &Policy{name: "oozie-" + kind.String(), newP: func(int) (Picker, error) { return NewBaseline(kind) }}, nil
}

// Name is the policy's name as --policies spells it.
func (p *Policy) Name() string { return p.name }

// Err is the first problem the policy met (a workload it cannot plan, or a Picker that
// disagreed with the engine); the run is then not WOHA's and must not be reported.
func (p *Policy) Err() error { return p.err }

func (p *Policy) fail(err error) {
	if err != nil && p.err == nil {
		p.err = err
	}
}

// init builds the workflows from the view; it runs before the first arrival.
func (p *Policy) init(v policies.View) {
	p.inited = true
	pools := v.Pools()
	p.pool = make([]int8, len(pools))
	slots := 0
	for k, pl := range pools {
		switch pl.Name {
		case "map":
			p.pool[k] = int8(MapPool)
			slots += pl.Slots
		case "reduce":
			p.pool[k] = int8(ReducePool)
			slots += pl.Slots
		default:
			p.pool[k] = -1
		}
	}
	picker, err := p.newP(max(1, slots))
	if err != nil {
		p.fail(err)
		return
	}
	p.p = picker
	n := v.NumJobs()
	p.wfOf, p.jobOf, p.reported = make([]int, n), make([]int, n), make([]bool, n)
	byRank := make([]int, n)
	for j := range n {
		byRank[v.Job(j).Rank] = j
	}
	index := map[string]int{}
	for _, j := range byRank {
		info := v.Job(j)
		key := "\x00" + info.ID // a lone job: its own workflow
		if info.Workflow != "" {
			key = info.Workflow
		}
		k, ok := index[key]
		if !ok {
			k = len(p.wfs)
			index[key] = k
			id := info.Workflow
			if id == "" {
				id = info.ID
			}
			p.wfs = append(p.wfs, &wfRef{w: Workflow{ID: id, Arrival: info.Arrival, Deadline: math.Inf(1)}})
		}
		ref := p.wfs[k]
		p.wfOf[j], p.jobOf[j] = k, len(ref.jobs)
		ref.jobs = append(ref.jobs, j)
		ref.w.Arrival = min(ref.w.Arrival, info.Arrival)
		ref.w.Deadline = min(ref.w.Deadline, info.Deadline)
		job, err := p.jobOfInfo(v, info)
		p.fail(err)
		ref.w.Jobs = append(ref.w.Jobs, job)
	}
	for _, ref := range p.wfs {
		if math.IsInf(ref.w.Deadline, 1) {
			p.fail(fmt.Errorf("%s: workflow %q has no deadline; WOHA plans against one", p.name, ref.w.ID))
		}
		ref.w.Deadline -= ref.w.Arrival
	}
}

// jobOfInfo is the woha Job of a view job: its task counts and estimated task times.
func (p *Policy) jobOfInfo(v policies.View, info *policies.JobInfo) (Job, error) {
	job := Job{ID: info.ID}
	for s, st := range info.Stages {
		if st.Pool < 0 || p.pool[st.Pool] < 0 {
			return job, fmt.Errorf("%s: job %q stage %d: WOHA knows only pools map and reduce", p.name, info.ID, s)
		}
		est := 0.0
		e := info.Estimates
		switch pool := Pool(p.pool[st.Pool]); {
		case pool == MapPool && (s != 0 || job.Maps > 0):
			return job, fmt.Errorf("%s: job %q: a map stage must be the first and only one", p.name, info.ID)
		case pool == ReducePool && job.Reduces > 0:
			return job, fmt.Errorf("%s: job %q: more than one reduce stage", p.name, info.ID)
		case pool == MapPool:
			job.Maps = st.Tasks
			if e != nil {
				est = e.MapTime
			}
		default:
			job.Reduces = st.Tasks
			if e != nil {
				est = e.ReduceTime
			}
		}
		if est == 0 && st.Runtime != nil {
			est = st.Runtime.MeanValue()
		}
		if !(est > 0) {
			return job, fmt.Errorf("%s: job %q stage %d: no task-time estimate (give estimates.map_time/reduce_time or a runtime distribution)", p.name, info.ID, s)
		}
		if Pool(p.pool[st.Pool]) == MapPool {
			job.MapTime = est
		} else {
			job.ReduceTime = est
		}
	}
	for _, d := range info.After {
		if v.Job(d).Workflow != info.Workflow || info.Workflow == "" {
			return job, fmt.Errorf("%s: job %q waits for job %q of another workflow; a WOHA workflow is self-contained", p.name, info.ID, v.Job(d).ID)
		}
		job.After = append(job.After, v.Job(d).ID)
	}
	return job, nil
}

// StartRound makes sure the workflows are known before the engine's first decision.
func (p *Policy) StartRound(_ context.Context, v policies.View) {
	if !p.inited {
		p.init(v)
	}
}

// Observe submits workflows, reports ready jobs and forwards task finishes.
func (p *Policy) Observe(v policies.View, e policies.Event) {
	if !p.inited {
		p.init(v)
	}
	if p.p == nil || p.err != nil {
		return
	}
	t := e.Time
	switch e.Kind {
	case policies.EventArrival:
		ref := p.wfs[p.wfOf[e.Job]]
		if !ref.submitted {
			h, err := p.p.Submit(ref.w.Arrival, &ref.w)
			if err != nil {
				p.fail(fmt.Errorf("%s: workflow %q: %w", p.name, ref.w.ID, err))
				return
			}
			ref.handle, ref.submitted = h, true
			for len(p.byHandle) <= h {
				p.byHandle = append(p.byHandle, -1)
			}
			p.byHandle[h] = p.wfOf[e.Job]
		}
		p.readyCheck(v, t, e.Job)
	case policies.EventTaskFinish:
		ref := p.wfs[p.wfOf[e.Job]]
		pool := p.pool[e.Pool]
		p.fail(p.p.TaskFinished(t, Choice{Workflow: ref.handle, Job: p.jobOf[e.Job]}, Pool(pool)))
	case policies.EventJobFinish:
		for _, k := range p.wfs[p.wfOf[e.Job]].jobs {
			p.readyCheck(v, t, k)
		}
	}
}

// readyCheck reports job j ready once it has arrived, was not rejected and every job it
// waits for has finished.
func (p *Policy) readyCheck(v policies.View, t float64, j int) {
	if p.reported[j] || v.Job(j).Arrival > t || v.Rejected(j) || !v.Ready(j) {
		return
	}
	if _, done := v.Completion(j); done {
		return
	}
	p.reported[j] = true
	ref := p.wfs[p.wfOf[j]]
	p.fail(p.p.JobReady(t, Choice{Workflow: ref.handle, Job: p.jobOf[j]}))
}

// Pick asks the Picker which job's task runs on the free slot and tells it the task
// started.
func (p *Policy) Pick(v policies.View, s policies.Slot) (int, bool) {
	if !p.inited {
		p.init(v)
	}
	if p.p == nil || p.err != nil || p.pool[s.Pool] < 0 {
		return 0, false
	}
	pool := Pool(p.pool[s.Pool])
	t := v.Now()
	c, ok := p.p.Pick(t, pool)
	if !ok {
		return 0, false
	}
	if c.Workflow < 0 || c.Workflow >= len(p.byHandle) || p.byHandle[c.Workflow] < 0 {
		p.fail(fmt.Errorf("%s: picked an unknown workflow %+v", p.name, c))
		return 0, false
	}
	ref := p.wfs[p.byHandle[c.Workflow]]
	if c.Job < 0 || c.Job >= len(ref.jobs) {
		p.fail(fmt.Errorf("%s: picked an unknown job %+v", p.name, c))
		return 0, false
	}
	j := ref.jobs[c.Job]
	if !v.Runnable(j, s.Pool) {
		p.fail(fmt.Errorf("%s: at %g picked job %q for pool %s, which has no runnable task there", p.name, t, v.Job(j).ID, pool))
		return 0, false
	}
	p.fail(p.p.TaskStarted(t, c, pool))
	return j, true
}
