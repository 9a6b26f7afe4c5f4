package tas

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/sched"
)

// DefaultAlg3Delta is the bisection tolerance Δ used when Alg3Options.Delta is 0. The
// paper gives no value. With utilities of order 1–10, 10⁻⁹ is far below the gaps between
// their values, so the tolerance rarely decides the answer and what is measured is the
// rest of the algorithm; Alg3Options.Delta lets a measurement vary it.
const DefaultAlg3Delta = 1e-9

// ErrAlg3Infeasible is wrapped by Alg3's error when the target completion times it
// assigns cannot all be met (its line-7 test let through a level that no schedule
// reaches). The Alg3Result is returned with it.
var ErrAlg3Infeasible = errors.New("tas: Alg. 3's target completion times cannot all be met")

// ErrAlg3Model is wrapped by Alg3's error for an instance outside the model Alg. 3 is
// written for: one resource of constant capacity C, no release times, no parallelism
// caps.
var ErrAlg3Model = errors.New("tas: outside Alg. 3's model")

// Alg3Options control Alg3.
type Alg3Options struct {
	// Delta is Alg. 3's tolerance Δ (line 5: bisect while L_i − L_f > Δ), in utility
	// units; 0 means DefaultAlg3Delta. Negative or NaN is an error.
	Delta float64
	// Bottleneck chooses the job line 13 peels; the zero value is FirstFailing.
	Bottleneck Alg3Bottleneck
}

// Alg3Bottleneck is a reading of line 13, "locate the bottleneck job i", which the
// paper does not spell out.
type Alg3Bottleneck int

const (
	// FirstFailing peels the first job k, in the order of line 7 (N sorted by
	// U_k^{-1}(L), ties by index), at which line 7 fails at the last failing L of the
	// layer's bisection: the literal reading of "the infeasible job that cannot meet its
	// completion-time in (12)".
	FirstFailing Alg3Bottleneck = iota
	// LowestIndex peels, of every job for which line 7 fails there (tied jobs counted
	// together), the one that comes first in Instance.Jobs.
	LowestIndex
	// HighestIndex peels the one of those that comes last.
	HighestIndex
)

func (b Alg3Bottleneck) String() string {
	switch b {
	case FirstFailing:
		return "first-failing"
	case LowestIndex:
		return "lowest-index"
	case HighestIndex:
		return "highest-index"
	}
	return fmt.Sprintf("Alg3Bottleneck(%d)", int(b))
}

// Alg3Result is what Alg. 3 computes, and the schedule that meets it when one does.
type Alg3Result struct {
	// Deadlines[j] is job j's target completion T_j = U_j^{-1}(L_f) (line 14).
	Deadlines []int
	// Levels[j] = U_j(Deadlines[j]).
	Levels []float64
	// Order lists the jobs in the order they were peeled; PeelLevel[j] is L_f when job j
	// was peeled.
	Order     []int
	PeelLevel []float64
	// Schedule is the earliest-deadline-first schedule meeting Deadlines (EDF); its
	// utilities are those of the actual completion slots, at least Levels. It is nil when
	// the deadlines cannot all be met; Violation then says where eq. (12) fails.
	Schedule  *sched.Schedule
	Violation *Violation
	Stats     Alg3Stats
}

// Alg3Stats counts what Alg3 did.
type Alg3Stats struct {
	// Tests counts evaluations of line 7's condition; Layers the outer iterations (one
	// per job).
	Tests, Layers int
	// NoBottleneck counts layers whose bisection tested no infeasible level, so that
	// line 13 had no failing job to locate (the paper does not say what to do; see Alg3).
	NoBottleneck int
}

// Alg3 is RUSH's onion peeling, Algorithm 3 of rush.txt §III-B, as printed:
//
//	1: N = {1..N}, G_t = 0 ∀t
//	2: L_f = min_{i,x} U_i(x)
//	3: while N is not empty
//	4:   L_i = max_{i,x}(U_i(x) | i ∈ N)
//	5:   while L_i − L_f > Δ
//	6:     L = (L_i + L_f)/2
//	7:     if Σ_{i∈N_k} η_i + G_{U_k^{-1}(L)} ≤ C·U_k^{-1}(L) ∀k ∈ N then L_f = L
//	10:    else L_i = L
//	13:  locate the bottleneck job i
//	14:  T_i = U_i^{-1}(L_f)
//	15:  G_t = G_t + η_i ∀t ≥ T_i
//	16:  remove i from N
//
// Where the paper leaves a choice, this is what is done, and nothing else:
//
//   - U_k^{-1}(L) is the latest slot t ∈ 1..T with U_k(t) ≥ L, and 0 when U_k(1) < L (the
//     job cannot reach L; line 7 then fails for it, η_k > 0 = C·0).
//   - N_k is "the set of first k jobs" of N sorted by U_i^{-1}(L) (§III-B, before
//     eq. 12), ties by index. Jobs tied in that order share the right-hand side
//     C·U_k^{-1}(L), so whether line 7 holds for all k does not depend on the tie order.
//   - The bottleneck (line 13): the text says "for each infeasible L … there exists at
//     least one infeasible job that cannot meet its completion-time in (12). The
//     infeasible jobs corresponding to the last infeasible L before the bisection search
//     terminates are clearly bottlenecks". The candidates are those jobs: every k ∈ N
//     for which line 7 fails at the last L of this layer's bisection that failed, tied
//     jobs counted together (a job fails when the prefix up to and including its whole
//     tie group does). Alg3Options.Bottleneck picks one of them. When this layer's
//     bisection tested no failing L, every unpeeled job is a candidate and the rules
//     take the lowest (FirstFailing, LowestIndex) or highest index (Stats.NoBottleneck
//     counts such layers).
//   - L_f is set once (line 2) and carried from layer to layer, as printed.
//   - The bisection also stops when the midpoint of L_i and L_f is one of them in
//     floating point (a Δ below the resolution of the utilities).
//
// Line 7 checks eq. (12) only at the deadlines of the jobs not yet peeled, with the
// peeled jobs' demand G_t added there; a peeled job's own deadline is not checked. So the
// deadlines Alg. 3 returns can be infeasible; the result then has no Schedule, and the
// error wraps ErrAlg3Infeasible (the result is returned as well). Nothing is repaired:
// this function exists to measure Alg. 3 against the exact answer (OnionPeel).
//
// Alg. 3 is written for one resource of constant capacity C, without release times or
// parallelism caps; other instances are refused with an error wrapping ErrAlg3Model.
func Alg3(ctx context.Context, inst *sched.Instance, opts Alg3Options) (*Alg3Result, error) {
	var pick func(candidates []int, first int) int
	switch opts.Bottleneck {
	case FirstFailing:
		pick = func(c []int, first int) int {
			if first < 0 {
				return c[0]
			}
			return first
		}
	case LowestIndex:
		pick = func(c []int, _ int) int { return c[0] }
	case HighestIndex:
		pick = func(c []int, _ int) int { return c[len(c)-1] }
	default:
		return nil, fmt.Errorf("tas: alg3: unknown bottleneck rule %v", opts.Bottleneck)
	}
	return alg3Run(ctx, inst, opts.Delta, pick)
}

// alg3Run is Alg3 with line 13's choice made by pick, which gets the candidates in
// increasing index order (never empty) and the first failing job in line 7's order (−1
// when no level failed), and returns one of the candidates.
func alg3Run(ctx context.Context, inst *sched.Instance, delta float64, pick func(candidates []int, first int) int) (*Alg3Result, error) {
	if delta == 0 {
		delta = DefaultAlg3Delta
	}
	if !(delta > 0) || math.IsInf(delta, 1) {
		return nil, fmt.Errorf("tas: alg3: delta %g: must be a positive finite number", delta)
	}
	a, err := newAlg3(inst)
	if err != nil {
		return nil, err
	}
	res := &Alg3Result{
		Deadlines: make([]int, a.n),
		Levels:    make([]float64, a.n),
		PeelLevel: make([]float64, a.n),
		Order:     make([]int, 0, a.n),
	}
	unpeeled := make([]int, a.n) // increasing index order, kept so
	for j := range unpeeled {
		unpeeled[j] = j
	}
	G := make([]int64, a.T+1) // G[t], t = 0..T; G[0] stays 0
	// Line 2.
	Lf := math.Inf(1)
	for j := range a.n {
		Lf = min(Lf, a.u[j][a.T-1]) // U_j is non-increasing: its minimum is at T
	}
	var candidates []int
	for len(unpeeled) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res.Stats.Layers++
		// Line 4.
		Li := math.Inf(-1)
		for _, j := range unpeeled {
			Li = max(Li, a.u[j][0])
		}
		candidates = candidates[:0]
		first := -1
		for Li-Lf > delta { // line 5
			L := (Li + Lf) / 2 // line 6
			if L <= Lf || L >= Li {
				break
			}
			res.Stats.Tests++
			if failing, k := a.line7(unpeeled, G, L); len(failing) == 0 {
				Lf = L // line 8
			} else {
				Li = L // line 10
				candidates, first = append(candidates[:0], failing...), k
			}
		}
		if len(candidates) == 0 { // line 13 with nothing to locate
			res.Stats.NoBottleneck++
			candidates = append(candidates, unpeeled...)
		}
		slices.Sort(candidates)
		b := pick(candidates, first)
		if !slices.Contains(candidates, b) {
			return nil, fmt.Errorf("tas: alg3: internal error: bottleneck %d is not a candidate %v", b, candidates)
		}
		T := a.inverse(b, Lf) // line 14
		if T < 1 {
			return nil, fmt.Errorf("tas: alg3: internal error: job %q cannot reach L_f = %g", inst.Jobs[b].ID, Lf)
		}
		res.Deadlines[b] = T
		res.Levels[b] = a.u[b][T-1]
		res.PeelLevel[b] = Lf
		res.Order = append(res.Order, b)
		for t := T; t <= a.T; t++ { // line 15
			G[t] += a.eta[b]
		}
		unpeeled = slices.DeleteFunc(unpeeled, func(j int) bool { return j == b }) // line 16
	}
	s, v := EDF(inst, res.Deadlines)
	if v != nil {
		res.Violation = v
		return res, fmt.Errorf("%w: %v", ErrAlg3Infeasible, v)
	}
	s.Exact = false // nothing proves Alg. 3's answer optimal
	res.Schedule = s
	return res, nil
}

// alg3 is the instance as Alg. 3 reads it.
type alg3 struct {
	n, T    int
	C       int64
	eta     []int64
	u       [][]float64 // u[j][t-1] = U_j(t)
	order   []int       // scratch for line 7
	d       []int       // scratch: U_j^{-1}(L)
	failing []int       // scratch: line 7's failing jobs
}

func newAlg3(inst *sched.Instance) (*alg3, error) {
	if inst == nil {
		return nil, errors.New("tas: alg3: nil instance")
	}
	if err := inst.Validate(); err != nil {
		return nil, fmt.Errorf("tas: alg3: %w", err)
	}
	if len(inst.Resources) != 1 {
		return nil, fmt.Errorf("%w: resources: %d resources; Alg. 3 has one (containers)", ErrAlg3Model, len(inst.Resources))
	}
	capa := inst.Resources[0].Capacity
	for t, c := range capa {
		if c != capa[0] {
			return nil, fmt.Errorf("%w: resources[0].capacity[%d]: %d, slot 1 has %d; Alg. 3 tests C·t with a constant C", ErrAlg3Model, t, c, capa[0])
		}
	}
	a := &alg3{n: len(inst.Jobs), T: inst.Horizon, C: int64(capa[0])}
	a.eta = make([]int64, a.n)
	a.u = make([][]float64, a.n)
	for j, job := range inst.Jobs {
		if job.Release > 1 {
			return nil, fmt.Errorf("%w: jobs[%d].release: %d; Alg. 3 has no release times", ErrAlg3Model, j, job.Release)
		}
		if job.MaxParallel > 0 {
			return nil, fmt.Errorf("%w: jobs[%d].max_parallel: %d; Alg. 3 has no parallelism caps", ErrAlg3Model, j, job.MaxParallel)
		}
		a.eta[j] = int64(job.Demand[0])
		row := make([]float64, a.T)
		for t := range row {
			row[t] = job.Utility.At(t + 1)
			if math.IsNaN(row[t]) {
				return nil, fmt.Errorf("tas: alg3: jobs[%d].utility: NaN at slot %d", j, t+1)
			}
		}
		a.u[j] = row
	}
	a.order = make([]int, 0, a.n)
	a.d = make([]int, a.n)
	return a, nil
}

// inverse is U_j^{-1}(L): the latest slot with U_j(t) ≥ L, 0 when there is none.
func (a *alg3) inverse(j int, L float64) int {
	row := a.u[j]
	lo, hi := 0, a.T // row[:lo] ≥ L, row[hi:] < L
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if row[m] >= L {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// line7 evaluates line 7 at level L for the unpeeled jobs. It returns the jobs k for
// which it fails — the η of the unpeeled jobs with U^{-1}(L) ≤ U_k^{-1}(L), plus G at
// U_k^{-1}(L), exceed C·U_k^{-1}(L) — and the first k in line 7's order (by U^{-1}(L),
// ties by index, each k with the jobs before it) at which it fails; nothing and −1 when
// it holds for every k. The slice is scratch, valid until the next call.
func (a *alg3) line7(unpeeled []int, G []int64, L float64) ([]int, int) {
	a.order = append(a.order[:0], unpeeled...) // unpeeled is in index order
	for _, j := range unpeeled {
		a.d[j] = a.inverse(j, L)
	}
	slices.SortStableFunc(a.order, func(x, y int) int { return cmp.Compare(a.d[x], a.d[y]) })
	a.failing = a.failing[:0]
	first := -1
	var sum int64
	for lo := 0; lo < len(a.order); {
		dk := a.d[a.order[lo]]
		hi := lo
		for hi < len(a.order) && a.d[a.order[hi]] == dk {
			sum += a.eta[a.order[hi]]
			if first < 0 && sum+G[dk] > a.C*int64(dk) {
				first = a.order[hi]
			}
			hi++
		}
		if sum+G[dk] > a.C*int64(dk) {
			a.failing = append(a.failing, a.order[lo:hi]...)
		}
		lo = hi
	}
	return a.failing, first
}
