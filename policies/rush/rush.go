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
	"github.com/coraopt/coraopt/policies/cora"
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
	// Config shapes the slotted problem (slot, slot limit, onion branch budget) as in
	// policies/cora.
	cora.Config
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
	*policies.ContainerAssignment
	name   string
	method string
	cfg    Config
	reg    *solve.Registry
	// cache holds each job's latest estimates, a few slot lengths deep: when the plan
	// lengthens the slot to fit MaxSlots, every instant tries the default slot first and
	// then the longer one, and a single entry per job would be recomputed twice per event.
	cache map[int][]*estimate // by job, newest last
	// history of finished task runtimes per pool (the prior of stages without a
	// declared distribution), kept in Observe because View.Finished is released when a
	// job completes.
	histN          []int
	histSum, histQ []float64
	counts         map[string]int
	replan         cora.ReplanGate
	stats          map[int]*finishedStats // by job
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
}

// maxCachedSlots is how many slot lengths' estimates a job keeps.
const maxCachedSlots = 4

type estimate struct {
	key     estimateKey
	pending []float64 // η of the pending tasks per pool, container-slots (WCDE)
}

// New returns `rush`: TAS by exact onion peeling.
func New(cfg Config) *Policy {
	cfg.Log = true
	return newPolicy("rush", "onion", cfg)
}

// NewAlg3 returns `rush-alg3`: TAS by Alg. 3 as printed.
func NewAlg3(cfg Config) *Policy { return newPolicy("rush-alg3", "alg3", cfg) }

func newPolicy(name, method string, cfg Config) *Policy {
	return &Policy{ContainerAssignment: &policies.ContainerAssignment{Conserving: true}, name: name, method: method,
		cfg: cfg.withDefaults(), reg: solve.Default(), cache: map[int][]*estimate{}, stats: map[int]*finishedStats{},
		counts: map[string]int{"plans": 0, "fallbacks": 0}}
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
		delete(p.cache, e.Job)
		delete(p.stats, e.Job)
	}
}

func (p *Policy) StartRound(ctx context.Context, v policies.View) {
	if len(v.Active()) == 0 {
		return
	}
	if !p.replan.Due(v.Now(), p.cfg.Interval) {
		return
	}
	p.counts["plans"]++
	if err := p.plan(ctx, v); err != nil {
		p.counts["fallbacks"]++
	}
}

// stageStats is (μ, σ) of a task of j's stage s: learned or the prior.
func (p *Policy) stageStats(v policies.View, j, s int) (float64, float64) {
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

// demand is η of job j per pool in container-slots of s seconds, and R_j per pool.
func (p *Policy) demand(v policies.View, j int, s float64, eta []int, taskSlots []int) error {
	info := v.Job(j)
	np := len(eta)
	first := v.Stage(j)
	key := estimateKey{stage: first, pendingHere: v.Pending(j, min(first, len(info.Stages)-1)), finished: len(v.Finished(j)), slot: s}
	for st := first; st < len(info.Stages); st++ {
		key.pending += v.Pending(j, st)
	}
	mu := make([]float64, len(info.Stages))
	sd := make([]float64, len(info.Stages))
	for st := first; st < len(info.Stages); st++ {
		mu[st], sd[st] = p.stageStats(v, j, st)
	}
	var e *estimate
	for _, c := range p.cache[j] {
		if c.key == key {
			e = c
		}
	}
	if e == nil {
		e = &estimate{key: key, pending: make([]float64, np)}
		mean, variance := make([]float64, np), make([]float64, np)
		for st := first; st < len(info.Stages); st++ {
			n := float64(v.Pending(j, st))
			pool := info.Stages[st].Pool
			mean[pool] += n * mu[st] / s
			variance[pool] += n * (sd[st] / s) * (sd[st] / s)
		}
		q := rs.Quantization{Bins: p.cfg.Bins, Theta: p.cfg.Theta, MaxDelta: p.cfg.Delta}
		for pool := range np {
			if mean[pool] <= 0 {
				continue
			}
			var ref *rs.Reference
			var err error
			if p.cfg.Estimator == rs.EstimatorImpulse {
				ref, err = rs.Impulse(mean[pool], q)
			} else {
				ref, err = rs.Gaussian(mean[pool], math.Sqrt(variance[pool]), q)
			}
			if err != nil {
				return fmt.Errorf("rush: job %s: reference: %w", info.ID, err)
			}
			est, err := rs.WorstCaseDemand(ref.PMF, p.cfg.Theta, p.cfg.Delta)
			if err != nil {
				return fmt.Errorf("rush: job %s: WCDE: %w", info.ID, err)
			}
			e.pending[pool] = float64(est.Eta)
		}
		old := p.cache[j]
		if len(old) >= maxCachedSlots {
			old = old[1:]
		}
		p.cache[j] = append(old, e)
	}
	running := make([]float64, np)
	now := v.Now()
	for _, r := range v.RunningTasks(j) {
		running[info.Stages[r.Stage].Pool] += max(0, mu[r.Stage]-(now-r.Start)) / s
	}
	any := false
	for pool := range np {
		eta[pool] = int(e.pending[pool] + math.Ceil(running[pool]-1e-9))
		any = any || eta[pool] > 0
	}
	if !any {
		eta[info.Stages[min(first, len(info.Stages)-1)].Pool] = 1
	}
	for pool := range np {
		taskSlots[pool] = 1
	}
	for st := len(info.Stages) - 1; st >= first; st-- { // the current stage's R wins
		taskSlots[info.Stages[st].Pool] = max(1, int(math.Round(mu[st]/s)))
	}
	return nil
}

func (p *Policy) plan(ctx context.Context, v policies.View) error {
	act := v.Active()
	np := len(v.Pools())
	s := p.cfg.Slot
	eta := make([][]int, len(act))
	R := make([][]int, len(act))
	for k := range act {
		eta[k], R[k] = make([]int, np), make([]int, np)
	}
	for range 8 {
		for k, j := range act {
			if err := p.demand(v, j, s, eta[k], R[k]); err != nil {
				return err
			}
		}
		T := 1
		for pool := range np {
			total := 0
			for k := range act {
				total += eta[k][pool]
			}
			if c := v.Capacity(pool); total > 0 && c > 0 {
				T = max(T, (total+c-1)/c)
			}
		}
		if T <= p.cfg.MaxSlots {
			var errs []error
			for pool := range np {
				if err := p.planPool(ctx, v, act, eta, R, pool, s, T); err != nil {
					errs = append(errs, err)
				}
			}
			return errors.Join(errs...)
		}
		s *= math.Ceil(float64(T) / float64(p.cfg.MaxSlots))
	}
	return errors.New("rush: the remaining work does not fit the slot limit")
}

// planPool solves TAS on one pool and writes its next-slot targets.
func (p *Policy) planPool(ctx context.Context, v policies.View, act []int, eta, R [][]int, pool int, s float64, T int) error {
	c := v.Capacity(pool)
	var jobs []int // workload indices in the instance
	in := &sched.Instance{Name: "rush-online", Horizon: T, HorizonSource: "file"}
	now, tu := v.Now(), v.TimeUnit()
	for k, j := range act {
		if eta[k][pool] == 0 {
			continue
		}
		info := v.Job(j)
		jobs = append(jobs, j)
		in.Jobs = append(in.Jobs, sched.Job{ID: info.ID, Demand: []int{eta[k][pool]}, Release: 1, TaskSlots: R[k][pool],
			Utility: cora.PlanUtility(info.Utility, max(0, now-info.Arrival)/tu, s/tu, p.cfg.Log)})
	}
	if len(jobs) == 0 {
		return nil
	}
	if c <= 0 {
		return fmt.Errorf("rush: pool %s has no capacity", v.Pools()[pool].Name)
	}
	// The horizon of this pool alone (T is the longest over pools).
	total := 0
	for _, job := range in.Jobs {
		total += job.Demand[0]
	}
	in.Horizon = max(1, (total+c-1)/c)
	capa := make([]int, in.Horizon)
	for t := range capa {
		capa[t] = c
	}
	in.Resources = []sched.Resource{{Name: v.Pools()[pool].Name, Capacity: capa}}
	targets := p.Targets(v, pool)
	res, err := p.reg.Solve(ctx, solve.Request{Formulation: "tas", Method: p.method, Instance: in, Budget: p.cfg.Budget})
	var inf *solve.Alg3InfeasibleError
	switch {
	case errors.As(err, &inf):
		p.counts["alg3_infeasible"]++
		firstSlotEDF(in, inf.Result.Deadlines, c, func(i int, x int) { targets[jobs[i]] = float64(x) })
		return nil
	case err != nil:
		return fmt.Errorf("rush: %s at t=%g: %w", p.name, now, err)
	}
	m, err := tas.MapToQueues(in, res.Schedule, tas.MappingOptions{Rounding: tas.ExactVolume})
	if err != nil {
		return fmt.Errorf("rush: mapping at t=%g: %w", now, err)
	}
	for i := range jobs {
		targets[jobs[i]] = 0
	}
	for _, q := range m.Queues {
		for _, task := range q {
			if task.Start < 1 && task.End >= 1 { // holds the container in slot 1
				targets[jobs[task.Job]]++
			}
			if task.Start >= 1 {
				break // a queue's tasks are in time order
			}
		}
	}
	return nil
}

// firstSlotEDF fills one slot of capacity c earliest-deadline-first (ties by index), each
// job up to its demand: the first slot of EDF on the given deadlines, met or not.
func firstSlotEDF(in *sched.Instance, deadlines []int, c int, set func(i, x int)) {
	order := make([]int, len(in.Jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return deadlines[a] - deadlines[b] })
	for _, i := range order {
		x := min(c, in.Jobs[i].Demand[0])
		set(i, x)
		c -= x
	}
}
