package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/formulations/rs"
)

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
