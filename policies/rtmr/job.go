package rtmr

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Stage is the pool a task runs in: map or reduce slots.
type Stage uint8

const (
	Map Stage = iota
	Reduce
)

func (s Stage) String() string {
	if s == Reduce {
		return "reduce"
	}
	return "map"
}

// Estimates are the worst-case per-job parameters of rtmr.txt §IV-A: Eta (η) bounds the
// ratio of intermediate to input data, CmMax (c_m^max) and CrMax (c_r^max) bound the time
// to retrieve and process one unit of data in a map and a reduce task on any slot of the
// cluster (the slowest one, so heterogeneity is covered by the bound).
type Estimates struct {
	Eta   float64 `json:"eta"`
	CmMax float64 `json:"cm_max"`
	CrMax float64 `json:"cr_max"`
}

func (e Estimates) validate(path string) error {
	var errs []error
	for _, f := range []struct {
		name string
		v    float64
	}{{"eta", e.Eta}, {"cm_max", e.CmMax}, {"cr_max", e.CrMax}} {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			errs = append(errs, fmt.Errorf("%s.%s: must be finite and > 0, got %g", path, f.name, f.v))
		}
	}
	return errors.Join(errs...)
}

// Job is J = (A, D, M, R, δ) of rtmr.txt §IV-A with its per-task input sizes.
//
// The map inputs δ_i^m are MapSizes (M = len(MapSizes), δ = their sum). The reduce inputs
// δ_i^r are not known at arrival, only bounded: δ^r ≤ η·δ. ReduceShares says which part of
// the intermediate data each of the R reduce tasks receives (the partitioning function is
// the job's own and known in advance); nil means equal shares 1/R. So δ_i^r ≤
// η·δ·ReduceShares[i], which is what Algorithm III line 2 needs for max_i δ_i^r.
type Job struct {
	ID       string  `json:"id"`
	Arrival  float64 `json:"arrival"`  // A, seconds
	Deadline float64 `json:"deadline"` // D, relative to A, seconds
	// MapSizes are δ_1^m … δ_M^m (any unit of data; MB in the generated workloads).
	MapSizes []float64 `json:"map_sizes"`
	// Reduces is R; 0 makes a map-only job, which finishes with its map stage.
	Reduces      int       `json:"reduces"`
	ReduceShares []float64 `json:"reduce_shares,omitempty"`
	// Est are the job's declared worst-case estimates; nil means the scheduler's current
	// estimates (learned from finished jobs, §IV-A) apply.
	Est *Estimates `json:"estimates,omitempty"`
}

// M is the number of map tasks.
func (j *Job) M() int { return len(j.MapSizes) }

// Input is δ, the job's total input data.
func (j *Job) Input() float64 {
	s := 0.0
	for _, d := range j.MapSizes {
		s += d
	}
	return s
}

// AbsDeadline is A + D, the instant the job must be finished by.
func (j *Job) AbsDeadline() float64 { return j.Arrival + j.Deadline }

// Share is the fraction of the intermediate data reduce task i receives.
func (j *Job) Share(i int) float64 {
	if j.ReduceShares == nil {
		return 1 / float64(j.Reduces)
	}
	return j.ReduceShares[i]
}

func (j *Job) maxShare() float64 {
	if j.Reduces == 0 {
		return 0
	}
	if j.ReduceShares == nil {
		return 1 / float64(j.Reduces)
	}
	return slices.Max(j.ReduceShares)
}

// TaskBounds are ε̃^m and ε̃^r of Algorithms II and III (line 1 and line 2): the worst-case
// duration of any one map and any one reduce task of j under estimates e.
func (j *Job) TaskBounds(e Estimates) (em, er float64) {
	em = e.CmMax * slices.Max(j.MapSizes)
	if j.Reduces > 0 {
		er = e.CrMax * e.Eta * j.Input() * j.maxShare()
	}
	return em, er
}

// Validate reports every problem with j, each naming its field under path (for example
// "jobs[3]").
func (j *Job) Validate(path string) error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s.%s: "+format, append([]any{path, field}, args...)...))
	}
	if j.ID == "" {
		bad("id", "must not be empty")
	}
	if math.IsNaN(j.Arrival) || math.IsInf(j.Arrival, 0) || j.Arrival < 0 {
		bad("arrival", "must be finite and >= 0, got %g", j.Arrival)
	}
	if !(j.Deadline > 0) || math.IsInf(j.Deadline, 0) {
		bad("deadline", "must be finite and > 0, got %g", j.Deadline)
	}
	if len(j.MapSizes) == 0 {
		bad("map_sizes", "a job needs at least one map task")
	}
	for i, d := range j.MapSizes {
		if !(d > 0) || math.IsInf(d, 0) {
			bad(fmt.Sprintf("map_sizes[%d]", i), "must be finite and > 0, got %g", d)
		}
	}
	if j.Reduces < 0 {
		bad("reduces", "must be >= 0, got %d", j.Reduces)
	}
	if j.ReduceShares != nil {
		if len(j.ReduceShares) != j.Reduces {
			bad("reduce_shares", "has %d entries for %d reduces", len(j.ReduceShares), j.Reduces)
		} else {
			sum := 0.0
			for i, s := range j.ReduceShares {
				if !(s > 0) || math.IsInf(s, 0) {
					bad(fmt.Sprintf("reduce_shares[%d]", i), "must be finite and > 0, got %g", s)
				}
				sum += s
			}
			if math.Abs(sum-1) > 1e-9 {
				bad("reduce_shares", "must sum to 1, got %g", sum)
			}
		}
	}
	if j.Est != nil {
		if err := j.Est.validate(path + ".estimates"); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Worker is one node: how many map and reduce slots it has and how fast they run (a task
// takes its nominal time divided by the speed).
type Worker struct {
	MapSlots    int     `json:"map_slots"`
	ReduceSlots int     `json:"reduce_slots"`
	MapSpeed    float64 `json:"map_speed"`
	ReduceSpeed float64 `json:"reduce_speed"`
}

// Cluster is the set of workers; l and q of §IV-A are its total map and reduce slots.
type Cluster struct {
	Workers []Worker `json:"workers"`
}

// MapSlots is l, the number of map slots in the cluster.
func (c Cluster) MapSlots() int {
	n := 0
	for _, w := range c.Workers {
		n += w.MapSlots
	}
	return n
}

// ReduceSlots is q, the number of reduce slots in the cluster.
func (c Cluster) ReduceSlots() int {
	n := 0
	for _, w := range c.Workers {
		n += w.ReduceSlots
	}
	return n
}

// Validate reports every problem with c, naming fields under path.
func (c Cluster) Validate(path string) error {
	var errs []error
	for i, w := range c.Workers {
		p := fmt.Sprintf("%s.workers[%d]", path, i)
		if w.MapSlots < 0 || w.ReduceSlots < 0 {
			errs = append(errs, fmt.Errorf("%s: slot counts must be >= 0", p))
		}
		if w.MapSlots > 0 && (!(w.MapSpeed > 0) || math.IsInf(w.MapSpeed, 0)) {
			errs = append(errs, fmt.Errorf("%s.map_speed: must be finite and > 0, got %g", p, w.MapSpeed))
		}
		if w.ReduceSlots > 0 && (!(w.ReduceSpeed > 0) || math.IsInf(w.ReduceSpeed, 0)) {
			errs = append(errs, fmt.Errorf("%s.reduce_speed: must be finite and > 0, got %g", p, w.ReduceSpeed))
		}
	}
	if c.MapSlots() == 0 {
		errs = append(errs, fmt.Errorf("%s.workers: the cluster has no map slot", path))
	}
	if c.ReduceSlots() == 0 {
		errs = append(errs, fmt.Errorf("%s.workers: the cluster has no reduce slot", path))
	}
	return errors.Join(errs...)
}
