package rds

import (
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/certificate"
)

// StepResult is the outcome of one control step (RunStep): the allocation for the next
// interval, the predicted trajectory and the objective, with a KKT check of the QP
// solution.
type StepResult struct {
	Status         solvers.Status
	Objective      float64 // J(t) of eq. 3; 0 when no job needs resources
	Solver         string
	Version        string
	Iterations     int
	WallTime       time.Duration // build + solve
	Time, Interval float64
	Forecast       []float64 // r̂_a(t+i), i < H_p
	ForecastSource string    // "given", "green" or "ar(n)"
	CapacityBound  []float64 // the right-hand side of each control step's capacity row
	Jobs           []StepJob // in state order
	KKT            KKT
	Columns, Rows  int // of the eq. 3 model
	// How the deadlines inside the window were handled (see SolveRHC): proven feasible by
	// an earliest-deadline-first witness, or the least-shortfall LP solved; and how many
	// times eq. 3 was solved as deadline rows joined.
	Witness, LeastShortfallLP bool
	Rounds                    int
	// Problem and Solution are the last eq. 3 QP and the solver's answer to it;
	// ShortfallProblem and Shortfall the least-shortfall LP and its answer when one was
	// solved. They are kept so that a certificate can be recomputed from them
	// independently of KKT (verify.Certificate); nil when nothing was solved.
	Problem, ShortfallProblem *model.Problem
	Solution, Shortfall       *solvers.Solution
}

// StepJob is one job's part of a StepResult.
type StepJob struct {
	ID         string
	Modelled   bool // false: finished or not yet arrived, allocation 0
	Progress   float64
	Work       float64
	Alloc      Alloc     // u_j(t), the control action
	Plan       []Alloc   // u_j(t+k), k < H_c
	Trajectory []float64 // predicted y_j(t+i), i = 1 … H_p
	Reference  []float64 // y^ref_j(t+i)
	Shortfall  float64   // work left at t_soft under the plan, percent (0 without a deadline in the window)
	// Completion is the predicted completion time, interpolated within the interval in
	// which the trajectory reaches the job's work; NaN when that is beyond the horizon.
	Completion float64
	// Utility is ω_j·δ_j(Completion) (eq. 4); NaN when Completion is.
	Utility float64
}

// KKT holds the relative residuals of the first-order optimality conditions of the
// solved QP (solvers/certificate.CheckKKT, which computes them).
type KKT = certificate.KKT

// DefaultKKTTol is the tolerance RunStep's KKT check uses: loose enough for an interior
// point or HiGHS's QP solver, tight enough to catch a wrong answer.
const DefaultKKTTol = 1e-6

// RunStep performs one control step from a state file: forecast the capacity, solve
// the step with s (SolveRHC: eq. 3, and the deadline handling its documentation
// describes), check the KKT conditions of every solve and report the first interval's
// allocation and the predicted trajectories. opt, at most one, is passed to the solver
// (e.g. a time limit). A state in which no job needs resources gives an optimal,
// all-zero result without calling the solver.
func RunStep(ctx context.Context, f *StateFile, s solvers.Solver, opt ...solvers.Options) (*StepResult, error) {
	var o solvers.Options
	switch len(opt) {
	case 0:
	case 1:
		o = opt[0]
	default:
		return nil, errors.New("rds: RunStep takes at most one solvers.Options")
	}
	if err := f.State.Validate(); err != nil {
		return nil, err
	}
	if err := f.Params.Validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	pred, source := f.Predictor()
	hp := f.Params.PredictionHorizon
	forecast, err := pred.Forecast(f.State.CapacityHistory, hp)
	if err != nil {
		return nil, err
	}
	st := &f.State
	res := &StepResult{
		Solver: s.Name(), Time: st.Time, Interval: st.Interval,
		Forecast: forecast, ForecastSource: source,
	}
	if d, ok := s.(solvers.Describer); ok {
		res.Version = d.Version()
	}
	solved, err := SolveRHC(ctx, s, st, forecast, f.Params, o)
	if errors.Is(err, ErrNoJobs) {
		res.Status = solvers.Optimal
		res.KKT = KKT{Tol: DefaultKKTTol, OK: true, Checked: true}
		for j := range st.Jobs {
			job := &st.Jobs[j]
			traj := make([]float64, hp)
			for i := range traj {
				traj[i] = job.Progress
			}
			res.Jobs = append(res.Jobs, StepJob{ID: job.ID, Progress: job.Progress, Work: job.Work,
				Plan: make([]Alloc, f.Params.ControlHorizon), Trajectory: traj, Reference: slices.Clone(traj),
				Completion: math.NaN(), Utility: math.NaN()})
		}
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	res.WallTime = time.Since(start)
	res.Status, res.Iterations = solved.Status, solved.Iterations
	res.Rounds, res.Witness, res.LeastShortfallLP = solved.Rounds, solved.Witness, solved.Stage1 != nil
	if solved.Status != solvers.Optimal {
		return res, nil
	}
	p, sol, h := solved.Problem, solved.Solution, solved.Handles
	res.Problem, res.Solution = p, sol
	res.ShortfallProblem, res.Shortfall = solved.Stage1Problem, solved.Stage1
	res.Columns, res.Rows = p.NumCols(), p.NumRows()
	res.CapacityBound = h.CapacityBound
	res.Objective = sol.Objective
	res.KKT = certificate.CheckKKT(p, sol, DefaultKKTTol)
	if solved.Stage1 != nil {
		k1 := certificate.CheckKKT(solved.Stage1Problem, solved.Stage1, DefaultKKTTol)
		res.KKT = worst(res.KKT, k1)
	}
	alloc, plan := h.Allocation(sol.X), h.Plan(sol.X)
	traj, ref, short := h.Trajectory(sol.X, st), h.Reference(st), h.Shortfall(sol.X)
	modelled := make([]bool, len(st.Jobs))
	for _, j := range h.Jobs {
		modelled[j] = true
	}
	for j := range st.Jobs {
		job := &st.Jobs[j]
		sj := StepJob{ID: job.ID, Modelled: modelled[j], Progress: job.Progress, Work: job.Work,
			Alloc: alloc[j], Plan: plan[j], Trajectory: traj[j], Reference: ref[j], Shortfall: short[j],
			Completion: math.NaN(), Utility: math.NaN()}
		if modelled[j] {
			sj.Completion = predictedCompletion(job, st.Time, st.Interval, traj[j])
			if !math.IsNaN(sj.Completion) {
				sj.Utility = job.Priority * Decay(job, sj.Completion, st.Interval)
			}
		}
		res.Jobs = append(res.Jobs, sj)
	}
	return res, nil
}

// worst combines two KKT reports: the larger residuals, OK only if both are.
func worst(a, b KKT) KKT {
	return KKT{
		Primal: math.Max(a.Primal, b.Primal), Dual: math.Max(a.Dual, b.Dual),
		Complement: math.Max(a.Complement, b.Complement), Tol: a.Tol,
		OK: a.OK && b.OK, Checked: a.Checked && b.Checked,
	}
}

// predictedCompletion is the time at which the trajectory reaches the job's work
// (within a millionth of it), interpolated linearly inside the interval; NaN if it does
// not within the horizon.
func predictedCompletion(job *Job, t, interval float64, traj []float64) float64 {
	target := job.Work * (1 - 1e-6)
	prev := job.Progress
	for i, y := range traj {
		if y >= target {
			frac := 1.0
			if y > prev {
				frac = math.Min(1, math.Max(0, (job.Work-prev)/(y-prev)))
			}
			return t + (float64(i)+frac)*interval
		}
		prev = y
	}
	return math.NaN()
}
