package plan

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/sched"
)

// Problem is the slotted problem of one decision instant: one part per remaining stage
// of every active job (Staged), or per job and pool (Pooled).
type Problem struct {
	// Instance is what solve takes; its job i is part i below, with ID strconv.Itoa(i).
	Instance *sched.Instance
	// Job[i] is part i's job (an index into the workload's jobs), Stage[i] its stage
	// (JobInfo.Stages; the first stage the part covers under Pooled), Tail[i] the
	// seconds the job still needs after part i at full speed (0 for a job's last part).
	Job, Stage []int
	Tail       []float64
	// Slot is the slot length used (Config.Slot, or longer to fit MaxSlots); slot t
	// ends at Start + t·Slot.
	Slot, Start float64
	// Model is the Config.Model the problem was built with.
	Model string
}

// Options are what a planner, not a user, decides about its problem.
type Options struct {
	// NoReleases plans every part from slot 1: for methods without release times
	// (RUSH's Alg. 3 as printed). Stage order then lives in the tails alone.
	NoReleases bool
	// WholeFirstSlot gives the first slot the pool's full capacity even when it is the
	// part of an aligned slot that is left: for methods that test C·t with a constant C
	// (Alg. 3). It can only make a promise earlier, by less than one slot, which the
	// fidelity tolerance already allows for.
	WholeFirstSlot bool
}

// ErrNoCapacity is returned by Build when a pool with remaining demand has no capacity
// now: there is no horizon to plan over.
var ErrNoCapacity = errors.New("plan: a pool with remaining demand has no capacity")

// Build is the problem of the active jobs at v.Now() (the package doc).
func Build(v policies.View, est Estimator, cfg Config, opt Options) (*Problem, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	act := v.Active()
	if len(act) == 0 {
		return nil, errors.New("plan: no active job")
	}
	caps := make([]int, len(v.Pools()))
	for p := range caps {
		caps[p] = v.Capacity(p)
	}
	s := cfg.Slot
	for range 8 {
		p, T, err := build(v, act, est, caps, s, cfg, opt)
		if err != nil {
			return nil, err
		}
		if T > cfg.MaxSlots {
			s *= math.Ceil(float64(T) / float64(cfg.MaxSlots))
			continue
		}
		return p, nil
	}
	return nil, fmt.Errorf("plan: cannot fit the remaining work into %d slots", cfg.MaxSlots)
}

// jobStages is one job's remaining stages with their durations at full speed.
type jobStages struct {
	stages []Stage
	dur    []float64 // seconds
	chain  float64   // Σ dur
}

func build(v policies.View, act []int, est Estimator, caps []int, s float64, cfg Config, opt Options) (*Problem, int, error) {
	now, tu := v.Now(), v.TimeUnit()
	start, frac := now, 1.0
	if cfg.Dispatch == DispatchPlan {
		// Slots aligned to multiples of s: a re-plan sees the same slot ends as the plan
		// before it, so its promises are the same numbers (the package doc).
		start = math.Floor(now/s+1e-9) * s
		frac = max(0, 1-(now-start)/s)
	}
	js := make(map[int]*jobStages, len(act))
	for _, j := range act {
		st, err := est(v, j, s, cfg.Model == Pooled)
		if err != nil {
			return nil, 0, err
		}
		kept := st[:0:0]
		for _, x := range st {
			if x.Units > sched.MaxQuantity {
				return nil, 0, fmt.Errorf("plan: job %s needs %d slot-units", v.Job(j).ID, x.Units)
			}
			if x.Units > 0 {
				kept = append(kept, x)
			}
		}
		if len(kept) == 0 {
			// A job whose estimate rounds to nothing has not finished: one unit on its
			// first remaining stage, so that it has a completion slot.
			info := v.Job(j)
			first := min(v.Stage(j), len(info.Stages)-1)
			kept = []Stage{{Index: first, Pool: info.Stages[first].Pool, Units: 1, Parallel: 1, TaskSlots: 1}}
			if len(st) > 0 {
				kept[0] = st[0]
				kept[0].Units = 1
			}
		}
		x := &jobStages{stages: kept, dur: make([]float64, len(kept))}
		for k, st := range kept {
			par := max(1, min(st.Parallel, caps[st.Pool]))
			x.dur[k] = max(float64(st.Units)/float64(par)*s, st.Longest)
			x.chain += x.dur[k]
		}
		js[j] = x
	}
	// A job that waits for others (workflows) starts no sooner than they can finish.
	startAt := map[int]float64{}
	var earliest func(j int) float64
	earliest = func(j int) float64 {
		if t, ok := startAt[j]; ok {
			return t
		}
		startAt[j] = now // breaks a cycle, which the workload validator rejects anyway
		t := now
		if !v.Ready(j) {
			for _, d := range v.Job(j).After {
				if x, ok := js[d]; ok {
					t = max(t, earliest(d)+x.chain)
				}
			}
		}
		startAt[j] = t
		return t
	}
	p := &Problem{Slot: s, Start: start, Model: cfg.Model}
	in := &sched.Instance{Name: "online-plan", HorizonSource: "file"}
	np := len(caps)
	total := make([]int, np)
	longest := 0.0
	addPart := func(j, stage, pool, units, release, maxPar, taskSlots int, tail float64, u sched.Utility) {
		d := make([]int, np)
		d[pool] = units
		total[pool] += units
		in.Jobs = append(in.Jobs, sched.Job{ID: strconv.Itoa(len(in.Jobs)), Demand: d, Release: release,
			MaxParallel: maxPar, TaskSlots: max(1, taskSlots), Utility: u})
		p.Job = append(p.Job, j)
		p.Stage = append(p.Stage, stage)
		p.Tail = append(p.Tail, tail)
	}
	for _, j := range act {
		info, x := v.Job(j), js[j]
		t0 := earliest(j)
		longest = max(longest, t0-start+x.chain)
		release := func(offset float64) int {
			if opt.NoReleases {
				return 1
			}
			return 1 + int(math.Floor((offset-start)/s+1e-9))
		}
		if cfg.Model == Pooled {
			// The papers' model: each pool's work one divisible demand from slot 1.
			u := PlanUtility(info.Utility, (start-info.Arrival)/tu, s/tu, cfg.Log)
			for _, st := range x.stages {
				addPart(j, st.Index, st.Pool, st.Units, release(t0), 0, st.TaskSlots, 0, u)
			}
			continue
		}
		offset, tail := t0, x.chain
		for k, st := range x.stages {
			tail -= x.dur[k]
			if k == len(x.stages)-1 {
				tail = 0 // exactly: no float residue on the part that completes the job
			}
			u := PlanUtility(info.Utility, (start+tail-info.Arrival)/tu, s/tu, cfg.Log)
			if later := len(x.stages) - 1 - k; later > 0 {
				// Stages of one job tie wherever a stage's completion plus its tail
				// meets the next one's; a tie no peeling can break stalls onion
				// peeling (every tied part can rise alone, not all together). The
				// earlier stage ranks above by 1e-9 per later stage.
				u = lifted{u: u, eps: 1e-9 * float64(later)}
			}
			maxPar := 0
			if cfg.Caps && st.Parallel < caps[st.Pool] {
				maxPar = max(1, st.Parallel)
			}
			addPart(j, st.Index, st.Pool, st.Units, release(offset), maxPar, st.TaskSlots, tail, u)
			offset += x.dur[k]
		}
	}
	T := 1
	for pool := range np {
		if total[pool] == 0 {
			continue
		}
		if caps[pool] <= 0 {
			return nil, 0, fmt.Errorf("%w: pool %s", ErrNoCapacity, v.Pools()[pool].Name)
		}
		T = max(T, (total[pool]+caps[pool]-1)/caps[pool])
	}
	if cfg.Model == Staged {
		// Room for every part after its release: the work at full capacity, plus the
		// longest chain (Graham's bound for list schedules of precedence chains), plus
		// the partial first slot. Pooled keeps the papers' horizon, the fewest slots
		// that hold the demand (cora.txt: "if a cluster has C = 40 containers and the
		// total resource requirement … is 160 tasks, then we choose |T| = 4").
		T += int(math.Ceil(longest/s-1e-9)) + 1
	}
	in.Horizon = T
	for pool, pl := range v.Pools() {
		c := make([]int, T)
		for t := range c {
			c[t] = caps[pool]
		}
		if !opt.WholeFirstSlot {
			c[0] = int(math.Floor(float64(caps[pool])*frac + 1e-9))
		}
		in.Resources = append(in.Resources, sched.Resource{Name: pl.Name, Capacity: c})
	}
	for i := range in.Jobs {
		in.Jobs[i].Release = min(in.Jobs[i].Release, T)
	}
	p.Instance = in
	return p, T, nil
}

// lifted is u + eps.
type lifted struct {
	u   sched.Utility
	eps float64
}

func (l lifted) At(t int) float64 { return l.u.At(t) + l.eps }
func (l lifted) Type() string     { return l.u.Type() }

// Part returns the index of the part a solve's job ID names.
func (p *Problem) Part(id string) (int, bool) {
	i, err := strconv.Atoi(id)
	if err != nil || i < 0 || i >= len(p.Job) {
		return 0, false
	}
	return i, true
}
