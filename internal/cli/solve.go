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
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/plot"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/certificate"
	"github.com/coraopt/coraopt/verify"
)

type solveOptions struct {
	g           *globalOptions
	formulation string
	method      string
	solver      string
	solverSet   bool
	budget      int
	lexmax      string // mip: lexmax method
	saturation  string // mip: water-filling saturation test
	timeLimit   time.Duration
	gantt       string
	verify      bool
	cora        coraOptions
	rs          rsFlags // --theta, --delta, --bins for --formulation rs
}

// solveResult is the JSON output of `coraopt solve` when a schedule was found.
type solveResult struct {
	Status          string       `json:"status"`
	Formulation     string       `json:"formulation"`
	Method          string       `json:"method"`
	Solver          *string      `json:"solver"`
	Exact           bool         `json:"exact"`
	Instance        string       `json:"instance"`
	Horizon         int          `json:"horizon"`
	HorizonSource   string       `json:"horizon_source"`
	Jobs            []solveJob   `json:"jobs"`
	SortedUtilities []float64    `json:"sorted_utilities"`
	MinUtility      float64      `json:"min_utility"`
	SumUtility      float64      `json:"sum_utility"`
	Layers          []solveLayer `json:"layers"`
	Verification    solveCheck   `json:"verification"`
	// Details says how the method got there (onion: engine, feasibility tests, stalls).
	Details any `json:"details,omitempty"`
	// The CORA formulations add objective, k, scale, warnings and fractional.
	*coraOutput
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

type solveLayer struct {
	Level float64  `json:"level"`
	Jobs  []string `json:"jobs"`
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

// solved is what a formulation's solver hands back to the command.
type solved struct {
	schedule *sched.Schedule
	method   string  // the method that ran ("onion", "mip")
	solver   *string // backend, nil for a fast path
	exact    bool
	layers   []solveLayer
	details  any
	cora     *coraOutput
	fail     error // reported after the output (exit 1), e.g. a fractional LP solution
	// A formulation that solves a derived instance (rs: demands η) returns it here; the
	// output and the self-check then use it. decorate adds a formulation's per-job fields;
	// checked and problems extend the self-check.
	instance *sched.Instance
	decorate func(j int, out *solveJob)
	checked  string
	problems []string
	// problem and solution are the model the solver solved and its point (--method mip:
	// the last lexmax solve; cora-final, cora-linearized: the LP), certified by --verify.
	problem  *model.Problem
	solution *solvers.Solution
}

// solveJob is one job of the output: its schedule, and what a formulation adds.
type solveJob struct {
	sched.JobScheduleJSON
	// rs: the worst-case demand η scheduled (container-slots), and the reference
	// θ-quantile; absent for jobs without a runtime.
	Eta               *int64 `json:"eta,omitempty"`
	ReferenceQuantile *int64 `json:"reference_quantile,omitempty"`
}

// errNoSchedule marks an instance without any feasible schedule (exit 1).
type errNoSchedule struct{ err error }

func (e *errNoSchedule) Error() string { return e.err.Error() }
func (e *errNoSchedule) Unwrap() error { return e.err }

// formulationSolver solves one formulation of an instance. A new formulation is a new
// file with one of these and a case in formulationFor.
type formulationSolver func(ctx context.Context, o *solveOptions, in *sched.Instance) (*solved, error)

// formulationFor returns the solver of a formulation.
func formulationFor(name string) (formulationSolver, bool) {
	switch name {
	case "tas":
		return solveTAS, true
	case "cora-final":
		return solveCORAFinal, true
	case "cora-linearized":
		return solveCORALinearized, true
	case "cora":
		return solveCORAExact, true
	case "rs":
		return solveRS, true
	}
	return nil, false
}

// formulationNames lists the formulations this binary solves.
const formulationNames = "tas, rs, cora, cora-final, cora-linearized, rds"

func newSolveCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &solveOptions{g: g}
	cmd := &cobra.Command{
		Use:   "solve FILE",
		Short: "Solve a scheduling instance: completion slots, utilities and the allocation, verified",
		Long: `Read an instance file (JSON; see the README for the format) and compute the allocation
that is lexicographically max-min fair in the jobs' utilities of completion time, with
each job's completion slot and utility, then check it against the instance.

FILE is a path, or - for standard input.

Formulation (--formulation):
  tas   RUSH's time-aware scheduling (rush.txt §III-B): integral units of each resource
        per job and slot within capacity, every job gets its full demand by the
        horizon, and the sorted vector of utilities U_i(completion slot) is maximized
        lexicographically — the worst-off job first, then the next, and so on.
        Release times and max_parallel caps are honoured.
  cora  CORA (cora.txt §II, problem (1)-(5)) solved exactly: the same lexmax with
        Σ_t x = demand, by onion peeling.
  cora-final
        CORA's FINAL LP (cora.txt §II-C) as the paper writes it, solved with --solver:
        minimize Σ over job×slot×resource cells of 1 (empty) or k^-u (used), with
        integer utilities u = round(--scale·U) and k = jobs·slots·resources (--k).
        Prints objective, k, scale, warnings (the numerics guard: weights k^-u that
        underflow or that the solver cannot tell apart; --strict makes them exit 2)
        and fractional x if any. "exact" is true when the schedule equals exact
        CORA's sorted utilities (checked by onion peeling; details.exact_cora says
        why not: FINAL fills as many cells as it can, so it spreads jobs out).
  cora-linearized
        Linearized-CORA (cora.txt §II-B3): FINAL with one λ per unit of capacity;
        the same LP optimum (Lemma 3), refused when large.
  rs    RUSH's robust scheduling (rush.txt §III): each job with a "runtime" needs its
        worst-case demand eta, the largest theta-quantile of any distribution within KL
        divergence delta of its reference runtime distribution (REM closed form, Alg. 1;
        bisection, Alg. 2); then tas on the eta, then Alg. 4's mapping to container
        queues. theta, delta and bins come from the instance's "robust" block or
        --theta, --delta, --bins. Single-resource instances only. The output adds
        jobs[].eta and jobs[].reference_quantile; the self-check is against the eta.
` + rdsHelp + `

Methods (--method):
  auto   onion for tas, rs and cora, lp for cora-final and cora-linearized.
  onion  Onion peeling (rush.txt Alg. 3, made exact): find the highest utility level all
         jobs can reach together, fix the jobs that cannot rise above it, repeat. Levels
         are searched among the utility values themselves, so the answer is exact; when
         tied values leave a level with no job to fix, every choice is explored within
         --budget branches (past it a fixed rule decides and "exact" is false). Pure Go,
         no solver needed; 10^5 jobs in about a second.
  mip    The time-indexed MIP (one completion-slot binary per job and slot) solved
         lexicographically by package lexmax with --solver: an independent reference for
         small instances. --lexmax ordered (default; exact on any MIP), waterfill
         (with --saturation probe|duals|milp; hands over to ordered when it stalls) or
         expweights (CORA's single weighted solve; refused when the weights cannot be
         told apart by the solver).
  lp     Solve the LP with --solver (default highs when compiled in, else simplex,
         else gonum).

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
			o.solverSet = cmd.Flags().Changed("solver")
			return runSolve(cmd.Context(), s, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.formulation, "formulation", "tas", "formulation to solve: "+formulationNames)
	f.StringVar(&o.method, "method", "auto", "method: auto, onion, mip or lp")
	f.StringVar(&o.solver, "solver", "", "backend: MIP for tas --method mip (default highs when compiled in), LP for cora-final/cora-linearized (default highs, else simplex), QP for rds (default qp); see coraopt solvers")
	f.StringVar(&o.lexmax, "lexmax", "ordered", "mip: lexicographic method: ordered, waterfill or expweights")
	f.StringVar(&o.saturation, "saturation", "probe", "mip with --lexmax waterfill: saturation test: probe, duals or milp")
	f.IntVar(&o.budget, "budget", tas.DefaultMaxBranches, "onion: stall branches to explore before deciding by rule (0: never branch)")
	f.DurationVar(&o.timeLimit, "time-limit", 0, "mip and rds: stop each solver call after this long (e.g. 30s); 0 means no limit")
	f.StringVar(&o.gantt, "gantt", "", "also draw the allocation to this file (.svg, .png, .pdf, …)")
	f.BoolVar(&o.verify, "verify", false, "attach the verify checks: the schedule's, the solver point's LP/MIP certificate (mip, cora-final, cora-linearized), onion's max-flow certificate; rds: the QP's KKT residuals (see coraopt verify --help)")
	addCORAFlags(f, &o.cora)
	o.rs.register(cmd)
	return cmd
}

func runSolve(ctx context.Context, s Streams, o *solveOptions, path string) error {
	output, err := o.g.format(s)
	if err != nil {
		return err
	}
	if o.formulation == "rds" { // a state file, not an instance: solve_rds.go
		return solveRDS(ctx, s, o, output, path)
	}
	solve, ok := formulationFor(o.formulation)
	if !ok {
		return usageErrf("--formulation %q: unknown (this binary solves: %s)", o.formulation, formulationNames)
	}
	if o.budget < 0 {
		return usageErrf("--budget %d: must not be negative", o.budget)
	}
	if name, ok := o.rs.anySet(); ok && o.formulation != "rs" {
		return usageErrf("--%s applies to --formulation rs", name)
	}
	if o.timeLimit < 0 {
		return usageErrf("--time-limit %v: must not be negative", o.timeLimit)
	}
	if o.gantt != "" {
		if _, err := plot.FormatOf(o.gantt); err != nil {
			return usageErr(err)
		}
	}
	in, err := readInstance(s, path)
	if err != nil {
		return err
	}
	res, err := solve(ctx, o, in)
	var none *errNoSchedule
	switch {
	case errors.As(err, &none):
		fail := solveFailure{Status: "infeasible", Formulation: o.formulation, Method: o.method, Instance: in.Name, Message: none.Error()}
		if output == "json" {
			if err := writeJSON(s.Out, fail); err != nil {
				return fmt.Errorf("solve: %w", err)
			}
		}
		return failed(fmt.Errorf("%s: %w", path, none.err))
	case err != nil:
		return err
	}
	if res.instance != nil {
		in = res.instance
	}
	out := solveResult{
		Status: "optimal", Formulation: o.formulation, Method: res.method, Solver: res.solver, Exact: res.exact,
		Instance: in.Name, Horizon: in.Horizon, HorizonSource: in.HorizonSource,
		Layers: res.layers, Verification: checkSchedule(in, res.schedule, o.formulation, res, o.verify), Details: res.details,
		coraOutput: res.cora,
	}
	if res.cora != nil {
		for _, w := range res.cora.Warnings {
			fmt.Fprintf(s.Err, "coraopt: warning: %s\n", w)
		}
	}
	if res.checked != "" {
		out.Verification.Checked += "; " + res.checked
	}
	if len(res.problems) > 0 {
		out.Verification.OK, out.Verification.Problems = false, append(out.Verification.Problems, res.problems...)
	}
	js := res.schedule.JSON(in)
	out.SortedUtilities, out.MinUtility, out.SumUtility = js.SortedUtilities, js.MinUtility, js.SumUtility
	out.Jobs = make([]solveJob, len(js.Jobs))
	for j := range js.Jobs {
		out.Jobs[j].JobScheduleJSON = js.Jobs[j]
		if res.decorate != nil {
			res.decorate(j, &out.Jobs[j])
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
		if err := plot.SaveGantt(o.gantt, in, res.schedule, plot.GanttOptions{}); err != nil {
			return failed(err)
		}
	}
	if res.fail != nil {
		return failed(fmt.Errorf("%s: %w", path, res.fail))
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

// solveTAS solves the TAS formulation.
func solveTAS(ctx context.Context, o *solveOptions, in *sched.Instance) (*solved, error) {
	method := o.method
	if method == "auto" {
		method = "onion"
	}
	switch method {
	case "onion":
		if o.solverSet {
			return nil, usageErrf("--solver applies to --method mip; onion peeling needs no solver")
		}
		return solveTASOnion(ctx, o, in)
	case "mip":
		return solveTASMIP(ctx, o, in)
	}
	return nil, usageErrf("--method %q: want auto, onion or mip", o.method)
}

// onionDetails is the "details" object of an onion-peeling run.
type onionDetails struct {
	Engine       string  `json:"engine"`
	Oracle       string  `json:"oracle,omitempty"`
	HandOver     string  `json:"hand_over,omitempty"`
	Probes       int     `json:"feasibility_tests,omitempty"`
	Stalls       int     `json:"stalls"`
	Branches     int     `json:"branches"`
	RuleChoices  int     `json:"rule_choices"`
	Blocking     int     `json:"blocking_slots,omitempty"`
	Evaluations  int64   `json:"utility_evaluations,omitempty"`
	Rollbacks    int     `json:"rollbacks,omitempty"`
	SolveSeconds float64 `json:"solve_seconds"`
}

func solveTASOnion(ctx context.Context, o *solveOptions, in *sched.Instance) (*solved, error) {
	budget := o.budget
	if budget == 0 {
		budget = -1 // the flag's 0 means never branch
	}
	start := time.Now()
	res, err := tas.OnionPeel(ctx, in, tas.Options{MaxBranches: budget})
	switch {
	case errors.Is(err, tas.ErrInfeasible):
		return nil, &errNoSchedule{err}
	case ctx.Err() != nil:
		return nil, failed(fmt.Errorf("interrupted: %w", ctx.Err()))
	case err != nil:
		return nil, failed(err)
	}
	st := res.Stats
	return &solved{
		schedule: res.Schedule, method: "onion", exact: res.Exact, layers: layersOf(in, res.Layers),
		details: onionDetails{Engine: st.Engine, Oracle: st.Oracle, HandOver: st.HandOver, Probes: st.Probes,
			Stalls: st.Stalls, Branches: st.Branches, RuleChoices: st.RuleChoices, Blocking: st.BlockingSlots,
			Evaluations: st.Evaluations, Rollbacks: st.Rollbacks, SolveSeconds: time.Since(start).Seconds()},
	}, nil
}

func layersOf(in *sched.Instance, ls []tas.Layer) []solveLayer {
	out := make([]solveLayer, len(ls))
	for k, l := range ls {
		ids := make([]string, len(l.Jobs))
		for i, j := range l.Jobs {
			ids[i] = in.Jobs[j].ID
		}
		out[k] = solveLayer{Level: l.Level, Jobs: ids}
	}
	return out
}

// checkSchedule recomputes what a schedule must satisfy from its allocation alone
// (verify.Schedule: capacity per resource and slot, demand — exactly for the CORA
// formulations —, release, max_parallel, completion, utility and sorted vector). With
// --verify it adds the solver point's certificate (verify.Certificate) and, for onion
// peeling, verify.LexmaxCertificate, and lists every check.
func checkSchedule(in *sched.Instance, s *sched.Schedule, formulation string, res *solved, all bool) solveCheck {
	exact := strings.HasPrefix(formulation, "cora")
	rep := verify.Schedule(in, s, verify.ScheduleOptions{ExactDemand: exact}).Prefixed("schedule")
	c := solveCheck{Checked: "capacity, demand, release, max_parallel, completion and utility recomputed from the allocation"}
	if exact {
		c.Checked = strings.Replace(c.Checked, "demand", "demand (exactly)", 1)
	}
	if all {
		if res.problem != nil && res.solution != nil {
			rep.Merge(verify.Certificate(res.problem, res.solution, certificate.Tolerances{}).Prefixed("certificate"))
			c.Checked += "; the solver's point certified (bounds, rows, integrality, objective; duals where returned)"
		}
		if res.method == "onion" {
			rep.Add(verify.LexmaxCertificate("lexmax-certificate", in, s, 0))
			c.Checked += "; lexmax optimality by max-flow saturation tests"
		}
		js := rep.JSON()
		c.Checks = js.Checks
	}
	for _, f := range rep.Failures() {
		if len(c.Problems) < 10 {
			c.Problems = append(c.Problems, f.Name+": "+f.Detail)
		}
	}
	c.OK = rep.OK()
	c.report = &rep
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
