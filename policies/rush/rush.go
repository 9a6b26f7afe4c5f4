package rush

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/formulations/rs"
	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/plan"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
)

// Defaults of Config.
const (
	DefaultTheta      = 0.9
	DefaultDelta      = 0.7
	DefaultBins       = 256
	DefaultMinSamples = 10
	// PriorMean and PriorStd (seconds) are the last-resort prior, rush.txt §V-A's task.
	PriorMean, PriorStd = 60, 20
)

// Config are RUSH's parameters.
type Config struct {
	// Config shapes the plan (slot, slot limit, onion branch budget, model, dispatch)
	// as in policies/plan.
	plan.Config
	// Theta is the quantile θ, Delta the KL budget δ (rush.txt §II); 0: the defaults.
	Theta, Delta float64
	// Bins quantizes each reference (0: DefaultBins).
	Bins int
	// Estimator is "gaussian" (default) or "impulse" (rush.txt §IV's two classes).
	Estimator string
	// MinSamples is how many finished tasks of a stage the estimator needs before it
	// uses their statistics instead of the prior (0: DefaultMinSamples).
	MinSamples int
}

func (c Config) withDefaults() Config {
	if !(c.Theta > 0) {
		c.Theta = DefaultTheta
	}
	if !(c.Delta >= 0) || c.Delta == 0 {
		c.Delta = DefaultDelta
	}
	if c.Bins <= 0 {
		c.Bins = DefaultBins
	}
	if c.Estimator == "" {
		c.Estimator = rs.EstimatorGaussian
	}
	if c.MinSamples <= 0 {
		c.MinSamples = DefaultMinSamples
	}
	c.Config = c.Config.WithDefaults()
	return c
}

// Policy is RUSH.
type Policy struct {
	ca      policies.ContainerAssignment
	disp    plan.Dispatcher
	name    string
	method  string
	lastErr error // of the latest fallback
	err     error // a workload this policy cannot plan (policies.Refuser)
	cfg     Config
	reg     *solve.Registry
	// cache holds each job's latest estimates, a few slot lengths deep: when the plan
	// lengthens the slot to fit MaxSlots, every instant tries the default slot first and
	// then the longer one, and a single entry per job would be recomputed twice per event.
	cache [][]*estimate // by job index, newest last (a slice: looked up per job and instant)
	// history of finished task runtimes per pool (the prior of stages without a
	// declared distribution), kept in Observe because View.Finished is released when a
	// job completes.
	histN          []int
	histSum, histQ []float64
	counts         map[string]int
	replan         plan.ReplanGate
	stats          []*finishedStats // by job index
	promise        map[int]float64
	slot           float64
	utils          plan.UtilityCache
	// bufs and ws keep the plan's and the solve's arrays from one decision instant to
	// the next (each plan is read before the next one is built).
	bufs plan.Workspace
	ws   solve.Workspace
	// mapWS keeps the time-slot mapping's arrays (rush-paper's hand-over).
	mapWS tas.Workspace
	// stages holds the stages estimate returns during one plan, emptied before the
	// next: Build reads them before it returns.
	stages []plan.Stage
	// quant is the references' quantization with its z computed once (quantSet): the
	// same for every job and instant.
	quant    rs.Quantization
	quantSet bool
}

// finishedStats is Welford's running (n, mean, M2) of a job's finished task runtimes per
// stage, fed the new entries of View.Finished (which only grows while the job runs) in
// the same order a full pass would take them, so the figures are bit for bit a full
// pass's — without rescanning ~1,000 records per job at every decision instant.
type finishedStats struct {
	seen     int
	n        []int
	mean, m2 []float64
}

type estimateKey struct {
	stage, pending, pendingHere, finished int
	slot                                  float64
	pooled                                bool
}

// maxCachedSlots is how many slot lengths' estimates a job keeps.
const maxCachedSlots = 4

type estimate struct {
	key estimateKey
	// pending is η of the pending tasks, container-slots (WCDE): per pool with pooled,
	// else per remaining stage (index k for stage first+k).
	pending []float64
}

// New returns `rush`: TAS by exact onion peeling.
func New(cfg Config) *Policy {
	cfg.Log = true
	return newPolicy("rush", "onion", cfg)
}

// NewPaper returns `rush-paper`: RUSH planned and carried out as rush.txt §IV does —
// WCDE per pool (plan.Pooled), the mapping's first slot as target containers
// (plan.DispatchTargets), no caps.
func NewPaper(cfg Config) *Policy {
	cfg.Log = true
	cfg.Model, cfg.Dispatch, cfg.Caps = plan.Pooled, plan.DispatchTargets, false
	return newPolicy("rush-paper", "onion", cfg)
}

// NewAlg3 returns `rush-alg3`: TAS by Alg. 3 as printed, which has neither release
// times nor parallelism caps: its parts all start in slot 1 (stage order lives in the
// tails, plan.Options.NoReleases) and Caps is ignored.
func NewAlg3(cfg Config) *Policy {
	cfg.Caps = false
	return newPolicy("rush-alg3", "alg3", cfg)
}

func newPolicy(name, method string, cfg Config) *Policy {
	return &Policy{ca: policies.ContainerAssignment{Conserving: true}, name: name, method: method,
		cfg: cfg.withDefaults(), reg: solve.Default(),
		counts: map[string]int{"plans": 0, "fallbacks": 0}, promise: map[int]float64{}}
}

// Pick carries the latest plan out (Config.Dispatch).
func (p *Policy) Pick(v policies.View, s policies.Slot) (int, bool) {
	if p.cfg.Dispatch == plan.DispatchTargets {
		return p.ca.Pick(v, s)
	}
	return p.disp.Pick(v, s)
}

// PlanSlot is the slot length of the latest plan (Config.Slot, or longer where the
// horizon had to fit Config.MaxSlots); 0 before any plan.
func (p *Policy) PlanSlot() float64 { return p.slot }

// Promise is the latest plan's promise for job j in seconds (false before any plan
// covered j).
func (p *Policy) Promise(j int) (float64, bool) {
	c, ok := p.promise[j]
	return c, ok
}

func (p *Policy) Name() string { return p.name }

// Fallbacks counts decision instants whose plan failed (previous targets kept).
func (p *Policy) Fallbacks() int { return p.counts["fallbacks"] }

// Counts reports plans, fallbacks, (rush-alg3) the instants at which Alg. 3's targets
// were infeasible — whether it matched the exact lexmax is measured by verify's alg3
// cross-check, not here — and with Config.Interval the instants skipped.
func (p *Policy) Counts() map[string]int {
	if p.cfg.Interval > 0 {
		p.counts["skipped"] = p.replan.Skipped()
	}
	return p.counts
}

// Observe keeps each pool's finished task runtimes (the prior's history) and drops the
// cache of finished jobs.
func (p *Policy) Observe(v policies.View, e policies.Event) {
	p.replan.Observe(e)
	switch e.Kind {
	case policies.EventTaskFinish:
		for len(p.histN) < len(v.Pools()) {
			p.histN, p.histSum, p.histQ = append(p.histN, 0), append(p.histSum, 0), append(p.histQ, 0)
		}
		for _, r := range v.Finished(e.Job) {
			if r.Stage == e.Stage && r.Task == e.Task {
				x := r.Elapsed()
				p.histN[e.Pool]++
				p.histSum[e.Pool] += x
				p.histQ[e.Pool] += x * x
				break
			}
		}
	case policies.EventJobFinish, policies.EventReject:
		if e.Job < len(p.cache) {
			p.cache[e.Job] = nil
		}
		if e.Job < len(p.stats) {
			p.stats[e.Job] = nil
		}
	}
}

func (p *Policy) StartRound(ctx context.Context, v policies.View) {
	if len(v.Active()) == 0 {
		return
	}
	if p.method == "alg3" && len(v.Pools()) > 1 {
		// Alg. 3 as printed schedules one resource (C containers); the staged model puts
		// each pool's stages on its own resource, and splitting them per pool would be a
		// planner the paper did not print.
		if p.err == nil {
			p.err = fmt.Errorf("Alg. 3 (rush.txt §III-B) plans one resource, and this workload has %d pools; rush plans several", len(v.Pools()))
		}
		return
	}
	if !p.replan.Due(v.Now(), p.cfg.Interval) {
		return
	}
	p.counts["plans"]++
	if err := p.plan(ctx, v); err != nil {
		p.counts["fallbacks"]++
		p.lastErr = err
	}
}

// LastError is the error of the latest fallback (nil if none).
func (p *Policy) LastError() error { return p.lastErr }

// Err implements policies.Refuser: rush-alg3 on a workload of several pools.
func (p *Policy) Err() error { return p.err }

// stageStats is (μ, σ) of a task of j's stage s: learned or the prior.
func (p *Policy) stageStats(v policies.View, j, s int) (float64, float64) {
	if j >= len(p.stats) {
		p.stats = append(p.stats, make([]*finishedStats, max(j+1, v.NumJobs())-len(p.stats))...)
	}
	fs := p.stats[j]
	if fs == nil {
		k := len(v.Job(j).Stages)
		fs = &finishedStats{n: make([]int, k), mean: make([]float64, k), m2: make([]float64, k)}
		p.stats[j] = fs
	}
	fin := v.Finished(j)
	for _, r := range fin[min(fs.seen, len(fin)):] {
		st := r.Stage
		fs.n[st]++
		x := r.Elapsed()
		d := x - fs.mean[st]
		fs.mean[st] += d / float64(fs.n[st])
		fs.m2[st] += d * (x - fs.mean[st])
	}
	fs.seen = len(fin)
	n, mean, m2 := fs.n[s], fs.mean[s], fs.m2[s]
	if n >= p.cfg.MinSamples && n >= 2 {
		return mean, math.Sqrt(max(m2, 0) / float64(n-1))
	}
	st := &v.Job(j).Stages[s]
	if rt := st.Runtime; rt != nil {
		m := rt.MeanValue()
		switch rt.Type {
		case "gaussian":
			return m, rt.Std
		case "fixed":
			return m, 0
		}
		return m, m / 3
	}
	if pool := st.Pool; pool < len(p.histN) && p.histN[pool] >= 2 {
		k := float64(p.histN[pool])
		m := p.histSum[pool] / k
		return m, math.Sqrt(max(0, (p.histQ[pool]-k*m*m)/(k-1)))
	}
	return PriorMean, PriorStd
}

// estimate is RUSH's plan.Estimator: per remaining stage (or with pooled per pool,
// the papers' model), WCDE's η of the pending tasks plus the running tasks' expected
// remainders, in container-slots of s seconds.
func (p *Policy) estimate(v policies.View, j int, s float64, pooled bool) ([]plan.Stage, error) {
	info := v.Job(j)
	first := v.Stage(j)
	if first >= len(info.Stages) {
		return nil, nil
	}
	key := estimateKey{stage: first, pendingHere: v.Pending(j, first), finished: len(v.Finished(j)), slot: s, pooled: pooled}
	for st := first; st < len(info.Stages); st++ {
		key.pending += v.Pending(j, st)
	}
	n := len(info.Stages) - first
	mu := make([]float64, n)
	sd := make([]float64, n)
	for k := range n {
		mu[k], sd[k] = p.stageStats(v, j, first+k)
	}
	np := len(v.Pools())
	// group[k] is the reference stage k feeds: its pool with pooled, else itself.
	group := make([]int, n)
	groups := n
	if pooled {
		groups = np
	}
	for k := range n {
		group[k] = k
		if pooled {
			group[k] = info.Stages[first+k].Pool
		}
	}
	var e *estimate
	if j >= len(p.cache) {
		p.cache = append(p.cache, make([][]*estimate, max(j+1, v.NumJobs())-len(p.cache))...)
	}
	for _, c := range p.cache[j] {
		if c.key == key {
			e = c
		}
	}
	if e == nil {
		e = &estimate{key: key, pending: make([]float64, groups)}
		mean, variance := make([]float64, groups), make([]float64, groups)
		for k := range n {
			m := float64(v.Pending(j, first+k))
			mean[group[k]] += m * mu[k] / s
			variance[group[k]] += m * (sd[k] / s) * (sd[k] / s)
		}
		if !p.quantSet {
			// On an error q stays unprepared, and Gaussian reports it per job as before.
			p.quant, _ = rs.Quantization{Bins: p.cfg.Bins, Theta: p.cfg.Theta, MaxDelta: p.cfg.Delta}.Prepared()
			p.quantSet = true
		}
		q := p.quant
		for g := range groups {
			if mean[g] <= 0 {
				continue
			}
			var ref *rs.Reference
			var err error
			if p.cfg.Estimator == rs.EstimatorImpulse {
				ref, err = rs.Impulse(mean[g], q)
			} else {
				ref, err = rs.Gaussian(mean[g], math.Sqrt(variance[g]), q)
			}
			if err != nil {
				return nil, fmt.Errorf("rush: job %s: reference: %w", info.ID, err)
			}
			est, err := rs.WorstCaseDemand(ref.PMF, p.cfg.Theta, p.cfg.Delta)
			if err != nil {
				return nil, fmt.Errorf("rush: job %s: WCDE: %w", info.ID, err)
			}
			e.pending[g] = float64(est.Eta)
		}
		old := p.cache[j]
		if len(old) >= maxCachedSlots {
			old = old[1:]
		}
		p.cache[j] = append(old, e)
	}
	running := make([]float64, groups)
	out := p.newStages(n)
	now := v.Now()
	for k := range n {
		st := first + k
		out[k] = plan.Stage{Index: st, Pool: info.Stages[st].Pool, Parallel: v.Pending(j, st) + v.Running(j, st),
			TaskSlots: max(1, int(math.Round(mu[k]/s)))}
		if v.Pending(j, st) > 0 {
			out[k].Longest = mu[k]
		}
	}
	for _, r := range v.RunningTasks(j) {
		k := r.Stage - first
		rem := max(0, mu[k]-(now-r.Start))
		running[group[k]] += rem / s
		out[k].Longest = max(out[k].Longest, rem)
	}
	if !pooled {
		for k := range out {
			out[k].Units = int(e.pending[k] + math.Ceil(running[k]-1e-9))
		}
		return out, nil
	}
	// The papers' per-pool demand: one Stage per pool, at its first stage, whose R is
	// that stage's (the current stage's R wins).
	var pools []plan.Stage
	for k := range out {
		pool := out[k].Pool
		i := 0
		for i < len(pools) && pools[i].Pool != pool {
			i++
		}
		if i == len(pools) {
			pools = append(pools, plan.Stage{Index: out[k].Index, Pool: pool, TaskSlots: out[k].TaskSlots,
				Units: int(e.pending[pool] + math.Ceil(running[pool]-1e-9))})
		}
		pools[i].Parallel += out[k].Parallel
		pools[i].Longest = max(pools[i].Longest, out[k].Longest)
	}
	return pools, nil
}

// newStages is n zeroed stages from p.stages (a new array when it is full; the slices
// handed out before keep theirs).
func (p *Policy) newStages(n int) []plan.Stage {
	if len(p.stages)+n > cap(p.stages) {
		p.stages = make([]plan.Stage, 0, max(2*cap(p.stages), n, 64))
	}
	k := len(p.stages)
	p.stages = p.stages[:k+n]
	out := p.stages[k : k+n : k+n]
	clear(out)
	return out
}

func (p *Policy) plan(ctx context.Context, v policies.View) error {
	p.stages = p.stages[:0]
	prob, err := plan.Build(v, p.estimate, p.cfg.Config, plan.Options{NoReleases: p.method == "alg3", WholeFirstSlot: p.method == "alg3", Utilities: &p.utils, Workspace: &p.bufs})
	if err != nil {
		return fmt.Errorf("rush: %s at t=%g: %w", p.name, v.Now(), err)
	}
	res, err := p.reg.Solve(ctx, solve.Request{Formulation: "tas", Method: p.method, Instance: prob.Instance, Budget: p.cfg.Budget,
		// Promises read the levels alone; the papers' hand-over maps the schedule.
		LevelsOnly: p.cfg.Dispatch == plan.DispatchPlan, Workspace: &p.ws})
	var inf *solve.Alg3InfeasibleError
	var pr *plan.Promises
	switch {
	case errors.As(err, &inf):
		// RUSH as printed acts on Alg. 3's targets even when no schedule meets them.
		p.counts["alg3_infeasible"]++
		pr = prob.PromiseSlots(inf.Result.Deadlines)
		if p.cfg.Dispatch == plan.DispatchTargets {
			firstSlotEDF(prob, inf.Result.Deadlines, func(pool int) []float64 { return p.ca.Targets(v, pool) })
		}
	case err != nil:
		return fmt.Errorf("rush: %s at t=%g: %w", p.name, v.Now(), err)
	default:
		if pr, err = prob.Promise(res); err != nil {
			return fmt.Errorf("rush: %s at t=%g: %w", p.name, v.Now(), err)
		}
		if p.cfg.Dispatch == plan.DispatchTargets {
			if err := p.mapTargets(v, prob, res.Schedule); err != nil {
				return fmt.Errorf("rush: mapping at t=%g: %w", v.Now(), err)
			}
		}
	}
	for j, c := range pr.Job {
		p.promise[j] = c
	}
	p.slot = prob.Slot
	if p.cfg.Dispatch == plan.DispatchPlan {
		p.disp.Set(v, prob, pr)
	}
	return nil
}

// mapTargets is rush.txt §IV's hand-over: the continuous time-slot mapping (Alg. 4,
// exact-volume rounding) of each pool's schedule, and as each job's target the
// containers its tasks hold in slot 1.
func (p *Policy) mapTargets(v policies.View, prob *plan.Problem, s *sched.Schedule) error {
	for pool := range v.Pools() {
		targets := p.ca.Targets(v, pool)
		any := false
		for i, j := range prob.Job {
			if prob.Instance.Jobs[i].Demand[pool] > 0 {
				targets[j] = 0
				any = true
			}
		}
		if !any {
			continue
		}
		m, err := tas.MapToQueues(prob.Instance, s, tas.MappingOptions{Resource: pool, Rounding: tas.ExactVolume, Workspace: &p.mapWS})
		if err != nil {
			return err
		}
		for _, q := range m.Queues {
			for _, task := range q {
				if task.Start < 1 && task.End >= 1 { // holds the container in slot 1
					targets[prob.Job[task.Job]]++
				}
				if task.Start >= 1 {
					break // a queue's tasks are in time order
				}
			}
		}
	}
	return nil
}

// firstSlotEDF fills slot 1 of each pool earliest-deadline-first (ties by part),
// each part up to its demand: the first slot of EDF on the given deadlines, met or
// not, added up per job.
func firstSlotEDF(prob *plan.Problem, deadlines []int, targets func(pool int) []float64) {
	in := prob.Instance
	order := make([]int, len(in.Jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return deadlines[a] - deadlines[b] })
	for r := range in.Resources {
		t := targets(r)
		for i, j := range prob.Job {
			if in.Jobs[i].Demand[r] > 0 {
				t[j] = 0
			}
		}
		c := in.Resources[r].Capacity[0]
		for _, i := range order {
			x := min(c, in.Jobs[i].Demand[r])
			t[prob.Job[i]] += float64(x)
			c -= x
		}
	}
}
