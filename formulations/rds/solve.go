package rds

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// ShortfallMargin is how much (in percent of a job's work) the eq. 3 stage of SolveRHC
// relaxes each deadline row beyond the least shortfall, so that solver rounding in the
// shortfall stage cannot make the eq. 3 stage infeasible. 1e-6 percent is a hundred
// millionth of the job.
const ShortfallMargin = 1e-6

// Solved is the outcome of SolveRHC.
type Solved struct {
	// Status is Optimal when every solve ended optimal; otherwise the status of the one
	// that did not, and Solution is that solve's.
	Status solvers.Status
	// Problem, Handles and Solution are the eq. 3 stage (BuildRHC), with the deadline
	// rows as they were in its last solve.
	Problem  *model.Problem
	Handles  *Handles
	Solution *solvers.Solution
	// Shortfall is the least achievable shortfall per State.Jobs entry (percent of the
	// work at t_soft, weighted-optimal), to which the eq. 3 stage was held; all zero when
	// every deadline inside the window can be met.
	Shortfall []float64
	// Witness is true when an earliest-deadline-first allocation met every deadline
	// inside the window, which proves the least shortfall 0 without the shortfall LP.
	Witness bool
	// Stage1 and Stage1Problem are the shortfall LP (BuildShortfall), nil when it was not
	// needed (no deadline inside the window, or a witness).
	Stage1        *solvers.Solution
	Stage1Problem *model.Problem
	// Rounds is how many times the eq. 3 stage was solved (see SolveRHC), and
	// Iterations the solver iterations of every solve.
	Rounds, Iterations int
}

// SolveRHC solves one control step (rds.txt §4.3). With p.Deadlines = DeadlinesOff it
// is eq. 3 (BuildRHC) alone. Otherwise it is the lexicographic pair of the package
// documentation, computed economically but exactly. Eq. 3 is solved with the deadline
// rows of BuildRHC free at first; a row joins, with its bound, once a plan violates it,
// and eq. 3 is solved again, until the plan satisfies every row — each solve is a
// relaxation of the full problem, so that plan is its optimum. The bounds are
// progress_j(t_soft) ≥ 100% − σ*_j − ShortfallMargin, with σ* the least weighted
// shortfall, found only when a plan misses a deadline:
//
//   - σ* = 0 while the plans meet every deadline (the plan is its own witness), or
//     when an earliest-deadline-first allocation meets them all (deadlineWitness);
//   - otherwise σ* solves the shortfall LP (BuildShortfall) with s.
//
// It returns ErrNoJobs when no job needs resources. A solver error is returned as an
// error; a solve that ends without an optimum is reported through Solved.Status.
func SolveRHC(ctx context.Context, s solvers.Solver, st *State, forecast []float64, p Params, opt solvers.Options) (*Solved, error) {
	return SolveRHCWith(ctx, s, s, st, forecast, p, opt)
}

// SolveRHCWith is SolveRHC with the shortfall LP on its own backend lp, which must
// solve linear programs: an LP backend (the built-in simplex) is several times faster
// on it than a QP backend (policies/rds.BenchmarkDecision). The eq. 3 stage runs on s.
// The least weighted shortfall is the same whichever backend finds it; when the LP has
// several optimal shortfall vectors, which one the eq. 3 stage is held to may differ.
func SolveRHCWith(ctx context.Context, s, lp solvers.Solver, st *State, forecast []float64, p Params, opt solvers.Options) (*Solved, error) {
	m, h, err := BuildRHC(st, forecast, p)
	if err != nil {
		return nil, err
	}
	res := &Solved{Handles: h, Shortfall: make([]float64, len(st.Jobs))}
	for mi := range h.Jobs {
		if d := h.Deadline[mi]; d.Valid() {
			m.SetConstrBounds(d, math.Inf(-1), math.Inf(1))
		}
	}
	if res.Problem, err = m.Compile(); err != nil {
		return nil, fmt.Errorf("rds: compiling the RHC model: %w", err)
	}
	lower := func(mi int) float64 {
		return 100 - 100*h.y0[mi]/h.work[mi] - res.Shortfall[h.Jobs[mi]] - ShortfallMargin
	}
	joined := make([]bool, len(h.Jobs))
	knowShortfall := false
	for {
		sol, err := s.Solve(ctx, res.Problem, opt)
		if err != nil {
			return nil, fmt.Errorf("rds: solving the RHC model with %s: %w", s.Name(), err)
		}
		res.Rounds++
		res.Iterations += sol.Iterations
		res.Status, res.Solution = sol.Status, sol
		if sol.Status == solvers.Optimal && sol.X == nil {
			res.Status = solvers.NumericalError
		}
		if res.Status != solvers.Optimal {
			return res, nil
		}
		act := res.Problem.RowActivity(sol.X)
		var missed []int
		for mi := range h.Jobs {
			d := h.Deadline[mi]
			if d.Valid() && !joined[mi] && act[d.Index()] < lower(mi)-1e-9*100 {
				missed = append(missed, mi)
			}
		}
		if len(missed) == 0 {
			return res, nil
		}
		if !knowShortfall {
			knowShortfall = true
			res.Witness = deadlineWitness(st, h)
			if !res.Witness {
				if ok, err := res.leastShortfall(ctx, lp, st, forecast, p, opt); err != nil || !ok {
					return res, err
				}
				// With σ* known some misses may be allowed: look again.
				missed = missed[:0]
				for mi := range h.Jobs {
					d := h.Deadline[mi]
					if d.Valid() && !joined[mi] && act[d.Index()] < lower(mi)-1e-9*100 {
						missed = append(missed, mi)
					}
				}
				if len(missed) == 0 {
					return res, nil
				}
			}
		}
		for _, mi := range missed {
			joined[mi] = true
			d := h.Deadline[mi]
			m.SetConstrBounds(d, lower(mi), math.Inf(1))
			res.Problem.RowLower[d.Index()] = lower(mi) // the compiled twin, without recompiling
			res.Problem.RowUpper[d.Index()] = math.Inf(1)
		}
	}
}

// leastShortfall solves the shortfall LP into res.Shortfall; ok is false when the solve
// did not end optimal (res.Status says how).
func (res *Solved) leastShortfall(ctx context.Context, s solvers.Solver, st *State, forecast []float64, p Params, opt solvers.Options) (bool, error) {
	m1, h1, err := BuildShortfall(st, forecast, p)
	if err != nil {
		return false, err
	}
	if res.Stage1Problem, err = m1.Compile(); err != nil {
		return false, fmt.Errorf("rds: compiling the shortfall model: %w", err)
	}
	sol1, err := s.Solve(ctx, res.Stage1Problem, opt)
	if err != nil {
		return false, fmt.Errorf("rds: solving the shortfall model with %s: %w", s.Name(), err)
	}
	res.Stage1 = sol1
	res.Iterations += sol1.Iterations
	if sol1.Status != solvers.Optimal || sol1.X == nil {
		res.Status, res.Solution = sol1.Status, sol1
		if sol1.Status == solvers.Optimal {
			res.Status = solvers.NumericalError
		}
		return false, nil
	}
	for j, sf := range h1.Shortfall(sol1.X) {
		if sf > ShortfallMargin {
			res.Shortfall[j] = sf
		}
	}
	return true, nil
}

// deadlineWitness tries to meet every deadline row of h with an earliest-deadline-first
// allocation: interval by interval, the jobs due soonest take what they still need (the
// resource kind that counts most first) within their bounds and the capacity left. It
// reports whether every row ends satisfied, which proves the least shortfall 0. It is a
// heuristic in the other direction only: when it fails, the LP decides.
func deadlineWitness(st *State, h *Handles) bool {
	type due struct {
		m    int
		need float64 // percent still to cover
	}
	var jobs []due
	for mi := range h.Jobs {
		if h.dcoef[mi] == nil {
			continue
		}
		if need := 100 - 100*h.y0[mi]/h.work[mi]; need > 0 {
			jobs = append(jobs, due{mi, need})
		}
	}
	slices.SortStableFunc(jobs, func(a, b due) int {
		return cmp.Compare(st.Jobs[h.Jobs[a.m]].Soft, st.Jobs[h.Jobs[b.m]].Soft)
	})
	left := slices.Clone(h.CapacityBound)
	leftKind := [2][]float64{slices.Clone(h.KindBound[0]), slices.Clone(h.KindBound[1])}
	for k := range h.Hc {
		for i := range jobs {
			d := &jobs[i]
			coef := h.dcoef[d.m]
			kinds := [2]int{0, 1}
			if coef[2*k+1] > coef[2*k] {
				kinds = [2]int{1, 0}
			}
			for _, kind := range kinds {
				c := coef[2*k+kind]
				if d.need <= 0 || c <= 0 || left[k] <= 0 || leftKind[kind][k] <= 0 {
					continue
				}
				x := min(h.ub[d.m][kind], left[k], leftKind[kind][k], d.need/c)
				d.need -= c * x
				left[k] -= x
				leftKind[kind][k] -= x
			}
		}
	}
	for _, d := range jobs {
		if d.need > 1e-9*100 {
			return false
		}
	}
	return true
}
