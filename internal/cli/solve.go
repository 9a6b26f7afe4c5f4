package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/plot"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/verify"
)

type solveOptions struct {
	g           *globalOptions
	formulation string
	method      string
	solver      string
	budget      int
	lexmax      string // mip: lexmax method
	saturation  string // mip: water-filling saturation test
	timeLimit   time.Duration
	gantt       string
	verify      bool
	cora        coraOptions
	rs          rsFlags // --theta, --delta, --bins for --formulation rs
	changed     func(name string) bool
}

// solveResult is the JSON output of `coraopt solve` when a schedule was found.
type solveResult struct {
	Status          string        `json:"status"`
	Formulation     string        `json:"formulation"`
	Method          string        `json:"method"`
	Solver          *string       `json:"solver"`
	Exact           bool          `json:"exact"`
	Instance        string        `json:"instance"`
	Horizon         int           `json:"horizon"`
	HorizonSource   string        `json:"horizon_source"`
	Jobs            []solveJob    `json:"jobs"`
	SortedUtilities []float64     `json:"sorted_utilities"`
	MinUtility      float64       `json:"min_utility"`
	SumUtility      float64       `json:"sum_utility"`
	Layers          []solve.Layer `json:"layers"`
	Verification    solveCheck    `json:"verification"`
	// Details says how the method got there (onion: engine, feasibility tests, stalls).
	Details any `json:"details,omitempty"`
	// The CORA formulations add objective, k, scale, warnings and fractional.
	*solve.CORAOutput
}

// solveFailure is the JSON output when there is no schedule (infeasible instance).
type solveFailure struct {
	Status      string  `json:"status"`
	Formulation string  `json:"formulation"`
	Method      string  `json:"method"`
	Solver      *string `json:"solver"`
	Instance    string  `json:"instance"`
	Message     string  `json:"message"`
}

type solveCheck struct {
	OK       bool     `json:"ok"`
	Checked  string   `json:"checked"`
	Problems []string `json:"problems,omitempty"`
	// Checks is the verify report (--verify): the schedule's checks, the LP/MIP
	// certificate of the solver's point, and for onion peeling its max-flow certificate.
	Checks []verify.CheckJSON `json:"checks,omitempty"`
	report *verify.Report
}

// solveJob is one job of the output: its schedule, and what a formulation adds.
type solveJob struct {
	sched.JobScheduleJSON
	solve.JobExtra
}

// coraOptions are the CORA LPs' flags (solve and export share them).
type coraOptions struct {
	strict bool
	scale  float64
	k      float64
}

// optionFlags are the solve flags that belong to particular formulations
// (solve.Formulation.Options); setting one for another formulation is a usage error.
var optionFlags = []string{"theta", "delta", "bins", "strict", "scale", "k"}

func newSolveCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &solveOptions{g: g}
	reg := g.registry
	cmd := &cobra.Command{
		Use:   "solve FILE",
		Short: "Solve a scheduling instance: completion slots, utilities and the allocation, verified",
		Long: `Read an instance file (JSON; docs/instance.md has the format) and compute the allocation
that is lexicographically max-min fair in the jobs' utilities of completion time, with
each job's completion slot and utility, then check it against the instance.

FILE is a path, or - for standard input.

` + reg.HelpText() + `
Output: the jobs with completion slot, utility and allocation per resource and slot,
the sorted utilities, their minimum and sum, the layers of the onion (level and the jobs
fixed there) and a self-check of the schedule against the instance (capacity, demand,
release, max_parallel, completion and utility recomputed). -o table lists the jobs from
the worst utility up with their completion and deadline (when the utility names one).
--gantt FILE draws the allocation (SVG, PNG, PDF, … by extension).

Exit codes: 0 solved and verified; 1 no feasible schedule, the check failed, a solver
stopped early, or interrupted; 2 bad usage or an invalid instance (every problem is
printed as "path: message").`,
		Example: `  coraopt solve testdata/quickstart.json
  coraopt solve testdata/quickstart.json -o table --gantt quickstart.svg
  coraopt solve big.json --budget 0 -o json | jq .min_utility
  cat instance.json | coraopt solve - --method mip --solver highs`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.changed = cmd.Flags().Changed
			return runSolve(cmd.Context(), s, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.formulation, "formulation", "tas", "formulation to solve: "+strings.Join(reg.Names(), ", "))
	f.StringVar(&o.method, "method", "auto", "method: auto (the formulation's default) or one of the formulation's (see Methods above)")
	f.StringVar(&o.solver, "solver", "", "backend for the method's problem class (default: the first compiled in of "+
		"LP: "+strings.Join(solvers.Preference(solvers.LP), ", ")+"; MIP: "+strings.Join(solvers.Preference(solvers.MIP), ", ")+"; QP: "+strings.Join(solvers.Preference(solvers.QP), ", ")+"); see coraopt solvers")
	f.StringVar(&o.lexmax, "lexmax", "ordered", "mip: lexicographic method: ordered, waterfill or expweights")
	f.StringVar(&o.saturation, "saturation", "probe", "mip with --lexmax waterfill: saturation test: probe, duals or milp")
	f.IntVar(&o.budget, "budget", tas.DefaultMaxBranches, "onion: stall branches to explore before deciding by rule (0: never branch)")
	f.DurationVar(&o.timeLimit, "time-limit", 0, "stop each solver call after this long (e.g. 30s); 0 means no limit")
	f.StringVar(&o.gantt, "gantt", "", "also draw the allocation to this file (.svg, .png, .pdf, …)")
	f.BoolVar(&o.verify, "verify", false, "attach the verify checks: the schedule's, the solver point's LP/MIP/QP certificate, onion's max-flow certificate; rds: the QP's KKT residuals (see coraopt verify --help)")
	cora := strings.Join(reg.OptionFormulations("strict"), ", ")
	f.BoolVar(&o.cora.strict, "strict", false, cora+": exit 2 when the weights k^-u cannot be told apart by the solver (numerics guard) or rounding merged distinct utilities")
	f.Float64Var(&o.cora.scale, "scale", 0, cora+": multiply utilities by this before rounding to integers (0: the smallest of 1, 10, 100, 1000 that makes them integers, else 1000)")
	f.Float64Var(&o.cora.k, "k", 0, cora+": base of the weights k^-u (0: |jobs|·|slots|·|resources|, the paper's)")
	o.rs.register(cmd)
	return cmd
}

// request turns the flags into a solve.Request (without the input).
func (o *solveOptions) request() solve.Request {
	changed := o.changed
	if changed == nil {
		changed = func(string) bool { return false }
	}
	req := solve.Request{Formulation: o.formulation, Method: o.method, Solver: o.solver, SolverSet: changed("solver"),
		Lexmax: o.lexmax, Saturation: o.saturation, Budget: budgetFlag(o.budget), TimeLimit: o.timeLimit,
		CORA: solve.CORAOptions{Strict: o.cora.strict, Scale: o.cora.scale, K: o.cora.k}}
	for _, name := range optionFlags {
		if changed(name) {
			req.Set = append(req.Set, name)
		}
	}
	if o.rs.set != nil {
		req.RS = o.rs.options()
	}
	return req
}

// budgetFlag maps the --budget flag (0: never branch) to solve.Request.Budget.
func budgetFlag(b int) int {
	if b == 0 {
		return -1
	}
	return b
}

func runSolve(ctx context.Context, s Streams, o *solveOptions, path string) error {
	output, err := o.g.format(s)
	if err != nil {
		return err
	}
	reg := o.g.registry
	if o.budget < 0 {
		return usageErrf("--budget %d: must not be negative", o.budget)
	}
	req := o.request()
	f, _, err := reg.Check(req) // the backend is chosen after the input is read
	if err != nil {
		return usageErr(flagged(err))
	}
	if o.gantt != "" {
		if f.Input != solve.InstanceInput {
			var with []string
			for _, g := range reg.Formulations() {
				if g.Input == solve.InstanceInput {
					with = append(with, g.Name)
				}
			}
			return usageErrf("--gantt applies to --formulation %s (a schedule to draw)", strings.Join(with, ", "))
		}
		if _, err := plot.FormatOf(o.gantt); err != nil {
			return usageErr(err)
		}
	}
	where := "" // a state file's errors name it
	switch f.Input {
	case solve.StateInput:
		if req.State, err = readRDSState(s, path); err != nil {
			return err
		}
		where = path + ": "
	default:
		if req.Instance, err = readInstance(s, path); err != nil {
			return err
		}
	}
	res, err := reg.Solve(ctx, req)
	var re *solve.RequestError
	switch {
	case errors.As(err, &re):
		return usageErr(fmt.Errorf("%s%w", where, flagged(err)))
	case errors.Is(err, solve.ErrNoSchedule):
		var none *solve.NoScheduleError
		if errors.As(err, &none) {
			err = none.Err // the reason, without the layers that passed it on
		}
		fail := solveFailure{Status: "infeasible", Formulation: o.formulation, Method: o.method, Instance: req.Instance.Name, Message: err.Error()}
		if output == "json" {
			if err := writeJSON(s.Out, fail); err != nil {
				return fmt.Errorf("solve: %w", err)
			}
		}
		return failed(fmt.Errorf("%s: %w", path, err))
	case err != nil && ctx.Err() != nil:
		return failed(fmt.Errorf("interrupted: %w", ctx.Err()))
	case err != nil:
		return failed(fmt.Errorf("%s%w", where, flagged(err)))
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(s.Err, "coraopt: warning: %s\n", w)
	}
	if res.Step != nil {
		return writeStep(ctx, s, output, path, req.State, res, o.verify)
	}
	return writeSchedule(s, output, path, o, res)
}

// writeSchedule prints a solve that produced a schedule, with its verification.
func writeSchedule(s Streams, output, path string, o *solveOptions, res *solve.Result) error {
	in := res.Instance
	out := solveResult{
		Status: "optimal", Formulation: res.Formulation, Method: res.Method, Exact: res.Exact,
		Instance: in.Name, Horizon: in.Horizon, HorizonSource: in.HorizonSource,
		Layers: res.Layers, Verification: checkSchedule(res, o.verify), Details: res.Details,
		CORAOutput: res.CORA,
	}
	if res.Backend != "" {
		name := res.Backend
		out.Solver = &name
	}
	js := res.Schedule.JSON(in)
	out.SortedUtilities, out.MinUtility, out.SumUtility = js.SortedUtilities, js.MinUtility, js.SumUtility
	out.Jobs = make([]solveJob, len(js.Jobs))
	for j := range js.Jobs {
		out.Jobs[j].JobScheduleJSON = js.Jobs[j]
		if j < len(res.Jobs) {
			out.Jobs[j].JobExtra = res.Jobs[j]
		}
	}
	if output == "json" {
		if err := writeJSON(s.Out, out); err != nil {
			return fmt.Errorf("solve: %w", err)
		}
	} else if err := writeSolveTable(s.Out, in, out); err != nil {
		return err
	}
	if o.gantt != "" {
		if err := plot.SaveGantt(o.gantt, in, res.Schedule, plot.GanttOptions{}); err != nil {
			return failed(err)
		}
	}
	if res.Failure != nil {
		return failed(fmt.Errorf("%s: %w", path, res.Failure))
	}
	if !out.Verification.OK {
		return failed(fmt.Errorf("%s: the schedule failed its check: %s", path, strings.Join(out.Verification.Problems, "; ")))
	}
	return nil
}

// readInstance decodes and validates an instance file; a validation error prints every
// problem as "path: message" on stderr and exits 2.
func readInstance(s Streams, path string) (*sched.Instance, error) {
	r, name, err := openInput(s, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	in, err := sched.Decode(r)
	var ve *sched.ValidationError
	switch {
	case errors.As(err, &ve):
		fmt.Fprintf(s.Err, "coraopt: %s: invalid instance (%d problems)\n", name, len(ve.Problems))
		for _, p := range ve.Problems {
			fmt.Fprintln(s.Err, p.String())
		}
		return nil, &ExitError{Code: ExitBadUsage}
	case err != nil:
		return nil, usageErr(fmt.Errorf("%s: %w", name, err))
	}
	return in, nil
}

// checkSchedule recomputes what a schedule must satisfy from its allocation alone
// (verify.Solved: capacity per resource and slot, demand — exactly for the CORA
// formulations —, release, max_parallel, completion, utility and sorted vector). With
// --verify it adds the solver points' certificates and, for onion peeling,
// verify.LexmaxCertificate, and lists every check. The formulation's own problems (rs:
// WCDE's cross-checks) fail it too.
func checkSchedule(res *solve.Result, all bool) solveCheck {
	rep := verify.Solved(res, verify.SolvedOptions{All: all})
	c := solveCheck{Checked: strings.Join(rep.Checked, "; ")}
	if all {
		c.Checks = rep.JSON().Checks
	}
	for _, f := range rep.Failures() {
		if len(c.Problems) < 10 {
			c.Problems = append(c.Problems, f.Name+": "+f.Detail)
		}
	}
	c.Problems = append(c.Problems, res.Problems...)
	c.OK = rep.OK() && len(res.Problems) == 0
	c.report = &rep.Report
	return c
}

func writeSolveTable(w io.Writer, in *sched.Instance, out solveResult) error {
	tw := newTable(w)
	how := out.Method
	if out.Solver != nil {
		how += " with " + *out.Solver
	}
	exact := "exact"
	if !out.Exact {
		exact = "not proven exact"
	}
	row(tw, "instance", fmt.Sprintf("%s, %d jobs, horizon %d (%s)", cmpOr(out.Instance, "(unnamed)"), len(out.Jobs), out.Horizon, out.HorizonSource))
	row(tw, "solved", fmt.Sprintf("%s by %s: %s, %s", out.Formulation, how, out.Status, exact))
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	fmt.Fprintln(w)
	order := make([]int, len(out.Jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(out.Jobs[a].Utility, out.Jobs[b].Utility) })
	tw = newTable(w)
	row(tw, "JOB", "COMPLETION", "DEADLINE", "UTILITY")
	for _, i := range order {
		j := out.Jobs[i]
		deadline := "-"
		if d, ok := plot.Deadline(in.Jobs[i].Utility); ok {
			deadline = fmt.Sprintf("%g", d)
		}
		row(tw, j.ID, j.Completion, deadline, fmt.Sprintf("%.6g", j.Utility))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	fmt.Fprintln(w)
	tw = newTable(w)
	row(tw, "min utility", fmt.Sprintf("%.6g", out.MinUtility))
	row(tw, "sum utility", fmt.Sprintf("%.6g", out.SumUtility))
	row(tw, "layers", len(out.Layers))
	check := "ok"
	if !out.Verification.OK {
		check = "FAILED: " + strings.Join(out.Verification.Problems, "; ")
	}
	row(tw, "verification", check)
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	if out.Verification.Checks != nil && out.Verification.report != nil {
		fmt.Fprintln(w)
		return out.Verification.report.WriteTable(w)
	}
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// flagged is err with the request fields that solve's errors name written as this
// command's flags ("method" becomes "--method"); it wraps err.
func flagged(err error) error {
	return &flaggedError{msg: solve.Describe(err, func(f string) string { return "--" + f }), err: err}
}

type flaggedError struct {
	msg string
	err error
}

func (e *flaggedError) Error() string { return e.msg }
func (e *flaggedError) Unwrap() error { return e.err }
