package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/coraopt/coraopt/internal/gzfile"
	"github.com/coraopt/coraopt/workload"
	"github.com/coraopt/coraopt/workload/hadoop1"
)

// genOptions are gen's flags: the family and its options (workload.FamilyArgs, one flag
// per option of the registry).
type genOptions struct {
	family string
	args   workload.FamilyArgs
}

// genFamilies is the registry gen offers: the workload package's families and the
// Hadoop-1 papers'.
func genFamilies() *workload.Registry {
	reg, err := workload.NewRegistry(slices.Concat(workload.Families(), hadoop1.Families())...)
	if err != nil {
		panic(err) // the packages' own tables: a build error every test reports
	}
	return reg
}

func newGenCmd(s Streams, g *globalOptions) *cobra.Command {
	reg := genFamilies()
	o := &genOptions{args: workload.DefaultArgs()}
	c := &cobra.Command{
		Use:   "gen",
		Short: "Write a seeded workload file shaped like a paper's evaluation",
		Long: `gen writes a workload file (JSON, see docs/simulate.md) to standard output.
The same family, size and seed always give the same file. A flag the family does not
take is refused.

Families:
` + familiesHelp(reg) + `
Example:
  coraopt gen --family cora --jobs 100 --seed 1 > cora100.json
  coraopt gen --family cora --jobs 20 --seed 1 --mix 0.3,0.45,0.25 > fig5-30.json
  coraopt gen --family cora --jobs 100 --seed 1 --at-once > cora100-at-once.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGen(s, o, reg, cmd.Flags())
		},
	}
	f := c.Flags()
	f.StringVar(&o.family, "family", "cora", "workload family: "+strings.Join(reg.Names(), ", "))
	for _, opt := range reg.Options() {
		f.Var(&familyFlag{args: &o.args, opt: opt}, opt.Name, reg.Usage(opt))
		if opt.Type == "bool" {
			f.Lookup(opt.Name).NoOptDefVal = "true" // --at-once alone sets it
		}
	}
	return c
}

// familiesHelp is the Families section of gen's help: each family's name and its doc,
// consecutive families with the same doc on one entry.
func familiesHelp(reg *workload.Registry) string {
	var b strings.Builder
	fams := reg.Families()
	for i := 0; i < len(fams); {
		names := []string{fams[i].Name}
		j := i + 1
		for ; j < len(fams) && fams[j].Doc == fams[i].Doc; j++ {
			names = append(names, fams[j].Name)
		}
		lines := strings.Split(fams[i].Doc, "\n")
		fmt.Fprintf(&b, "  %s  %s\n", strings.Join(names, ", "), lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "        %s\n", l)
		}
		i = j
	}
	return b.String()
}

// familyFlag is a generator option as a flag: it parses into the FamilyArgs.
type familyFlag struct {
	args *workload.FamilyArgs
	opt  workload.FamilyOption
	set  string
}

func (f *familyFlag) String() string {
	if f.set == "" {
		return f.opt.Default
	}
	return f.set
}

func (f *familyFlag) Set(v string) error {
	if err := f.args.Set(f.opt.Name, v); err != nil {
		return err
	}
	f.set = v
	return nil
}

func (f *familyFlag) Type() string { return f.opt.Type }

// runGen checks the flags against the family and writes its workload to s.Out.
func runGen(s Streams, o *genOptions, reg *workload.Registry, flags *pflag.FlagSet) error {
	fam, ok := reg.Family(o.family)
	if !ok {
		return usageErrf("--family %q: want %s", o.family, orList(reg.Names()))
	}
	var refused []string
	flags.Visit(func(f *pflag.Flag) {
		if _, isOption := f.Value.(*familyFlag); isOption && !fam.Takes(f.Name) {
			refused = append(refused, fmt.Sprintf("--%s: the %s family does not take it (it is for %s)", f.Name, fam.Name, strings.Join(reg.Takers(f.Name), ", ")))
		}
	})
	if len(refused) > 0 {
		return usageErrf("%s", strings.Join(refused, "\n")) // every refused flag at once
	}
	if fam.Check != nil {
		if err := fam.Check(o.args); err != nil {
			return genError(err)
		}
	}
	if fam.Convert != nil {
		return runGenTrace(s, o, fam)
	}
	w, err := fam.Draw(o.args)
	if err != nil {
		return genError(err)
	}
	return writeWorkload(s, workload.MaxInputBytes, func(out io.Writer) error { return workload.Encode(out, w) })
}

// genError is a family's error as a usage error (exit 2), an option named as its flag.
func genError(err error) error {
	var oe *workload.OptionError
	if errors.As(err, &oe) {
		return usageErrf("--%s %s: %s", oe.Option, oe.Value, oe.Msg)
	}
	return usageErr(err)
}

// orList writes names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// runGenTrace converts the trace the family reads (--swf) to a workload file on s.Out,
// streaming.
func runGenTrace(s Streams, o *genOptions, fam workload.Family) error {
	in, name, err := openTrace(s, o.args.Trace)
	if err != nil {
		return err
	}
	defer in.Close()
	var rep *workload.SWFReport
	err = writeWorkload(s, workload.MaxInputBytes, func(out io.Writer) error {
		var werr error
		rep, werr = fam.Convert(o.args, in, out)
		return werr
	})
	if rep != nil {
		writeSWFReport(s.Err, name, rep, o.args.Jobs)
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
