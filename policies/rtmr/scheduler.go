package rtmr

import (
	"fmt"
	"slices"
)

// Scheduler is what a simulator drives: the four events of a Hadoop-1 job tracker. The
// methods are called in non-decreasing time order.
type Scheduler interface {
	// Name is the policy's name ("rtmr", "rtmr-nofeedback", "dc", "fifo").
	Name() string
	// Arrive is called once per job at its arrival time: admit (true) or reject it. A
	// rejected job is never seen again. An error means the job is malformed.
	Arrive(now float64, j Job) (bool, error)
	// Assign is asked when a slot of the given pool on worker w is free at time now. It
	// names the job and task index to run there, or ok == false to leave the slot idle.
	Assign(now float64, pool Stage, w int) (a Assignment, ok bool)
	// TaskFinished reports a task's end with what was observed about it.
	TaskFinished(now float64, t TaskReport) error
	// JobFinished is called when the last task of an admitted job has finished.
	JobFinished(now float64, id string) error
}

// Assignment is a task to start: task Task of the given stage of job Job.
type Assignment struct {
	Job  string
	Task int
}

// TaskReport is what the job tracker learns when a task finishes.
type TaskReport struct {
	Job     string
	Stage   Stage
	Task    int
	Worker  int
	Runtime float64 // ℰ_i^m or ℰ_i^r: observed execution time
	Input   float64 // δ_i^m, or the reduce task's actual input δ_i^r
}

// run is the execution state of one admitted job.
type run struct {
	nextMap, mapsDone       int
	nextReduce, reducesDone int
	mapEnds, reduceEnds     []float64 // actual finish times, in the order they happened
	cm, cr                  float64   // largest observed ℰ/δ per stage (§IV-A)
	reduceInput             float64   // δ^r observed so far
}

func (r *run) mapsPending(j *Job) bool { return r.nextMap < j.M() }

// reachedReduce: all maps have finished (§IV, assumption 3: a job's reduce stage starts
// only then).
func (r *run) reachedReduce(j *Job) bool { return r.mapsDone == j.M() }

// takeMap and takeReduce hand out the next task index of a stage.
func (r *run) takeMap() int    { r.nextMap++; return r.nextMap - 1 }
func (r *run) takeReduce() int { r.nextReduce++; return r.nextReduce - 1 }

func (r *run) reducePending(j *Job) bool {
	return r.reachedReduce(j) && r.nextReduce < j.Reduces
}

// report folds a finished task into r. It returns an error for a report that does not fit
// the job (a simulator bug, not a user error).
func (r *run) report(now float64, j *Job, t TaskReport) error {
	switch t.Stage {
	case Map:
		if t.Task < 0 || t.Task >= r.nextMap {
			return fmt.Errorf("rtmr: job %s: map task %d was not dispatched", j.ID, t.Task)
		}
		r.mapsDone++
		r.mapEnds = append(r.mapEnds, now)
		if t.Input > 0 {
			r.cm = max(r.cm, t.Runtime/t.Input)
		}
	case Reduce:
		if t.Task < 0 || t.Task >= r.nextReduce {
			return fmt.Errorf("rtmr: job %s: reduce task %d was not dispatched", j.ID, t.Task)
		}
		r.reducesDone++
		r.reduceEnds = append(r.reduceEnds, now)
		r.reduceInput += t.Input
		if t.Input > 0 {
			r.cr = max(r.cr, t.Runtime/t.Input)
		}
	}
	return nil
}

// sortedEnds are Ẽ^m and Ẽ^r of Algorithm V lines 8–9.
func (r *run) sortedEnds() (em, er []float64) {
	em, er = slices.Clone(r.mapEnds), slices.Clone(r.reduceEnds)
	slices.Sort(em)
	slices.Sort(er)
	return em, er
}
