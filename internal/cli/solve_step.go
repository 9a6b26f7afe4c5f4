package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/coraopt/coraopt/formulations/rds"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/verify"
)

// rdsResult is the JSON output of `coraopt solve --formulation rds`. Numbers are
// printed to 9 significant digits.
type rdsResult struct {
	Status         string      `json:"status"`
	Formulation    string      `json:"formulation"`
	Method         string      `json:"method"`
	Solver         string      `json:"solver"`
	BackendVersion string      `json:"backend_version,omitempty"`
	Exact          bool        `json:"exact"`
	State          string      `json:"state,omitempty"`
	Time           float64     `json:"time"`
	Interval       float64     `json:"interval"`
	Objective      *float64    `json:"objective"`
	Forecast       []float64   `json:"forecast"`
	ForecastSource string      `json:"forecast_source"`
	CapacityBound  []float64   `json:"capacity_bound"`
	Deadlines      rdsDeadline `json:"deadlines"`
	Jobs           []rdsJob    `json:"jobs"`
	// SortedUtilities are ω·δ(predicted completion) of the jobs predicted to finish
	// within the horizon, ascending.
	SortedUtilities []float64 `json:"sorted_utilities"`
	Verification    rdsCheck  `json:"verification"`
	Iterations      int       `json:"iterations"`
	SolveSeconds    float64   `json:"solve_seconds"`
	Columns         int       `json:"columns"`
	Rows            int       `json:"rows"`
}

type rdsDeadline struct {
	Mode           string `json:"mode"`         // first or off
	Witness        bool   `json:"witness"`      // an EDF allocation proved every deadline feasible
	ShortfallLP    bool   `json:"shortfall_lp"` // the least-shortfall LP was solved
	RHCSolves      int    `json:"rhc_solves"`   // eq. 3 solves as deadline rows joined
	DeadlinesInWin int    `json:"deadlines_in_window"`
}

type rdsAlloc struct {
	Map    float64 `json:"map"`
	Reduce float64 `json:"reduce"`
}

type rdsJob struct {
	ID         string     `json:"id"`
	Planned    bool       `json:"planned"` // false: finished or not arrived; allocation 0
	Progress   float64    `json:"progress"`
	Work       float64    `json:"work"`
	Allocation rdsAlloc   `json:"allocation"`
	Plan       []rdsAlloc `json:"plan"`
	Trajectory []float64  `json:"trajectory"`
	Reference  []float64  `json:"reference"`
	Shortfall  float64    `json:"shortfall"`  // percent of the work left at t_soft under the plan
	Completion *float64   `json:"completion"` // predicted; null beyond the horizon
	Utility    *float64   `json:"utility"`    // ω·δ(completion); null with completion
}

type rdsCheck struct {
	OK         bool    `json:"ok"`
	Checked    string  `json:"checked"`
	Primal     float64 `json:"primal"`
	Dual       float64 `json:"dual"`
	Complement float64 `json:"complement"`
	Tol        float64 `json:"tol"`
	// Checks (--verify) lists the QP's KKT residuals as verify checks.
	Checks []verify.CheckJSON `json:"checks,omitempty"`
}

// sig9 rounds to 9 significant digits, so that the output does not change with the last
// bits of a solver's arithmetic.
func sig9(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 9, 64), 64)
	if err != nil {
		return v
	}
	if r == 0 {
		return 0 // no -0 in the output
	}
	return r
}

func sig9s(vs []float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = sig9(v)
	}
	return out
}

// writeStep prints an RDS control step (res.Step; rds.RunStep) in output format ("json"
// or "table"); with --verify the step's checks (verify.Solved: its KKT residuals and the
// certificates of its QP and LP recomputed from the models and points alone) are listed.
// Exit 1 when the step is not solved to optimality or a check fails.
func writeStep(ctx context.Context, s Streams, output, path string, f *rds.StateFile, res *solve.Result, all bool) error {
	step := res.Step
	out := rdsOutput(f, res)
	var kkt verify.Report
	if all {
		kkt = verify.Solved(res, verify.SolvedOptions{All: true}).Report
		out.Verification.Checks = kkt.JSON().Checks
		out.Verification.OK = out.Verification.OK && kkt.OK()
	}
	if output == "json" {
		if err := writeJSON(s.Out, out); err != nil {
			return fmt.Errorf("solve: %w", err)
		}
	} else if err := writeRDSTable(s.Out, out); err != nil {
		return err
	} else if all {
		fmt.Fprintln(s.Out)
		if err := kkt.WriteTable(s.Out); err != nil {
			return err
		}
	}
	switch {
	case ctx.Err() != nil:
		return failed(fmt.Errorf("interrupted: %w", ctx.Err()))
	case step.Status != solvers.Optimal:
		return failed(fmt.Errorf("%s: the solver stopped with status %s", path, step.Status))
	case all && !kkt.OK():
		return failed(fmt.Errorf("%s: %s", path, kkt.Summary()))
	case !step.KKT.OK:
		return failed(fmt.Errorf("%s: the solution failed its KKT check (primal %.3g, dual %.3g, complementarity %.3g > %g)",
			path, step.KKT.Primal, step.KKT.Dual, step.KKT.Complement, step.KKT.Tol))
	}
	return nil
}

// readRDSState decodes a state file; a validation error prints every problem as
// "path: message" on stderr and exits 2.
func readRDSState(s Streams, path string) (*rds.StateFile, error) {
	r, name, err := openInput(s, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := rds.Decode(r)
	var ve *sched.ValidationError
	switch {
	case errors.As(err, &ve):
		fmt.Fprintf(s.Err, "coraopt: %s: invalid state file (%d problems)\n", name, len(ve.Problems))
		for _, p := range ve.Problems {
			fmt.Fprintln(s.Err, p.String())
		}
		return nil, &ExitError{Code: ExitBadUsage}
	case err != nil:
		return nil, usageErr(fmt.Errorf("%s: %w", name, err))
	}
	return f, nil
}

func rdsOutput(f *rds.StateFile, solved *solve.Result) rdsResult {
	res := solved.Step
	out := rdsResult{
		Status: res.Status.String(), Formulation: solved.Formulation, Method: solved.Method, Solver: solved.Backend,
		BackendVersion: res.Version, Exact: res.Status == solvers.Optimal,
		State: f.Name, Time: res.Time, Interval: res.Interval,
		Forecast: sig9s(res.Forecast), ForecastSource: res.ForecastSource,
		CapacityBound: sig9s(res.CapacityBound),
		Deadlines: rdsDeadline{Mode: f.Params.Deadlines.String(), Witness: res.Witness,
			ShortfallLP: res.LeastShortfallLP, RHCSolves: res.Rounds},
		Iterations: res.Iterations, SolveSeconds: res.WallTime.Seconds(),
		Columns: res.Columns, Rows: res.Rows, SortedUtilities: []float64{},
		Verification: rdsCheck{OK: res.KKT.OK, Checked: "kkt", Primal: res.KKT.Primal, Dual: res.KKT.Dual,
			Complement: res.KKT.Complement, Tol: res.KKT.Tol},
	}
	if out.CapacityBound == nil {
		out.CapacityBound = []float64{}
	}
	if !res.KKT.Checked {
		out.Verification.Checked = "primal"
	}
	if res.Status == solvers.Optimal {
		z := sig9(res.Objective)
		out.Objective = &z
	}
	for j, job := range res.Jobs {
		rj := rdsJob{ID: job.ID, Planned: job.Modelled, Progress: sig9(job.Progress), Work: sig9(job.Work),
			Allocation: rdsAlloc{sig9(job.Alloc.Map), sig9(job.Alloc.Reduce)},
			Trajectory: sig9s(job.Trajectory), Reference: sig9s(job.Reference), Shortfall: sig9(job.Shortfall),
			Plan: []rdsAlloc{}}
		for _, a := range job.Plan {
			rj.Plan = append(rj.Plan, rdsAlloc{sig9(a.Map), sig9(a.Reduce)})
		}
		if !math.IsNaN(job.Completion) {
			c, u := sig9(job.Completion), sig9(job.Utility)
			rj.Completion, rj.Utility = &c, &u
			out.SortedUtilities = append(out.SortedUtilities, u)
		}
		if s := &f.State.Jobs[j]; job.Modelled && s.Soft > f.State.Time &&
			s.Soft <= f.State.Time+float64(f.Params.PredictionHorizon)*f.State.Interval {
			out.Deadlines.DeadlinesInWin++
		}
		out.Jobs = append(out.Jobs, rj)
	}
	slices.Sort(out.SortedUtilities)
	return out
}

func writeRDSTable(w io.Writer, r rdsResult) error {
	tw := newTable(w)
	name := r.State
	if name == "" {
		name = "(unnamed)"
	}
	row(tw, "state", fmt.Sprintf("%s: t = %g, interval %g, %d jobs", name, r.Time, r.Interval, len(r.Jobs)))
	solver := r.Solver
	if r.BackendVersion != "" {
		solver += " (" + r.BackendVersion + ")"
	}
	row(tw, "solver", solver)
	row(tw, "status", r.Status)
	if r.Objective != nil {
		row(tw, "objective", fmt.Sprintf("%.9g (eq. 3)", *r.Objective))
	} else {
		row(tw, "objective", "-")
	}
	row(tw, "forecast", fmt.Sprintf("%s: %s; capacity rows %s", r.ForecastSource, nums(r.Forecast), nums(r.CapacityBound)))
	dl := "off (eq. 3 alone)"
	if r.Deadlines.Mode == "first" {
		how := "met by every plan"
		switch {
		case r.Deadlines.ShortfallLP:
			how = "least-shortfall LP solved"
		case r.Deadlines.Witness:
			how = "feasible (EDF witness)"
		}
		dl = fmt.Sprintf("%d inside the window, %s, %d eq. 3 solves", r.Deadlines.DeadlinesInWin, how, r.Deadlines.RHCSolves)
	}
	row(tw, "deadlines", dl)
	v := "ok"
	if !r.Verification.OK {
		v = "FAILED"
	}
	row(tw, "verification", fmt.Sprintf("%s (%s: primal %.2g, dual %.2g, complementarity %.2g; tolerance %g)",
		v, r.Verification.Checked, r.Verification.Primal, r.Verification.Dual, r.Verification.Complement, r.Verification.Tol))
	row(tw, "")
	row(tw, "JOB", "PROGRESS", "MAP", "REDUCE", "TRAJECTORY", "REFERENCE", "COMPLETION", "SHORTFALL %")
	for _, j := range r.Jobs {
		completion := "-"
		if j.Completion != nil {
			completion = strconv.FormatFloat(*j.Completion, 'g', 6, 64)
		}
		if !j.Planned {
			completion = "(not planned)"
		}
		row(tw, j.ID, fmt.Sprintf("%s/%s", short(j.Progress), short(j.Work)), short(j.Allocation.Map), short(j.Allocation.Reduce),
			nums(j.Trajectory), nums(j.Reference), completion, short(j.Shortfall))
	}
	return tw.Flush()
}

func short(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

func nums(vs []float64) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = short(v)
	}
	return strings.Join(parts, " ")
}
