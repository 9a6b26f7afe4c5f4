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
	// ws, when the problem was built in a Workspace, also holds its promises' arrays.
	ws *Workspace
}

// Workspace keeps Build's arrays — the problem, its instance with every part's job,
// demand row and ID, the capacity rows, the per-job scratch — and the promises' from
// one decision instant to the next (Options.Workspace). Allocated afresh they were
// most of a decision's allocation after the solve's (~60 KB at 100 active jobs), and
// with it the garbage collector's cycles that made the slowest decisions (issue 28).
// A Problem built in a Workspace, its Instance and its Promises live in the
// workspace's arrays and are valid until the next Build with it; hold one per planner
// (no sharing between policies or goroutines). The zero value is ready.
type Workspace struct {
	prob      Problem
	job       []int
	stage     []int
	tail      []float64
	inst      sched.Instance
	jobs      []sched.Job
	resources []sched.Resource
	capRows   [][]int
	demand    []int
	ids       []string // "0", "1", …: a prefix serves any smaller plan
	js        []jobStages
	durs      []float64
	slot      []int
	promises  Promises
	// logs holds the plan's ln U where no UtilityCache serves it (plans past
	// maxCachedValues): handed out by pointer, they cost no allocation per part, and
	// one interface call per evaluation instead of lifted's two.
	logs []slotLog
}

// slotLog is LogSigmoid u lifted by eps (exactly u when eps is 0): the value lifted and
// cachedLog compute, by the same expression.
type slotLog struct {
	u   LogSigmoid
	eps float64
}

func (c *slotLog) At(t int) float64 {
	v := c.u.At(t)
	if c.eps != 0 {
		v += c.eps
	}
	return v
}

func (c *slotLog) Type() string { return c.u.Type() }

// Options are what a planner, not a user, decides about its problem.
type Options struct {
	// NoReleases plans every part from slot 1: for methods without release times
	// (RUSH's Alg. 3 as printed). Stage order then lives in the tails alone.
	NoReleases bool
	// Utilities, when set, memoizes the plan's ln U across decision instants
	// (UtilityCache); used with aligned slots (DispatchPlan) and Config.Log, where the
	// same utilities recur.
	Utilities *UtilityCache
	// Workspace, when set, holds the problem's arrays and keeps them for the next
	// Build (see Workspace).
	Workspace *Workspace
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
		if p == nil {
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
	start  float64   // the earliest the job can start (after the jobs it waits for)
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
	ws := opt.Workspace
	var js []jobStages
	var durs []float64 // every job's dur, one array (usually)
	if ws != nil {
		js = resize(ws.js, len(act))
		clear(js) // chain is summed into
		durs = ws.durs[:0]
		defer func() { ws.js, ws.durs = js, durs[:0] }()
	} else {
		js = make([]jobStages, len(act))
		durs = make([]float64, 0, 2*len(act))
	}
	nparts, waits := 0, false
	for a, j := range act {
		st, err := est(v, j, s, cfg.Model == Pooled)
		if err != nil {
			return nil, 0, err
		}
		kept, all := st, true
		for _, x := range st {
			if x.Units > sched.MaxQuantity {
				return nil, 0, fmt.Errorf("plan: job %s needs %d slot-units", v.Job(j).ID, x.Units)
			}
			all = all && x.Units > 0
		}
		if !all {
			// The stages with work, copied: the estimator's slice is not Build's to change.
			kept = st[:0:0]
			for _, x := range st {
				if x.Units > 0 {
					kept = append(kept, x)
				}
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
		x := &js[a]
		x.stages, x.start = kept, now
		for _, st := range kept {
			par := max(1, min(st.Parallel, caps[st.Pool]))
			durs = append(durs, max(float64(st.Units)/float64(par)*s, st.Longest))
		}
		x.dur = durs[len(durs)-len(kept) : len(durs) : len(durs)]
		for _, d := range x.dur {
			x.chain += d
		}
		nparts += len(kept)
		waits = waits || !v.Ready(j)
	}
	if waits {
		// A job that waits for others (workflows) starts no sooner than they can finish.
		at := make(map[int]int, len(act))
		for a, j := range act {
			at[j] = a
		}
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
					if a, ok := at[d]; ok {
						t = max(t, earliest(d)+js[a].chain)
					}
				}
			}
			startAt[j] = t
			return t
		}
		for a, j := range act {
			js[a].start = earliest(j)
		}
	}
	// The horizon first: an instance that needs more than cfg.MaxSlots slots is built
	// again with a longer slot, so its parts are not worth building.
	np := len(caps)
	total := make([]int, np)
	longest := 0.0
	for a := range js {
		x := &js[a]
		longest = max(longest, x.start-start+x.chain)
		for _, st := range x.stages {
			total[st.Pool] += st.Units
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
	if T > cfg.MaxSlots {
		return nil, T, nil
	}
	var p *Problem
	var in *sched.Instance
	var demand []int // one backing array for every part's demand row
	var ids []string
	if ws != nil {
		ws.prob = Problem{Slot: s, Start: start, Model: cfg.Model, ws: ws,
			Job: reserve(ws.job, nparts), Stage: reserve(ws.stage, nparts), Tail: reserve(ws.tail, nparts)}
		p = &ws.prob
		ws.inst = sched.Instance{Name: "online-plan", HorizonSource: "file", Horizon: T, Jobs: reserve(ws.jobs, nparts),
			Resources: ws.resources[:0]}
		in = &ws.inst
		ws.demand = resize(ws.demand, nparts*np)
		demand = ws.demand
		clear(demand)
		if len(ws.ids) < nparts {
			ws.ids = partIDs(nparts)
		}
		ids = ws.ids[:nparts]
	} else {
		p = &Problem{Slot: s, Start: start, Model: cfg.Model,
			Job: make([]int, 0, nparts), Stage: make([]int, 0, nparts), Tail: make([]float64, 0, nparts)}
		in = &sched.Instance{Name: "online-plan", HorizonSource: "file", Horizon: T, Jobs: make([]sched.Job, 0, nparts)}
		demand = make([]int, nparts*np)
		ids = partIDs(nparts)
	}
	var uc *UtilityCache
	if cfg.Dispatch == DispatchPlan && cfg.Log && nparts*T <= maxCachedValues {
		uc = opt.Utilities
		uc.next(nparts, T)
	}
	var logs []slotLog
	useLogs := ws != nil && uc == nil && cfg.Log
	if useLogs {
		ws.logs = resize(ws.logs, nparts)
		logs = ws.logs[:0]
	}
	// planU is uc.plan, or with logs a sigmoid's ln U in the workspace.
	planU := func(u sched.Utility, elapsed, k float64, eps float64) sched.Utility {
		if useLogs {
			if sg, ok := u.(sched.Sigmoid); ok {
				if s := shiftSigmoid(sg, elapsed, k); s.Priority > 0 {
					logs = append(logs, slotLog{u: NewLogSigmoid(s), eps: eps}) // within cap: pointers stay valid
					return &logs[len(logs)-1]
				}
			}
		}
		return uc.plan(u, elapsed, k, cfg.Log, eps)
	}
	addPart := func(j, stage, pool, units, release, maxPar, taskSlots int, tail float64, u sched.Utility) {
		i := len(in.Jobs)
		d := demand[i*np : (i+1)*np : (i+1)*np]
		d[pool] = units
		in.Jobs = append(in.Jobs, sched.Job{ID: ids[i], Demand: d, Release: min(release, T),
			MaxParallel: maxPar, TaskSlots: max(1, taskSlots), Utility: u})
		p.Job = append(p.Job, j)
		p.Stage = append(p.Stage, stage)
		p.Tail = append(p.Tail, tail)
	}
	for a, j := range act {
		info, x := v.Job(j), &js[a]
		t0 := x.start
		release := func(offset float64) int {
			if opt.NoReleases {
				return 1
			}
			return 1 + int(math.Floor((offset-start)/s+1e-9))
		}
		if cfg.Model == Pooled {
			// The papers' model: each pool's work one divisible demand from slot 1.
			u := planU(info.Utility, (start-info.Arrival)/tu, s/tu, 0)
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
			// Stages of one job tie wherever a stage's completion plus its tail meets
			// the next one's; a tie no peeling can break stalls onion peeling (every
			// tied part can rise alone, not all together). The earlier stage ranks
			// above by 1e-9 per later stage.
			u := planU(info.Utility, (start+tail-info.Arrival)/tu, s/tu, 1e-9*float64(len(x.stages)-1-k))
			maxPar := 0
			if cfg.Caps && st.Parallel < caps[st.Pool] {
				maxPar = max(1, st.Parallel)
			}
			addPart(j, st.Index, st.Pool, st.Units, release(offset), maxPar, st.TaskSlots, tail, u)
			offset += x.dur[k]
		}
	}
	if ws != nil {
		ws.capRows = resize(ws.capRows, len(v.Pools()))
	}
	for pool, pl := range v.Pools() {
		var c []int
		if ws != nil {
			ws.capRows[pool] = resize(ws.capRows[pool], T)
			c = ws.capRows[pool]
		} else {
			c = make([]int, T)
		}
		for t := range c {
			c[t] = caps[pool]
		}
		if !opt.WholeFirstSlot {
			c[0] = int(math.Floor(float64(caps[pool])*frac + 1e-9))
		}
		in.Resources = append(in.Resources, sched.Resource{Name: pl.Name, Capacity: c})
	}
	p.Instance = in
	if ws != nil {
		// Keep the grown arrays for the next Build.
		ws.job, ws.stage, ws.tail, ws.jobs, ws.resources = p.Job, p.Stage, p.Tail, in.Jobs, in.Resources
	}
	return p, T, nil
}

// resize is s with length n, its array reused when it has room; the caller writes every
// element.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// reserve is s emptied, with room for n.
func reserve[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:0]
	}
	return make([]T, 0, n)
}

// partIDs are the IDs "0" … "n−1" of n parts, cut from one string.
func partIDs(n int) []string {
	buf := make([]byte, 0, n*(len(strconv.Itoa(max(n-1, 0)))+1))
	ends := make([]int, n)
	for i := range n {
		buf = strconv.AppendInt(buf, int64(i), 10)
		ends[i] = len(buf)
	}
	all := string(buf)
	ids := make([]string, n)
	for i, e := range ends {
		b := 0
		if i > 0 {
			b = ends[i-1]
		}
		ids[i] = all[b:e]
	}
	return ids
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
