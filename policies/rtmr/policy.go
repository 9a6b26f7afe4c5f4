package rtmr

import (
	"fmt"
	"math"

	"github.com/coraopt/coraopt/policies"
)

// Policy runs a Scheduler (RTMR, DC or FIFO) in the simulator: Admit at a job's
// arrival (policies.Admitter), Pick per free slot naming the worker (Assign), Observe
// for task and job finishes. The scheduler is built on the first call from the view's
// workers, which keep their order: worker k of the view is worker k of the Cluster.
//
// What a job must look like: pools named "map" and "reduce"; a map stage first whose
// task inputs (data / task_data) are δ_i^m, optionally a reduce stage; a deadline; and
// declared estimates eta, cm_max, cr_max (the workload's estimates), which RTMR admits
// with. A job outside this shape is rejected and Err says why.
type Policy struct {
	name  string
	build func(Cluster) (Scheduler, error)
	s     Scheduler
	err   error
	init  bool
	stage []int8 // view pool → Map, Reduce or -1
}

// Config configures the simulator policy; the zero value is RTMR as Tables V–VI run
// it, with its feedback controller.
type Config struct {
	// NoFeedback runs RTMR without the feedback controller (Algorithms V–VI), as the
	// policy "rtmr-nofeedback".
	NoFeedback bool
}

// New returns RTMR (rtmr.txt §IV) as the simulator policy "rtmr", or "rtmr-nofeedback".
func New(cfg Config) *Policy {
	name := "rtmr"
	if cfg.NoFeedback {
		name = "rtmr-nofeedback"
	}
	sc := SchedulerConfig{Feedback: !cfg.NoFeedback}
	return &Policy{name: name, build: func(c Cluster) (Scheduler, error) { return NewRTMR(c, sc) }}
}

// NewDCBaseline returns the paper's Deadline Constraint scheduler (§III) as the
// policy "dc".
func NewDCBaseline() *Policy {
	return &Policy{name: "dc", build: func(c Cluster) (Scheduler, error) { return NewDC(c, Estimates{}) }}
}

// NewFIFOBaseline returns the paper's FIFO that accepts every job (§V) as the policy
// "rtmr-fifo".
func NewFIFOBaseline() *Policy {
	return &Policy{name: "rtmr-fifo", build: func(Cluster) (Scheduler, error) { return NewFIFO(), nil }}
}

// Name is the policy's name as --policies spells it.
func (p *Policy) Name() string { return p.name }

// Err is the first problem met: a job outside RTMR's model, or the scheduler and the
// engine disagreeing about which task starts.
func (p *Policy) Err() error { return p.err }

func (p *Policy) fail(err error) {
	if err != nil && p.err == nil {
		p.err = fmt.Errorf("%s: %w", p.name, err)
	}
}

func (p *Policy) setup(v policies.View) {
	p.init = true
	pools := v.Pools()
	p.stage = make([]int8, len(pools))
	mi, ri := -1, -1
	for k, pl := range pools {
		switch pl.Name {
		case "map":
			p.stage[k], mi = int8(Map), k
		case "reduce":
			p.stage[k], ri = int8(Reduce), k
		default:
			p.stage[k] = -1
		}
	}
	var c Cluster
	for _, w := range v.Workers() {
		wk := Worker{MapSpeed: w.Speed, ReduceSpeed: w.Speed}
		if mi >= 0 {
			wk.MapSlots = w.Slots[mi]
		}
		if ri >= 0 {
			wk.ReduceSlots = w.Slots[ri]
		}
		c.Workers = append(c.Workers, wk)
	}
	s, err := p.build(c)
	p.fail(err)
	p.s = s
}

// jobOf is the RTMR job of view job j.
func (p *Policy) jobOf(v policies.View, j int) (Job, error) {
	info := v.Job(j)
	job := Job{ID: info.ID, Arrival: info.Arrival, Deadline: info.Deadline - info.Arrival}
	if math.IsInf(info.Deadline, 1) {
		return job, fmt.Errorf("job %q has no deadline", info.ID)
	}
	if len(info.After) > 0 {
		return job, fmt.Errorf("job %q waits for other jobs; RTMR schedules independent jobs", info.ID)
	}
	for s := range info.Stages {
		st := &info.Stages[s]
		switch {
		case s == 0 && p.stage[st.Pool] == int8(Map):
			for k := range st.Tasks {
				job.MapSizes = append(job.MapSizes, st.DataOf(k))
			}
		case s == 1 && p.stage[st.Pool] == int8(Reduce):
			job.Reduces = st.Tasks
		default:
			return job, fmt.Errorf("job %q: stages must be a map stage, then optionally a reduce stage", info.ID)
		}
	}
	for _, d := range job.MapSizes {
		if !(d > 0) {
			return job, fmt.Errorf("job %q: RTMR needs each map task's input size > 0 (stage data or task_data)", info.ID)
		}
	}
	e := info.Estimates
	if e == nil || !(e.Eta > 0 && e.CmMax > 0 && e.CrMax > 0) {
		return job, fmt.Errorf("job %q: RTMR admits with declared estimates eta, cm_max, cr_max > 0", info.ID)
	}
	job.Est = &Estimates{Eta: e.Eta, CmMax: e.CmMax, CrMax: e.CrMax}
	return job, nil
}

// Admit runs the scheduler's admission test; a job it cannot model is rejected.
func (p *Policy) Admit(v policies.View, j int) bool {
	if !p.init {
		p.setup(v)
	}
	if p.s == nil {
		return false
	}
	job, err := p.jobOf(v, j)
	if err != nil {
		p.fail(err)
		return false
	}
	ok, err := p.s.Arrive(v.Now(), job)
	p.fail(err)
	return ok && err == nil
}

// Pick asks the scheduler for the task to run on the free slot's worker. Both the
// engine and the schedulers here take a stage's tasks in index order; Pick checks it.
func (p *Policy) Pick(v policies.View, s policies.Slot) (int, bool) {
	if !p.init {
		p.setup(v)
	}
	if p.s == nil || p.stage[s.Pool] < 0 {
		return 0, false
	}
	st := Stage(p.stage[s.Pool])
	a, ok := p.s.Assign(v.Now(), st, s.Worker)
	if !ok {
		return 0, false
	}
	for _, j := range v.Active() {
		info := v.Job(j)
		if info.ID != a.Job {
			continue
		}
		stage := int(st)
		if stage >= len(info.Stages) || !v.Runnable(j, s.Pool) {
			p.fail(fmt.Errorf("at %g assigns job %s a %s task the engine cannot start", v.Now(), a.Job, st))
			return 0, false
		}
		if next := info.Stages[stage].Tasks - v.Pending(j, stage); next != a.Task {
			p.fail(fmt.Errorf("assigns task %d of %s stage %d, the engine would start %d", a.Task, a.Job, stage, next))
		}
		return j, true
	}
	p.fail(fmt.Errorf("assigns job %s, which is not active", a.Job))
	return 0, false
}

// Observe reports finished tasks (their observed time and input, for the estimator and
// the feedback controller) and finished jobs.
func (p *Policy) Observe(v policies.View, e policies.Event) {
	if p.s == nil {
		return
	}
	switch e.Kind {
	case policies.EventTaskFinish:
		fin := v.Finished(e.Job)
		k := len(fin) - 1
		for k >= 0 && (fin[k].Stage != e.Stage || fin[k].Task != e.Task) {
			k--
		}
		if k < 0 {
			p.fail(fmt.Errorf("no record of the finished task %d of job %d", e.Task, e.Job))
			return
		}
		r := fin[k]
		info := v.Job(e.Job)
		p.fail(p.s.TaskFinished(e.Time, TaskReport{Job: info.ID, Stage: Stage(p.stage[e.Pool]), Task: e.Task, Worker: e.Worker,
			Runtime: r.Elapsed(), Input: info.Stages[e.Stage].DataOf(e.Task)}))
	case policies.EventJobFinish:
		p.fail(p.s.JobFinished(e.Time, v.Job(e.Job).ID))
	}
}
