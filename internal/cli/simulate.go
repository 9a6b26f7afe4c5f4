package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/plot"
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/policies/external"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/sweep"
	"github.com/coraopt/coraopt/workload"
)

type simulateOptions struct {
	g            *globalOptions
	policies     string
	seed         uint64
	replications int
	slot         float64
	bound        bool
	boundLimit   time.Duration
	plots        string
	ganttTasks   int
	workers      int
	check        bool
	execTimeout  time.Duration
}

// simulateJSON is `coraopt simulate -o json`: the runs of --seed at the top level, the
// further replications (seeds seed+1, …) under "replications".
type simulateJSON struct {
	Workload string           `json:"workload"`
	Seed     uint64           `json:"seed"`
	Policies []*sim.Metrics   `json:"policies"`
	Bound    *sim.BoundResult `json:"bound,omitempty"`
	// BoundError says why --bound gave no bound for this seed (refused, stopped at
	// --bound-time-limit, failed); the policies' results stand without gaps.
	BoundError   string        `json:"bound_error,omitempty"`
	Replications []replication `json:"replications,omitempty"`
	// Summary aggregates every seed per policy (with --replications > 1).
	Summary     []policySummary `json:"summary,omitempty"`
	Interrupted bool            `json:"interrupted,omitempty"`
	Timing      *simTiming      `json:"timing,omitempty"`
}

type replication struct {
	Seed       uint64           `json:"seed"`
	Policies   []*sim.Metrics   `json:"policies"`
	Bound      *sim.BoundResult `json:"bound,omitempty"`
	BoundError string           `json:"bound_error,omitempty"`
}

// policySummary is a policy's mean and sample standard deviation over the seeds.
type policySummary struct {
	Name         string   `json:"name"`
	Seeds        int      `json:"seeds"`
	MinUtility   meanStd  `json:"min_utility"`
	SumUtility   meanStd  `json:"sum_utility"`
	DeadlinesMet meanStd  `json:"deadlines_met"`
	MissPenalty  meanStd  `json:"deadline_miss_penalty"`
	MeanResponse meanStd  `json:"mean_response"`
	MinGap       *meanStd `json:"min_gap,omitempty"`
	SumGap       *meanStd `json:"sum_gap,omitempty"`
}

type meanStd struct {
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
}

// newMeanStd is the mean and standard deviation of a sweep.Stat (one seed, an
// interrupted run, has no spread: 0).
func newMeanStd(st sweep.Stat) meanStd { return meanStd{Mean: st.Mean, Std: st.Std} }

// summaryJSON is the "summary" of sweep.Replicate's per-policy summaries.
func summaryJSON(sums []sweep.PolicySummary) []policySummary {
	var out []policySummary
	for _, s := range sums {
		ps := policySummary{Name: s.Name, Seeds: s.Seeds, MinUtility: newMeanStd(s.MinUtility), SumUtility: newMeanStd(s.SumUtility),
			DeadlinesMet: newMeanStd(s.DeadlinesMet), MissPenalty: newMeanStd(s.MissPenalty), MeanResponse: newMeanStd(s.MeanResponse)}
		if s.MinGap != nil {
			a := newMeanStd(*s.MinGap)
			ps.MinGap = &a
		}
		if s.SumGap != nil {
			b := newMeanStd(*s.SumGap)
			ps.SumGap = &b
		}
		out = append(out, ps)
	}
	return out
}

type simTiming struct {
	WallSeconds float64 `json:"wall_seconds"`
	Workers     int     `json:"workers"`
}

func newSimulateCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &simulateOptions{g: g}
	c := &cobra.Command{
		Use:   "simulate WORKLOAD",
		Short: "Replay a workload under scheduling policies and score them against a proven bound",
		Long: `simulate runs each policy on the workload (a workload file, or - for standard input) in a
deterministic discrete-event simulator: every policy sees the same jobs and the same true
task runtimes (drawn per job, stage and task from --seed). With --bound it also computes
the offline bound — the exact lexmax of a relaxation that every schedule maps into, in
slots of --slot seconds — and reports each policy's gap to it. A bound that is refused
(too many slots: the message names a --slot that fits), stopped by --bound-time-limit or
Ctrl-C, or that fails leaves the policies' results printed, with bound_error saying why,
and exits 2 (refused) or 1; a lexmax vector that is not proven marks the gaps against
it (lexmax_unproven, "unproven" in the table). A slot longer than most jobs' deadlines
is warned about: the bound then credits most jobs as if on time. On a terminal the
progress bar says how many jobs the bound has settled and how many stall branches it
explored.

Replications (--replications R) use seeds seed, seed+1, …, run in parallel (--workers,
default: all cores) and print in seed order, so the output does not depend on the number
of cores; wall-clock figures appear only under "timing" keys. Ctrl-C prints the runs that
finished.

Policies: ` + strings.Join(all.Names(), ", ") + `, and exec:NAME=CMD, a program of your
own speaking the policy protocol (docs/protocol.md) on its standard input and output,
started once per run (CMD is split at blanks outside quotes, run without a shell, and
cannot hold a comma; its standard error comes out prefixed with [NAME]).

Examples:
  coraopt gen --family cora --jobs 100 --seed 1 > cora100.json
  coraopt simulate cora100.json --policies fifo,fair,edf,rrh --bound --slot 60 -o table
  coraopt gen --family woha-3wf --seed 1 > 3wf.json
  coraopt simulate 3wf.json --policies woha-hlf,woha-lpf,woha-mpf,oozie-fifo,oozie-fair,oozie-edf --plots figs
  coraopt gen --family rtmr-1 --seed 1 > rtmr1.json
  coraopt simulate rtmr1.json --policies rtmr,rtmr-nofeedback,dc,rtmr-fifo -o table
  coraopt simulate cora100.json --policies fifo,edf,exec:myedf=python3 clients/python/examples/edf.py`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSimulate(cmd.Context(), s, o, args[0])
		},
	}
	f := c.Flags()
	f.StringVar(&o.policies, "policies", "fifo,fair,edf,rrh", "comma-separated policies to run")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the true task runtimes")
	f.IntVar(&o.replications, "replications", 1, "number of seeds to run (seed, seed+1, …)")
	f.Float64Var(&o.slot, "slot", 60, "slot length in seconds of the bound's relaxation")
	f.BoolVar(&o.bound, "bound", false, "compute the offline bound and each policy's gap to it")
	f.DurationVar(&o.boundLimit, "bound-time-limit", 0, "stop a bound after this long (e.g. 30s; 0: no limit), keeping the policies' results")
	f.StringVar(&o.plots, "plots", "", "write figures (SVG and PNG) into this directory")
	f.IntVar(&o.ganttTasks, "gantt-tasks", defaultGanttTasks, "with --plots: draw at most this many tasks in each Gantt chart, the first by start (0: every task)")
	f.IntVar(&o.workers, "workers", 0, "parallel runs (default: GOMAXPROCS)")
	f.BoolVar(&o.check, "check", false, "record every task and verify the simulator's invariants on each run (slower; exit 1 if one fails)")
	f.DurationVar(&o.execTimeout, "exec-timeout", 0, "longest wait for each reply of an exec: policy (0: no limit; simulated time does not pass meanwhile)")
	return c
}

func runSimulate(ctx context.Context, s Streams, o *simulateOptions, path string) error {
	format, err := o.g.format(s)
	if err != nil {
		return err
	}
	if o.execTimeout < 0 {
		return usageErrf("--exec-timeout %v: need a duration >= 0", o.execTimeout)
	}
	specs, err := parsePolicySpecs(o.policies, o.execTimeout)
	if err != nil {
		return err
	}
	names := make([]string, len(specs))
	for i, p := range specs {
		names[i] = p.Name
	}
	if j, i := all.Repeated(names); i >= 0 {
		return usageErrf("--policies: %s is given twice (positions %d and %d): each policy runs once per seed", names[i], j+1, i+1)
	}
	if o.replications < 1 {
		return usageErrf("--replications %d: need at least 1", o.replications)
	}
	if runs := o.replications * len(names); o.replications > sweep.MaxCells || runs > sweep.MaxCells {
		return usageErrf("--replications %d: %d policies × %d seeds is more runs than the limit of %d (a sweep's on cells)", o.replications, len(names), o.replications, sweep.MaxCells)
	}
	if last := uint64(o.replications - 1); o.seed > math.MaxUint64-last {
		return usageErrf("--seed %d with --replications %d: the seeds would pass %d, the largest seed", o.seed, o.replications, uint64(math.MaxUint64))
	}
	if err := checkWorkers(o.workers); err != nil {
		return err
	}
	if !(o.slot > 0) || math.IsInf(o.slot, 0) {
		return usageErrf("--slot %g: need a finite length > 0 seconds", o.slot)
	}
	if o.boundLimit < 0 {
		return usageErrf("--bound-time-limit %v: need 0 (no limit) or more", o.boundLimit)
	}
	if o.ganttTasks < 0 {
		return usageErrf("--gantt-tasks %d: need 0 (every task) or more", o.ganttTasks)
	}
	workers := o.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	in, name, err := openInput(s, path)
	if err != nil {
		return err
	}
	w, err := workload.Decode(in)
	in.Close()
	if err != nil {
		var ve *sched.ValidationError
		if errors.As(err, &ve) {
			return usageErrf("%s:\n%v", name, err)
		}
		return usageErr(err)
	}
	started := time.Now()
	out, err := simulate(ctx, s, o, w, specs, workers)
	if out == nil {
		return err
	}
	// err != nil here is an external policy that failed: the runs that finished are
	// printed, as for Ctrl-C, before the error (exit 1).
	out.Timing = &simTiming{WallSeconds: time.Since(started).Seconds(), Workers: workers}
	if o.plots != "" && !out.Interrupted {
		if err := writeSimPlots(ctx, s, o, w, specs, out); err != nil {
			return err
		}
	}
	if format == "json" {
		if err := writeJSON(s.Out, out); err != nil {
			return err
		}
	} else {
		writeSimTable(s.Out, out)
	}
	warnVacuousBounds(s.Err, out)
	if err != nil {
		return failed(fmt.Errorf("%w\n(printed the runs that finished)", err))
	}
	if out.Interrupted {
		return failed(errors.New("interrupted: printed the runs that finished"))
	}
	return boundMissing(out)
}

// boundMissing is the exit for bounds --bound did not get: exit 2 when one was refused
// for its --slot (a bad flag), else exit 1, naming the first; nil when every seed has
// its bound.
func boundMissing(out *simulateJSON) error {
	var missing []string
	refused := false
	add := func(seed uint64, msg string) {
		if msg != "" {
			missing = append(missing, fmt.Sprintf("seed %d: %s", seed, msg))
			refused = refused || strings.HasPrefix(msg, "refused")
		}
	}
	add(out.Seed, out.BoundError)
	for _, r := range out.Replications {
		add(r.Seed, r.BoundError)
	}
	if len(missing) == 0 {
		return nil
	}
	err := fmt.Errorf("--bound: no bound for %d of %d seeds (the policies' results are printed without gaps): %s", len(missing), 1+len(out.Replications), missing[0])
	if refused {
		return usageErr(err)
	}
	return failed(err)
}

// warnVacuousBounds warns, once per slot length, when a bound's slot is longer than
// most jobs' deadlines: the relaxation then credits most jobs as if on time.
func warnVacuousBounds(w io.Writer, out *simulateJSON) {
	bs := []*sim.BoundResult{out.Bound}
	for _, r := range out.Replications {
		bs = append(bs, r.Bound)
	}
	for _, b := range bs {
		if b != nil && b.NearVacuous() {
			fmt.Fprintf(w, "coraopt: warning: the bound's slot of %g s is longer than the deadlines of %d of the %d jobs with one: it credits them as if on time whatever the order, so it says little; use a shorter --slot\n",
				b.SlotSeconds, b.DeadlinesUnderSlot, b.JobsWithDeadline)
			return
		}
	}
}

// checkWorkers refuses a negative --workers (0 means one per core).
func checkWorkers(n int) error {
	if n < 0 {
		return usageErrf("--workers %d: need at least 1 (or 0 for all cores)", n)
	}
	return nil
}

// simulate runs the policy × seed grid (sweep.Replicate) with a progress bar on a
// terminal and shapes its result as simulate's output: the first seed at the top, the
// others under "replications", bound errors and run failures in the flags' words. An
// external policy that fails stops the runs in flight, as Ctrl-C does: simulate then
// returns the runs that finished (marked interrupted) with the failure.
func simulate(ctx context.Context, s Streams, o *simulateOptions, w *workload.Workload, specs []sweep.PolicySpec, workers int) (*simulateJSON, error) {
	req := sweep.ReplicateRequest{Workload: w, Policies: specs, Seed: o.seed, Replications: o.replications, Check: o.check,
		Bound: o.bound, Slot: o.slot, BoundTimeLimit: o.boundLimit, Workers: workers, Stderr: s.Err}
	total := o.replications * len(specs)
	if o.bound {
		total += o.replications
	}
	var bar *progressbar.ProgressBar
	if s.IsTerminal {
		bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(s.Err), progressbar.OptionSetDescription("simulate"),
			progressbar.OptionClearOnFinish(), progressbar.OptionShowCount())
		req.Progress = func() { bar.Add(1) }
		req.BoundProgress = func(seed uint64, settled, jobs, branches int) {
			bar.Describe(fmt.Sprintf("bound, seed %d: %d of %d jobs settled, %d stall branches", seed, settled, jobs, branches))
		}
	}
	res, err := sweep.Replicate(ctx, req)
	if bar != nil {
		bar.Finish()
	}
	if res == nil {
		return nil, runFailure(err)
	}
	out := &simulateJSON{Workload: w.Name, Seed: o.seed, Interrupted: res.Interrupted}
	for _, sr := range res.Seeds {
		boundErr := boundErrorText(sr.BoundErr)
		if sr.Seed == o.seed {
			out.Policies, out.Bound, out.BoundError = sr.Policies, sr.Bound, boundErr
			continue
		}
		out.Replications = append(out.Replications, replication{Seed: sr.Seed, Policies: sr.Policies, Bound: sr.Bound, BoundError: boundErr})
	}
	if out.Policies == nil {
		out.Policies = []*sim.Metrics{}
	}
	if o.replications > 1 {
		out.Summary = summaryJSON(res.Summary)
	}
	if err != nil {
		return out, runFailure(err)
	}
	return out, nil
}

// runFailure is a failed run of the grid in the flags' words, with its exit: a workload
// the policy cannot model exit 2, an external policy that failed as it is (exit 1, with
// the runs that finished), a broken invariant or a run that cannot finish exit 1.
func runFailure(err error) error {
	var re *sweep.RunError
	if !errors.As(err, &re) {
		return err // a bad request or a panic (exit 3)
	}
	var ext *external.Error
	var broken *sim.InvariantError
	var unsupported *sim.UnsupportedError
	switch {
	case errors.As(re.Err, &unsupported):
		return usageErr(fmt.Errorf("--policies %s, seed %d: %w", re.Policy, re.Seed, unsupported.Err))
	case errors.As(re.Err, &broken):
		return failed(re.Err)
	case errors.As(re.Err, &ext):
		return fmt.Errorf("--policies %s, seed %d: %w", re.Policy, re.Seed, re.Err)
	}
	return failed(fmt.Errorf("seed %d: %w", re.Seed, re.Err))
}

// boundErrorText is bound_error: why a seed has no bound, in the flags' words.
func boundErrorText(err error) string {
	var short *sim.SlotTooShortError
	var stopped *sweep.BoundStoppedError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &short):
		return fmt.Sprintf("refused: %d slots of %g s are more than the limit of %d; --slot %g fits", int64(short.Slots), short.Slot, sched.MaxHorizon, short.Fits)
	case errors.As(err, &stopped):
		return fmt.Sprintf("stopped at --bound-time-limit %v with %d of %d jobs settled after %d stall branches", stopped.Limit, stopped.Settled, stopped.Jobs, stopped.Branches)
	}
	return err.Error()
}

// defaultGanttTasks is how many tasks a Gantt chart draws by default: every task of the
// papers' workloads (a 100-job cora run has some 9,000); a chart of millions of bars is
// neither readable nor small, and --gantt-tasks 0 draws them anyway.
const defaultGanttTasks = 20_000

// writeSimPlots draws the figures of the first seed into o.plots (plot.WriteRun). The
// Gantt charts and utilization curves need every task's placement, so each policy runs
// again with placements recorded (an external one's program is started again): the same
// seed gives the same run.
func writeSimPlots(ctx context.Context, s Streams, o *simulateOptions, w *workload.Workload, specs []sweep.PolicySpec, out *simulateJSON) error {
	run := &plot.Run{Workload: w, Seed: out.Seed, Bound: out.Bound}
	stderr := &external.SyncWriter{W: s.Err}
	byName := map[string]sweep.PolicySpec{}
	for _, p := range specs {
		byName[p.Name] = p
	}
	for _, m := range out.Policies {
		var r *sim.Result
		err := byName[m.Name].With(ctx, w, "", stderr, func(pol policies.Policy) error {
			var err error
			r, err = sim.Run(ctx, w, pol, sim.Options{Seed: out.Seed, Record: true})
			return err
		})
		if err == nil {
			run.Policies = append(run.Policies, plot.PolicyRun{Metrics: m, Placements: r.Placements})
		}
		if err != nil {
			return fmt.Errorf("--plots: rerunning %s: %w", m.Name, err)
		}
	}
	err := plot.WriteRun(o.plots, run, plot.RunOptions{GanttTasks: o.ganttTasks,
		GanttMore: fmt.Sprintf("simulate --gantt-tasks %d draws all", maxTasks(run))})
	if err != nil {
		return usageErr(err)
	}
	fmt.Fprintf(s.Err, "coraopt: figures written to %s\n", o.plots)
	return nil
}

// maxTasks is the most tasks a policy's run placed.
func maxTasks(r *plot.Run) int {
	n := 0
	for _, pr := range r.Policies {
		n = max(n, len(pr.Placements))
	}
	return n
}

func writeSimTable(w io.Writer, out *simulateJSON) {
	fmt.Fprintf(w, "workload %s\n", out.Workload)
	one := func(seed uint64, ms []*sim.Metrics, b *sim.BoundResult, boundErr string) {
		fmt.Fprintf(w, "\nseed %d\n", seed)
		tw := newTable(w)
		row(tw, "policy", "min utility", "sum utility", "zero", "deadlines met", "miss penalty", "utilization", "makespan s", "mean response s", "first short", "min gap", "sum gap", "fallbacks")
		for _, m := range ms {
			var util []string
			for _, p := range sortedKeys(m.Utilization) {
				util = append(util, fmt.Sprintf("%s %.2f", p, m.Utilization[p]))
			}
			first, minGap, sumGap := "-", "-", "-"
			if m.VsBound != nil {
				first = fmt.Sprint(m.VsBound.FirstShortPosition)
				minGap, sumGap = fmt.Sprintf("%.4g", m.VsBound.MinGap), fmt.Sprintf("%.4g", m.VsBound.SumGap)
				if m.VsBound.LexmaxUnproven {
					first, minGap = "unproven", "unproven"
				}
			}
			fb := fmt.Sprint(m.Fallbacks)
			row(tw, m.Name, fmt.Sprintf("%.4g", m.MinUtility), fmt.Sprintf("%.4g", m.SumUtility), m.ZeroUtilityJobs,
				fmt.Sprintf("%d/%d", m.DeadlinesMet, m.JobsWithDeadline), fmt.Sprintf("%.4g", m.DeadlineMissPenalty),
				strings.Join(util, ", "), fmt.Sprintf("%.0f", m.Makespan), fmt.Sprintf("%.0f", m.MeanResponse), first, minGap, sumGap, fb)
		}
		if b != nil {
			exact := ""
			if !b.Exact {
				exact = " (not proven: OnionPeel fell back)"
			}
			row(tw, "bound"+exact, fmt.Sprintf("%.4g", b.MinUtility), fmt.Sprintf("%.4g", b.SumUtility), "", "", "", "", "", "", "", "", "", "")
		}
		tw.Flush()
		if b != nil {
			fmt.Fprintf(w, "bound: %s, %d slots of %g s; sum bound %.4g (%s)\n", b.Method, b.Slots, b.SlotSeconds, b.SumBound, b.SumBoundMethod)
		}
		if boundErr != "" {
			fmt.Fprintf(w, "bound: none (%s)\n", boundErr)
		}
		writeWorkflowAdmissionTables(w, ms)
	}
	one(out.Seed, out.Policies, out.Bound, out.BoundError)
	for _, r := range out.Replications {
		one(r.Seed, r.Policies, r.Bound, r.BoundError)
	}
	if len(out.Summary) > 0 {
		fmt.Fprintf(w, "\nover %d seeds: mean ± standard deviation\n", out.Summary[0].Seeds)
		tw := newTable(w)
		row(tw, "policy", "min utility", "sum utility", "deadlines met", "miss penalty", "mean response s", "min gap", "sum gap")
		f := func(m meanStd) string { return fmt.Sprintf("%.4g ± %.2g", m.Mean, m.Std) }
		for _, ps := range out.Summary {
			minGap, sumGap := "-", "-"
			if ps.MinGap != nil {
				minGap = f(*ps.MinGap)
			}
			if ps.SumGap != nil {
				sumGap = f(*ps.SumGap)
			}
			row(tw, ps.Name, f(ps.MinUtility), f(ps.SumUtility), f(ps.DeadlinesMet), f(ps.MissPenalty), f(ps.MeanResponse), minGap, sumGap)
		}
		tw.Flush()
	}
	if out.Interrupted {
		fmt.Fprintln(w, "\ninterrupted: only the runs that finished are shown")
	}
}

func sortedKeys(m map[string]float64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
