package rtmr

import (
	"fmt"
	"math"
)

// SchedulerConfig configures the RTMR scheduler (the zero value: Algorithms I–IV
// without the feedback controller; the policy's Config turns it on by default).
type SchedulerConfig struct {
	// Feedback turns on the feedback controller (Algorithms V–VI); "rtmr-nofeedback" of
	// Tables V–VI runs without it.
	Feedback bool
	// Delta is Δ, the gap between a job's estimated and actual finish times that
	// triggers the feedback controller. 0 means "a typical map task execution time"
	// (§V): the mean runtime of the map tasks observed so far (before the first one,
	// every finish triggers).
	Delta float64
	// Initial are the estimates for jobs that declare none, before any job has finished;
	// they are then raised by the §IV-A updates (Estimator).
	Initial Estimates
	// Line10AsPrinted makes Algorithm IV break out of its reservation loop only when
	// reservedSlot > Ra, as printed. By default it breaks when reservedSlot >= Ra, which
	// is what the prose asks ("assigns a reduce task … only if enough reduce slots have
	// been left unused for higher-priority jobs"): Ra counts the slot being filled, so
	// assigning it leaves Ra−1 free, and reservedSlot = Ra would leave one too few.
	// TestDispatcherLine10 shows the difference.
	Line10AsPrinted bool
	// FeedbackKeepTighter makes Algorithm V keep, entry by entry, the smaller of each
	// successor's old and recomputed vectors. As printed (the default), lines 15–16
	// recompute a successor with Algorithm II at the current time, as if none of its maps
	// had run yet; for a successor that started long ago this is more pessimistic than
	// the vectors it had, and a job the controller without feedback would accept is
	// rejected (TestFeedbackKeepTighter). Under Within both vectors bound the actual
	// ones, so their minimum does as well; when tasks overrun their estimates the minimum
	// also discards the raise the feedback controller exists for.
	FeedbackKeepTighter bool
}

// RTMR is the Real-Time MapReduce scheduler of rtmr.txt §IV: admission controller,
// reservation-based dispatcher and (optionally) feedback controller.
type RTMR struct {
	cfg        SchedulerConfig
	adm        *Admission
	est        *Estimator
	jobs       map[string]*record
	freeReduce int // Ra: reduce slots not running a task
	mapTime    float64
	mapCount   int
	feedbacks  int
}

// New returns an RTMR scheduler for cluster c.
func NewRTMR(c Cluster, cfg SchedulerConfig) (*RTMR, error) {
	if err := c.Validate("cluster"); err != nil {
		return nil, err
	}
	if cfg.Delta < 0 || math.IsNaN(cfg.Delta) {
		return nil, fmt.Errorf("config.delta: must be >= 0, got %g", cfg.Delta)
	}
	return &RTMR{
		cfg:        cfg,
		adm:        NewAdmission(c.MapSlots(), c.ReduceSlots()),
		est:        NewEstimator(cfg.Initial),
		jobs:       map[string]*record{},
		freeReduce: c.ReduceSlots(),
	}, nil
}

// Name is "rtmr" or "rtmr-nofeedback".
func (s *RTMR) Name() string {
	if s.cfg.Feedback {
		return "rtmr"
	}
	return "rtmr-nofeedback"
}

// Feedbacks is how many times the feedback controller rewrote the vectors.
func (s *RTMR) Feedbacks() int { return s.feedbacks }

// Estimates are the estimates a job is admitted with: its declared ones, else the
// scheduler's current ones.
func (s *RTMR) Estimates(j *Job) Estimates {
	if j.Est != nil {
		return *j.Est
	}
	return s.est.Current()
}

// Arrive runs the admission controller (Algorithm I).
func (s *RTMR) Arrive(now float64, j Job) (bool, error) {
	if err := j.Validate("job"); err != nil {
		return false, err
	}
	if _, dup := s.jobs[j.ID]; dup {
		return false, fmt.Errorf("job.id: %q is already admitted", j.ID)
	}
	e := s.Estimates(&j)
	if err := e.validate("job.estimates"); err != nil {
		return false, err
	}
	em, er := j.TaskBounds(e)
	r := s.adm.admit(now, &j, em, er)
	if r == nil {
		return false, nil
	}
	s.jobs[j.ID] = r
	return true, nil
}

// Assign is the dispatcher (Algorithm IV).
func (s *RTMR) Assign(now float64, pool Stage, w int) (Assignment, bool) {
	if pool == Map {
		// Lines 4–5: Hadoop's default, the first job in queue order with a map task left.
		for _, r := range s.adm.order {
			if r.run.mapsPending(r.job) {
				if !r.started {
					s.adm.start(r)
				}
				t := r.run.takeMap()
				return Assignment{Job: r.job.ID, Task: t}, true
			}
		}
		return Assignment{}, false
	}
	// Lines 6–21.
	ra := s.freeReduce
	reserved := 0
	for _, r := range s.adm.order {
		if reserved > ra || (!s.cfg.Line10AsPrinted && reserved == ra) { // line 10
			break
		}
		if r.run.reducePending(r.job) { // line 13: findAReadyReduceTask
			t := r.run.takeReduce()
			s.freeReduce--
			return Assignment{Job: r.job.ID, Task: t}, true
		}
		if !r.run.reachedReduce(r.job) { // line 17
			reserved += r.job.Reduces
		}
	}
	return Assignment{}, false
}

// TaskFinished records a task's end (for §IV-A and for Ẽ^m, Ẽ^r of Algorithm V).
func (s *RTMR) TaskFinished(now float64, t TaskReport) error {
	r := s.jobs[t.Job]
	if r == nil {
		return fmt.Errorf("rtmr: task of unknown job %q finished", t.Job)
	}
	if err := r.run.report(now, r.job, t); err != nil {
		return err
	}
	if t.Stage == Reduce {
		s.freeReduce++
	} else {
		s.mapTime += t.Runtime
		s.mapCount++
	}
	return nil
}

// JobFinished updates the estimates (§IV-A), runs the feedback controller when enabled
// and removes the job from the queue.
func (s *RTMR) JobFinished(now float64, id string) error {
	r := s.jobs[id]
	if r == nil {
		return fmt.Errorf("rtmr: unknown job %q finished", id)
	}
	s.est.Observe(r.job.Input(), r.run.reduceInput, r.run.cm, r.run.cr)
	if s.cfg.Feedback {
		s.feedback(now, r)
	}
	s.adm.finish(r)
	delete(s.jobs, id)
	return nil
}

func (s *RTMR) delta() float64 {
	if s.cfg.Delta > 0 || s.mapCount == 0 {
		return s.cfg.Delta
	}
	return s.mapTime / float64(s.mapCount)
}

// feedback is Algorithm V for job r finishing at now (= ẽ).
//
// Line 6 recomputes e with Algorithm III; run at the finish time, Algorithm II line 4
// would clamp every slot to the finish itself and e would always exceed ẽ. The estimate
// meant is the one the admission controller holds for r: the e of its vectors' latest
// computation (Algorithm I line 15 or Algorithm V line 16), which is r.e.
func (s *RTMR) feedback(now float64, r *record) {
	if !(math.Abs(r.e-now) >= s.delta() || now > r.abs) { // line 7
		return
	}
	s.adm.feedback(now, r, s.cfg.FeedbackKeepTighter)
	s.feedbacks++
}

// feedback rewrites r's vectors with Algorithm VI and recomputes every job after r
// (Algorithm V lines 8–19).
func (a *Admission) feedback(now float64, r *record, keepTighter bool) {
	i := a.index(r)
	var pm, pr []float64 // lines 3–5
	if i > 0 {
		pm, pr = a.order[i-1].tm, a.order[i-1].tr
	} else {
		pm, pr = a.zm, a.zr
	}
	em, er := r.run.sortedEnds()      // lines 8–9
	r.tm, r.tr = satu(pm, pr, em, er) // lines 10–11
	r.em, r.e = now, now
	prevM, prevR := r.tm, r.tr
	for _, s := range a.order[i+1:] { // lines 12–19
		if s.nm == nil {
			s.nm, s.nr = make([]float64, a.l), make([]float64, a.q)
		}
		em, e := a.calc(s, prevM, prevR, now, s.nm, s.nr)
		if keepTighter {
			// Both the old and the recomputed vectors bound the actual ones from above
			// (Appendix, Proof-1/2 and Proof-3/4), so their componentwise minimum — sorted,
			// as the minimum of two sorted vectors — does too.
			for k := range s.tm {
				s.tm[k] = min(s.tm[k], s.nm[k])
			}
			for k := range s.tr {
				s.tr[k] = min(s.tr[k], s.nr[k])
			}
			s.em, s.e = min(s.em, em), min(s.e, e)
		} else {
			s.tm, s.nm = s.nm, s.tm
			s.tr, s.nr = s.nr, s.tr
			s.em, s.e = em, e
		}
		prevM, prevR = s.tm, s.tr
	}
}

// satu is Algorithm VI: starting from the predecessor's vectors, each actual finish time
// (in increasing order) replaces the smallest entry, which is re-sorted (lines 7–21).
func satu(pm, pr, em, er []float64) (um, ur []float64) {
	return replaceSmallest(pm, em), replaceSmallest(pr, er)
}

func replaceSmallest(p, ends []float64) []float64 {
	u := make([]float64, len(p))
	copy(u, p)
	for _, v := range ends {
		at := upperBound(u[1:], v)
		copy(u[:at], u[1:at+1])
		u[at] = v
	}
	return u
}
