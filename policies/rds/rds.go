// Package rds is RDS (rds.txt §3–4) as a simulator policy: a receding-horizon
// controller woken every control interval (policies.Ticker, default 10 minutes) that
// predicts the cluster's capacity, updates each job's progress model by recursive least
// squares from the progress it observed, solves the RHC problem through package solve
// (eq. 3 with the deadline-first stage, solve.RHC, the step `coraopt solve
// --formulation rds` runs) and hands the first move to Algorithm 1 through the shared
// container assignment unit (policies.ContainerAssignment). The model — the QP
// builder, the predictors, RLS, eq. 4's decay — is formulations/rds; this package maps
// the simulator's View onto it.
//
// # From tasks to the paper's progress model
//
// Work is measured in expected slot-seconds: a task of stage s counts m_s, the mean of
// the stage's declared runtime distribution (1 when the workload declares none, which
// makes the unit "tasks"). A job's work W_j = Σ_s tasks_s·m_s is fixed at arrival, and
// its progress y_j — what Hadoop's progress score reports — counts each finished task
// at m_s and each running one at the work it has done so far (its time running times
// the worker's speed, in tasks when undeclared: over policies.MeanTaskRuntime), at most
// 99% of m_s. A resource unit is one slot held for the whole interval, so the gain —
// progress per slot per interval — is about L times the workers' speed when the
// declared means are right: that is the RLS prior, and RLS (forgetting λ = 0.95) learns
// the true ratio from each interval's observation: φ = the (map, reduce) slot-seconds
// the job held in the interval over L, Δy = its progress in the interval. The gains the
// controller plans with are clamped to [prior/GainRange, prior·GainRange] when every
// stage declares its runtimes (see GainRange), and at 0 otherwise.
//
// A job's last stage is its reduce phase when it has two stages or more; every other
// stage is map. A job in its map phase with a reduce stage after it is planned in
// PhaseBoth — u^m capped by its unfinished map tasks, u^r by its reduce tasks — although
// its reduces cannot start yet: with PhaseMap the QP, which holds the phase over the
// horizon, sees a job with one map task left as able to progress by one slot per
// interval and plans its deadline as lost; PhaseBoth lets it see the reduce work it
// will be able to do (on the rds workload, seed 1, PhaseMap gave a miss penalty of
// 7.3 on the nine jobs and 161 on the 100, against 4.2 and 149). Reduce targets of a
// job still in its map phase go unused: Algorithm 1 offers slots to runnable jobs only.
// Caps are at most the pool's current capacity. Times are seconds; t_soft and t_hard
// come from the job's `rds` utility (arrival + soft·time unit, arrival + hard·time
// unit), else t_soft = policies.TargetTime and t_hard = t_soft; a job with no target at
// all is given t_soft = now + 10·H_p·L at each tick (it should progress, but is never
// urgent).
//
// # Capacity
//
// eq. 3 has one capacity row, Σ_j (u^m_j + u^r_j) ≤ r_a: r_a is the total of every
// pool's capacity in slots (the paper's r_slot fixed: its scale-out scenario). On a
// cluster whose map and reduce slots are separate pools (every map-kind stage of the
// planned jobs on one pool, every reduce stage on another) the policy also sets
// State.MapCapacity and ReduceCapacity, so the plan keeps Σ u^m and Σ u^r within
// each pool's forecast — our addition: with the single row the QP counted on map
// slots that exist only as reduce slots (on the rds workload, seed 1, the single row,
// Options.SingleCapacityRow, gave a miss penalty of 5.7 on the nine jobs and 160 on
// the 100, against 4.2 and 149).
//
// The observed history of each series (the total, each pool) is its time-average over
// each past interval (View.CapacityHistory); Options.History (capacity seen before
// time 0) precedes the total's. The AR(3) predictor (formulations/rds.ARPredictor)
// forecasts from it; with no history yet the current capacity is repeated. Fitted on a
// few points the AR model can extrapolate wildly (on the rds workload it forecast 8,
// 1776 and 0 slots after four observations of 44–48), so forecasts are clipped to [the
// smallest value observed, the slots the pools have]. The "rds-ideal" variant is
// TraceAware and forecasts the true average capacity of each future interval from the
// trace. The green-power predictor (§4.2) needs weather forecasts, which a workload
// file does not carry; it is not offered here.
//
// # Dispatch and the fast path
//
// The first move u_j(t) becomes per-pool targets: u^m on the pool of the job's current
// stage, u^r on the pool of its reduce stage (added up when both are one pool). Targets are rounded to a millionth of a
// slot so that solver noise does not break ties that the QP meant as ties. Algorithm 1
// gives each free slot to the runnable job with the largest target − held gap; it stops
// only when Σ u = r_a (its line 11), so it is work-conserving (Conserving true) — a job
// whose Δu ≤ 0 gets a slot only when nobody's is positive.
//
// The fast path (§4.3): a job arriving between ticks has no target until the next one.
// When its t_soft falls before the end of the next control interval it cannot wait; it
// moves to the running queue at once, with a target of every unfinished task of each
// of its stages, so Algorithm 1 gives it the slots that free up first.
//
// # Backends
//
// The control step runs through package solve (solve.RHC: the rds formulation's typed
// entry for a caller that decides every interval; BenchmarkDecision measured no
// slowdown against calling formulations/rds directly, with the same allocations). Its
// two problems have their own backends, chosen by measurement (Config.Backend and
// ShortfallBackend change them; so do the sweep parameters backend and
// shortfall_backend):
//
//   - eq. 3, the QP: the built-in QP backend, also where HiGHS is compiled in. HiGHS
//     1.10's QP solver changes what RDS does: on the rds workload (100 jobs, seeds 1
//     and 2) the miss penalty was 173.9 and 175.5 against 149.3 and 142.3, and it ends
//     the Table 1 case's decisive step with numerical_error (TestTable1HiGHS).
//   - the least-shortfall LP: the binary's default LP backend (solvers.Select): HiGHS
//     when compiled in, else the built-in simplex. On 30 runs (the rds workload at 30,
//     100 and 200 jobs, the cora and rush workloads at 50 and 100, rds and rds-ideal,
//     two seeds each) every metric was the same with either; at 100 jobs a decision
//     took 14.0 ms of CPU with HiGHS and 16.4 ms with the built-in simplex (median of
//     8 rounds of BenchmarkDecision, tagged build). An LP backend is several times
//     faster on it than a QP backend (BenchmarkDecision's shortfall-lp=qp).
//
// # Failures
//
// When the QP cannot be built or solved to optimality the previous targets stay
// (jobs that arrived since keep 0) and Fallbacks counts it; the run goes on.
package rds

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	frds "github.com/coraopt/coraopt/formulations/rds"
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/workload"
)

// DefaultInterval is the paper's control interval, 10 minutes (rds.txt §5.2).
const DefaultInterval = 600

// DefaultBackend solves eq. 3 when Config.Backend is empty: the built-in QP backend,
// whichever others the binary has (see "Backends" in the package documentation).
const DefaultBackend = "qp"

// GainRange bounds the gain the controller plans with to [prior/GainRange,
// prior·GainRange], the prior being L times the workers' mean speed. RLS on two
// inputs that are rarely excited together (map slots, then reduce slots) can drive one
// estimate to 0 or below from a single noisy interval; a plan with a zero reduce gain
// then starves the job's reduce phase for good (it never gets the slots that would
// correct the estimate). A slot always does some work: with the declared runtime means
// right to within a factor of 4, the true gain is inside the range.
const GainRange = 4

// Forecast names how the policy predicts capacity.
type Forecast int8

const (
	// AR is the AR(Params.AROrder) predictor on the observed capacity (§4.1).
	AR Forecast = iota
	// Ideal knows the future capacity trace (TraceAware).
	Ideal
)

// Config configures the policy; the zero value is the paper's RDS on the default
// backends.
type Config struct {
	Interval float64      // control interval L in seconds; 0 means DefaultInterval
	Params   *frds.Params // nil means frds.DefaultParams() (H_p = H_c = 3, the paper's P and Q, AR(3), deadlines first)
	Forecast Forecast
	// History is the total capacity (slots) observed in intervals before time 0,
	// oldest first, for the AR predictor.
	History []float64
	// Backend names the backend that solves the eq. 3 QP ("": DefaultBackend),
	// ShortfallBackend the one that solves the least-shortfall LP of the
	// deadline-first stage ("": the binary's default LP backend, solvers.Select's:
	// HiGHS when compiled in, else the built-in simplex). Package solve selects them
	// (solve.NewRHC): a backend that is not compiled in or cannot solve its problem is
	// New's error. See "Backends" in the package documentation.
	Backend, ShortfallBackend string
	// Forgetting (λ, 0 means 0.95) and PriorCovariance (0 means 100) are RLS's.
	Forgetting, PriorCovariance float64
	// NoFastPath turns the §4.3 fast path for short jobs off.
	NoFastPath bool
	// SingleCapacityRow plans with eq. 3's one capacity row only, also on a cluster
	// whose map and reduce slots are separate pools.
	SingleCapacityRow bool
	// Name overrides the policy's name ("rds", or "rds-ideal" with Forecast = Ideal).
	Name string
}

// Policy is RDS.
type Policy struct {
	*policies.ContainerAssignment
	cfg    Config
	params frds.Params
	rhc    *solve.RHC // the backends of the control step
	trace  []workload.CapacityStep

	jobs    []jobState // per workload job, set at its first tick or fast path
	history []float64  // observed r_a per past interval
	// poolHistory[k] is pool k's observed capacity per past interval.
	poolHistory [][]float64
	lastT       float64 // time of the previous tick (-1 before the first)

	fallbacks, ticks int
	lastErr          error
	state            frds.State // reused between ticks
	idx              []int      // state job → workload job
}

type jobState struct {
	seen     bool
	rls      *frds.RLS
	mean     []float64 // m_s per stage
	declared []bool    // m_s is the declared mean (else 1: the unit is one task)
	work     float64
	finished int     // finished task records already folded in
	observed bool    // lastY is set
	lastY    float64 // progress at the previous tick
	prev     frds.Alloc
}

// New returns RDS configured by cfg, or an error naming the bad setting.
func New(cfg Config) (*Policy, error) {
	p := &Policy{ContainerAssignment: &policies.ContainerAssignment{Conserving: true}, cfg: cfg, lastT: -1}
	if p.cfg.Interval == 0 {
		p.cfg.Interval = DefaultInterval
	}
	if !(p.cfg.Interval > 0) || math.IsInf(p.cfg.Interval, 0) {
		return nil, fmt.Errorf("rds: control interval must be a finite number > 0, got %g", cfg.Interval)
	}
	if cfg.Params != nil {
		p.params = *cfg.Params
	} else {
		p.params = frds.DefaultParams()
	}
	if err := p.params.Validate(); err != nil {
		return nil, fmt.Errorf("rds: %w", err)
	}
	if cfg.Forecast != AR && cfg.Forecast != Ideal {
		return nil, fmt.Errorf("rds: unknown forecast %d", cfg.Forecast)
	}
	for i, c := range cfg.History {
		if !(c >= 0) || math.IsInf(c, 0) {
			return nil, fmt.Errorf("rds: capacity history entry %d must be a finite number >= 0, got %g", i, c)
		}
	}
	var err error
	if p.rhc, err = solve.NewRHC(cmp.Or(cfg.Backend, DefaultBackend), cfg.ShortfallBackend); err != nil {
		return nil, fmt.Errorf("rds: %w", err)
	}
	if p.cfg.Forgetting == 0 {
		p.cfg.Forgetting = 0.95
	}
	if p.cfg.PriorCovariance == 0 {
		p.cfg.PriorCovariance = 100
	}
	// RLS checks λ and p0; an estimator at a zero prior tells us whether they are valid.
	if _, err := frds.NewRLS(frds.Gain{}, p.cfg.PriorCovariance, p.cfg.Forgetting); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Policy) Name() string {
	switch {
	case p.cfg.Name != "":
		return p.cfg.Name
	case p.cfg.Forecast == Ideal:
		return "rds-ideal"
	}
	return "rds"
}

// Interval implements policies.Ticker.
func (p *Policy) Interval() float64 { return p.cfg.Interval }

// UseCapacityTrace implements policies.TraceAware; only the Ideal forecast reads it.
func (p *Policy) UseCapacityTrace(trace []workload.CapacityStep) { p.trace = trace }

// Fallbacks is how many ticks kept the previous targets because the control step
// failed.
func (p *Policy) Fallbacks() int { return p.fallbacks }

// LastError is the error of the most recent fallback (nil if none).
func (p *Policy) LastError() error { return p.lastErr }

// Estimate is job j's current RLS gain estimate (progress per slot per interval, map
// and reduce); ok is false before the policy has seen the job.
func (p *Policy) Estimate(j int) (g frds.Gain, ok bool) {
	if j >= len(p.jobs) || !p.jobs[j].seen {
		return frds.Gain{}, false
	}
	return p.jobs[j].rls.Gain(), true
}

// Ticks is how many control steps ran.
func (p *Policy) Ticks() int { return p.ticks }

// isReduce says whether stage s of a job with n stages is its reduce phase (the last
// of two or more).
func isReduce(s, n int) bool { return n >= 2 && s == n-1 }

// job initialises j's model at its first sight.
func (p *Policy) job(v policies.View, j int) *jobState {
	js := &p.jobs[j]
	if js.seen {
		return js
	}
	js.seen = true
	info := v.Job(j)
	js.mean = make([]float64, len(info.Stages))
	js.declared = make([]bool, len(info.Stages))
	for s, st := range info.Stages {
		js.mean[s] = 1
		if st.Runtime != nil {
			if m := st.Runtime.MeanValue(); m > 0 && !math.IsInf(m, 0) {
				js.mean[s], js.declared[s] = m, true
			}
		}
		js.work += float64(st.Tasks) * js.mean[s]
	}
	speed := meanSpeed(v)
	g := frds.Gain{Map: p.cfg.Interval * speed, Reduce: p.cfg.Interval * speed}
	js.rls, _ = frds.NewRLS(g, p.cfg.PriorCovariance, p.cfg.Forgetting) // New checked λ and p0; g is finite
	return js
}

func meanSpeed(v policies.View) float64 {
	sum, n := 0.0, 0
	for _, w := range v.Workers() {
		sum += w.Speed
		n++
	}
	if n == 0 || !(sum > 0) {
		return 1
	}
	return sum / float64(n)
}

// capacityOver is the time-average over [a, b) of the summed capacity of the pools
// (all pools when nil), from the observed history.
func capacityOver(v policies.View, pools []int, a, b float64) float64 {
	total := 0.0
	for _, pool := range poolsOr(v, pools) {
		h := v.CapacityHistory(pool)
		for i, pt := range h {
			end := b
			if i+1 < len(h) {
				end = min(end, h[i+1].Time)
			}
			if lo := max(a, pt.Time); end > lo {
				total += float64(pt.Slots) * (end - lo)
			}
		}
	}
	return total / (b - a)
}

func poolsOr(v policies.View, pools []int) []int {
	if pools != nil {
		return pools
	}
	all := make([]int, len(v.Pools()))
	for k := range all {
		all[k] = k
	}
	return all
}

// traceCapacityOver is capacityOver from the full trace (the Ideal forecast).
func (p *Policy) traceCapacityOver(v policies.View, pools []int, a, b float64) float64 {
	all := v.Pools()
	capNow := make([]float64, len(all))
	for k, pl := range all {
		capNow[k] = float64(pl.Slots)
	}
	total, t := 0.0, a
	sum := func() float64 {
		s := 0.0
		for _, k := range poolsOr(v, pools) {
			s += capNow[k]
		}
		return s
	}
	for _, st := range p.trace {
		if st.Time > t {
			if st.Time >= b {
				break
			}
			total += sum() * (st.Time - t)
			t = st.Time
		}
		for k, pl := range all {
			if c, ok := st.Slots[pl.Name]; ok {
				capNow[k] = float64(c)
			}
		}
	}
	total += sum() * (b - t)
	return total / (b - a)
}

// forecast predicts the summed capacity of the pools (all when nil) over the
// prediction window from hist, the observed history of that sum.
func (p *Policy) forecast(v policies.View, pools []int, hist []float64) ([]float64, error) {
	h, L, now := p.params.PredictionHorizon, p.cfg.Interval, v.Now()
	if p.cfg.Forecast == Ideal {
		out := make([]float64, h)
		for i := range out {
			out[i] = p.traceCapacityOver(v, pools, now+float64(i)*L, now+float64(i+1)*L)
		}
		return out, nil
	}
	most, current := 0.0, 0.0
	for _, k := range poolsOr(v, pools) {
		most += float64(v.Pools()[k].Slots)
		current += float64(v.Capacity(k))
	}
	if len(hist) == 0 {
		hist = []float64{current}
	}
	out, err := frds.ARPredictor{Order: p.params.AROrder}.Forecast(hist, h)
	if err != nil {
		return nil, err
	}
	least := slices.Min(hist)
	for i := range out {
		out[i] = max(least, min(out[i], most))
	}
	return out, nil
}

// kindPools returns the pool of every map-kind stage and the pool of every reduce
// stage of the jobs in the plan, when each kind uses one pool and the two differ
// (map and reduce slots of a Hadoop-1 cluster); ok is false otherwise.
func (p *Policy) kindPools(v policies.View) (mapPool, reducePool int, ok bool) {
	mapPool, reducePool = -1, -1
	set := func(at *int, pool int) bool {
		if *at < 0 {
			*at = pool
		}
		return *at == pool
	}
	for _, j := range p.idx {
		st := v.Job(j).Stages
		for s := range st {
			at := &mapPool
			if isReduce(s, len(st)) {
				at = &reducePool
			}
			if !set(at, st[s].Pool) {
				return 0, 0, false
			}
		}
	}
	return mapPool, reducePool, mapPool >= 0 && reducePool >= 0 && mapPool != reducePool
}

// observe folds the interval [p.lastT, now) into j's RLS model and returns the
// allocation it held (slots, averaged over the interval).
func (p *Policy) observe(v policies.View, j int, js *jobState) (frds.Alloc, error) {
	t0, t1, L := p.lastT, v.Now(), p.cfg.Interval
	if t0 < 0 || !js.observed {
		js.observed = true
		js.finished = len(v.Finished(j))
		js.lastY = progressOf(v, j, js)
		return frds.Alloc{}, nil
	}
	n := len(v.Job(j).Stages)
	var held [2]float64
	add := func(r policies.TaskRecord, end float64) {
		if o := min(end, t1) - max(r.Start, t0); o > 0 {
			k := 0
			if isReduce(r.Stage, n) {
				k = 1
			}
			held[k] += o
		}
	}
	fin := v.Finished(j)
	for _, r := range fin[min(js.finished, len(fin)):] {
		add(r, r.Finish)
	}
	js.finished = len(fin)
	for _, r := range v.RunningTasks(j) {
		add(r, t1)
	}
	y := progressOf(v, j, js)
	dy := y - js.lastY
	js.lastY = y
	u := frds.Alloc{Map: held[0] / L, Reduce: held[1] / L}
	if _, err := js.rls.Update(u, dy); err != nil {
		return u, err
	}
	return u, nil
}

// Tick implements policies.Ticker: one control step.
func (p *Policy) Tick(ctx context.Context, v policies.View) {
	now, L := v.Now(), p.cfg.Interval
	p.ticks++
	if len(p.jobs) != v.NumJobs() {
		p.jobs = make([]jobState, v.NumJobs())
	}
	if len(p.poolHistory) != len(v.Pools()) {
		p.poolHistory = make([][]float64, len(v.Pools()))
	}
	if p.lastT >= 0 && now > p.lastT {
		p.history = append(p.history, capacityOver(v, nil, p.lastT, now))
		for k := range p.poolHistory {
			p.poolHistory[k] = append(p.poolHistory[k], capacityOver(v, []int{k}, p.lastT, now))
		}
	} else if p.lastT < 0 {
		p.history = append(p.history[:0], p.cfg.History...)
	}
	st := &p.state
	st.Time, st.Interval, st.CapacityHistory = now, L, p.history
	st.Jobs, p.idx = st.Jobs[:0], p.idx[:0]
	var firstErr error
	for _, j := range v.Active() {
		js := p.job(v, j)
		u, err := p.observe(v, j, js)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		js.prev = u
		job, ok := p.stateJob(v, j, js)
		if !ok {
			continue
		}
		st.Jobs = append(st.Jobs, job)
		p.idx = append(p.idx, j)
	}
	p.lastT = now
	if firstErr == nil {
		firstErr = p.control(ctx, v)
	}
	if firstErr != nil {
		p.fallbacks++
		p.lastErr = fmt.Errorf("rds: control step at t = %g s (kept the previous targets): %w", now, firstErr)
	}
}

// control solves the step and writes the targets; on error the old targets stay.
func (p *Policy) control(ctx context.Context, v policies.View) error {
	st := &p.state
	if len(st.Jobs) == 0 {
		return nil
	}
	forecast, err := p.forecast(v, nil, p.history)
	if err != nil {
		return err
	}
	st.MapCapacity, st.ReduceCapacity = nil, nil
	if mp, rp, ok := p.kindPools(v); ok && !p.cfg.SingleCapacityRow {
		if st.MapCapacity, err = p.forecast(v, []int{mp}, p.poolHistory[mp]); err != nil {
			return err
		}
		if st.ReduceCapacity, err = p.forecast(v, []int{rp}, p.poolHistory[rp]); err != nil {
			return err
		}
	}
	res, err := p.rhc.Step(ctx, st, forecast, p.params, solvers.Options{})
	if errors.Is(err, frds.ErrNoJobs) {
		return nil
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err() // the backends end a cancelled solve with status "other"
	}
	if err != nil {
		return err
	}
	if res.Status != solvers.Optimal {
		return fmt.Errorf("the step (eq. 3 on %s, shortfall LP on %s) ended %v", p.rhc.QP.Name, p.rhc.LP.Name, res.Status)
	}
	alloc := res.Handles.Allocation(res.Solution.X)
	for pool := range v.Pools() {
		t := p.Targets(v, pool)
		for _, j := range v.Active() {
			t[j] = 0
		}
	}
	for i, j := range p.idx {
		info := v.Job(j)
		s := v.Stage(j)
		n := len(info.Stages)
		a := alloc[i]
		if isReduce(s, n) {
			p.Targets(v, info.Stages[s].Pool)[j] += round(a.Reduce)
			continue
		}
		p.Targets(v, info.Stages[s].Pool)[j] += round(a.Map)
		if s+1 < n && isReduce(s+1, n) {
			p.Targets(v, info.Stages[s+1].Pool)[j] += round(a.Reduce)
		}
	}
	return nil
}

func round(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// progressOf is y_j: the expected work of j's finished tasks, plus for each running
// task the time it has run (at the worker's speed), at most 99% of its expected work —
// what Hadoop's progress score reports for a task in flight.
func progressOf(v policies.View, j int, js *jobState) float64 {
	y := 0.0
	for k := range js.mean {
		y += float64(v.Done(j, k)) * js.mean[k]
	}
	now, workers := v.Now(), v.Workers()
	for _, r := range v.RunningTasks(j) {
		part := (now - r.Start) * workers[r.Worker].Speed // seconds of work done
		if !js.declared[r.Stage] {
			part /= policies.MeanTaskRuntime(v, j, r.Stage) // the unit is one task
		}
		y += min(part, 0.99*js.mean[r.Stage])
	}
	return min(y, js.work)
}

// stateJob is j as the controller sees it; ok is false when it has nothing to run.
func (p *Policy) stateJob(v policies.View, j int, js *jobState) (frds.Job, bool) {
	info := v.Job(j)
	s, n := v.Stage(j), len(info.Stages)
	if s >= n {
		return frds.Job{}, false
	}
	progress := progressOf(v, j, js)
	unfinished := func(k int) float64 {
		c := float64(v.Pending(j, k) + v.Running(j, k))
		return min(c, float64(v.Capacity(info.Stages[k].Pool)))
	}
	g, prior := js.rls.Gain(), p.cfg.Interval*meanSpeed(v)
	clamp := func(x float64) float64 { return min(max(x, prior/GainRange), prior*GainRange) }
	if !slices.Contains(js.declared, true) || slices.Contains(js.declared, false) {
		// Without declared runtimes (or with a mix) the prior is a guess in tasks, not
		// a bound: only keep the gains physical.
		clamp = func(x float64) float64 { return max(x, 0) }
	}
	job := frds.Job{
		ID: info.ID, Work: js.work, Progress: min(progress, js.work),
		Gain:     frds.Gain{Map: clamp(g.Map), Reduce: clamp(g.Reduce)},
		Arrival:  info.Arrival,
		Priority: info.Priority,
		Prev:     js.prev,
	}
	// A job that needs less than one slot for one interval is planned as if it needed
	// exactly that: it completes within the interval either way, and a gain above the
	// job's work makes eq. 3's tracking curvature ω(100·g/W)² dwarf the control
	// penalty P (formulations/rds, "Conditioning"): the built-in QP backend then ends
	// with numerical_error.
	job.Gain.Map, job.Gain.Reduce = min(job.Gain.Map, js.work), min(job.Gain.Reduce, js.work)
	if job.Priority <= 0 {
		job.Priority = 1
	}
	switch {
	case isReduce(s, n):
		job.Phase, job.MaxReduce = frds.PhaseReduce, unfinished(s)
	case s+1 < n && isReduce(s+1, n):
		job.Phase, job.MaxMap, job.MaxReduce = frds.PhaseBoth, unfinished(s), unfinished(s+1)
	default:
		job.Phase, job.MaxMap = frds.PhaseMap, unfinished(s)
	}
	job.Soft, job.Hard = deadlines(v, j, p.params.PredictionHorizon, p.cfg.Interval)
	if job.Progress >= job.Work {
		// Every task's expected work is done but some still run: keep the job in the
		// plan with a sliver left, so it holds its slots rather than dropping out.
		job.Progress = job.Work * (1 - 1e-6)
	}
	return job, true
}

// deadlines are j's t_soft and t_hard in seconds (see the package documentation).
func deadlines(v policies.View, j, hp int, L float64) (soft, hard float64) {
	info := v.Job(j)
	tu := v.TimeUnit()
	if u, ok := info.Utility.(sched.RDS); ok && u.Soft > 0 {
		soft = info.Arrival + u.Soft*tu
		hard = info.Arrival + max(u.Soft, u.Hard)*tu
	} else {
		soft = policies.TargetTime(v, j)
		hard = soft
	}
	if math.IsInf(soft, 0) || math.IsNaN(soft) || soft <= info.Arrival {
		soft = max(v.Now(), info.Arrival) + 10*float64(hp)*L
		hard = soft
	}
	hard = min(max(hard, soft), info.Arrival+2*(soft-info.Arrival))
	return soft, hard
}

// Observe implements policies.Observer: the fast path for short jobs (§4.3).
func (p *Policy) Observe(v policies.View, e policies.Event) {
	if e.Kind != policies.EventArrival || p.cfg.NoFastPath || p.lastT < 0 {
		return
	}
	L := p.cfg.Interval
	next := p.lastT + L
	if e.Time >= next { // the tick at this instant plans the job
		return
	}
	soft, _ := deadlines(v, e.Job, p.params.PredictionHorizon, L)
	if soft > next+L {
		return
	}
	info := v.Job(e.Job)
	for s, st := range info.Stages {
		p.Targets(v, st.Pool)[e.Job] += float64(info.Stages[s].Tasks)
	}
}
