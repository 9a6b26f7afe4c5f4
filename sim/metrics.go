package sim

import (
	"math"
	"slices"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// Metrics is the per-run summary `coraopt simulate` prints for each policy. Everything
// but Timing is a function of the workload, the policy and the seed.
type Metrics struct {
	Name        string       `json:"name"`
	Clairvoyant bool         `json:"clairvoyant,omitempty"`
	Jobs        []JobMetrics `json:"jobs"`
	// SortedUtilities is every job's utility, ascending (a rejected job earns
	// workload.UtilityNever).
	SortedUtilities []float64 `json:"sorted_utilities"`
	MinUtility      float64   `json:"min_utility"`
	SumUtility      float64   `json:"sum_utility"`
	ZeroUtilityJobs int       `json:"zero_utility_jobs"`
	// DeadlinesMet counts completed jobs with a deadline that met it, of
	// JobsWithDeadline.
	DeadlinesMet     int `json:"deadlines_met"`
	JobsWithDeadline int `json:"jobs_with_deadline"`
	Rejected         int `json:"rejected"`
	// DeadlineMissPenalty is rds.txt eq. 1: Σ ω_j (y_j − y_ref_j)⁺ / y_ref_j over the
	// completed jobs with a deadline, y the response time and y_ref the relative
	// deadline.
	DeadlineMissPenalty float64 `json:"deadline_miss_penalty"`
	// MeanTardiness is the mean of max(0, completion − deadline) over the completed
	// jobs with a deadline (seconds).
	MeanTardiness float64 `json:"mean_tardiness"`
	// Utilization is, per pool on [0, makespan], the share of the capacity in force
	// that tasks used: ∫ min(busy, capacity) dt / ∫ capacity dt, with capacity the
	// trace's value at each instant (capped at the pool's slots). It is never above 1.
	// When the capacity drops under running tasks they keep their slots (a drop does
	// not preempt), so a pool may hold more slots than the trace allows for a while;
	// that excess is not use of the capacity in force — counting it would report a pool
	// 5 times busier than possible when the capacity falls from 5 to 1 under 5 tasks —
	// so it is left out here and reported in Overcommitted instead.
	Utilization map[string]float64 `json:"utilization"`
	// Overcommitted is, per pool where it is not 0, the busy slot-seconds held above
	// the capacity in force, ∫ max(0, busy − capacity) dt: the work the tasks caught by
	// a capacity drop did after it. Utilization's busy time plus this is every slot
	// second held (what CheckInvariants balances against the tasks' runtimes).
	Overcommitted map[string]float64 `json:"overcommitted_slot_seconds,omitempty"`
	Makespan      float64            `json:"makespan"`
	MeanResponse  float64            `json:"mean_response"`
	Events        int                `json:"events"`
	Rounds        int                `json:"decision_rounds"`
	VsBound       *VsBound           `json:"vs_bound,omitempty"`
	Timing        *TimingMetrics     `json:"timing,omitempty"`

	// Fallbacks counts the decisions in which the policy's solver failed and it kept
	// its previous targets (set by the caller from the policy; 0 for policies that
	// solve nothing).
	Fallbacks int `json:"fallbacks"`
	// PolicyCounts are a planning policy's own counts (plans, alg3_infeasible, …),
	// through a Counts() map[string]int method.
	PolicyCounts map[string]int `json:"policy_counts,omitempty"`

	// Workflow outcomes (woha.txt §VI) when the workload has workflows, and admission
	// measures (rtmr.txt §V) when the policy decides admission; their fields appear at
	// this level of the JSON.
	*WorkflowMetrics
	*AdmissionMetrics
}

// JobMetrics is one job's outcome. Completion, Response and Met are null for a
// rejected job; Deadline and Met are null for a job without a deadline.
type JobMetrics struct {
	ID         string   `json:"id"`
	Arrival    float64  `json:"arrival"`
	Completion *float64 `json:"completion"`
	Response   *float64 `json:"response"`
	Utility    float64  `json:"utility"`
	Deadline   *float64 `json:"deadline"` // absolute, seconds
	Met        *bool    `json:"met"`
	Tardiness  *float64 `json:"tardiness,omitempty"` // max(0, completion − deadline)
	Rejected   bool     `json:"rejected,omitempty"`
	// Accepted is set for a policy that decides admission (rtmr.txt §V's per-job flag).
	Accepted *bool `json:"accepted,omitempty"`
}

// VsBound is how far a policy falls short of the bounds: its sorted utilities of the
// lexmax bound (FirstShortPosition, MinGap), its sum of the sum bound (SumGap).
type VsBound struct {
	// FirstShortPosition is the first 1-based position of the sorted vectors where the
	// policy is below the lexmax bound (0 when it is nowhere below).
	FirstShortPosition int `json:"first_short_position"`
	// MinGap is the lexmax bound's minimum less the policy's (≥ 0: the bound's minimum
	// is the max-min).
	MinGap float64 `json:"min_gap"`
	// SumGap is the sum bound (BoundResult.SumBound) less the policy's sum of utilities
	// (≥ 0: no run's sum exceeds the sum bound), reported as 0 when it is at most
	// SumGapTolerance: the policy is then at the relaxation's optimum as far as float64
	// can tell.
	SumGap float64 `json:"sum_gap"`
	// LexmaxUnproven marks FirstShortPosition and MinGap as measured against a lexmax
	// vector that is not proven (BoundResult.Exact false): they are then no gaps to a
	// bound, and summaries leave them out. SumGap stays proven (the sum bound does not
	// depend on the lexmax vector).
	LexmaxUnproven bool `json:"lexmax_unproven,omitempty"`
}

// TimingMetrics are wall-clock decision times per decision round (StartRound and the
// Picks, plus the policy's Admit, Tick and Observe calls at that instant), in
// microseconds.
type TimingMetrics struct {
	DecisionMeanMicros float64 `json:"decision_mean_us"`
	DecisionP99Micros  float64 `json:"decision_p99_us"`
	DecisionMaxMicros  float64 `json:"decision_max_us"`
	WallSeconds        float64 `json:"wall_seconds,omitempty"`
}

// Summarize computes the metrics of r, a run of w.
func Summarize(w *workload.Workload, r *Result) *Metrics {
	m := &Metrics{Name: r.Policy, Clairvoyant: r.Clairvoyant, Makespan: r.Makespan, Events: r.Events, Rounds: r.Rounds,
		Utilization: map[string]float64{}}
	m.Jobs = make([]JobMetrics, len(r.Jobs))
	m.SortedUtilities = make([]float64, len(r.Jobs))
	responses, completed, tardy := 0.0, 0, 0
	for i, jr := range r.Jobs {
		job := &w.Jobs[i]
		jm := JobMetrics{ID: jr.ID, Arrival: jr.Arrival, Rejected: jr.Rejected}
		if job.Deadline > 0 {
			d := job.Arrival + job.Deadline
			jm.Deadline = &d
			m.JobsWithDeadline++
		}
		if jr.Rejected {
			jm.Utility = workload.UtilityNever(job.Utility)
			m.Rejected++
		} else {
			c, resp := jr.Completion, jr.Completion-jr.Arrival
			jm.Completion, jm.Response = &c, &resp
			jm.Utility = w.UtilityAt(i, c)
			responses += resp
			completed++
			if job.Deadline > 0 {
				met := resp <= job.Deadline
				jm.Met = &met
				if met {
					m.DeadlinesMet++
				}
				m.DeadlineMissPenalty += job.Priority * max(0, resp-job.Deadline) / job.Deadline
				tard := max(0, resp-job.Deadline)
				jm.Tardiness = &tard
				m.MeanTardiness += tard
				tardy++
			}
		}
		if jm.Utility == 0 {
			m.ZeroUtilityJobs++
		}
		m.SumUtility += jm.Utility
		m.SortedUtilities[i] = jm.Utility
		m.Jobs[i] = jm
	}
	slices.Sort(m.SortedUtilities)
	if len(m.SortedUtilities) > 0 {
		m.MinUtility = m.SortedUtilities[0]
	}
	if completed > 0 {
		m.MeanResponse = responses / float64(completed)
	}
	if tardy > 0 {
		m.MeanTardiness /= float64(tardy)
	}
	for k, p := range w.Cluster.Pools {
		m.Utilization[p.Name] = 0
		if r.CapacitySeconds[k] > 0 {
			// Busy − Overcommitted = ∫ min(busy, capacity) dt ≤ CapacitySeconds exactly;
			// min only absorbs the rounding of the difference.
			m.Utilization[p.Name] = min(1, (r.Busy[k]-r.Overcommitted[k])/r.CapacitySeconds[k])
		}
		if r.Overcommitted[k] > 0 {
			if m.Overcommitted == nil {
				m.Overcommitted = map[string]float64{}
			}
			m.Overcommitted[p.Name] = r.Overcommitted[k]
		}
	}
	m.WorkflowMetrics = summarizeWorkflows(w, r)
	if r.Admission {
		m.AdmissionMetrics = summarizeAdmission(m, r)
	}
	if r.Timing != nil && len(r.Timing.DecisionNanos) > 0 {
		ns := slices.Clone(r.Timing.DecisionNanos)
		slices.Sort(ns)
		sum := int64(0)
		for _, x := range ns {
			sum += x
		}
		m.Timing = &TimingMetrics{
			DecisionMeanMicros: float64(sum) / float64(len(ns)) / 1e3,
			DecisionP99Micros:  float64(ns[min(len(ns)-1, int(math.Ceil(0.99*float64(len(ns))))-1)]) / 1e3,
			DecisionMaxMicros:  float64(ns[len(ns)-1]) / 1e3,
		}
	}
	return m
}

// CompareToBound fills m.VsBound against b: the first short position and the min gap
// against the lexmax bound's sorted utilities (same length as m's; marked
// LexmaxUnproven when b's vector is not proven), the sum gap against the sum bound (0
// within SumGapTolerance).
// tol is relative: a run's utility is short of the bound's when it is below it by more
// than tol times the larger magnitude of the two. An absolute tolerance would call
// every utility under it level with the bound, and sigmoids of far-late jobs are
// 1e-30 and less, so it would misread the whole low end of a vector.
func (m *Metrics) CompareToBound(b *BoundResult, tol float64) {
	vb := &VsBound{}
	bound := b.SortedUtilities
	for k := range bound {
		if x := m.SortedUtilities[k]; x < bound[k]-tol*max(math.Abs(bound[k]), math.Abs(x)) {
			vb.FirstShortPosition = k + 1
			break
		}
	}
	if len(bound) > 0 {
		vb.MinGap = bound[0] - m.MinUtility
	}
	vb.SumGap = b.SumBound - m.SumUtility
	if vb.SumGap >= 0 && vb.SumGap <= SumGapTolerance(b.SumBound) {
		// Only the gap is rounded, never the bound; a negative gap (a broken proof)
		// stays visible.
		vb.SumGap = 0
	}
	vb.LexmaxUnproven = !b.Exact
	m.VsBound = vb
}

// BeatsBound reports whether sorted (ascending) is lexicographically greater than the
// bound's vector beyond tol — which the bound's proof says never happens.
func BeatsBound(sorted, bound []float64, tol float64) bool {
	return sched.CompareSorted(sorted, bound, tol) > 0
}
