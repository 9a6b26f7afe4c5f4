package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/formulations/rs"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
)

// rsFlags are RS's robustness flags, shared by every command that computes η (solve
// --formulation rs, rs-demands): they override the instance's robust block.
type rsFlags struct {
	theta, delta float64
	bins         int
	set          func(name string) bool
}

func (f *rsFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.Float64Var(&f.theta, "theta", 0, "rs: quantile theta in (0, 1) (overrides the instance's robust.theta)")
	fs.Float64Var(&f.delta, "delta", 0, "rs: KL budget delta >= 0 (overrides robust.delta)")
	fs.IntVar(&f.bins, "bins", 0, "rs: bins for estimated runtime distributions (overrides robust.bins; default 256)")
	f.set = fs.Changed
}

// options are the flags that were set, as solve.RSOptions.
func (f *rsFlags) options() solve.RSOptions {
	var o solve.RSOptions
	if f.set("theta") {
		o.Theta = &f.theta
	}
	if f.set("delta") {
		o.Delta = &f.delta
	}
	if f.set("bins") {
		o.Bins = &f.bins
	}
	return o
}

// params merges the flags that were set with the instance's robust block
// (solve.RSParams).
func (f *rsFlags) params(inst *sched.Instance) (rs.Params, error) {
	p, err := solve.RSParams(inst, f.options())
	if err != nil {
		return p, usageErr(flagged(err))
	}
	return p, nil
}

type rsCoverageOptions struct {
	g        *globalOptions
	cfg      rs.CoverageConfig
	samples  string // same | independent
	metric   string
	progress bool
}

// rsCoverageJSON is the JSON output of rs-coverage.
type rsCoverageJSON struct {
	Theta    float64             `json:"theta"`
	Reps     int                 `json:"reps"`
	Seed     uint64              `json:"seed"`
	Tasks    int                 `json:"tasks"`
	TaskMean float64             `json:"task_mean"`
	TaskStd  float64             `json:"task_std"`
	Samples  string              `json:"samples"`
	Bins     int                 `json:"bins,omitempty"`
	Width    float64             `json:"bin_width,omitempty"`
	TrueMean float64             `json:"true_mean"`
	TrueStd  float64             `json:"true_std"`
	Ks       []int               `json:"ks"`
	Deltas   []float64           `json:"deltas"`
	Cells    [][]rs.CoverageCell `json:"cells"`
	Claims   []rs.Claim          `json:"claims"`
}

var rsCoverageMetrics = []string{"coverage", "cond", "guaranteed", "model", "eta"}

func newRSCoverageCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &rsCoverageOptions{g: g, cfg: rs.DefaultCoverageConfig()}
	cmd := &cobra.Command{
		Use:   "rs-coverage",
		Short: "Monte-Carlo check of RS's worst-case demand (RUSH §V-A, Fig. 3 in numbers)",
		Long: `Run the robustness experiment of RUSH §V-A (Fig. 3): a job of --tasks tasks whose runtimes
are Gaussian (--task-mean, --task-std slots), so its true total demand v is their sum. The
empirical (Gaussian, CLT) estimator sees k task runtimes, WCDE turns the reference into the
worst-case demand eta at (theta, delta), and the table gives, for every k and delta, the
fraction of --reps repetitions with eta >= v.

--samples same takes the k samples from the job's own first k tasks (the paper's setting:
the estimator learns from completed tasks); --samples independent takes them from a
separate run. Every cell uses the same repetitions (seeded by --seed), so coverage never
decreases along a row.

--metric chooses the table's numbers: coverage (fraction with eta >= v), cond (mean of
P(v <= eta | samples seen), the same expectation with less noise), guaranteed (fraction of
runs where that probability is >= theta), model (closed form: Student's t with k-1 degrees
of freedom), eta (mean eta). JSON output has all of them, and the paper's two claims
checked against the table.`,
		Example: `  coraopt rs-coverage --theta 0.9 --reps 2000 --seed 1 -o table
  coraopt rs-coverage --samples independent --k 5,25,35,100 --delta 0,0.7,2 -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runRSCoverage(cmd, s, o) },
	}
	f := cmd.Flags()
	f.Float64Var(&o.cfg.Theta, "theta", o.cfg.Theta, "quantile theta in (0, 1)")
	f.IntVar(&o.cfg.Reps, "reps", o.cfg.Reps, "repetitions per cell")
	f.Uint64Var(&o.cfg.Seed, "seed", o.cfg.Seed, "random seed")
	f.IntSliceVar(&o.cfg.Ks, "k", o.cfg.Ks, "sample counts k, each in [2, tasks]")
	f.Float64SliceVar(&o.cfg.Deltas, "delta", o.cfg.Deltas, "KL budgets delta >= 0")
	f.IntVar(&o.cfg.Tasks, "tasks", o.cfg.Tasks, "tasks in the job")
	f.Float64Var(&o.cfg.TaskMean, "task-mean", o.cfg.TaskMean, "true mean task runtime (slots)")
	f.Float64Var(&o.cfg.TaskStd, "task-std", o.cfg.TaskStd, "true standard deviation of a task runtime (slots)")
	f.IntVar(&o.cfg.Bins, "bins", 0, "quantize into at most this many bins of whole container-slots (default: --bin-width)")
	f.Float64Var(&o.cfg.Width, "bin-width", o.cfg.Width, "bin width in container-slots (ignored when --bins is set)")
	f.StringVar(&o.samples, "samples", "same", "where the k samples come from: same (the job's first k tasks) or independent")
	f.StringVar(&o.metric, "metric", "coverage", "table numbers: "+strings.Join(rsCoverageMetrics, ", "))
	f.BoolVar(&o.progress, "progress", false, "show a progress bar on stderr (default: when stdout is a terminal)")
	return cmd
}

func runRSCoverage(cmd *cobra.Command, s Streams, o *rsCoverageOptions) error {
	format, err := o.g.format(s)
	if err != nil {
		return err
	}
	switch o.samples {
	case "same":
		o.cfg.Independent = false
	case "independent":
		o.cfg.Independent = true
	default:
		return usageErrf("--samples %q: want same or independent", o.samples)
	}
	if !slices.Contains(rsCoverageMetrics, o.metric) {
		return usageErrf("--metric %q: want one of %s", o.metric, strings.Join(rsCoverageMetrics, ", "))
	}
	if o.cfg.Bins != 0 {
		o.cfg.Width = 0
	}
	cfg := o.cfg
	if o.progress || (s.IsTerminal && !cmd.Flags().Changed("progress")) {
		bar := progressbar.NewOptions(cfg.Reps, progressbar.OptionSetWriter(s.Err),
			progressbar.OptionSetDescription("rs-coverage"), progressbar.OptionClearOnFinish())
		cfg.Progress = func(int) { _ = bar.Add(1) }
		defer func() { _ = bar.Finish() }()
	}
	res, err := rs.Coverage(cmd.Context(), cfg)
	if err != nil {
		if ctxErr := cmd.Context().Err(); ctxErr != nil {
			return failed(ctxErr)
		}
		return usageErr(err)
	}
	if format == "json" {
		return writeJSON(s.Out, rsCoverageJSON{
			Theta: cfg.Theta, Reps: cfg.Reps, Seed: cfg.Seed, Tasks: cfg.Tasks,
			TaskMean: cfg.TaskMean, TaskStd: cfg.TaskStd, Samples: o.samples,
			Bins: cfg.Bins, Width: cfg.Width, TrueMean: res.TrueMean, TrueStd: res.TrueStd,
			Ks: cfg.Ks, Deltas: cfg.Deltas, Cells: res.Cells, Claims: res.Claims,
		})
	}
	writeRSCoverageTable(s.Out, res, o.samples, o.metric)
	return nil
}

func writeRSCoverageTable(w io.Writer, res *rs.CoverageResult, samples, metric string) {
	cfg := res.Config
	src := "the job's own first k tasks"
	if samples == "independent" {
		src = "an independent run"
	}
	binning := fmt.Sprintf("bin width %g container-slots", cfg.Width)
	if cfg.Bins != 0 {
		binning = fmt.Sprintf("at most %d bins", cfg.Bins)
	}
	fmt.Fprintf(w, "%s, theta=%g: %d tasks ~ N(%g, %g²) slots, v ~ N(%g, %g²); %d reps, seed %d; samples from %s; %s\n",
		metricTitle(metric), cfg.Theta, cfg.Tasks, cfg.TaskMean, cfg.TaskStd, res.TrueMean, res.TrueStd,
		cfg.Reps, cfg.Seed, src, binning)
	tw := newTable(w)
	head := []any{"k \\ delta"}
	for _, d := range cfg.Deltas {
		head = append(head, fmt.Sprintf("%g", d))
	}
	row(tw, head...)
	for i, k := range cfg.Ks {
		cells := []any{k}
		for _, c := range res.Cells[i] {
			cells = append(cells, metricValue(c, metric))
		}
		row(tw, cells...)
	}
	_ = tw.Flush()
	for _, c := range res.Claims {
		verdict := "holds"
		switch {
		case !c.Checked:
			verdict = "not checked (no such cell)"
		case !c.Holds:
			verdict = "does NOT hold"
		}
		fmt.Fprintf(w, "paper: %s — %s (%s)\n", c.Statement, verdict, c.Detail)
	}
}

func metricTitle(metric string) string {
	switch metric {
	case "cond":
		return "mean P(v <= eta | samples)"
	case "guaranteed":
		return "fraction of runs with P(v <= eta | samples) >= theta"
	case "model":
		return "closed-form coverage (Student t)"
	case "eta":
		return "mean eta (container-slots)"
	}
	return "coverage P(v <= eta)"
}

func metricValue(c rs.CoverageCell, metric string) string {
	switch metric {
	case "cond":
		return fmt.Sprintf("%.4f", c.CondCoverage)
	case "guaranteed":
		return fmt.Sprintf("%.4f", c.Guaranteed)
	case "model":
		return fmt.Sprintf("%.4f", c.Model)
	case "eta":
		return fmt.Sprintf("%.1f", c.MeanEta)
	}
	return fmt.Sprintf("%.4f", c.Coverage)
}

type rsDemandsOptions struct {
	g     *globalOptions
	flags rsFlags
	check bool
}

// rsDemandJSON is one job of rs-demands' JSON output: the same report solve
// --formulation rs gives in details.demands.
type rsDemandJSON = solve.RSDemand

type rsCheckJSON struct {
	Name         string  `json:"name"`
	OK           bool    `json:"ok"`
	MaxViolation float64 `json:"max_violation"`
	Detail       string  `json:"detail"`
}

type rsDemandsJSON struct {
	Instance string         `json:"instance"`
	Theta    float64        `json:"theta"`
	Delta    float64        `json:"delta"`
	Bins     int            `json:"bins"`
	Jobs     []rsDemandJSON `json:"jobs"`
	OK       *bool          `json:"ok,omitempty"`
	Checks   []rsCheckJSON  `json:"checks,omitempty"`
}

func newRSDemandsCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &rsDemandsOptions{g: g}
	cmd := &cobra.Command{
		Use:   "rs-demands FILE",
		Short: "Worst-case demands eta of RS (RUSH §III-A: REM closed form + WCDE bisection) for an instance",
		Long: `Compute, for every job of a single-resource instance, the worst-case demand eta that RS
schedules (RUSH §III-A): the largest theta-quantile of any distribution within KL divergence
delta of the job's reference runtime distribution, in container-slots. Jobs without a
"runtime" keep their demand; eta is at least 1.

theta, delta and bins come from the instance's "robust" block; --theta, --delta and --bins
override it. References: impulse (mean x tasks), gaussian (CLT over tasks), empirical
(sample mean and variance, CLT), pmf (explicit bins; bin 0 is v <= 0, bin l is
((l-1)w, lw]). eta is the upper edge of the worst-case bin, rounded up.

--check runs the cross-checks verify uses (bisection vs scan, the b*-quantile, REM's
closed form vs its Lagrange dual, monotonicity, the worst-case distribution) and exits 1
if any fails.`,
		Example: `  coraopt rs-demands testdata/instances/runtime-robust.json -o table
  coraopt rs-demands instance.json --theta 0.95 --delta 1 --check -o json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runRSDemands(cmd, s, o, args[0]) },
	}
	o.flags.register(cmd)
	cmd.Flags().BoolVar(&o.check, "check", false, "run the WCDE cross-checks; exit 1 if any fails")
	return cmd
}

func runRSDemands(cmd *cobra.Command, s Streams, o *rsDemandsOptions, path string) error {
	format, err := o.g.format(s)
	if err != nil {
		return err
	}
	in, name, err := openInput(s, path)
	if err != nil {
		return err
	}
	defer in.Close()
	inst, err := sched.Decode(in)
	if err != nil {
		return usageErrf("%s: %w", name, err)
	}
	p, err := o.flags.params(inst)
	if err != nil {
		return err
	}
	ds, err := rs.Demands(inst, p)
	if err != nil {
		return usageErr(err)
	}
	out := rsDemandsJSON{Instance: inst.Name, Theta: p.Theta, Delta: p.Delta, Bins: p.Bins}
	if out.Bins == 0 {
		out.Bins = rs.DefaultBins
	}
	for _, d := range ds {
		out.Jobs = append(out.Jobs, solve.DemandOf(d))
	}
	allOK := true
	if o.check {
		checks, err := rs.CrossCheckDemands(ds, p)
		if err != nil {
			return usageErr(err)
		}
		for _, c := range checks {
			allOK = allOK && c.OK
			out.Checks = append(out.Checks, rsCheckJSON(c))
		}
		out.OK = &allOK
	}
	if format == "json" {
		if err := writeJSON(s.Out, out); err != nil {
			return err
		}
	} else {
		writeRSDemandsTable(s.Out, out)
	}
	if !allOK {
		return failed(fmt.Errorf("%s: a WCDE cross-check failed", name))
	}
	return nil
}

func writeRSDemandsTable(w io.Writer, out rsDemandsJSON) {
	fmt.Fprintf(w, "%s: theta=%g delta=%g bins=%d\n", out.Instance, out.Theta, out.Delta, out.Bins)
	tw := newTable(w)
	row(tw, "JOB", "ESTIMATOR", "SAMPLES", "NOMINAL", "REFERENCE", "ETA", "KL", "BINS", "WIDTH", "NOTE")
	for _, j := range out.Jobs {
		est, samples, ref, kl, bins, width, note := "-", "-", "-", "-", "-", "-", ""
		if j.ReferenceQuantile != nil {
			est, ref, kl = j.Estimator, fmt.Sprint(*j.ReferenceQuantile), fmt.Sprintf("%.4f", j.KL)
			bins, width = fmt.Sprint(j.Bins), fmt.Sprintf("%g", j.BinWidth)
			if j.Samples > 0 {
				samples = fmt.Sprint(j.Samples)
			}
			if j.SupportEdge {
				note = "eta at the reference's support edge"
			}
		}
		row(tw, j.ID, est, samples, j.Nominal, ref, j.Eta, kl, bins, width, note)
	}
	_ = tw.Flush()
	if out.OK != nil {
		failedChecks := 0
		for _, c := range out.Checks {
			if !c.OK {
				failedChecks++
				fmt.Fprintf(w, "FAILED %s: %s (violation %g)\n", c.Name, c.Detail, c.MaxViolation)
			}
		}
		fmt.Fprintf(w, "checks: %d run, %d failed\n", len(out.Checks), failedChecks)
	}
}
