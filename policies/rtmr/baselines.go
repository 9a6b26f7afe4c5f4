package rtmr

import (
	"fmt"
	"math"
	"slices"
)

// dcJob is the Deadline Constraint scheduler's state for one accepted job.
type dcJob struct {
	job          *Job
	abs          float64
	seq          int
	nmin         int     // map slots granted: n_m^min
	srmax        float64 // s_r^max: latest reduce start
	runningMaps  int
	mapsReleased bool
	run          run
}

// DC is the Deadline Constraint scheduler of Kc & Anyanwu as rtmr.txt §III describes it,
// the baseline RTMR improves on. At arrival it computes the latest reduce start s_r^max =
// A + D − ε̃^r (all R reduce tasks run at once for the known time ε̃^r) and the smallest
// number n_m^min of map slots that finishes the M map tasks by s_r^max when they run
// n_m^min at a time: the least n with ⌈M/n⌉·ε̃^m ≤ s_r^max − A. (Kc & Anyanwu treat the
// input as divisible, n = ⌈M·ε̃^m/(s_r^max − A)⌉, which can only be smaller; counting
// whole tasks is the fairer baseline.) The job is rejected
//
//   - if R exceeds the cluster's reduce slots, or ε̃^m > s_r^max − A;
//   - if fewer than n_m^min map slots are available at arrival — a slot is available when
//     no accepted job whose map stage is unfinished holds it (each accepted job holds its
//     n_m^min slots until its maps are done; its maps run on at most that many);
//   - if fewer than R reduce slots are available at the single instant s_r^max — every
//     accepted job counts against the instants of [s_r^max, A + D) of its own.
//
// The last check is the deficiency §III points out: it looks at one instant, while the job
// needs its reduce slots over the whole interval [s_r^max, D]; a job accepted later whose
// interval starts inside that one is not seen, and both can miss
// (TestDCMissesConstructed). Reduce tasks are dispatched in EDF order as soon as a job's
// maps are done.
type DC struct {
	l, q    int
	est     *Estimator
	order   []*dcJob // EDF
	jobs    map[string]*dcJob
	granted int // map slots held by accepted jobs in their map stage
	seq     int
}

// NewDC returns a Deadline Constraint scheduler; initial are the estimates of jobs that
// declare none (raised from finished jobs as for RTMR).
func NewDC(c Cluster, initial Estimates) (*DC, error) {
	if err := c.Validate("cluster"); err != nil {
		return nil, err
	}
	return &DC{l: c.MapSlots(), q: c.ReduceSlots(), est: NewEstimator(initial), jobs: map[string]*dcJob{}}, nil
}

// Name is "dc".
func (s *DC) Name() string { return "dc" }

// MinMapSlots is n_m^min: the least n with ⌈m/n⌉·em ≤ avail, or 0 when none exists.
func MinMapSlots(m int, em, avail float64) int {
	if em > avail {
		return 0
	}
	perSlot := int(math.Floor(avail / em)) // tasks one slot finishes in time
	return (m + perSlot - 1) / perSlot
}

// Arrive runs the schedulability test of §III.
func (s *DC) Arrive(now float64, j Job) (bool, error) {
	if err := j.Validate("job"); err != nil {
		return false, err
	}
	if _, dup := s.jobs[j.ID]; dup {
		return false, fmt.Errorf("job.id: %q is already admitted", j.ID)
	}
	e := s.est.Current()
	if j.Est != nil {
		e = *j.Est
	}
	if err := e.validate("job.estimates"); err != nil {
		return false, err
	}
	em, er := j.TaskBounds(e)
	if j.Reduces > s.q {
		return false, nil
	}
	srmax := j.AbsDeadline() - er
	nmin := MinMapSlots(j.M(), em, srmax-now)
	if nmin == 0 || nmin > s.l-s.granted {
		return false, nil
	}
	if j.Reduces > 0 {
		busy := 0
		for _, o := range s.order {
			if o.job.Reduces > 0 && o.srmax <= srmax && srmax < o.abs {
				busy += o.job.Reduces
			}
		}
		if s.q-busy < j.Reduces {
			return false, nil
		}
	}
	d := &dcJob{job: &j, abs: j.AbsDeadline(), seq: s.seq, nmin: nmin, srmax: srmax}
	s.seq++
	at, _ := slices.BinarySearchFunc(s.order, d, func(x, y *dcJob) int {
		if x.abs != y.abs {
			if x.abs < y.abs {
				return -1
			}
			return 1
		}
		return x.seq - y.seq
	})
	s.order = slices.Insert(s.order, at, d)
	s.jobs[j.ID] = d
	s.granted += nmin
	return true, nil
}

// Assign gives map slots in EDF order within each job's grant and reduce slots in EDF
// order to any job whose maps are done.
func (s *DC) Assign(now float64, pool Stage, w int) (Assignment, bool) {
	for _, d := range s.order {
		if pool == Map && d.run.mapsPending(d.job) && d.runningMaps < d.nmin {
			t := d.run.takeMap()
			d.runningMaps++
			return Assignment{Job: d.job.ID, Task: t}, true
		}
		if pool == Reduce && d.run.reducePending(d.job) {
			t := d.run.takeReduce()
			return Assignment{Job: d.job.ID, Task: t}, true
		}
	}
	return Assignment{}, false
}

// TaskFinished releases a job's map grant when its map stage is done.
func (s *DC) TaskFinished(now float64, t TaskReport) error {
	d := s.jobs[t.Job]
	if d == nil {
		return fmt.Errorf("dc: task of unknown job %q finished", t.Job)
	}
	if err := d.run.report(now, d.job, t); err != nil {
		return err
	}
	if t.Stage == Map {
		d.runningMaps--
		if d.run.reachedReduce(d.job) && !d.mapsReleased {
			d.mapsReleased = true
			s.granted -= d.nmin
		}
	}
	return nil
}

// JobFinished updates the estimates and forgets the job.
func (s *DC) JobFinished(now float64, id string) error {
	d := s.jobs[id]
	if d == nil {
		return fmt.Errorf("dc: unknown job %q finished", id)
	}
	s.est.Observe(d.job.Input(), d.run.reduceInput, d.run.cm, d.run.cr)
	s.order = slices.DeleteFunc(s.order, func(x *dcJob) bool { return x == d })
	delete(s.jobs, id)
	return nil
}

// FIFO is Hadoop's default scheduler as §V runs it: every job is accepted; map and reduce
// tasks go to the earliest-arrived job that has one ready.
type FIFO struct {
	order []*fifoJob
	jobs  map[string]*fifoJob
}

type fifoJob struct {
	job *Job
	run run
}

// NewFIFO returns a FIFO scheduler.
func NewFIFO() *FIFO { return &FIFO{jobs: map[string]*fifoJob{}} }

// Name is "fifo".
func (s *FIFO) Name() string { return "fifo" }

// Arrive accepts every well-formed job.
func (s *FIFO) Arrive(now float64, j Job) (bool, error) {
	if err := j.Validate("job"); err != nil {
		return false, err
	}
	if _, dup := s.jobs[j.ID]; dup {
		return false, fmt.Errorf("job.id: %q is already admitted", j.ID)
	}
	f := &fifoJob{job: &j}
	s.order = append(s.order, f)
	s.jobs[j.ID] = f
	return true, nil
}

// Assign gives the slot to the first job in arrival order with a ready task of the pool.
func (s *FIFO) Assign(now float64, pool Stage, w int) (Assignment, bool) {
	for _, f := range s.order {
		if pool == Map && f.run.mapsPending(f.job) {
			t := f.run.takeMap()
			return Assignment{Job: f.job.ID, Task: t}, true
		}
		if pool == Reduce && f.run.reducePending(f.job) {
			t := f.run.takeReduce()
			return Assignment{Job: f.job.ID, Task: t}, true
		}
	}
	return Assignment{}, false
}

// TaskFinished records the task.
func (s *FIFO) TaskFinished(now float64, t TaskReport) error {
	f := s.jobs[t.Job]
	if f == nil {
		return fmt.Errorf("fifo: task of unknown job %q finished", t.Job)
	}
	if err := f.run.report(now, f.job, t); err != nil {
		return err
	}
	return nil
}

// JobFinished forgets the job.
func (s *FIFO) JobFinished(now float64, id string) error {
	f := s.jobs[id]
	if f == nil {
		return fmt.Errorf("fifo: unknown job %q finished", id)
	}
	s.order = slices.DeleteFunc(s.order, func(x *fifoJob) bool { return x == f })
	delete(s.jobs, id)
	return nil
}

var (
	_ Scheduler = (*RTMR)(nil)
	_ Scheduler = (*DC)(nil)
	_ Scheduler = (*FIFO)(nil)
)
