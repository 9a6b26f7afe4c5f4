package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/workload"
)

type genOptions struct {
	family string
	jobs   int
	seed   uint64
	ratio  float64
	swf    string
	swfOpt workload.SWFOptions
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
        map and 20 reduce tasks), priority U[1,5], sigmoid utilities in minutes (20% critical,
        60% sensitive, 20% insensitive), deadline = standalone × N(1.25, 0.1) × active jobs
        at submission; 40 containers.
  rush  rush.txt §V-B: as cora with data sets of U[1,10] GB, priority U{1..5}, budget =
        --budget-ratio × standalone runtime; 48 containers.
  rds   rds.txt Table 3 (J1–J9 repeated), an arrival every 10 minutes, deadline 2.5 ×
        dedicated runtime, RDS utilities; Hadoop-1: 20 workers with 2 map and 1 reduce slot,
        half-green capacity trace.
  swf   a Standard Workload Format trace (--swf FILE, - for stdin; --jobs caps the count,
        0 keeps all): one task per processor, deadline = --deadline-factor × runtime,
        step utilities (or sigmoid with --decay); what was dropped and why goes to stderr.

Example:
  coraopt gen --family cora --jobs 100 --seed 1 > cora100.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var w *workload.Workload
			var err error
			switch o.family {
			case "cora":
				w, err = workload.CORAWorkload(o.jobs, o.seed)
			case "rush":
				w, err = workload.RUSHWorkload(o.jobs, o.seed, o.ratio)
			case "rds":
				w, err = workload.RDSWorkload(o.jobs, o.seed)
			case "swf":
				if o.swf == "" {
					return usageErrf("--family swf needs --swf FILE")
				}
				in, name, err := openInput(s, o.swf)
				if err != nil {
					return err
				}
				o.swfOpt.MaxJobs = o.jobs
				var rep *workload.SWFReport
				w, rep, err = workload.ReadSWF(in, o.swfOpt)
				in.Close()
				if rep != nil {
					fmt.Fprintf(s.Err, "coraopt: %s: %d job lines, kept %d on %d slots (%s); dropped %v; %d preceding-job links to dropped jobs removed; %d think times not modelled\n",
						name, rep.Lines, rep.Jobs, rep.Slots, rep.Source, rep.Dropped, rep.EdgesDropped, rep.ThinkTimes)
				}
			default:
				return usageErrf("--family %q: want cora, rush, rds or swf", o.family)
			}
			if err != nil {
				return usageErr(err)
			}
			return workload.Encode(s.Out, w)
		},
	}
	f := c.Flags()
	f.StringVar(&o.family, "family", "cora", "workload family: cora, rush or rds")
	f.IntVar(&o.jobs, "jobs", 100, "number of jobs")
	f.Uint64Var(&o.seed, "seed", 1, "seed")
	f.StringVar(&o.swf, "swf", "", "swf: the trace to read")
	f.Float64Var(&o.swfOpt.DeadlineFactor, "deadline-factor", 3, "swf: deadline as a multiple of the runtime")
	f.Float64Var(&o.swfOpt.Decay, "decay", 0, "swf: sigmoid decay per minute (0: step utilities)")
	f.Float64Var(&o.ratio, "budget-ratio", 2, "rush: time budget as a multiple of the standalone runtime (the paper uses 2, 1.5, 1)")
	return c
}
