package rds

import (
	"fmt"
	"math"
	"strconv"

	"github.com/coraopt/coraopt/sched"
)

// Phase says which of a job's two phases can use resources at the current time.
type Phase int8

const (
	// PhaseBoth: map and reduce resources both make progress, each with its own gain
	// (the two-input linear model). The default.
	PhaseBoth Phase = iota
	// PhaseMap: only map resources make progress; u^m_j is free and u^r_j is fixed at 0.
	PhaseMap
	// PhaseReduce: only reduce resources make progress; u^r_j is free and u^m_j is
	// fixed at 0.
	PhaseReduce
)

var phaseNames = []string{"both", "map", "reduce"}

func (p Phase) String() string {
	if p >= 0 && int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "Phase(" + strconv.Itoa(int(p)) + ")"
}

// ParsePhase is the inverse of Phase.String.
func ParsePhase(s string) (Phase, bool) {
	for i, n := range phaseNames {
		if n == s {
			return Phase(i), true
		}
	}
	return 0, false
}

// Gain is the learned progress model of one job: work units of progress per resource
// unit held for one control interval, for map and for reduce resources (g_j of
// y_j(t+1) = y_j(t) + g^m_j u^m_j(t) + g^r_j u^r_j(t)).
type Gain struct {
	Map    float64 `json:"map"`
	Reduce float64 `json:"reduce"`
}

// Alloc is a resource allocation for one interval: u^m_j and u^r_j, in resource units
// held over the interval (a time average when it changed within the interval).
type Alloc struct {
	Map    float64 `json:"map"`
	Reduce float64 `json:"reduce"`
}

// Total is u^m + u^r, what the job takes out of the capacity r_a.
func (a Alloc) Total() float64 { return a.Map + a.Reduce }

// Job is one job the controller manages, as it stands at the current time.
type Job struct {
	ID       string
	Work     float64 // W_j > 0: total work, in the same units as Progress
	Progress float64 // y_j(t) ∈ [0, W_j]
	Phase    Phase
	Gain     Gain    // ĝ_j, the current (RLS) estimate; ≥ 0
	Arrival  float64 // when the job was submitted (the origin of eq. 4's decay)
	Soft     float64 // t_soft, an absolute time > Arrival
	Hard     float64 // t_hard, Soft ≤ Hard ≤ Arrival + 2·(Soft − Arrival)
	Priority float64 // ω_j > 0, the diagonal of W
	Prev     Alloc   // u_j(t−1), the allocation of the interval that just ended
	// MaxMap and MaxReduce cap u^m_j and u^r_j in every interval (pending tasks ×
	// slot size, a quota); +Inf means no cap.
	MaxMap, MaxReduce float64
}

// Remaining is W_j − y_j(t), never negative.
func (j *Job) Remaining() float64 { return math.Max(0, j.Work-j.Progress) }

// State is what the controller knows at the start of the interval it plans.
type State struct {
	Time     float64 // t: the start of the interval to plan
	Interval float64 // L > 0: the control interval length, in the time unit of Time and the deadlines
	// CapacityHistory[k] is the observed r_a of the k-th past interval, oldest first;
	// the last entry is the interval that just ended.
	CapacityHistory []float64
	Jobs            []Job
	// MapCapacity and ReduceCapacity, when not nil, are forecasts (one value per
	// interval of the prediction window, like the total) of the capacity that map and
	// reduce resources can use: a cluster whose map and reduce slots are separate
	// pools (Hadoop 1). BuildRHC then adds Σ_j u^m_j ≤ MapCapacity and Σ_j u^r_j ≤
	// ReduceCapacity beside the total row. The state file does not set them.
	MapCapacity, ReduceCapacity []float64
}

// Deadlines says how deadlines that fall inside the prediction window are treated.
type Deadlines int8

const (
	// DeadlinesFirst (the default) solves lexicographically: first the least weighted
	// shortfall Σ_j ω_j σ_j of the deadlines inside the window (eq. 1's goal, see
	// BuildShortfall), then eq. 3 among the allocations that achieve it (BuildRHC with
	// hard deadline rows relaxed to that shortfall). See the package documentation,
	// "Deadlines inside the horizon".
	DeadlinesFirst Deadlines = iota
	// DeadlinesOff solves eq. 3 alone.
	DeadlinesOff
)

var deadlineNames = []string{"first", "off"}

func (d Deadlines) String() string {
	if d >= 0 && int(d) < len(deadlineNames) {
		return deadlineNames[d]
	}
	return "Deadlines(" + strconv.Itoa(int(d)) + ")"
}

// Params are the controller's tuning parameters.
type Params struct {
	PredictionHorizon int // H_p ≥ 1 intervals
	ControlHorizon    int // H_c, 1 ≤ H_c ≤ H_p moves; the control is held after that
	// MapPenalty (P) and ReducePenalty (Q) weigh (Δu^m)² and (Δu^r)² at each control
	// step: either one value for every step or H_c values (diag P, diag Q of eq. 3).
	MapPenalty, ReducePenalty []float64
	AROrder                   int       // n of the AR(n) capacity predictor (eq. 16)
	Deadlines                 Deadlines // how deadlines inside the window are treated
}

// The penalty weights RDS reports (rds.txt §5.2), for H_c = 3; DefaultParams hands out
// copies.
var (
	paperMapPenalty    = []float64{0.0107, 0.0096, 0.0132}
	paperReducePenalty = []float64{0.0173, 0.0168, 0.0194}
)

// DefaultParams are the paper's settings: H_p = H_c = 3, its P and Q, AR(3).
func DefaultParams() Params {
	return Params{
		PredictionHorizon: 3,
		ControlHorizon:    3,
		MapPenalty:        append([]float64(nil), paperMapPenalty...),
		ReducePenalty:     append([]float64(nil), paperReducePenalty...),
		AROrder:           3,
	}
}

// Limits on a state, so that a small file cannot ask for a huge model.
const (
	MaxHorizon = 64        // H_p and H_c
	MaxAROrder = 64        // n
	MaxJobs    = 100_000   // jobs in one state
	MaxHistory = 1_000_000 // capacity history entries
	// MaxHessianCells bounds jobs × (2·H_c)², the dense Hessian blocks BuildRHC writes.
	MaxHessianCells = 1 << 22
	// MaxMagnitude bounds every number of a state file, and MinScale the quantities the
	// QP divides by or weighs with (work, the interval, priorities): the tracking term's
	// coefficients are products such as ω·(100·g/W)², which beyond these overflow to
	// +Inf (work 1e-300) or vanish into subnormal noise that the solver still calls
	// optimal (work 1e308 gave allocations of 1e-301).
	MaxMagnitude = 1e12
	MinScale     = 1e-6
)

// penaltyAt is P_k (or Q_k) for control step k.
func penaltyAt(w []float64, k int) float64 {
	if len(w) == 1 {
		return w[0]
	}
	return w[k]
}

// Validate checks the parameters; problems carry JSON paths under params.
func (p Params) Validate() error {
	var ps problemList
	p.check(&ps, "params")
	return ps.err()
}

func (p Params) check(ps *problemList, path string) {
	if p.PredictionHorizon < 1 || p.PredictionHorizon > MaxHorizon {
		ps.add(path+".prediction_horizon", "must be an integer in [1, %d], got %d", MaxHorizon, p.PredictionHorizon)
	}
	if p.ControlHorizon < 1 || p.ControlHorizon > MaxHorizon {
		ps.add(path+".control_horizon", "must be an integer in [1, %d], got %d", MaxHorizon, p.ControlHorizon)
	} else if p.PredictionHorizon >= 1 && p.ControlHorizon > p.PredictionHorizon {
		ps.add(path+".control_horizon", "must be <= prediction_horizon (%d), got %d", p.PredictionHorizon, p.ControlHorizon)
	}
	for _, w := range []struct {
		name string
		v    []float64
	}{{"map_penalty", p.MapPenalty}, {"reduce_penalty", p.ReducePenalty}} {
		wp := path + "." + w.name
		if len(w.v) != 1 && len(w.v) != p.ControlHorizon {
			ps.add(wp, "must have 1 or control_horizon (%d) entries, got %d", p.ControlHorizon, len(w.v))
			continue
		}
		for i, v := range w.v {
			if !(v >= 0) || math.IsInf(v, 0) {
				ps.add(indexPath(wp, i), "must be a finite number >= 0, got %g", v)
			}
		}
	}
	if p.AROrder < 1 || p.AROrder > MaxAROrder {
		ps.add(path+".ar_order", "must be an integer in [1, %d], got %d", MaxAROrder, p.AROrder)
	}
	if p.Deadlines != DeadlinesFirst && p.Deadlines != DeadlinesOff {
		ps.add(path+".deadlines", "must be \"first\" or \"off\"")
	}
}

// Validate checks the state; each problem names the JSON path of the offending value
// (jobs[2].soft), as the state file spells it. The error is a *sched.ValidationError.
func (s *State) Validate() error {
	var ps problemList
	s.check(&ps)
	return ps.err()
}

func (s *State) check(ps *problemList) {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	if !finite(s.Time) || s.Time < 0 {
		ps.add("time", "must be a finite number >= 0, got %g", s.Time)
	}
	if !finite(s.Interval) || s.Interval <= 0 {
		ps.add("interval", "must be a finite number > 0, got %g", s.Interval)
	}
	if len(s.CapacityHistory) > MaxHistory {
		ps.add("capacity_history", "has %d entries, at most %d allowed", len(s.CapacityHistory), MaxHistory)
	} else {
		for i, c := range s.CapacityHistory {
			if !finite(c) || c < 0 {
				ps.add(indexPath("capacity_history", i), "must be a finite number >= 0, got %g", c)
			}
		}
	}
	for _, kc := range []struct {
		name string
		v    []float64
	}{{"map_capacity", s.MapCapacity}, {"reduce_capacity", s.ReduceCapacity}} {
		for i, c := range kc.v {
			if !finite(c) || c < 0 {
				ps.add(indexPath(kc.name, i), "must be a finite number >= 0, got %g", c)
			}
		}
	}
	if len(s.Jobs) > MaxJobs {
		ps.add("jobs", "has %d jobs, at most %d allowed", len(s.Jobs), MaxJobs)
		return
	}
	seen := make(map[string]int, len(s.Jobs))
	for i := range s.Jobs {
		j := &s.Jobs[i]
		path := indexPath("jobs", i)
		if j.ID == "" {
			ps.add(path+".id", "must be a non-empty string")
		} else if first, dup := seen[j.ID]; dup {
			ps.add(path+".id", "duplicate id %q (also jobs[%d])", j.ID, first)
		} else {
			seen[j.ID] = i
		}
		if !finite(j.Work) || j.Work <= 0 {
			ps.add(path+".work", "must be a finite number > 0, got %g", j.Work)
		}
		if !finite(j.Progress) || j.Progress < 0 {
			ps.add(path+".progress", "must be a finite number >= 0, got %g", j.Progress)
		} else if finite(j.Work) && j.Work > 0 && j.Progress > j.Work {
			ps.add(path+".progress", "must be <= work (%g), got %g", j.Work, j.Progress)
		}
		if j.Phase < PhaseBoth || j.Phase > PhaseReduce {
			ps.add(path+".phase", "must be \"both\", \"map\" or \"reduce\"")
		}
		for _, g := range []struct {
			name string
			v    float64
		}{{"gain.map", j.Gain.Map}, {"gain.reduce", j.Gain.Reduce},
			{"allocation.map", j.Prev.Map}, {"allocation.reduce", j.Prev.Reduce}} {
			if !finite(g.v) || g.v < 0 {
				ps.add(path+"."+g.name, "must be a finite number >= 0, got %g", g.v)
			}
		}
		for _, c := range []struct {
			name string
			v    float64
		}{{"max_map", j.MaxMap}, {"max_reduce", j.MaxReduce}} {
			if math.IsNaN(c.v) || c.v < 0 {
				ps.add(path+"."+c.name, "must be a number >= 0, got %g", c.v)
			}
		}
		if !finite(j.Priority) || j.Priority <= 0 {
			ps.add(path+".priority", "must be a finite number > 0, got %g", j.Priority)
		}
		if !finite(j.Arrival) || j.Arrival < 0 {
			ps.add(path+".arrival", "must be a finite number >= 0, got %g", j.Arrival)
			continue
		}
		switch {
		case !finite(j.Soft):
			ps.add(path+".soft", "must be a finite number, got %g", j.Soft)
		case j.Soft <= j.Arrival:
			ps.add(path+".soft", "must be later than arrival (%g), got %g", j.Arrival, j.Soft)
		case !finite(j.Hard):
			ps.add(path+".hard", "must be a finite number, got %g", j.Hard)
		case j.Hard < j.Soft:
			ps.add(path+".hard", "must be >= soft (%g), got %g", j.Soft, j.Hard)
		case j.Hard-j.Arrival > 2*(j.Soft-j.Arrival)*(1+1e-12):
			// rds.txt §3.1: hard ≤ 2·soft (both measured from arrival) keeps δ ≥ 0.
			ps.add(path+".hard", "must be at most arrival + 2·(soft − arrival) = %g so the decay of eq. 4 stays >= 0, got %g",
				j.Arrival+2*(j.Soft-j.Arrival), j.Hard)
		}
	}
}

// problemList collects validation problems with JSON paths, in the order found.
type problemList struct{ list []sched.Problem }

func (ps *problemList) add(path, format string, args ...any) {
	ps.list = append(ps.list, sched.Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
}

func (ps *problemList) err() error {
	if len(ps.list) == 0 {
		return nil
	}
	return &sched.ValidationError{Problems: ps.list}
}

func indexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }
