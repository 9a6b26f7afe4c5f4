package cora

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
)

// IntegralityTol is how far an x of an LP solution may be from an integer and still be
// read as that integer. Lemma 2 and Theorem 1 claim the LP's x is integral; anything
// farther is reported (Decoded.Fractional), not rounded away.
const IntegralityTol = 1e-9

// Fractional is an x^r_it of an LP solution that is not within IntegralityTol of an
// integer.
type Fractional struct {
	Job      string  `json:"job"`
	Resource string  `json:"resource"`
	Slot     int     `json:"slot"`
	Value    float64 `json:"value"`
}

// Decoded is an LP solution read as a schedule.
type Decoded struct {
	// Schedule is the allocation x rounded to integers, with completion slots (the last
	// slot holding any resource) and utilities recomputed; nil when some x is fractional.
	Schedule *sched.Schedule
	// Rounded is x rounded to the nearest integers whatever their distance, finalized:
	// the same as Schedule when x is integral, otherwise for display only (it need not
	// meet the demands).
	Rounded *sched.Schedule
	// Fractional lists the x entries farther than IntegralityTol from an integer.
	Fractional []Fractional
	// MaxFractionality is max |x − round(x)| over every x.
	MaxFractionality float64
}

// Decode reads a solution vector of lp.Model (one value per column, as
// solvers.Solution.X) as a schedule. Only x is read; the λs are the objective's business.
func (lp *LP) Decode(x []float64) (*Decoded, error) {
	if len(x) != lp.Model.NumVars() {
		return nil, fmt.Errorf("cora: decoding %s: %d values for %d columns", lp.Formulation, len(x), lp.Model.NumVars())
	}
	in := lp.inst
	s := sched.NewSchedule(in)
	d := &Decoded{}
	for i := range lp.X {
		for r := range lp.X[i] {
			for t, v := range lp.X[i][r] {
				val := x[v.Index()]
				if math.IsNaN(val) || math.IsInf(val, 0) || math.Abs(val) > math.MaxInt32 {
					return nil, fmt.Errorf("cora: decoding %s: %s = %g", lp.Formulation, v, val)
				}
				n := math.Round(val)
				frac := math.Abs(val - n)
				d.MaxFractionality = math.Max(d.MaxFractionality, frac)
				if n < 0 {
					return nil, fmt.Errorf("cora: decoding %s: %s = %g is negative", lp.Formulation, v, val)
				}
				if frac > IntegralityTol {
					d.Fractional = append(d.Fractional, Fractional{Job: in.Jobs[i].ID, Resource: in.Resources[r].Name, Slot: t + 1, Value: val})
				}
				s.Jobs[i].Alloc[r][t] = int(n)
			}
		}
	}
	s.Finalize(in)
	d.Rounded = s
	if len(d.Fractional) == 0 {
		d.Schedule = s
	}
	return d, nil
}

// CellVector is R-CORA's outcome vector F_X (cora.txt §II-A) at a schedule, sorted in
// increasing order: u_it·I(x^r_it > 0) for every cell (i, t, r), where I(x) = 1 when
// x > 0. Eq. (6) orders schedules by it (through Lemma 1), so every optimum of FINAL
// and of Linearized-CORA has the same CellVector even when their allocations differ.
// It includes the zeros of empty cells, which is why eq. (6) rewards using many cells.
func (lp *LP) CellVector(s *sched.Schedule) []int64 {
	var out []int64
	for i := range s.Jobs {
		for _, row := range s.Jobs[i].Alloc {
			for t, a := range row {
				if a > 0 {
					out = append(out, lp.Utilities.U[i][t])
				} else {
					out = append(out, 0)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// CompareCells compares two sorted cell vectors lexicographically: -1 if a is smaller
// (worse for R-CORA), +1 if larger, 0 if equal.
func CompareCells(a, b []int64) int {
	for k := range min(len(a), len(b)) {
		if c := cmp.Compare(a[k], b[k]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// Cost is eq. (6) at a schedule, Σ_{i,t,r} k^{−u_it·I(x^r_it)}, in float64: the value the
// LP's objective takes at any λ-representation of the schedule's x.
func (lp *LP) Cost(s *sched.Schedule) float64 {
	var sum float64
	for i := range s.Jobs {
		for _, row := range s.Jobs[i].Alloc {
			for t, a := range row {
				if a > 0 {
					sum += lp.Weight(i, t+1)
				} else {
					sum++
				}
			}
		}
	}
	return sum
}

// Result is a solved FINAL or Linearized-CORA model.
type Result struct {
	// Status is the backend's status; Decoded is set when it returned a primal point.
	Status    solvers.Status
	Objective float64
	Decoded   *Decoded
	Solution  *solvers.Solution
}

// Solve compiles lp.Model, solves it with s and decodes the solution. An error means the
// solve could not run; infeasible or stopped solves are a Result with their Status.
func (lp *LP) Solve(ctx context.Context, s solvers.Solver, opt solvers.Options) (*Result, error) {
	if s == nil {
		return nil, errors.New("cora: nil solver")
	}
	p, err := lp.Model.Compile()
	if err != nil {
		return nil, fmt.Errorf("cora: compiling %s: %w", lp.Formulation, err)
	}
	sol, err := s.Solve(ctx, p, opt)
	if err != nil {
		return nil, fmt.Errorf("cora: solving %s with %s: %w", lp.Formulation, s.Name(), err)
	}
	res := &Result{Status: sol.Status, Objective: sol.Objective, Solution: sol}
	if sol.HasPrimal() {
		if res.Decoded, err = lp.Decode(sol.X); err != nil {
			return nil, err
		}
	}
	return res, nil
}
