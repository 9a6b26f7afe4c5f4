package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"time"

	"github.com/coraopt/coraopt/internal/workpool"
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/policies/external"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// ReplicateRequest is one workload under several policies and consecutive seeds, with
// one offline bound per seed: the grid `coraopt simulate` runs.
type ReplicateRequest struct {
	Workload *workload.Workload
	// Policies run once per seed each, in this order; their names label the results,
	// so no two may share one.
	Policies []PolicySpec
	// Dir is where external policies' programs run; empty is ours.
	Dir string
	// Seed is the first seed of the true task runtimes; Replications seeds run:
	// Seed, Seed+1, …, Seed+Replications−1.
	Seed         uint64
	Replications int
	// Check records every task and verifies the simulator's invariants on each run.
	Check bool
	// Bound computes each seed's offline bound (sim.BoundWith) in slots of Slot
	// seconds, with a horizon reaching past the slowest of that seed's runs, and scores
	// every run of the seed against it; BoundTimeLimit (0: none) stops each bound
	// after that long.
	Bound          bool
	Slot           float64
	BoundTimeLimit time.Duration
	// Workers run the runs, then the bounds, in parallel (0: GOMAXPROCS).
	Workers int
	// Stderr receives external policies' standard error, each line prefixed with the
	// policy's name; nil discards it.
	Stderr io.Writer
	// Progress, if set, is called once per finished run and once per finished bound,
	// from one goroutine at a time.
	Progress func()
	// BoundProgress, if set, is called as a bound settles jobs (sim.BoundOptions'
	// Progress, with the seed), from one goroutine at a time.
	BoundProgress func(seed uint64, settled, jobs, branches int)
}

// Replicated is what Replicate ran.
type Replicated struct {
	// Seeds holds, in seed order, every seed with a finished run or a bound; only an
	// interrupted grid leaves a seed out or a policy out of a seed.
	Seeds []SeedRuns
	// Summary aggregates each policy over the seeds (PolicySummary), in the request's
	// policy order.
	Summary []PolicySummary
	// Interrupted says the grid did not finish: ctx ended, or an external policy failed.
	Interrupted bool
}

// SeedRuns are one seed's runs and bound.
type SeedRuns struct {
	Seed uint64
	// Policies are the finished runs in the request's policy order, each scored
	// against Bound when there is one (sim.Metrics.VsBound).
	Policies []*sim.Metrics
	Bound    *sim.BoundResult
	// BoundErr says why a requested bound is missing while the runs stand: a
	// *sim.SlotTooShortError (refused: too many slots), a *BoundStoppedError (stopped
	// at BoundTimeLimit), or the bound's failure. Nil when the bound is there, was not
	// requested, or was interrupted.
	BoundErr error
}

// PolicySummary is one policy's results over the seeds it finished: the one statistic
// of coraopt's outputs (Stat: mean, median, interval and standard deviation).
type PolicySummary struct {
	Name  string
	Seeds int
	// MinUtility … MeanResponse summarize the sim.Metrics fields of those names
	// (DeadlinesMet as a count, MissPenalty is DeadlineMissPenalty).
	MinUtility, SumUtility, DeadlinesMet, MissPenalty, MeanResponse Stat
	// MinGap summarizes the runs whose lexmax bound is proven, SumGap every run with
	// a bound; nil when there are none.
	MinGap, SumGap *Stat
}

// BoundStoppedError is a bound stopped at ReplicateRequest.BoundTimeLimit: how far it
// got.
type BoundStoppedError struct {
	Limit                   time.Duration
	Settled, Jobs, Branches int
}

func (e *BoundStoppedError) Error() string {
	return fmt.Sprintf("bound stopped at its time limit of %v with %d of %d jobs settled after %d stall branches", e.Limit, e.Settled, e.Jobs, e.Branches)
}

// RunError is a run of the grid that failed: which policy under which seed, and why
// (a *sim.UnsupportedError when the policy cannot model the workload, a
// *sim.InvariantError when the run broke the simulator's invariants, an
// *external.Error when an external policy's program broke the protocol, else a run
// that cannot finish).
type RunError struct {
	Policy string
	Seed   uint64
	Err    error
}

func (e *RunError) Error() string {
	return fmt.Sprintf("policy %s, seed %d: %v", e.Policy, e.Seed, e.Err)
}

func (e *RunError) Unwrap() error { return e.Err }

// check refuses a request Replicate cannot run.
func (req *ReplicateRequest) check() error {
	names := make([]string, len(req.Policies))
	for i, p := range req.Policies {
		names[i] = p.Name
	}
	if j, i := all.Repeated(names); i >= 0 {
		return fmt.Errorf("sweep: replicate: policies %d and %d are both named %s: the results could not tell them apart", j, i, names[i])
	}
	switch {
	case req.Workload == nil:
		return errors.New("sweep: replicate: no workload")
	case len(req.Policies) == 0:
		return errors.New("sweep: replicate: no policies")
	case req.Replications < 1:
		return fmt.Errorf("sweep: replicate: %d replications: need at least 1", req.Replications)
	case req.Seed > math.MaxUint64-uint64(req.Replications-1):
		return fmt.Errorf("sweep: replicate: seed %d with %d replications passes the largest seed", req.Seed, req.Replications)
	case req.Bound && (!(req.Slot > 0) || math.IsInf(req.Slot, 0)):
		return fmt.Errorf("sweep: replicate: slot %g: need a finite length > 0 seconds", req.Slot)
	}
	return nil
}

// Replicate runs every (seed, policy) pair on the pool sweep cells run on
// (internal/workpool), then the bound of each seed, and returns them in seed and policy
// order, so the result does not depend on the number of workers.
//
// When ctx ends, Replicate returns the runs and bounds that finished, Interrupted set,
// and a nil error. When an external policy fails (its *RunError wraps an
// *external.Error), the runs in flight stop as for an interrupt and Replicate returns
// what finished, Interrupted set, with that *RunError. Any other failure of a run is
// a *RunError (a panic a *workpool.PanicError) with no result. A bound that cannot be
// had leaves the seed's runs without gaps and says why in SeedRuns.BoundErr.
func Replicate(ctx context.Context, req ReplicateRequest) (*Replicated, error) {
	if err := req.check(); err != nil {
		return nil, err
	}
	stderr := &external.SyncWriter{W: req.Stderr}
	if req.Stderr == nil {
		stderr.W = io.Discard
	}
	R, P := req.Replications, len(req.Policies)
	metrics := make([][]*sim.Metrics, R)
	for r := range R {
		metrics[r] = make([]*sim.Metrics, P)
	}
	opt := workpool.Options{Workers: req.Workers, Progress: req.Progress}
	// Each task keeps its own result, so an interrupted run still returns every run that
	// finished, not only the finished prefix workpool.Run emits.
	keep := func(int, struct{}) error { return nil }
	err := workpool.Run(ctx, R*P, opt, func(ctx context.Context, k int) (struct{}, error) {
		r, p := k/P, k%P
		seed := req.Seed + uint64(r)
		var m *sim.Metrics
		err := req.Policies[p].With(ctx, req.Workload, req.Dir, stderr, func(pol policies.Policy) error {
			var err error
			m, err = sim.Measure(ctx, req.Workload, pol, seed, req.Check)
			return err
		})
		if ctx.Err() != nil {
			return struct{}{}, ctx.Err()
		}
		if err != nil {
			return struct{}{}, &RunError{Policy: req.Policies[p].Name, Seed: seed, Err: err}
		}
		metrics[r][p] = m
		return struct{}{}, nil
	}, keep)
	bounds := make([]*sim.BoundResult, R)
	boundErrs := make([]error, R)
	if req.Bound && err == nil {
		var mu sync.Mutex // the progress callbacks of concurrent bounds
		err = workpool.Run(ctx, R, opt, func(ctx context.Context, r int) (struct{}, error) {
			b, err := req.bound(ctx, &mu, req.Seed+uint64(r), metrics[r])
			switch {
			case err == nil:
				bounds[r] = b
			case ctx.Err() != nil:
				return struct{}{}, ctx.Err() // an interrupt: the grid is reported interrupted
			default:
				boundErrs[r] = err
			}
			return struct{}{}, nil
		}, keep)
	}
	var ext *external.Error
	extFailed := err != nil && errors.As(err, &ext)
	if err != nil && !extFailed && !errors.Is(err, ctx.Err()) {
		return nil, err // a failure before any interrupt; an interrupt returns what finished
	}
	out := &Replicated{Interrupted: ctx.Err() != nil || extFailed}
	for r := range R {
		sr := SeedRuns{Seed: req.Seed + uint64(r), Bound: bounds[r], BoundErr: boundErrs[r]}
		for _, m := range metrics[r] {
			if m == nil {
				continue // interrupted before it finished
			}
			if b := bounds[r]; b != nil {
				m.CompareToBound(b, 1e-12)
			}
			sr.Policies = append(sr.Policies, m)
		}
		if len(sr.Policies) == 0 && sr.Bound == nil {
			continue
		}
		out.Seeds = append(out.Seeds, sr)
	}
	out.Summary = summarize(req.Policies, out.Seeds)
	if extFailed {
		return out, err
	}
	return out, nil
}

// bound is the offline bound of seed's trace with a horizon past the slowest of its
// runs, stopped at BoundTimeLimit. mu serializes the progress callbacks of the bounds
// running at once.
func (req *ReplicateRequest) bound(ctx context.Context, mu *sync.Mutex, seed uint64, runs []*sim.Metrics) (*sim.BoundResult, error) {
	until := 0.0
	for _, m := range runs {
		until = max(until, m.Makespan)
	}
	bctx, cancel := ctx, context.CancelFunc(func() {})
	if req.BoundTimeLimit > 0 {
		bctx, cancel = context.WithTimeout(ctx, req.BoundTimeLimit)
	}
	defer cancel()
	var opts sim.BoundOptions
	settled, jobs, branches := 0, 0, 0
	opts.Progress = func(f, n, br int) {
		mu.Lock()
		defer mu.Unlock()
		settled, jobs, branches = f, n, br
		if req.BoundProgress != nil {
			req.BoundProgress(seed, f, n, br)
		}
	}
	b, err := sim.BoundWith(bctx, req.Workload, seed, req.Slot, until, opts)
	var short *sim.SlotTooShortError
	switch {
	case err == nil, ctx.Err() != nil, errors.As(err, &short):
		return b, err
	case errors.Is(err, context.DeadlineExceeded):
		mu.Lock()
		defer mu.Unlock()
		return nil, &BoundStoppedError{Limit: req.BoundTimeLimit, Settled: settled, Jobs: jobs, Branches: branches}
	}
	return nil, err
}

// summarize aggregates the runs of every seed per policy, in the request's order.
func summarize(specs []PolicySpec, seeds []SeedRuns) []PolicySummary {
	var sums []PolicySummary
	for _, ps := range specs {
		var minU, sumU, met, pen, resp, minG, sumG []float64
		for _, sr := range seeds {
			for _, m := range sr.Policies {
				if m.Name != ps.Name {
					continue
				}
				minU, sumU = append(minU, m.MinUtility), append(sumU, m.SumUtility)
				met, pen = append(met, float64(m.DeadlinesMet)), append(pen, m.DeadlineMissPenalty)
				resp = append(resp, m.MeanResponse)
				if m.VsBound != nil {
					sumG = append(sumG, m.VsBound.SumGap)
					if !m.VsBound.LexmaxUnproven {
						minG = append(minG, m.VsBound.MinGap)
					}
				}
			}
		}
		if len(minU) == 0 {
			continue
		}
		s := PolicySummary{Name: ps.Name, Seeds: len(minU), MinUtility: NewStat(minU), SumUtility: NewStat(sumU),
			DeadlinesMet: NewStat(met), MissPenalty: NewStat(pen), MeanResponse: NewStat(resp)}
		if len(minG) > 0 {
			a := NewStat(minG)
			s.MinGap = &a
		}
		if len(sumG) > 0 {
			b := NewStat(sumG)
			s.SumGap = &b
		}
		sums = append(sums, s)
	}
	return sums
}
