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
// That is the test as §III states it: "The job is rejected if n_m^min number of map slots
// are not available at that time. The job is also rejected if the number of reduce slots
// available at s_r^max is smaller than the total number of reduce tasks specified for the
// job." rtmr.txt does not describe DC's dispatcher; ours takes jobs in EDF order (§IV-B:
// "we assume, for both Deadline Constraint and RTMR schedulers, that jobs are put in a
// priority queue following EDF"), gives map slots within each job's grant and a free
// reduce slot to the first job whose maps are done, at once and without preemption.
//
// §III's deficiency: the test "only checks if a certain number of reduce slots are
// available at a particular time point s_r^max. Instead, the job requires the specified
// number of reduce slots available for the whole time interval [s_r^max, D]". A job whose
// window starts before an accepted job's and overlaps it does not see that job at its own
// s_r^max, and one of the two can miss (testdata/dc-section3.json). It takes conditions
// §III does not state, decided by TestDCSection3Workload and TestDCMissCauses: the reduce
// stages must actually run where the windows overlap, so the tasks must run close to
// their estimates (the instance misses only with every task above 29/34 of its estimate;
// workloads I and II miss with every task at 0.9 of it but not at 0.8, and never under
// the within draws, whose map stages end well before s_r^max). And with this dispatcher there is a second cause,
// which checking the whole interval does not remove: a later-deadline job whose maps
// finish first starts its reduces long before its own s_r^max and holds the slots an
// earlier-deadline job needs (testdata/dc-early-reduce.json; the interference RTMR's
// reservation dispatcher of §IV-C is designed against). dcRules switches on the interval
// check and RTMR's reservation, one at a time, for those experiments.
type DC struct {
	l, q    int
	est     *Estimator
	order   []*dcJob // EDF
	jobs    map[string]*dcJob
	granted int // map slots held by accepted jobs in their map stage
	seq     int
	rules   dcRules
	// freeReduce counts reduce slots not running a task (only rules.reserveReduces
	// reads it).
	freeReduce int
}

// dcRules are counterfactual changes to DC that decide, by experiment, what makes its
// admitted jobs miss (TestDCMissCauses); the zero value is DC as §III states it.
type dcRules struct {
	// intervalCheck rejects a job unless R reduce slots are available at every instant of
	// [s_r^max, A + D), as §III says the job requires, instead of at s_r^max alone.
	intervalCheck bool
	// reserveReduces dispatches reduce tasks with the reservation of RTMR's Algorithm IV
	// (lines 6–21, the break at reservedSlot ≥ Ra): a job gets a reduce slot only while
	// more slots are free than the jobs before it in EDF order that have not reached
	// their reduce stage need.
	reserveReduces bool
}

// NewDC returns a Deadline Constraint scheduler; initial are the estimates of jobs that
// declare none (raised from finished jobs as for RTMR).
func NewDC(c Cluster, initial Estimates) (*DC, error) {
	return newDC(c, initial, dcRules{})
}

func newDC(c Cluster, initial Estimates, rules dcRules) (*DC, error) {
	if err := c.Validate("cluster"); err != nil {
		return nil, err
	}
	return &DC{l: c.MapSlots(), q: c.ReduceSlots(), est: NewEstimator(initial), jobs: map[string]*dcJob{},
		rules: rules, freeReduce: c.ReduceSlots()}, nil
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
		busy := s.reducesHeldAt(srmax)
		if s.rules.intervalCheck {
			// The load of the windows is piecewise constant and rises only where one starts.
			for _, o := range s.order {
				if srmax < o.srmax && o.srmax < j.AbsDeadline() {
					busy = max(busy, s.reducesHeldAt(o.srmax))
				}
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

// reducesHeldAt is how many reduce slots the accepted jobs' windows [s_r^max, A + D)
// hold at instant t.
func (s *DC) reducesHeldAt(t float64) int {
	busy := 0
	for _, o := range s.order {
		if o.job.Reduces > 0 && o.srmax <= t && t < o.abs {
			busy += o.job.Reduces
		}
	}
	return busy
}

// Assign gives map slots in EDF order within each job's grant and reduce slots in EDF
// order to any job whose maps are done.
func (s *DC) Assign(now float64, pool Stage, w int) (Assignment, bool) {
	reserved := 0
	for _, d := range s.order {
		if pool == Map && d.run.mapsPending(d.job) && d.runningMaps < d.nmin {
			t := d.run.takeMap()
			d.runningMaps++
			return Assignment{Job: d.job.ID, Task: t}, true
		}
		if pool != Reduce {
			continue
		}
		if s.rules.reserveReduces && reserved >= s.freeReduce {
			break
		}
		if d.run.reducePending(d.job) {
			t := d.run.takeReduce()
			s.freeReduce--
			return Assignment{Job: d.job.ID, Task: t}, true
		}
		if !d.run.reachedReduce(d.job) {
			reserved += d.job.Reduces
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
	if t.Stage == Reduce {
		s.freeReduce++
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
