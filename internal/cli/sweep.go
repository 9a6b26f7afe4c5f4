package cli

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/internal/workpool"
	"github.com/coraopt/coraopt/plot"
	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/policies/external"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sweep"
)

func newSweepCmd(s Streams, g *globalOptions) *cobra.Command {
	c := &cobra.Command{
		Use:   "sweep",
		Short: "Run a grid of workloads × policies × seeds, sharded, on a worker pool or a Slurm job array",
		Long: `sweep runs a sweep file — workloads × policies (with parameters) × seeds — as cells of
independent simulations (docs/sweeps.md):

  sweep run SWEEP     run the cells of one shard into JSON Lines, resumably
  sweep merge PARTS…  check every cell is present once, aggregate per policy × workload
  sweep slurm SWEEP   write (and submit) a Slurm job array and a dependent merge job

Cell i is workload w, policy p, seed s with i = (w·P + p)·S + s (seeds fastest); shard K
of N holds the cells with i mod N = K. Any set of shards merges to the same bytes as one
unsharded run outside "timing" keys.`,
	}
	c.AddCommand(newSweepRunCmd(s), newSweepMergeCmd(s, g), newSweepSlurmCmd(s, g))
	return c
}

// loadSweep loads a sweep file; bad input exits 2 with every problem at its JSON path.
func loadSweep(path string) (*sweep.Sweep, error) {
	sw, err := sweep.Load(path)
	if err != nil {
		var ve *sched.ValidationError
		if errors.As(err, &ve) {
			return nil, usageErrf("%s:\n%v", path, err)
		}
		return nil, usageErr(err)
	}
	return sw, nil
}

type sweepRunOptions struct {
	shard   string
	workers int
	out     string
}

func newSweepRunCmd(s Streams) *cobra.Command {
	o := &sweepRunOptions{}
	c := &cobra.Command{
		Use:   "run SWEEP",
		Short: "Run the cells of one shard of a sweep, one JSON line per cell",
		Long: `run runs the cells of shard K of N (cells i with i mod N = K) on --workers workers and
writes one JSON line per cell, in cell order: the cell index, its workload, policy,
parameters and seed, the kept metrics, and wall-clock figures under "timing".

With --out FILE the run is resumable: cells already in FILE are skipped, a torn last
line (a run killed mid-write) is cut and its cell runs again. The run locks FILE: a
second run on the same FILE exits 2 naming the first's PID (kept in FILE.lock while it
runs). A cell whose run cannot finish records its error and the run exits 1 at the
end. Ctrl-C or SIGTERM (a Slurm time limit, scancel) stops starting cells, writes every
finished one and exits 1; rerun the same command to finish.

Policies: ` + strings.Join(all.Names(), ", ") + `; an entry {"name": N, "exec": CMD, …}
(or "exec:N=CMD") runs a program of your own speaking the policy protocol
(docs/protocol.md) in the sweep file's directory, its other keys passed to it as
parameters ("timeout": seconds per reply is the engine's).

Example:
  coraopt sweep run baselines.json --shard 0/4 --workers 2 --out part-0.jsonl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSweepRun(cmd.Context(), s, o, args[0])
		},
	}
	f := c.Flags()
	f.StringVar(&o.shard, "shard", "0/1", "the shard to run, K/N (0 <= K < N)")
	f.IntVar(&o.workers, "workers", 0, "cells run in parallel (default: GOMAXPROCS)")
	f.StringVar(&o.out, "out", "", "append the records to FILE.jsonl and resume from it (default: standard output, no resuming)")
	return c
}

// parseShard reads K/N.
func parseShard(v string) (k, n int, err error) {
	a, b, ok := strings.Cut(v, "/")
	if ok {
		k, err = strconv.Atoi(a)
		if err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || k < 0 || k >= n {
		return 0, 0, usageErrf("--shard %q: want K/N with 0 <= K < N, e.g. 0/4", v)
	}
	return k, n, nil
}

func runSweepRun(ctx context.Context, s Streams, o *sweepRunOptions, path string) error {
	k, n, err := parseShard(o.shard)
	if err != nil {
		return err
	}
	if o.workers < 0 {
		return usageErrf("--workers %d: need at least 1 (or 0 for all cores)", o.workers)
	}
	sw, err := loadSweep(path)
	if err != nil {
		return err
	}
	return runSweepShard(ctx, s, o, sw, k, n)
}

// runSweepShard runs shard k of n of a loaded sweep into --out or s.Out.
func runSweepShard(ctx context.Context, s Streams, o *sweepRunOptions, sw *sweep.Sweep, k, n int) (retErr error) {
	sw.Stderr = &external.SyncWriter{W: s.Err} // exec policies' diagnostics, prefixed
	out, done := s.Out, map[int]bool{}
	if o.out != "" {
		f, d, err := sw.OpenPart(o.out, k, n)
		if err != nil {
			return usageErr(err)
		}
		if f.Unlocked != nil {
			fmt.Fprintf(s.Err, "coraopt: warning: %v: the part is not locked, so make sure no other run uses this --out\n", f.Unlocked)
		}
		defer func() {
			if cerr := f.Close(); cerr != nil && retErr == nil {
				retErr = failed(fmt.Errorf("closing %s: %w", o.out, cerr))
			}
		}()
		out, done = f, d
	}
	opt := sweep.RunOptions{Shard: k, Shards: n, Workers: o.workers, Done: done}
	pending := sw.Pending(opt)
	var bar *progressbar.ProgressBar
	if s.IsTerminal && o.out != "" && len(pending) > 0 {
		bar = progressbar.NewOptions(len(pending), progressbar.OptionSetWriter(s.Err), progressbar.OptionSetDescription(fmt.Sprintf("shard %d/%d", k, n)),
			progressbar.OptionClearOnFinish(), progressbar.OptionShowCount(), progressbar.OptionShowIts())
		opt.Progress = func() { bar.Add(1) }
	}
	var failedCells []string
	written := 0
	started := time.Now()
	err := sw.Run(ctx, opt, func(rec *sweep.Record) error {
		line, err := sweep.MarshalLine(rec)
		if err != nil {
			return err
		}
		if _, err := out.Write(line); err != nil {
			return fmt.Errorf("writing cell %d: %w", rec.Cell, err)
		}
		written++
		if rec.Error != "" {
			failedCells = append(failedCells, fmt.Sprintf("cell %d (%s, %s, seed %d): %s", rec.Cell, rec.Workload, rec.Label(), rec.Seed, rec.Error))
		}
		return nil
	})
	if bar != nil {
		bar.Finish()
	}
	elapsed := time.Since(started).Seconds()
	workers := o.workers
	if workers == 0 {
		workers = min(max(len(pending), 1), runtime.GOMAXPROCS(0))
	}
	fmt.Fprintf(s.Err, "coraopt: sweep %s shard %d/%d: %d cells run, %d already recorded, %d left; %.3f s, %.2f cells/s on %d workers\n",
		sw.Fingerprint, k, n, written, len(done), len(pending)-written, elapsed, float64(written)/max(elapsed, 1e-9), workers)
	var pe *workpool.PanicError
	switch {
	case errors.As(err, &pe):
		return err // a bug, exit 3: the cells before it are written
	case err != nil && ctx.Err() != nil:
		return failed(fmt.Errorf("interrupted after %d of %d cells: rerun the same command to finish", written, len(pending)))
	case err != nil:
		return failed(err)
	}
	if len(failedCells) > 0 {
		return failed(fmt.Errorf("%d cells recorded an error:\n%s", len(failedCells), strings.Join(failedCells, "\n")))
	}
	return nil
}

type sweepMergeOptions struct {
	g        *globalOptions
	sweep    string
	plots    string
	joined   string
	noTiming bool
}

func newSweepMergeCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &sweepMergeOptions{g: g}
	c := &cobra.Command{
		Use:   "merge --sweep SWEEP PARTS…",
		Short: "Join the parts of a sweep, check every cell is present once, aggregate per policy × workload",
		Long: `merge reads part files (JSON Lines of ` + "`sweep run`" + `; - is standard input) and checks them
against the sweep file: every record must be of that sweep (its fingerprint) and true
to the cell its index names — workload, policy, parameters and seed — or merge exits 2
naming the part, the line and the field; every cell must be present exactly once, or
merge names the missing and repeated cells and exits 1. It then aggregates per
workload × policy over the seeds:
mean, median and 95% confidence interval (Student's t) of min utility, sum utility,
deadlines met and miss penalty (and the gaps to the bounds: min gap to the lexmax bound,
sum gap to the sum bound), with decision p99 and run
time under "timing". Groups come in cell order, so N shards merge to the bytes of one
unsharded run outside "timing"; --no-timing leaves timing out altogether.

Output: -o json, table or csv (one row per group and metric). Cells that recorded an
error are listed and exit 1. A torn last line of a part (a killed run) counts as missing.

Examples:
  coraopt sweep merge --sweep baselines.json part-*.jsonl -o table
  coraopt sweep merge --sweep baselines.json part-*.jsonl -o json --joined cells.jsonl --plots figures/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSweepMerge(s, o, args)
		},
	}
	f := c.Flags()
	f.StringVar(&o.sweep, "sweep", "", "the sweep file the parts were run from (required): every record is checked against the cell it names")
	c.MarkFlagRequired("sweep")
	f.StringVar(&o.plots, "plots", "", "write figures (SVG and PNG) with 95% confidence intervals into this directory")
	f.StringVar(&o.joined, "joined", "", "also write every record, in cell order, to this JSON Lines file")
	f.BoolVar(&o.noTiming, "no-timing", false, "leave wall-clock figures out, so the output's bytes depend only on the sweep")
	return c
}

func runSweepMerge(s Streams, o *sweepMergeOptions, paths []string) error {
	format := o.g.output
	switch format {
	case "":
		format = "json"
		if s.IsTerminal {
			format = "table"
		}
	case "json", "table", "csv":
	default:
		return usageErrf("--output %q: want json, table or csv", format)
	}
	sw, err := loadSweep(o.sweep)
	if err != nil {
		return err
	}
	var parts []sweep.Source
	for _, p := range paths {
		in, name, err := openInput(s, p)
		if err != nil {
			return err
		}
		part, err := sweep.ReadPart(in, name)
		in.Close()
		if err != nil {
			return usageErr(err)
		}
		if part.Torn {
			fmt.Fprintf(s.Err, "coraopt: %s ends in a torn line (a killed run): its cell counts as missing; rerun that shard with the same --out to finish it\n", name)
		}
		parts = append(parts, sweep.Source{Name: name, Part: part})
	}
	recs, err := sw.Join(parts)
	if err != nil {
		var ie *sweep.IncompleteError
		if errors.As(err, &ie) {
			return failed(err)
		}
		return usageErr(err)
	}
	m, err := sweep.Aggregate(recs, !o.noTiming)
	if err != nil {
		return usageErr(err)
	}
	if o.joined != "" {
		if err := writeJoined(o.joined, recs, o.noTiming); err != nil {
			return err
		}
	}
	if o.plots != "" {
		if err := plot.WriteSweep(o.plots, m); err != nil {
			return usageErr(err)
		}
		fmt.Fprintf(s.Err, "coraopt: figures written to %s\n", o.plots)
	}
	switch format {
	case "json":
		err = writeJSON(s.Out, m)
	case "table":
		writeSweepTable(s.Out, m)
	case "csv":
		err = writeSweepCSV(s.Out, m)
	}
	if err != nil {
		return err
	}
	if len(m.Failed) > 0 {
		var lines []string
		for _, f := range m.Failed {
			lines = append(lines, fmt.Sprintf("cell %d (%s, %s, seed %d): %s", f.Cell, f.Workload, f.Policy, f.Seed, f.Error))
		}
		return failed(fmt.Errorf("%d cells recorded an error (left out of the aggregates):\n%s", len(m.Failed), strings.Join(lines, "\n")))
	}
	return nil
}

func writeJoined(path string, recs []*sweep.Record, noTiming bool) error {
	f, err := os.Create(path)
	if err != nil {
		return usageErr(err)
	}
	for _, r := range recs {
		if noTiming {
			c := *r
			c.Timing = nil
			r = &c
		}
		line, err := sweep.MarshalLine(r)
		if err == nil {
			_, err = f.Write(line)
		}
		if err != nil {
			f.Close()
			return fmt.Errorf("writing %s: %w", path, err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func writeSweepTable(w io.Writer, m *sweep.Merged) {
	fmt.Fprintf(w, "sweep %s: %d cells; mean [95%% CI] (median) over seeds\n", m.Sweep, m.Cells)
	if len(m.Groups) == 0 {
		return
	}
	tw := newTable(w)
	head := []any{"workload", "policy", "seeds"}
	for _, x := range m.Groups[0].Metrics() {
		head = append(head, x.Title)
	}
	row(tw, head...)
	for i := range m.Groups {
		g := &m.Groups[i]
		cells := []any{g.Workload, g.Policy, g.Seeds}
		for _, x := range g.Metrics() {
			ci := "-"
			if x.Stat.CI95 != nil {
				ci = fmt.Sprintf("%.4g, %.4g", x.Stat.CI95[0], x.Stat.CI95[1])
			}
			cells = append(cells, fmt.Sprintf("%.4g [%s] (%.4g)", x.Stat.Mean, ci, x.Stat.Median))
		}
		row(tw, cells...)
	}
	tw.Flush()
	if len(m.Failed) > 0 {
		fmt.Fprintf(w, "%d cells failed (see stderr)\n", len(m.Failed))
	}
}

func writeSweepCSV(w io.Writer, m *sweep.Merged) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"workload", "policy", "seeds", "metric", "mean", "median", "ci95_low", "ci95_high"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for i := range m.Groups {
		g := &m.Groups[i]
		for _, x := range g.Metrics() {
			lo, hi := "", ""
			if x.Stat.CI95 != nil {
				lo, hi = f(x.Stat.CI95[0]), f(x.Stat.CI95[1])
			}
			cw.Write([]string{g.Workload, g.Policy, strconv.Itoa(g.Seeds), x.Key, f(x.Stat.Mean), f(x.Stat.Median), lo, hi})
		}
	}
	cw.Flush()
	return cw.Error()
}

type sweepSlurmOptions struct {
	g         *globalOptions
	shards    int
	partition string
	timeLimit string
	cpus      int
	dir       string
	coraopt   string
	name      string
	plots     bool
	submit    bool
}

func newSweepSlurmCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &sweepSlurmOptions{g: g}
	c := &cobra.Command{
		Use:   "slurm SWEEP",
		Short: "Write (and with --submit submit) a Slurm job array for a sweep and a dependent merge job",
		Long: `slurm writes into --dir a batch script for a Slurm job array with one array task per
shard (task K runs ` + "`coraopt sweep run SWEEP --shard K/N --out parts/shard-K.jsonl`" + ` on --cpus
workers), a merge job's script (` + "`coraopt sweep merge`" + ` into merged.json and cells.jsonl,
submitted to run after the whole array succeeds (sbatch dependency afterok)), and submit.sh, which submits both.
With --submit coraopt runs those two sbatch calls itself and prints the job ids.

The directory, the sweep file and the coraopt binary must be on a file system every
node sees. A requeued or resubmitted array task resumes its part file. Clusters cap an
array's size (MaxArraySize, 1001 by default): keep --shards below it and give each
shard more cells and --cpus instead.

Example:
  coraopt sweep slurm baselines.json --shards 16 --cpus 4 --time 01:00:00 --partition short --submit`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSweepSlurm(cmd.Context(), s, o, args[0])
		},
	}
	f := c.Flags()
	f.IntVar(&o.shards, "shards", 0, "number of shards = array tasks (required)")
	f.StringVar(&o.partition, "partition", "", "Slurm partition (default: the cluster's default)")
	f.StringVar(&o.timeLimit, "time", "", "time limit per array task, as sbatch --time takes it (e.g. 01:00:00)")
	f.IntVar(&o.cpus, "cpus", 1, "CPUs per array task; the shard runs that many workers")
	f.StringVar(&o.dir, "dir", "", "directory for the scripts, parts, logs and results (default: SWEEP without .json, plus .slurm)")
	f.StringVar(&o.coraopt, "coraopt", "", "the coraopt binary the jobs run (default: this one)")
	f.StringVar(&o.name, "name", "", "job name (default: the sweep file's name, or coraopt-sweep)")
	f.BoolVar(&o.plots, "plots", false, "the merge job also writes figures into DIR/plots")
	f.BoolVar(&o.submit, "submit", false, "submit with sbatch (the array, then the merge job with afterok)")
	return c
}

// slurmResult is `coraopt sweep slurm -o json`.
type slurmResult struct {
	Dir          string `json:"dir"`
	Sweep        string `json:"sweep"`
	Cells        int    `json:"cells"`
	Shards       int    `json:"shards"`
	ArrayScript  string `json:"array_script"`
	MergeScript  string `json:"merge_script"`
	SubmitScript string `json:"submit_script"`
	ArrayJob     string `json:"array_job,omitempty"`
	MergeJob     string `json:"merge_job,omitempty"`
}

func runSweepSlurm(ctx context.Context, s Streams, o *sweepSlurmOptions, path string) error {
	format, err := o.g.format(s)
	if err != nil {
		return err
	}
	if o.shards < 1 {
		return usageErrf("--shards %d: need at least 1", o.shards)
	}
	sw, err := loadSweep(path)
	if err != nil {
		return err
	}
	abs := func(p string) (string, error) {
		a, err := filepath.Abs(p)
		if err != nil {
			return "", usageErr(err)
		}
		return a, nil
	}
	job := sweep.SlurmJob{Shards: o.shards, Partition: o.partition, Time: o.timeLimit, CPUs: o.cpus, Plots: o.plots, Name: o.name}
	if job.Sweep, err = abs(path); err != nil {
		return err
	}
	dir := o.dir
	if dir == "" {
		dir = strings.TrimSuffix(path, filepath.Ext(path)) + ".slurm"
	}
	if job.Dir, err = abs(dir); err != nil {
		return err
	}
	bin := o.coraopt
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return usageErrf("cannot find this binary (%v): give --coraopt", err)
		}
	}
	if job.Coraopt, err = abs(bin); err != nil {
		return err
	}
	if job.Name == "" {
		job.Name = "coraopt-sweep"
		if sweep.ValidJobName(sw.Name) {
			job.Name = sw.Name
		}
	}
	if err := job.Check(); err != nil {
		return usageErr(err)
	}
	if o.shards > sw.NumCells() {
		fmt.Fprintf(s.Err, "coraopt: %d shards for %d cells: shards %d and up are empty\n", o.shards, sw.NumCells(), sw.NumCells())
	}
	for _, d := range []string{job.Dir, filepath.Join(job.Dir, "parts"), filepath.Join(job.Dir, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return usageErr(err)
		}
	}
	res := slurmResult{Dir: job.Dir, Sweep: sw.Fingerprint, Cells: sw.NumCells(), Shards: o.shards,
		ArrayScript: filepath.Join(job.Dir, "array.sbatch"), MergeScript: filepath.Join(job.Dir, "merge.sbatch"), SubmitScript: filepath.Join(job.Dir, "submit.sh")}
	for file, text := range map[string]string{res.ArrayScript: job.ArrayScript(), res.MergeScript: job.MergeScript(), res.SubmitScript: job.SubmitScript()} {
		if err := os.WriteFile(file, []byte(text), 0o755); err != nil {
			return usageErr(err)
		}
	}
	if o.submit {
		if res.ArrayJob, err = sbatch(ctx, job.Dir, "array.sbatch"); err != nil {
			return err
		}
		if res.MergeJob, err = sbatch(ctx, job.Dir, "--dependency=afterok:"+res.ArrayJob, "merge.sbatch"); err != nil {
			return failed(fmt.Errorf("the array is job %s, but the merge job was not submitted: %w", res.ArrayJob, err))
		}
	}
	if format == "json" {
		return writeJSON(s.Out, res)
	}
	fmt.Fprintf(s.Out, "sweep %s: %d cells in %d shards\nwrote %s\n      %s\n      %s\n", res.Sweep, res.Cells, res.Shards, res.ArrayScript, res.MergeScript, res.SubmitScript)
	if o.submit {
		fmt.Fprintf(s.Out, "submitted: array job %s, merge job %s (afterok)\nresults: %s\n", res.ArrayJob, res.MergeJob, filepath.Join(job.Dir, "merged.json"))
	} else {
		fmt.Fprintf(s.Out, "submit with: bash %s\n", res.SubmitScript)
	}
	return nil
}

// sbatch submits a script from dir and returns the job id (sbatch --parsable prints
// id or id;cluster).
func sbatch(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "sbatch", append([]string{"--parsable"}, args...)...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.Error
		if errors.As(err, &ee) {
			return "", usageErrf("--submit: sbatch not found (%v): is this a Slurm login node?", err)
		}
		return "", failed(fmt.Errorf("sbatch %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String())))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if _, err := strconv.Atoi(id); err != nil {
		return "", failed(fmt.Errorf("sbatch %s printed %q, not a job id", strings.Join(args, " "), out))
	}
	return id, nil
}
