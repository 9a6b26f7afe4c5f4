package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/formulations/rds"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/verify"
)

type verifyOptions struct {
	g           *globalOptions
	formulation string
	solvers     string
	maxMIPSize  int
	timeLimit   time.Duration
	budget      int
	recursive   bool
}

// verifyInstanceJSON is the JSON output for one instance: the report ({"ok", "counts",
// "checks"}) with what was verified.
type verifyInstanceJSON struct {
	File         string   `json:"file"`
	Instance     string   `json:"instance,omitempty"`
	Formulations []string `json:"formulations,omitempty"`
	Solvers      []string `json:"solvers,omitempty"`
	// Error is set for a file that is not a valid instance (its checks are then absent).
	Error string `json:"error,omitempty"`
	// NotInstance is set, with what the file is, for a valid input of another command
	// (an RDS state file): skipped in a directory, exit 2 on its own.
	NotInstance string   `json:"not_an_instance,omitempty"`
	Problems    []string `json:"problems,omitempty"`
	verify.ReportJSON
}

// verifyDirJSON is the JSON output for a directory.
type verifyDirJSON struct {
	OK          bool                 `json:"ok"`
	Summary     verifySummary        `json:"summary"`
	Instances   []verifyInstanceJSON `json:"instances"`
	Interrupted bool                 `json:"interrupted,omitempty"`
}

type verifySummary struct {
	Files     int `json:"files"`
	Verified  int `json:"instances"`
	Invalid   int `json:"invalid"`
	Others    int `json:"not_instances"`
	Checks    int `json:"checks"`
	Failures  int `json:"failures"`
	Skipped   int `json:"skipped"`
	Info      int `json:"informational"`
	FailedIns int `json:"failed_instances"`
}

func newVerifyCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &verifyOptions{g: g}
	cmd := &cobra.Command{
		Use:   "verify FILE|DIR",
		Short: "Solve an instance by every method that applies and prove the answers agree",
		Long: `Verify an instance: run every method that applies to it, recompute certificates from
the answers alone (never trusting a solver's reported status), and cross-check the
methods against each other. Each check is named, passes or fails with its largest
violation, or is skipped with the reason (a skipped check is never counted as a pass).

FILE is an instance (JSON; - for standard input). With a directory, every *.json file
in it is verified (--recursive: and in its subdirectories), with a progress bar on a
terminal (none when piped) and a summary line; Ctrl-C stops after the instance in
progress and prints what finished. RDS state files (coraopt solve --formulation rds)
are not scheduling instances: on their own they are bad input (exit 2) and the message
says to use coraopt solve --formulation rds --verify; in a directory they are skipped
and listed.

What the checks mean (names are <formulation>/<check>):
  .../shape, nonnegative, capacity, demand, release, max-parallel
        the schedule against the instance, from its allocation alone: one job per
        instance job, x >= 0, sum over jobs <= capacity in every slot of every resource,
        sum over slots >= demand (= demand for CORA), nothing before the release slot,
        at most max_parallel units per slot. MAX VIOLATION in units of the resource.
  .../completion, utility, sorted
        the completion slots, utilities U_i(completion), sorted vector, minimum and sum
        the schedule reports, recomputed (slots; utility).
  .../bounds, rows, integrality, row-activity, objective
        a solver's point against its model: column bounds, Ax recomputed against the row
        bounds, integer columns integral, reported row activities and objective equal
        the recomputed ones. The solver's status is shown, never trusted.
  .../reduced-costs, dual-feasibility, complementary-slackness, duality-gap
        an LP's optimality certificate from its duals: d = c - A'y, no multiplier with the
        sign of an infinite bound, every multiplier on an active bound, primal objective
        = dual objective. For a QP: kkt-stationarity, kkt-dual-feasibility,
        kkt-complementarity. A backend without duals gets a skipped "dual" check.
  lexmax-certificate
        the schedule is the lexicographic max-min optimum, proven by max-flow tests
        alone (every job saturated at its utility); fails when a better schedule is
        exhibited, skipped on a stalled layer where saturation does not decide.
  onion-in-mip, onion-vs-mip, lexmax-methods, backends
        onion's schedule is a feasible point of the TAS MIP; the MIP's lexmax has the
        same sorted utility vector; water-filling and exponential weights agree with
        ordered outcomes; every MIP backend confirms onion's minimum as the max-min level.
  mapping-structure, mapping-bound
        Alg. 4's container mapping is well formed, and Theorem 3's bound
        completion <= T_i + R_i holds (information where its conditions do not).
  infeasible
        an instance without a schedule: confirmed by an independent max-flow with a
        Hall witness (jobs whose demand exceeds what their slots can supply) and the
        MIP backends.
  cora/final-vs-exact, final-integrality, backends, linearized-vs-final
        FINAL's decoded schedule against exact CORA's (first differing position and
        both values), FINAL's x integral, every LP backend at the same optimum, Lemma 3.

What runs (--formulation):
  auto (default)  tas, and rs when the instance has runtimes and a "robust" block.
  tas   Onion peeling (rush.txt Alg. 3, exact): its schedule checked against the
        instance (capacity, demand, release, max_parallel, completion and utility
        recomputed); tas/lexmax-certificate proves it optimal by max-flow tests alone
        (every job saturated at its utility), or is skipped on a stalled layer;
        tas/onion-in-mip checks it is a feasible point of the time-indexed MIP. With a
        MIP backend (build tags highs, lpsolve) and a MIP of at most --max-mip-size
        columns: the MIP solved by lexmax (ordered outcomes) with its certificate,
        tas/onion-vs-mip (same sorted utility vector; when onion ran out of --budget the
        MIP must be at least as good), tas/lexmax-methods (water-filling with each
        saturation test and exponential weights agree) and tas/backends (every MIP
        backend's max-min level equals onion's minimum). Single-resource instances also
        get Alg. 4's container mapping: tas/mapping-structure and tas/mapping-bound
        (Theorem 3, completion <= T_i + R_i; where its conditions — constant capacity,
        tasks carrying exactly the demand — do not hold, the excess is information).
        An infeasible instance gets one check, tas/infeasible, confirmed by an
        independent max-flow (with a Hall witness) and the MIP backends.
  rs    Per job with a runtime, WCDE's cross-checks (rs/<job>/wcde/..., bisection vs
        scan, REM closed form vs its Lagrange dual, monotonicity, ...), then the tas
        checks on the worst-case demands, named rs/...
  cora  Exact CORA's schedule (demand met exactly) and its certificate; CORA's FINAL LP
        (cora.txt §II-C) on every LP backend with its primal and dual certificate
        recomputed (cora/final/..., cora/backends: same optimal objective);
        cora/final-integrality (Theorem 1's integral optimum); cora/final-vs-exact;
        cora/linearized-vs-final (Lemma 3). FINAL disagrees with exact CORA on many
        instances (it spreads jobs over as many cells as it can): final-vs-exact then
        FAILS and says where and why. That is a finding about the paper, which is why
        FINAL runs only when asked for.
  all   tas, rs and cora.

Backends (--solvers): by default every one compiled into this binary (coraopt
solvers), HiGHS first; the first able to solve a model is the reference. Every solver
call stops after --time-limit; a check whose solve stopped there is skipped.

Output: a table on a terminal (CHECK, RESULT, MAX VIOLATION, DETAIL), JSON otherwise:
{"ok": ..., "counts": {...}, "checks": [{"name", "status" (pass, fail, skip, info),
"ok", "max_violation", "detail", "reason"}]}; for a directory {"ok", "summary",
"instances": [...]}.

Exit codes:
  0  every check held (skipped and informational checks allowed)
  1  some check failed, or interrupted
  2  bad usage (unknown --formulation or --solvers name, bad flag value), a missing
     file, invalid JSON, an invalid instance or an RDS state file; with a directory:
     1 when any instance has a failed check, else 2 when some file was not a valid
     instance or none was a scheduling instance.

--max-mip-size 0 removes the limit; MIPs above it skip the MIP checks, saying so.`,

		Example: `  coraopt verify testdata/quickstart.json
  coraopt verify testdata/cora/spread.json --formulation cora
  coraopt verify testdata/instances --formulation all -o json | jq .summary
  coraopt verify big.json --solvers highs --max-mip-size 2000`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVerify(cmd.Context(), s, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.formulation, "formulation", "auto", "what to verify: auto, all, or a comma-separated list of "+strings.Join(verify.Suites(g.registry), ", "))
	f.StringVar(&o.solvers, "solvers", "", "comma-separated backends to use (default: every one compiled in; see coraopt solvers)")
	f.IntVar(&o.maxMIPSize, "max-mip-size", verify.DefaultMaxMIPSize, "skip the MIP checks when the TAS MIP has more columns (0: no limit)")
	f.DurationVar(&o.timeLimit, "time-limit", verify.DefaultTimeLimit, "stop each solver call after this long")
	f.IntVar(&o.budget, "budget", 0, "onion peeling's stall branches before deciding by rule (0: its default)")
	f.BoolVar(&o.recursive, "recursive", false, "with a directory, also verify the instances in its subdirectories")
	return cmd
}

// options turns the flags into verify.Options; a usage error for bad values.
func (o *verifyOptions) options() (verify.Options, error) {
	var opt verify.Options
	forms, err := verify.ParseFormulations(o.g.registry, o.formulation)
	if err != nil {
		return opt, usageErrf("--formulation: %v", err)
	}
	opt.Formulations, opt.Registry = forms, o.g.registry
	if o.solvers != "" {
		for _, n := range strings.Split(o.solvers, ",") {
			n = strings.TrimSpace(n)
			if _, err := solvers.Get(n); err != nil {
				return opt, usageErr(fmt.Errorf("--solvers: %w", err))
			}
			opt.Solvers = append(opt.Solvers, n)
		}
	}
	switch {
	case o.maxMIPSize < 0:
		return opt, usageErrf("--max-mip-size %d: must not be negative", o.maxMIPSize)
	case o.maxMIPSize == 0:
		opt.MaxMIPSize = -1
	default:
		opt.MaxMIPSize = o.maxMIPSize
	}
	if o.timeLimit <= 0 {
		return opt, usageErrf("--time-limit %v: must be positive", o.timeLimit)
	}
	if o.budget < 0 {
		return opt, usageErrf("--budget %d: must not be negative", o.budget)
	}
	opt.TimeLimit, opt.Budget = o.timeLimit, o.budget
	return opt, nil
}

func runVerify(ctx context.Context, s Streams, o *verifyOptions, path string) error {
	format, err := o.g.format(s)
	if err != nil {
		return err
	}
	opt, err := o.options()
	if err != nil {
		return err
	}
	if path != "-" {
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			return runVerifyDir(ctx, s, o, opt, format, path)
		}
	}
	in, err := readVerifyInput(s, path)
	if err != nil {
		return err
	}
	rep, err := verify.Instance(ctx, in, opt)
	interrupted := ctx.Err() != nil
	if err != nil && !interrupted {
		return usageErr(err)
	}
	out := instanceJSON(path, in, opt, rep)
	if format == "json" {
		if err := writeJSON(s.Out, out); err != nil {
			return fmt.Errorf("verify: %w", err)
		}
	} else if err := writeVerifyTable(s.Out, out, rep); err != nil {
		return err
	}
	switch {
	case interrupted:
		return failed(fmt.Errorf("%s: interrupted; the checks above are those that finished", path))
	case !rep.OK():
		return failed(fmt.Errorf("%s: %d of %d checks failed", path, len(rep.Failures()), len(rep.Checks)))
	}
	return nil
}

func instanceJSON(path string, in *sched.Instance, opt verify.Options, rep verify.Report) verifyInstanceJSON {
	forms := opt.Formulations
	if forms == nil {
		forms = []string{verify.Auto}
	}
	used := opt.Solvers
	if used == nil {
		used = solvers.Names()
	}
	return verifyInstanceJSON{File: path, Instance: in.Name, Formulations: forms, Solvers: used, ReportJSON: rep.JSON()}
}

func writeVerifyTable(w io.Writer, out verifyInstanceJSON, rep verify.Report) error {
	tw := newTable(w)
	row(tw, "instance", cmpOr(out.Instance, "(unnamed)")+" ("+out.File+")")
	row(tw, "formulations", strings.Join(out.Formulations, ", "))
	row(tw, "solvers", strings.Join(out.Solvers, ", "))
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	fmt.Fprintln(w)
	return rep.WriteTable(w)
}

// instanceFiles lists the *.json files of dir (and of its subdirectories when recursive),
// sorted.
func instanceFiles(dir string, recursive bool) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && !recursive {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".json") {
			files = append(files, p)
		}
		return nil
	})
	slices.Sort(files)
	return files, err
}

func runVerifyDir(ctx context.Context, s Streams, o *verifyOptions, opt verify.Options, format, dir string) error {
	files, err := instanceFiles(dir, o.recursive)
	if err != nil {
		return usageErr(fmt.Errorf("verify: %w", err))
	}
	if len(files) == 0 {
		return usageErrf("%s: no *.json files", dir)
	}
	var bar *progressbar.ProgressBar
	if s.IsTerminal {
		bar = progressbar.NewOptions(len(files), progressbar.OptionSetWriter(s.Err),
			progressbar.OptionSetDescription("verify"), progressbar.OptionClearOnFinish(), progressbar.OptionShowCount())
	}
	out := verifyDirJSON{OK: true, Summary: verifySummary{Files: len(files)}}
	for _, f := range files {
		if ctx.Err() != nil {
			out.Interrupted = true
			break
		}
		if bar != nil {
			bar.Describe("verify " + filepath.Base(f))
		}
		one := verifyFile(ctx, opt, f)
		if ctx.Err() != nil {
			out.Interrupted = true // the instance in progress did not finish: leave it out
			break
		}
		sum := &out.Summary
		switch {
		case one.NotInstance != "":
			sum.Others++
		case one.Error != "":
			sum.Invalid++
		default:
			sum.Verified++
			sum.Checks += one.Counts.Checks
			sum.Failures += one.Counts.Failed
			sum.Skipped += one.Counts.Skipped
			sum.Info += one.Counts.Info
			if !one.OK {
				sum.FailedIns++
			}
		}
		out.OK = out.OK && one.OK && one.Error == ""
		out.Instances = append(out.Instances, one)
		if bar != nil {
			_ = bar.Add(1)
		}
	}
	if bar != nil {
		_ = bar.Finish()
	}
	if out.Interrupted {
		out.OK = false
	}
	if format == "json" {
		if err := writeJSON(s.Out, out); err != nil {
			return fmt.Errorf("verify: %w", err)
		}
	} else if err := writeVerifyDirTable(s.Out, out); err != nil {
		return err
	}
	sum := out.Summary
	switch {
	case out.Interrupted:
		return failed(fmt.Errorf("%s: interrupted after %d of %d files", dir, len(out.Instances), sum.Files))
	case sum.FailedIns > 0:
		return failed(fmt.Errorf("%s: %d of %d instances have failed checks", dir, sum.FailedIns, sum.Verified))
	case sum.Invalid > 0:
		return usageErrf("%s: %d of %d files are not valid instances", dir, sum.Invalid, sum.Files)
	case sum.Verified == 0:
		return usageErrf("%s: none of its %d files is a scheduling instance", dir, sum.Files)
	}
	return nil
}

// verifyFile verifies one file of a directory; an invalid file is reported in the
// result, not as an error.
func verifyFile(ctx context.Context, opt verify.Options, path string) verifyInstanceJSON {
	bad := func(err error) verifyInstanceJSON {
		out := verifyInstanceJSON{File: path, Error: err.Error()}
		var ve *sched.ValidationError
		if errors.As(err, &ve) {
			out.Error = fmt.Sprintf("invalid instance (%d problems)", len(ve.Problems))
			for _, p := range ve.Problems {
				out.Problems = append(out.Problems, p.String())
			}
		}
		return out
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return bad(err)
	}
	in, err := sched.Parse(data)
	if err != nil {
		if reason := notAnInstance(data); reason != "" {
			return verifyInstanceJSON{File: path, NotInstance: reason, ReportJSON: verify.ReportJSON{OK: true, Checks: []verify.CheckJSON{}}}
		}
		return bad(err)
	}
	rep, err := verify.Instance(ctx, in, opt)
	if err != nil && ctx.Err() == nil {
		return bad(err)
	}
	return instanceJSON(path, in, opt, rep)
}

// notAnInstance recognizes files that are valid inputs of another command but not
// scheduling instances, and says what they are: RDS state files (formulations/rds;
// coraopt solve --formulation rds). "" when data is not one.
func notAnInstance(data []byte) string {
	if _, err := rds.Parse(data); err == nil {
		return "an RDS state file (formulations/rds), not a scheduling instance: verify its QP with coraopt solve --formulation rds --verify"
	}
	return ""
}

// readVerifyInput decodes and validates the instance at path ("-": standard input). A
// file that is not an instance is bad input (exit 2): an RDS state file says what it
// is and how to verify it; any other prints every validation problem on stderr.
func readVerifyInput(s Streams, path string) (*sched.Instance, error) {
	r, name, err := openInput(s, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, usageErr(fmt.Errorf("%s: %w", name, err))
	}
	in, err := sched.Parse(data)
	if err == nil {
		return in, nil
	}
	if reason := notAnInstance(data); reason != "" {
		return nil, usageErrf("%s: %s", name, reason)
	}
	var ve *sched.ValidationError
	if errors.As(err, &ve) {
		fmt.Fprintf(s.Err, "coraopt: %s: invalid instance (%d problems)\n", name, len(ve.Problems))
		for _, p := range ve.Problems {
			fmt.Fprintln(s.Err, p.String())
		}
		return nil, &ExitError{Code: ExitBadUsage}
	}
	return nil, usageErr(fmt.Errorf("%s: %w", name, err))
}

func writeVerifyDirTable(w io.Writer, out verifyDirJSON) error {
	tw := newTable(w)
	row(tw, "FILE", "RESULT", "CHECKS", "FAILED", "SKIPPED", "INFO")
	for _, in := range out.Instances {
		switch {
		case in.NotInstance != "":
			row(tw, in.File, "not an instance", "-", "-", "-", "-")
		case in.Error != "":
			row(tw, in.File, "INVALID", "-", "-", "-", "-")
		default:
			result := "ok"
			if !in.OK {
				result = "FAIL"
			}
			row(tw, in.File, result, in.Counts.Checks, in.Counts.Failed, in.Counts.Skipped, in.Counts.Info)
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	var details []string
	for _, in := range out.Instances {
		if in.NotInstance != "" {
			details = append(details, fmt.Sprintf("%s: skipped: %s", in.File, in.NotInstance))
		}
		if in.Error != "" {
			details = append(details, fmt.Sprintf("%s: %s", in.File, strings.Join(append([]string{in.Error}, in.Problems...), "; ")))
		}
		for _, c := range in.Checks {
			if c.Status == "fail" {
				details = append(details, fmt.Sprintf("%s: %s: %s", in.File, c.Name, c.Detail))
			}
		}
	}
	if len(details) > 0 {
		fmt.Fprintln(w)
		for _, d := range details {
			fmt.Fprintln(w, d)
		}
	}
	sum := out.Summary
	line := fmt.Sprintf("\n%d instances, %d checks, %d failures, %d skipped", sum.Verified, sum.Checks, sum.Failures, sum.Skipped)
	if sum.Invalid > 0 {
		line += fmt.Sprintf(", %d invalid files", sum.Invalid)
	}
	if sum.Others > 0 {
		line += fmt.Sprintf(", %d files skipped (not scheduling instances)", sum.Others)
	}
	if out.Interrupted {
		line += fmt.Sprintf("; interrupted after %d of %d files", len(out.Instances), sum.Files)
	}
	_, err := fmt.Fprintln(w, line)
	return err
}
