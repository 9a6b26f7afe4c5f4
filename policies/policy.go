package policies

import (
	"context"
	"math"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// Policy decides which job's task runs on a free slot. It is the one required
// interface; the optional hooks below are resolved once per run (HooksOf), so a policy
// opts into a hook by implementing its method, and the engine never asserts one at
// the point of use.
type Policy interface {
	// Name is the policy's name as --policies spells it.
	Name() string
	// Pick names the job (an index into the workload's jobs) whose next task of the
	// pool starts on s, or returns ok = false to leave s idle for this round. The job
	// must be active and have a runnable task in s.Pool (View.Runnable).
	Pick(v View, s Slot) (job int, ok bool)
}

// Rounder is a Policy that prepares once per decision instant, before the Picks of
// that instant (ranking jobs, computing targets). ctx is the run's: a policy that
// solves per instant passes it on, so cancelling a run stops a solve in flight (the
// engine then ends the run with ctx's error).
type Rounder interface {
	StartRound(ctx context.Context, v View)
}

// Observer is a Policy told about every event after the engine has applied it.
type Observer interface {
	Observe(v View, e Event)
}

// Admitter is a Policy that decides at a job's arrival whether to accept it (RTMR,
// Deadline Constraint). A rejected job never runs; neither do the jobs that wait for it.
type Admitter interface {
	Admit(v View, job int) bool
}

// Ticker is a Policy woken periodically (RDS's control interval): Tick is called at
// times 0, Interval(), 2·Interval(), … while jobs remain, before the round at that time.
// ctx is the run's, as for Rounder.
type Ticker interface {
	Interval() float64
	Tick(ctx context.Context, v View)
}

// Clairvoyant is a Policy that may know every task's true runtime (only `oracle`).
// The engine calls UseOracle once before the run.
type Clairvoyant interface {
	UseOracle(o Oracle)
}

// Oracle answers with true runtimes.
type Oracle interface {
	// TrueRuntime is the base runtime (before the worker's speed) of task `task` of
	// stage `stage` of job `job`.
	TrueRuntime(job, stage, task int) float64
}

// TraceAware is a Policy allowed to know the future capacity (`rds-ideal`).
// The engine calls UseCapacityTrace once before the run with the whole trace.
type TraceAware interface {
	UseCapacityTrace(trace []workload.CapacityStep)
}

// Refuser is a Policy that can find it cannot model the workload it is run on (WOHA
// without deadlines or estimates, RTMR without data sizes): Err, asked after the run,
// says why, and the run is reported as unsupported input (sim.UnsupportedError,
// exit 2 in the CLI) instead of as a result.
type Refuser interface {
	Err() error
}

// Aborter is a Policy that can become unable to go on in the middle of a run: an
// external policy whose process died or broke the protocol (policies/external). The
// engine asks after every StartRound, Tick and Admit and ends the run with the error;
// the policy's other methods must then return harmlessly (Pick declines). Built-in
// policies do not implement it.
type Aborter interface {
	Aborted() error
}

// FallbackCounter is a Policy that solves per decision and can fall back (keep its
// previous decision) when a solve fails; the count is part of the run's metrics.
type FallbackCounter interface {
	Fallbacks() int
}

// Counter is a Policy that reports counts of its own (plans, skipped instants, …),
// copied into the run's metrics under policy_counts.
type Counter interface {
	Counts() map[string]int
}

// Hooks are the optional interfaces a Policy implements, each nil when it does not.
type Hooks struct {
	Rounder         Rounder
	Observer        Observer
	Admitter        Admitter
	Ticker          Ticker
	Clairvoyant     Clairvoyant
	TraceAware      TraceAware
	Refuser         Refuser
	Aborter         Aborter
	FallbackCounter FallbackCounter
	Counter         Counter
}

// HooksOf resolves p's optional interfaces once.
func HooksOf(p Policy) Hooks {
	var h Hooks
	h.Rounder, _ = p.(Rounder)
	h.Observer, _ = p.(Observer)
	h.Admitter, _ = p.(Admitter)
	h.Ticker, _ = p.(Ticker)
	h.Clairvoyant, _ = p.(Clairvoyant)
	h.TraceAware, _ = p.(TraceAware)
	h.Refuser, _ = p.(Refuser)
	h.Aborter, _ = p.(Aborter)
	h.FallbackCounter, _ = p.(FallbackCounter)
	h.Counter, _ = p.(Counter)
	return h
}

// Names lists the hooks h holds, in the order of the Hooks fields.
func (h Hooks) Names() []string {
	var out []string
	for _, x := range []struct {
		name string
		set  bool
	}{
		{"Rounder", h.Rounder != nil}, {"Observer", h.Observer != nil}, {"Admitter", h.Admitter != nil},
		{"Ticker", h.Ticker != nil}, {"Clairvoyant", h.Clairvoyant != nil}, {"TraceAware", h.TraceAware != nil},
		{"Refuser", h.Refuser != nil}, {"Aborter", h.Aborter != nil}, {"FallbackCounter", h.FallbackCounter != nil}, {"Counter", h.Counter != nil},
	} {
		if x.set {
			out = append(out, x.name)
		}
	}
	return out
}

// Slot is a free slot offered to Pick.
type Slot struct {
	Pool   int     // index into View.Pools
	Worker int     // index into View.Workers
	Speed  float64 // the worker's speed: a task of base runtime r runs r/Speed seconds
}

// EventKind says what happened. Events at one time are applied in this order, then by
// the order they were created in.
type EventKind uint8

const (
	EventCapacity   EventKind = iota // a step of the capacity trace
	EventTaskFinish                  // a task finished (Event.Job, Stage, Task, Worker)
	EventJobFinish                   // a job's last task finished
	EventArrival                     // a job arrived (after Admit, if any)
	EventTick                        // a Ticker's period elapsed
	EventReject                      // a job was rejected at arrival, or because a job it waits for was
)

func (k EventKind) String() string {
	return [...]string{"capacity", "task_finish", "job_finish", "arrival", "tick", "reject"}[k]
}

// Event is one simulator event.
type Event struct {
	Kind             EventKind
	Time             float64
	Job, Stage, Task int // -1 when not about a job / task
	Worker           int // the task's worker, -1 otherwise
	Pool             int // the pool of a capacity step or task, -1 otherwise
}

// Worker is one machine of the cluster (a workload Worker with Count > 1 becomes
// Count of these).
type Worker struct {
	Slots []int // per pool
	Speed float64
}

// JobInfo is what a policy may know about a job in advance: no true runtimes.
type JobInfo struct {
	Index    int
	ID       string
	Arrival  float64
	Priority float64
	// Deadline is the absolute deadline in seconds (arrival + the file's relative
	// deadline), +Inf when the job has none.
	Deadline float64
	Utility  sched.Utility
	Workflow string
	// Estimates are the job's declared estimates (WOHA's task times, RTMR's η, c_m^max,
	// c_r^max); nil when the workload gives none.
	Estimates *workload.Estimates
	After     []int // indices of the jobs this one waits for
	Stages    []StageInfo
	// Rank is the job's position in (arrival, id) order: the tie-break of every policy
	// here.
	Rank int
}

// StageInfo is a stage as a policy sees it.
type StageInfo struct {
	Pool  int
	Tasks int
	// Data is each task's input size unless TaskData lists them one by one (DataOf).
	Data     float64
	TaskData []float64
	// Runtime is the declared distribution of a task's base runtime; nil when the
	// workload gives explicit runtimes (a policy must then learn them).
	Runtime *workload.Runtime
	// StartAfter is how many tasks of the previous stage must have finished before
	// this stage's tasks may start: the workload's slow start fraction of them, rounded
	// up, or all of them (0 for the first stage).
	StartAfter int
}

// DataOf is the input size of task `task` of the stage (RTMR's δ_i).
func (s *StageInfo) DataOf(task int) float64 {
	if s.TaskData != nil {
		return s.TaskData[task]
	}
	return s.Data
}

// TaskRecord is a task that has started: Finish is 0 while it runs.
type TaskRecord struct {
	Stage, Task, Worker int
	Start, Finish       float64
}

// Elapsed is how long a finished task held its slot (its base runtime / speed).
func (r TaskRecord) Elapsed() float64 { return r.Finish - r.Start }

// CapacityPoint is a pool's capacity from Time on.
type CapacityPoint struct {
	Time  float64
	Slots int
}

// View is the read-only state a policy decides from. Slices it returns belong to the
// engine and must not be modified or kept past the call.
type View interface {
	Now() float64
	// TimeUnit is seconds per utility time unit.
	TimeUnit() float64
	Pools() []workload.Pool
	// Capacity is how many tasks of the pool may run now; Busy how many do (Busy can
	// exceed Capacity right after a capacity drop: running tasks finish).
	Capacity(pool int) int
	Busy(pool int) int
	// CapacityHistory is the pool's capacity steps up to now (the first at time 0).
	CapacityHistory(pool int) []CapacityPoint
	Workers() []Worker
	WorkerBusy(worker, pool int) int

	NumJobs() int
	Job(j int) *JobInfo
	// Active lists the arrived, admitted, unfinished jobs in (arrival, id) order.
	Active() []int
	// Ready reports whether every job j waits for has finished.
	Ready(j int) bool
	// Stage is j's current stage (len(Stages) once finished).
	Stage(j int) int
	// Pending, Running and Done count a stage's tasks not started, running, finished.
	Pending(j, stage int) int
	Running(j, stage int) int
	Done(j, stage int) int
	// Runnable reports whether j could start a task on a slot of pool now: in its
	// current stage, or in the next one once the slow start threshold is reached.
	Runnable(j, pool int) bool
	// Held is how many slots of pool j's running tasks hold.
	Held(j, pool int) int
	// Finished returns the completed tasks of j in finishing order, RunningTasks
	// the started unfinished ones. Finished is empty once j has completed: the engine
	// releases the records after EventJobFinish, so an estimator that learns across
	// jobs (RTMR's c_max, RUSH's distribution estimator) keeps what it needs in
	// Observe.
	Finished(j int) []TaskRecord
	RunningTasks(j int) []TaskRecord
	// Completion is j's completion time once it has finished.
	Completion(j int) (float64, bool)
	Rejected(j int) bool
}

// UtilityAt is job j's utility if it completes at time c (seconds).
func UtilityAt(v View, j int, c float64) float64 {
	info := v.Job(j)
	return workload.UtilityOfResponse(info.Utility, max(0, c-info.Arrival)/v.TimeUnit())
}

// TargetTime is the absolute time a job aims at: its deadline if it has one, else the
// time its utility names (a sigmoid's or step's deadline, a linear utility's budget,
// an RDS utility's soft deadline, in time units after arrival), else +Inf. EDF orders
// by it and RRH takes its utility's slope there.
func TargetTime(v View, j int) float64 {
	return v.Job(j).TargetTime(v.TimeUnit())
}

// TargetTime is TargetTime for the job with timeUnit seconds per utility time unit.
func (info *JobInfo) TargetTime(timeUnit float64) float64 {
	if !math.IsInf(info.Deadline, 1) {
		return info.Deadline
	}
	var d float64
	switch u := info.Utility.(type) {
	case sched.Sigmoid:
		d = u.Deadline
	case sched.Step:
		d = u.Deadline
	case sched.Linear:
		d = u.Budget
	case sched.RDS:
		d = u.Soft
	default:
		return math.Inf(1)
	}
	return info.Arrival + d*timeUnit
}

// MeanTaskRuntime estimates a task's elapsed time in j's stage: the mean of the stage's
// finished tasks when there are any (what RUSH's estimators learn from), else the
// declared distribution's mean, else the mean of every finished task of j, else 1 s.
func MeanTaskRuntime(v View, j, stage int) float64 {
	sum, n, all, nall := 0.0, 0, 0.0, 0
	for _, r := range v.Finished(j) {
		all += r.Elapsed()
		nall++
		if r.Stage == stage {
			sum += r.Elapsed()
			n++
		}
	}
	switch {
	case n > 0:
		return sum / float64(n)
	case v.Job(j).Stages[stage].Runtime != nil:
		return v.Job(j).Stages[stage].Runtime.MeanValue()
	case nall > 0:
		return all / float64(nall)
	}
	return 1
}

// RemainingWork estimates j's remaining work in slot-seconds: pending tasks at their
// estimated runtime, running tasks at the estimate less the time they have run
// (at least 0), over every unfinished stage.
func RemainingWork(v View, j int) float64 {
	info := v.Job(j)
	w := 0.0
	for s := v.Stage(j); s < len(info.Stages); s++ {
		m := MeanTaskRuntime(v, j, s)
		w += float64(v.Pending(j, s)) * m
	}
	now := v.Now()
	for _, r := range v.RunningTasks(j) {
		w += max(0, MeanTaskRuntime(v, j, r.Stage)-(now-r.Start))
	}
	return w
}
