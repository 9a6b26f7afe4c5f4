package cora

import (
	"errors"
	"fmt"
	"math"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/workload"
)

// DefaultSlot is the slot length in seconds when Config.Slot is 0: the bound's default
// (--slot 60), about one wave of the generated workloads' tasks.
const DefaultSlot = 60

// DefaultMaxSlots bounds the horizon when Config.MaxSlots is 0.
const DefaultMaxSlots = 256

// NoBranching is the default Config.Budget: never branch on a stalled layer.
const NoBranching = -1

// Config is the slotted problem's shape.
type Config struct {
	// Slot is the slot length in seconds (0: DefaultSlot).
	Slot float64
	// MaxSlots bounds the horizon; past it the slot is lengthened (0: DefaultMaxSlots).
	MaxSlots int
	// Budget is onion peeling's stall-branch budget (solve.Request.Budget). 0 means
	// NoBranching: where genuine ties stall a layer (equal jobs, utilities flat at 0
	// such as a hard budget's), exploring every choice can cost minutes per decision;
	// an online plan redone at the next event takes the keep rule's answer instead
	// (exact: false). Set it positive to branch.
	Budget int
	// Interval is the shortest time in seconds between two plans triggered by task
	// finishes alone; an arrival, a job finish, a rejection or a capacity step always
	// re-plans. 0 (the default) re-plans at every decision instant, as cora.txt §III-A
	// triggers ("the completion of a Map or Reduce task in the system"). Workloads of
	// ~1,000-task jobs (the rds family: ~73,000 task finishes per 100-job run) make
	// that a solve per finish; a positive Interval keeps the targets in between.
	Interval float64
	// Log plans on ln U instead of U for sigmoid utilities (PlanUtility). cora, oracle
	// and rush set it; cora-final and rush-alg3 plan on U as their papers print it.
	Log bool
}

// WithDefaults fills the zero fields with the defaults.
func (c Config) WithDefaults() Config {
	if !(c.Slot > 0) {
		c.Slot = DefaultSlot
	}
	if c.MaxSlots <= 0 {
		c.MaxSlots = DefaultMaxSlots
	}
	if c.Budget == 0 {
		c.Budget = NoBranching
	}
	return c
}

// WorkFunc writes job j's remaining work per pool, in slot-seconds, into out (zeroed,
// one entry per pool).
type WorkFunc func(v policies.View, j int, out []float64)

// EstimatedWork is what a non-clairvoyant policy knows of j's remaining work: pending
// tasks at their stage's mean runtime, running tasks at that mean less the time they
// have run (policies.MeanTaskRuntime).
func EstimatedWork(v policies.View, j int, out []float64) {
	info := v.Job(j)
	first := v.Stage(j)
	means := make([]float64, len(info.Stages))
	for s := first; s < len(info.Stages); s++ {
		means[s] = policies.MeanTaskRuntime(v, j, s)
		out[info.Stages[s].Pool] += float64(v.Pending(j, s)) * means[s]
	}
	now := v.Now()
	for _, r := range v.RunningTasks(j) {
		out[info.Stages[r.Stage].Pool] += max(0, means[r.Stage]-(now-r.Start))
	}
}

// Problem is the slotted problem of one decision instant.
type Problem struct {
	Instance *sched.Instance
	// Jobs[i] is the workload index of Instance.Jobs[i].
	Jobs []int
	// Slot is the slot length used (Config.Slot, or longer to fit MaxSlots).
	Slot float64
}

// ErrNoCapacity is returned by Build when a pool with remaining demand has no capacity
// now: there is no horizon to plan over.
var ErrNoCapacity = errors.New("cora: a pool with remaining demand has no capacity")

// Build is the slotted problem of the active jobs at v.Now() (see the package doc).
// work and demand are scratch buffers that may be nil.
func Build(v policies.View, work WorkFunc, cfg Config) (*Problem, error) {
	cfg = cfg.WithDefaults()
	act := v.Active()
	if len(act) == 0 {
		return nil, errors.New("cora: no active job")
	}
	np := len(v.Pools())
	W := make([][]float64, len(act))
	for k, j := range act {
		W[k] = make([]float64, np)
		work(v, j, W[k])
	}
	caps := make([]int, np)
	for p := range np {
		caps[p] = v.Capacity(p)
	}
	s := cfg.Slot
	for range 8 {
		demand, T, err := discretize(v, act, W, caps, s)
		if err != nil {
			return nil, err
		}
		if T > cfg.MaxSlots {
			s *= math.Ceil(float64(T) / float64(cfg.MaxSlots))
			continue
		}
		return assemble(v, act, demand, caps, T, s, cfg), nil
	}
	return nil, fmt.Errorf("cora: cannot fit the remaining work into %d slots", cfg.MaxSlots)
}

// discretize rounds the work into slot units and returns the demands and the horizon.
func discretize(v policies.View, act []int, W [][]float64, caps []int, s float64) ([][]int, int, error) {
	np := len(caps)
	total := make([]int, np)
	demand := make([][]int, len(act))
	for k, j := range act {
		d := make([]int, np)
		any := false
		for p, w := range W[k] {
			units := math.Ceil(w/s - 1e-9)
			if units > sched.MaxQuantity {
				return nil, 0, fmt.Errorf("cora: job %s needs %g slot-units", v.Job(j).ID, units)
			}
			d[p] = int(max(0, units))
			any = any || d[p] > 0
		}
		if !any {
			info := v.Job(j)
			st := min(v.Stage(j), len(info.Stages)-1)
			d[info.Stages[st].Pool] = 1
		}
		for p := range np {
			total[p] += d[p]
		}
		demand[k] = d
	}
	T := 1
	for p := range np {
		if total[p] == 0 {
			continue
		}
		if caps[p] <= 0 {
			return nil, 0, fmt.Errorf("%w: pool %s", ErrNoCapacity, v.Pools()[p].Name)
		}
		T = max(T, (total[p]+caps[p]-1)/caps[p])
	}
	return demand, T, nil
}

func assemble(v policies.View, act []int, demand [][]int, caps []int, T int, s float64, cfg Config) *Problem {
	in := &sched.Instance{Name: "online", Horizon: T, HorizonSource: "file"}
	for p, pool := range v.Pools() {
		c := make([]int, T)
		for t := range c {
			c[t] = caps[p]
		}
		in.Resources = append(in.Resources, sched.Resource{Name: pool.Name, Capacity: c})
	}
	now, tu := v.Now(), v.TimeUnit()
	in.Jobs = make([]sched.Job, len(act))
	for k, j := range act {
		info := v.Job(j)
		in.Jobs[k] = sched.Job{ID: info.ID, Demand: demand[k], Release: 1, TaskSlots: 1,
			Utility: PlanUtility(info.Utility, max(0, now-info.Arrival)/tu, s/tu, cfg.Log)}
	}
	return &Problem{Instance: in, Jobs: act, Slot: s}
}

// Shift is u as a function of the completion slot t when completing in slot t means a
// response of elapsed + t·k time units: for sigmoid, linear and step utilities the same
// family with rescaled parameters (exactly: U'(t) = U(elapsed + t·k)), for the others a
// wrapper that evaluates workload.UtilityOfResponse.
func Shift(u sched.Utility, elapsed, k float64) sched.Utility {
	switch u := u.(type) {
	case sched.Sigmoid:
		// μ(elapsed + tk − d) = (μk)(t − (d − elapsed)/k)
		return sched.Sigmoid{Priority: u.Priority, Decay: u.Decay * k, Deadline: (u.Deadline - elapsed) / k}
	case sched.Linear:
		// β(B − elapsed − tk) = (βk)((B − elapsed)/k − t)
		return sched.Linear{Priority: u.Priority, Slope: u.Slope * k, Budget: (u.Budget - elapsed) / k, Hard: u.Hard}
	case sched.Step:
		return sched.Step{Value: u.Value, Deadline: (u.Deadline - elapsed) / k, Late: u.Late}
	case sched.Constant:
		return u
	}
	return responseUtility{u: u, elapsed: elapsed, k: k}
}

// PlanUtility is Shift(u, elapsed, k), and with log a sigmoid's logarithm (LogSigmoid).
//
// Why: float64 rounds p/(1+e^z) to exactly 0 once e^z overflows (z > 709.78), so late
// jobs with steep decays all "tie" at utility 0 — a tie the real-valued model does not
// have. Such ties stall onion peeling's sweep (which jobs stay at 0 is a combinatorial
// choice) and hand the instant to the layered engine, costing ~0.5 s per decision at
// 1,000 jobs and ending in the keep rule's unproven answer. ln is strictly increasing,
// so the lexmax of the sorted vector of ln U_j is the lexmax of the U_j on the reals:
// planning on LogSigmoid answers the paper's question exactly where float U cannot,
// and only genuine ties (equal jobs, flat utilities) remain to be branched on.
func PlanUtility(u sched.Utility, elapsed, k float64, log bool) sched.Utility {
	s := Shift(u, elapsed, k)
	if sg, ok := s.(sched.Sigmoid); ok && log && sg.Priority > 0 {
		return NewLogSigmoid(sg)
	}
	return s
}

// LogSigmoid is sched.LogSigmoid, which onion peeling uses too (sched.LogUtility).
type LogSigmoid = sched.LogSigmoid

// NewLogSigmoid is ln u (u.Priority > 0).
func NewLogSigmoid(u sched.Sigmoid) LogSigmoid { return sched.NewLogSigmoid(u) }

// responseUtility is U(elapsed + t·k) for a utility family Shift cannot rewrite.
type responseUtility struct {
	u          sched.Utility
	elapsed, k float64
}

func (r responseUtility) At(t int) float64 {
	return workload.UtilityOfResponse(r.u, r.elapsed+float64(t)*r.k)
}
func (r responseUtility) Type() string { return "response-shifted " + r.u.Type() }

// FirstSlot writes each job's allocation in slot 1 of s into the targets of every pool.
func (p *Problem) FirstSlot(s *sched.Schedule, targets func(pool int) []float64) {
	for i, j := range p.Jobs {
		for r, row := range s.Jobs[i].Alloc {
			if len(row) > 0 {
				targets(r)[j] = float64(row[0])
			}
		}
	}
}
