package workload

import (
	"math"

	"github.com/coraopt/coraopt/sched"
)

// Workload is a validated workload file: a cluster and the jobs that arrive on it.
// Build one with Decode (from JSON) or by hand followed by Validate.
type Workload struct {
	Name string
	// TimeUnit is the number of seconds per utility time unit: a job's utility is a
	// function of its response time divided by TimeUnit (default 1).
	TimeUnit float64
	Cluster  Cluster
	Jobs     []Job
}

// Cluster describes the slots. Exactly one of Pools and Workers is set in the file;
// after Validate both are: Pools lists every pool with its total slots, and Workers is
// one speed-1 worker holding every pool's slots when the file gave only pools.
type Cluster struct {
	Pools   []Pool
	Workers []Worker
	// Capacity is the capacity trace, sorted by time: from Time on, a pool may run at
	// most Slots[pool] tasks at once (pools a step does not name keep their value).
	// Before the first step every pool has its full slot count.
	Capacity []CapacityStep
}

// Pool is a named set of interchangeable slots: "containers" (YARN), or Hadoop-1's
// "map" and "reduce".
type Pool struct {
	Name  string `json:"name"`
	Slots int    `json:"slots"`
}

// Worker is Count identical machines, each with Slots[pool] slots per pool, running
// a task of base runtime r in r/Speed seconds (rtmr.txt's heterogeneous cluster).
type Worker struct {
	Count int            `json:"count"`
	Slots map[string]int `json:"slots"`
	Speed float64        `json:"speed"`
}

// CapacityStep is one entry of the capacity trace.
type CapacityStep struct {
	Time  float64
	Slots map[string]int
}

// Job is one job: stages run one after another (map, then reduce), each a set of
// independent tasks on one pool.
type Job struct {
	ID      string
	Arrival float64 // seconds
	// Priority is ω in rds.txt eq. 1 and the weight of the Fair policy (default 1).
	Priority float64
	// Deadline is relative to Arrival, in seconds; 0 means none.
	Deadline float64
	// Utility is a function of the response time (completion − arrival) in time units.
	Utility sched.Utility
	Stages  []Stage
	// After lists the ids of jobs that must finish before this one's tasks may start.
	After []string
	// Workflow groups jobs into a workflow (WOHA); empty for a lone job.
	Workflow string
}

// Stage is one phase of a job.
type Stage struct {
	Pool  string
	Tasks int
	// Runtime is the distribution each task's true base runtime is drawn from (see
	// TaskRuntime); nil when TaskRuntimes gives them.
	Runtime *Runtime
	// TaskRuntimes are explicit true base runtimes in seconds, one per task.
	TaskRuntimes []float64
	// Data is the input size of one task in the workload's data unit (RTMR's δ_i; 0 when
	// not given); TaskData gives each task its own (then Data is unused).
	Data     float64
	TaskData []float64
	// SlowStart is Hadoop's reduce slow start for every stage after the first: this
	// stage's tasks may start once this fraction of the previous stage's tasks has
	// finished (rounded up), and a task started early holds its slot until the previous
	// stage has finished even when its own work is done. In (0, 1]; Validate turns 0
	// (absent) into the default 1, which waits for the whole previous stage.
	SlowStart float64
}

// Runtime is a distribution of a task's base runtime in seconds:
//
//	fixed        Value
//	gaussian     N(Mean, Std²), truncated below at MinFraction·Mean (see TaskRuntime)
//	exponential  mean Mean
//	uniform      U[Min, Max]
//	empirical    one of Samples, uniformly
type Runtime struct {
	Type    string    `json:"type"`
	Value   float64   `json:"value,omitempty"`
	Mean    float64   `json:"mean,omitempty"`
	Std     float64   `json:"std,omitempty"`
	Min     float64   `json:"min,omitempty"`
	Max     float64   `json:"max,omitempty"`
	Samples []float64 `json:"samples,omitempty"`
}

// MeanValue is the distribution's mean (the gaussian's before truncation).
func (r *Runtime) MeanValue() float64 {
	switch r.Type {
	case "fixed":
		return r.Value
	case "gaussian", "exponential":
		return r.Mean
	case "uniform":
		return (r.Min + r.Max) / 2
	case "empirical":
		s := 0.0
		for _, x := range r.Samples {
			s += x
		}
		return s / float64(max(1, len(r.Samples)))
	}
	return math.NaN()
}

// PoolIndex returns the index of the named pool, or -1.
func (c *Cluster) PoolIndex(name string) int {
	for i := range c.Pools {
		if c.Pools[i].Name == name {
			return i
		}
	}
	return -1
}

// JobIndex returns the index of the job with the given id, or -1.
func (w *Workload) JobIndex(id string) int {
	for i := range w.Jobs {
		if w.Jobs[i].ID == id {
			return i
		}
	}
	return -1
}

// UtilityAt is the job's utility of completing at time completion (seconds): its
// utility function at the response time in time units, never below 0 response. The
// instance file's utilities take a slot number; here they are evaluated at a real
// response time with the same formulas (a table is read at the slot ⌈response⌉,
// at least 1).
func (w *Workload) UtilityAt(j int, completion float64) float64 {
	job := &w.Jobs[j]
	return UtilityOfResponse(job.Utility, max(0, completion-job.Arrival)/w.TimeUnit)
}

// UtilityOfResponse evaluates u at a real response time r ≥ 0 in time units.
func UtilityOfResponse(u sched.Utility, r float64) float64 {
	switch u := u.(type) {
	case sched.Sigmoid:
		return u.Priority / (1 + math.Exp(u.Decay*(r-u.Deadline)))
	case sched.Linear:
		if u.Hard && r > u.Budget {
			return 0
		}
		return math.Max(u.Slope*(u.Budget-r)+u.Priority, 0)
	case sched.Step:
		if r <= u.Deadline {
			return u.Value
		}
		return u.Late
	case sched.Constant:
		return u.Value
	case sched.Piecewise:
		p := u.Points
		if len(p) == 0 {
			return 0
		}
		if r <= p[0][0] {
			return p[0][1]
		}
		for k := 1; k < len(p); k++ {
			if r <= p[k][0] {
				a, b := p[k-1], p[k]
				if b[0] == a[0] {
					return b[1]
				}
				return a[1] + (b[1]-a[1])*(r-a[0])/(b[0]-a[0])
			}
		}
		return p[len(p)-1][1]
	case sched.Table:
		return u.At(max(1, int(math.Ceil(r))))
	case sched.RDS:
		switch {
		case r < u.Soft:
			return u.Priority
		case r <= u.Hard:
			return u.Priority * (1 - (r-u.Soft)/u.Soft)
		}
		return 0
	}
	return math.NaN()
}

// UtilityNever is what a job that never completes earns (a rejected job): the limit of
// its utility as the response time grows without bound.
func UtilityNever(u sched.Utility) float64 {
	switch u := u.(type) {
	case sched.Sigmoid:
		if u.Decay == 0 {
			return u.Priority / 2
		}
		return 0
	case sched.Linear:
		if u.Slope == 0 && !u.Hard {
			return math.Max(u.Priority, 0)
		}
		return 0
	case sched.Step:
		return u.Late
	case sched.Constant:
		return u.Value
	case sched.Piecewise:
		if len(u.Points) == 0 {
			return 0
		}
		return u.Points[len(u.Points)-1][1]
	case sched.Table:
		if len(u.Values) == 0 {
			return 0
		}
		return u.Values[len(u.Values)-1]
	case sched.RDS:
		return 0
	}
	return math.NaN()
}
