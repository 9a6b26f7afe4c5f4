package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/internal/gzfile"
	"github.com/coraopt/coraopt/workload"
	"github.com/coraopt/coraopt/workload/hadoop1"
)

type genOptions struct {
	family string
	atOnce bool
	jobs   int
	seed   uint64
	ratio  float64
	mix    string
	// standalone is measured or waves (workload.StandaloneMode).
	standalone string
	swf        string
	swfOpt     workload.SWFOptions
	// WOHA and RTMR families (workload/hadoop1).
	workflows    int
	runtimeModel string
	beyond       float64
}

func newGenCmd(s Streams, g *globalOptions) *cobra.Command {
	o := &genOptions{}
	c := &cobra.Command{
		Use:   "gen",
		Short: "Write a seeded workload file shaped like a paper's evaluation",
		Long: `gen writes a workload file (JSON, see the README's Simulate section) to standard output.
The same family, size and seed always give the same file.

Families:
  cora  cora.txt §III-C: Poisson arrivals (mean 130 s), eight PUMA job templates (up to 100
        map and 20 reduce tasks), priority U[1,5], sigmoid utilities in minutes (exactly 20%
        critical, 60% sensitive, 20% insensitive, in a seeded order), deadline = standalone
        × N(1.25, 0.1) × active jobs at submission; 40 containers. --mix c,s,i gives other
        shares (counts by largest remainder; the other draws unchanged), as cora.txt Fig. 5
        varies them.
  rush  rush.txt §V-B: as cora with data sets of U[1,10] GB, priority U{1..5}, budget =
        --budget-ratio × standalone runtime; 48 containers.
        For both, the standalone runtime is measured: the job alone on the empty cluster in
        the simulator, with the true runtimes of --seed — so simulate --seed S on a file
        of gen --seed S sees exactly the benchmarked runtimes (under another runtime seed
        they vary as a rerun would). Files written before issue 28 used waves × mean task
        time and drew each job's class: --standalone waves --mix drawn writes them again.
  rds   rds.txt Table 3 (J1–J9 repeated), an arrival every 10 minutes, deadline 2.5 ×
        dedicated runtime, RDS utilities; Hadoop-1: 20 workers with 2 map and 1 reduce slot,
        half-green capacity trace.
  swf   a Standard Workload Format trace (--swf FILE, - for stdin, FILE.gz is
        decompressed; --jobs caps the count, 0 keeps all): one task per processor,
        deadline = --deadline-factor × runtime, step utilities (or sigmoid with --decay).
        Jobs the workload file cannot hold (beyond its limits on runtimes, deadlines,
        tasks and arrivals) are dropped like unusable lines; how many were dropped for
        each reason goes to stderr. The trace is converted as it streams (170 MB
        resident for 10^6 job lines); a workload larger than simulate reads (256 MiB,
        some 900,000 jobs) is refused, exit 2.
  woha  woha.txt §V-A: --workflows random layered DAGs with Yahoo!-like task statistics,
        a submission every 5 min on average, deadline 1.5-3 × a workspan lower bound;
        32 workers × (2 map + 1 reduce); true task times U[0.8, 1.2] × the estimates.
  woha-fig2  woha.txt Fig. 2 (reconstructed): three workflows, D = 9, 9, 50, 3 map +
        3 reduce slots, unit task times.
  woha-3wf   woha.txt §VI-A: three copies of a 33-job workflow submitted at 0, 5, 10 min
        with deadlines 80, 70, 60 min on 32 × (2 + 1) slots; --seed draws the topology.
  rtmr-1, rtmr-2  rtmr.txt §V workloads I and II (Tables II-IV): exponential
        inter-arrivals of mean 14 s, 30 heterogeneous workers, per-job worst-case
        estimates; --runtime-model within (true task times within them) or beyond
        (up to --beyond-factor times them, default 1.3).

Example:
  coraopt gen --family cora --jobs 100 --seed 1 > cora100.json
  coraopt gen --family cora --jobs 20 --seed 1 --mix 0.3,0.45,0.25 > fig5-30.json
  coraopt gen --family cora --jobs 100 --seed 1 --at-once > cora100-at-once.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var w *workload.Workload
			var err error
			if (o.mix != "" || cmd.Flags().Changed("standalone")) && o.family != "cora" && o.family != "rush" {
				return usageErrf("--mix and --standalone: only the cora and rush families take them, got --family %s", o.family)
			}
			switch o.family {
			case "cora", "rush":
				opt, perr := o.genOptions()
				if perr != nil {
					return perr
				}
				if o.family == "cora" {
					w, err = workload.CORAWorkloadWith(o.jobs, o.seed, opt)
				} else {
					w, err = workload.RUSHWorkloadWith(o.jobs, o.seed, o.ratio, opt)
				}
			case "rds":
				w, err = workload.RDSWorkload(o.jobs, o.seed)
			case "swf":
				return runGenSWF(s, o)
			case "woha", "woha-fig2", "woha-3wf":
				if o.workflows < 1 {
					return usageErrf("--workflows %d: need at least 1", o.workflows)
				}
				w, err = hadoop1.WOHAFamily(o.family, o.workflows, o.seed)
			case "rtmr-1", "rtmr-2":
				if o.runtimeModel != "within" && o.runtimeModel != "beyond" {
					return usageErrf("--runtime-model %q: want within or beyond", o.runtimeModel)
				}
				if !(o.beyond >= 1) || o.beyond > 100 {
					return usageErrf("--beyond-factor %g: want a number in [1, 100]", o.beyond)
				}
				w, err = hadoop1.RTMRFamilyBeyond(o.family, o.seed, o.runtimeModel, o.beyond)
			default:
				return usageErrf("--family %q: want cora, rush, rds, swf, woha, woha-fig2, woha-3wf, rtmr-1 or rtmr-2", o.family)
			}
			if err != nil {
				return usageErr(err)
			}
			if o.atOnce {
				if w, err = workload.NoArrivals(w); err != nil {
					return usageErrf("--at-once: %v", err)
				}
			}
			return writeWorkload(s, workload.MaxInputBytes, func(out io.Writer) error { return workload.Encode(out, w) })
		},
	}
	f := c.Flags()
	f.StringVar(&o.family, "family", "cora", "workload family: cora, rush, rds, swf, woha, woha-fig2, woha-3wf, rtmr-1, rtmr-2")
	f.IntVar(&o.workflows, "workflows", 20, "woha: number of workflows")
	f.StringVar(&o.runtimeModel, "runtime-model", "within", "rtmr-1, rtmr-2: true task times within the estimates, or beyond them")
	f.Float64Var(&o.beyond, "beyond-factor", 1.3, "rtmr-1, rtmr-2 with --runtime-model beyond: true task times up to this multiple of the estimates")
	f.IntVar(&o.jobs, "jobs", 100, "number of jobs")
	f.Uint64Var(&o.seed, "seed", 1, "seed")
	f.StringVar(&o.swf, "swf", "", "swf: the trace to read")
	f.Float64Var(&o.swfOpt.DeadlineFactor, "deadline-factor", 3, "swf: deadline as a multiple of the runtime")
	f.Float64Var(&o.swfOpt.Decay, "decay", 0, "swf: sigmoid decay per minute (0: step utilities)")
	f.StringVar(&o.mix, "mix", "", "cora, rush: shares of critical,sensitive,insensitive jobs in exact counts (default 0.2,0.6,0.2), or \"drawn\": each job draws its class with those probabilities (before issue 28)")
	f.StringVar(&o.standalone, "standalone", "measured", "cora, rush: the standalone runtime deadlines and budgets are multiples of: measured (the job alone on the cluster, true runtimes of --seed) or waves (waves × mean task time, before issue 28)")
	f.BoolVar(&o.atOnce, "at-once", false, "every job arrives at time 0, its deadline and utility kept at their absolute times (no arrivals after the first plan)")
	f.Float64Var(&o.ratio, "budget-ratio", 2, "rush: time budget as a multiple of the standalone runtime (the paper uses 2, 1.5, 1)")
	return c
}

// runGenSWF converts --swf to a workload file on s.Out, streaming.
func runGenSWF(s Streams, o *genOptions) error {
	switch {
	case o.swf == "":
		return usageErrf("--family swf needs --swf FILE")
	case o.jobs < 0:
		return usageErrf("--jobs %d: need 0 (keep every job) or more", o.jobs)
	case !(o.swfOpt.DeadlineFactor > 0) || math.IsInf(o.swfOpt.DeadlineFactor, 0):
		return usageErrf("--deadline-factor %g: need a finite number > 0", o.swfOpt.DeadlineFactor)
	case !(o.swfOpt.Decay >= 0) || math.IsInf(o.swfOpt.Decay, 0):
		return usageErrf("--decay %g: need a finite number >= 0 (0: step utilities)", o.swfOpt.Decay)
	}
	in, name, err := openTrace(s, o.swf)
	if err != nil {
		return err
	}
	defer in.Close()
	opt := o.swfOpt
	opt.MaxJobs = o.jobs
	var rep *workload.SWFReport
	err = writeWorkload(s, workload.MaxInputBytes, func(out io.Writer) error {
		var werr error
		rep, werr = workload.WriteSWF(in, out, opt)
		return werr
	})
	if rep != nil {
		writeSWFReport(s.Err, name, rep, o.jobs)
	}
	var ee *ExitError
	switch {
	case errors.Is(err, workload.ErrNoSWFJobs) && rep.Lines == 0:
		return usageErrf("%s: no job line: the trace is empty or only comments", name)
	case errors.Is(err, workload.ErrNoSWFJobs):
		return usageErrf("%s: no usable job: every job line was dropped (reasons above)", name)
	case err != nil && !errors.As(err, &ee):
		return usageErrf("%s: %w", name, err)
	}
	return err
}

// writeSWFReport says what the conversion kept and, one line per reason, what it
// dropped.
func writeSWFReport(w io.Writer, name string, rep *workload.SWFReport, maxJobs int) {
	fmt.Fprintf(w, "coraopt: %s: %d job lines; kept %d jobs on %d slots (from %s)", name, rep.Lines, rep.Jobs, rep.Slots, rep.Source)
	if maxJobs > 0 && rep.Jobs == maxJobs {
		fmt.Fprintf(w, ", the first %d (--jobs %d)", maxJobs, maxJobs)
	}
	counts := rep.DroppedCounts()
	if len(counts) == 0 {
		fmt.Fprintln(w, "; dropped none")
	} else {
		fmt.Fprintln(w, "; dropped:")
	}
	for _, c := range counts {
		fmt.Fprintf(w, "  %s\n", c)
	}
	fmt.Fprintf(w, "coraopt: %s: %d preceding-job links to dropped jobs removed; %d think times not modelled (the trace's submit times stand)\n",
		name, rep.EdgesDropped, rep.ThinkTimes)
}

// openTrace is openInput that decompresses a name ending in ".gz" (the Parallel
// Workloads Archive ships its traces as .swf.gz).
func openTrace(s Streams, path string) (io.ReadCloser, string, error) {
	if path == "-" || !strings.HasSuffix(path, ".gz") {
		return openInput(s, path)
	}
	if err := notADirectory(path); err != nil {
		return nil, path, err
	}
	r, err := gzfile.Open(path)
	if err != nil {
		return nil, path, usageErrf("%v (a name ending in .gz is read as gzip)", err)
	}
	return gunzipErrors{r}, path, nil
}

// gunzipErrors says that a read error came from decompressing (a truncated or corrupt
// .gz), not from the trace's text.
type gunzipErrors struct{ io.ReadCloser }

func (g gunzipErrors) Read(p []byte) (int, error) {
	n, err := g.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("decompressing: %w", err)
	}
	return n, err
}

// writeWorkload runs write on s.Out and refuses, exit 2, a workload larger than limit
// bytes (workload.MaxInputBytes, what simulate reads): written, it could not be used.
func writeWorkload(s Streams, limit int64, write func(io.Writer) error) error {
	cw := &countingWriter{w: s.Out}
	if err := write(cw); err != nil {
		return err
	}
	if cw.n > limit {
		return usageErrf("the workload written is %d bytes, more than simulate reads (%d): ask for fewer jobs (--jobs)", cw.n, limit)
	}
	return nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// genOptions reads --mix and --standalone for the cora and rush families.
func (o *genOptions) genOptions() (workload.GenOptions, error) {
	var opt workload.GenOptions
	switch o.standalone {
	case "measured":
	case "waves":
		opt.Standalone = workload.StandaloneWaves
	default:
		return opt, usageErrf("--standalone %q: want measured or waves", o.standalone)
	}
	switch o.mix {
	case "":
	case "drawn":
		opt.DrawClasses = true
	default:
		mix, err := parseMix(o.mix)
		if err != nil {
			return opt, usageErrf("--mix %q: %v", o.mix, err)
		}
		opt.Mix = mix
	}
	return opt, nil
}

// parseMix reads --mix: three comma-separated non-negative numbers summing to 1.
func parseMix(s string) (workload.CORAMix, error) {
	var m workload.CORAMix
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return m, fmt.Errorf("want three shares critical,sensitive,insensitive, got %d", len(parts))
	}
	for k, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return m, fmt.Errorf("share %d: %q is not a number", k+1, p)
		}
		m[k] = x
	}
	return m, m.Validate()
}
