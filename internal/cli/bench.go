package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/coraopt/coraopt/internal/bench"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
)

type benchOptions struct {
	g         *globalOptions
	suite     string
	instances string
	solvers   string
	sizes     string
	seed      uint64
	repeat    int
	warmup    int
	timeLimit time.Duration
	scaling   bool
	cases     string
	progress  bool

	// Injected by tests; nil means the real thing.
	clock    bench.Clock
	backends func(names []string) ([]bench.Backend, error)
	env      func() bench.Environment
}

func newBenchCmd(s Streams, g *globalOptions) *cobra.Command {
	return newBenchCmdWith(s, &benchOptions{g: g})
}

func newBenchCmdWith(s Streams, o *benchOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Time the solver backends and fast paths side by side on instance families",
		Long: `Time every solver backend (the built-in simplex, HiGHS, lp_solve, gonum, the built-in QP
solver) and the fast paths (onion peeling, WCDE, the time-slot mapping) on a suite of
instances, check that their answers agree, and compare them.

Suites (--suite, or --instances DIR):
  netlib        the Netlib LPs of the solver test set (feasible, infeasible, unbounded),
                each with its reference answer; needs "make deps"
  netlib-full   the whole Netlib LP collection (91 models, each checked against its
                SHA-256) with reference optima, from $CORAOPT_NETLIB_DIR (default:
                the netlib directory of the cache)
  miplib        the MIPs of HiGHS's check set (bell5, dcmulti, egout, flugpl, gesa2,
                gt2, lseu, p0548, rgn, small_mip, sp150x300d, 2171) with their reference
                optima, for the MIP backends (mip, highs, lpsolve); needs "make deps"
  formulations  generated scheduling models, seeded with --seed, at --sizes jobs
                (default per family): tas-mip/N=n,T=t, the max-min step of the TAS
                time-indexed MIP, with onion peeling beside the MIP solvers (same
                number: the lowest level); final/N=n,T=t, FINAL (cora.txt §II-C, 40
                slots by default); rs/N=n,T=t, the max-min MIP on RS's worst-case
                demands, with the RS pipeline beside it
  fastpaths     onion/N=n (tas.OnionPeel over 1,000 slots), wcde/N=n (1,000 bins;
                bisection and, as a cross-check, a scan), mapping/N=n (Alg. 4);
                default sizes 1000,10000,100000
  --instances   every .mps, .mps.gz and .lp model in DIR, and every instance .json
                (as NAME/<case> for each formulation with a benchmark model:
                ` + benchCaseNames(o.g.registry) + `)
--sizes takes job counts, each optionally with a slot count: 10,20,100x40.

Solvers (--solvers): a comma-separated list of backends; by default every backend
compiled into this binary, each on the problem classes it solves (coraopt solvers lists
them). A backend that is not compiled in is an error (exit 2) that says how to get it.

Each run is timed --warmup times untimed, then --repeat times (min, median, max), with
--time-limit per run. A row agrees when its answer is conclusive and matches the
reference (Netlib) or every other conclusive answer on the instance: objectives within
1e-6 relative, statuses otherwise. A run that did not finish is not in agreement and not
the fastest; disagreements are flagged (AGREE = NO), never resolved by majority. RATIO
is the median time over the fastest agreeing solver's on the instance (* marks it).
STATUS is the solver's (optimal, infeasible, unbounded, time_limit, …), done for a fast
path that computes rather than optimizes (the mapping), error when a run failed, and
skipped when no selected solver solves the instance's problem class.

The summary gives, per problem class and solver, the number of instances solved and the
shifted geometric mean of the times (shift 10 ms, as Mittelmann's benchmarks), an
unsolved instance charged the time limit, over the instances every solver of the class
attempted, relative to the best solver.

--scaling (with --suite fastpaths) times onion peeling and WCDE over a doubling series of
job counts (1000 to 64000, or --sizes), and onion peeling's layered engine (rush.txt
Alg. 3, on the same instances with release times, which the sweep does not take) over
64 to 1024 jobs, and fits time ∝ N^k by least squares on the log-log scale, printing k
and R² (for onion peeling also per layer).

Output (-o): table (default on a terminal), json (default otherwise) or csv (the rows
only). A progress bar goes to standard error when it is a terminal (--progress forces
it on or off). Ctrl-C stops the run and prints what finished.

Exit codes: 0 done; 1 some answers disagree, or the run was interrupted; 2 bad usage or
input (including a solver that is not compiled in).`,
		Example: `  coraopt bench --suite netlib --solvers simplex,highs,lpsolve -o json
  coraopt bench --suite formulations --sizes 25,50,100 --seed 7 --repeat 5
  coraopt bench --suite fastpaths --scaling
  coraopt bench --instances models/ --time-limit 30s -o csv > times.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.progress = o.progress || (!cmd.Flags().Changed("progress") && isTerminal(s.Err))
			return runBench(cmd.Context(), s, o, cmd.Flags().Changed("suite"))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.suite, "suite", "netlib", "netlib, netlib-full, miplib, formulations or fastpaths")
	f.StringVar(&o.instances, "instances", "", "run the models and instances in this directory instead of a suite")
	f.StringVar(&o.solvers, "solvers", "", "comma-separated backends (default: every compiled-in backend)")
	f.StringVar(&o.sizes, "sizes", "", "formulations/fastpaths: job counts, each optionally xSLOTS (e.g. 10,20,100x40)")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the generated instances")
	f.IntVar(&o.repeat, "repeat", 3, "timed runs per solver and instance (min, median and max are reported)")
	f.IntVar(&o.warmup, "warmup", 0, "untimed runs before the timed ones")
	f.DurationVar(&o.timeLimit, "time-limit", time.Minute, "time limit per run (0: none)")
	f.BoolVar(&o.scaling, "scaling", false, "fastpaths: fit the growth exponent of onion peeling and WCDE over doubling job counts")
	f.StringVar(&o.cases, "cases", "", "run only the instances whose name matches this regular expression")
	f.BoolVar(&o.progress, "progress", false, "show a progress bar on standard error (default: when it is a terminal)")
	return cmd
}

// benchCaseNames lists the NAME/<case> suffixes an instance file gives.
func benchCaseNames(reg *solve.Registry) string {
	var out []string
	for _, f := range reg.Formulations() {
		if f.Bench != nil {
			out = append(out, f.Bench.Case)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// isTerminal says whether w is a terminal (the progress bar goes there).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// benchFormat resolves -o for bench, which adds csv to the global json|table.
func benchFormat(s Streams, g *globalOptions) (string, error) {
	switch g.output {
	case "":
		if s.IsTerminal {
			return "table", nil
		}
		return "json", nil
	case "json", "table", "csv":
		return g.output, nil
	}
	return "", usageErrf("--output %q: want table, csv or json", g.output)
}

func runBench(ctx context.Context, s Streams, o *benchOptions, suiteSet bool) error {
	format, err := benchFormat(s, o.g)
	if err != nil {
		return err
	}
	if o.repeat < 1 {
		return usageErrf("--repeat %d: want at least 1", o.repeat)
	}
	if o.warmup < 0 {
		return usageErrf("--warmup %d: want 0 or more", o.warmup)
	}
	if o.timeLimit < 0 {
		return usageErrf("--time-limit %v: want 0 (none) or more", o.timeLimit)
	}
	selected, err := benchCases(o, suiteSet)
	if err != nil {
		return err
	}
	cases := selected.Cases
	backends, err := resolveBackends(o)
	if err != nil {
		return err
	}
	clock := o.clock
	if clock == nil {
		clock = bench.SystemClock{}
	}
	env := benchEnvironment
	if o.env != nil {
		env = o.env
	}
	meta := bench.Meta{Suite: selected.Suite, Started: clock.Now().UTC(), Environment: env(),
		Settings: bench.Settings{Repeat: o.repeat, Warmup: o.warmup, TimeLimitSeconds: o.timeLimit.Seconds(),
			ShiftSeconds: bench.DefaultShift.Seconds(), AgreementTol: bench.AgreementTol, Sizes: selected.Sizes, Cases: o.cases}}
	meta.Environment.Solvers = map[string]string{}
	for _, b := range backends {
		meta.Settings.Solvers = append(meta.Settings.Solvers, b.Name)
		meta.Environment.Solvers[b.Name] = b.Version
	}
	if selected.Seeded {
		seed := o.seed
		meta.Settings.Seed = &seed
	}
	cfg := bench.Config{Backends: backends, Repeat: o.repeat, Warmup: o.warmup, TimeLimit: o.timeLimit, Clock: clock}
	clearBar := func() {}
	if o.progress && len(cases) > 0 {
		bar := progressbar.NewOptions(len(cases), progressbar.OptionSetWriter(s.Err),
			progressbar.OptionSetDescription("bench"), progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish(), progressbar.OptionSetWidth(30))
		cfg.Progress = func(done, total int, current string) {
			bar.Describe(current)
			_ = bar.Set(done)
		}
		clearBar = func() { _ = bar.Clear() }
	}
	rep := bench.Run(ctx, cases, cfg)
	clearBar() // before anything is printed: stdout may share the terminal
	var scaling []bench.Scaling
	if o.scaling {
		scaling = bench.FitScaling(rep.Rows)
	}
	switch format {
	case "json":
		err = bench.WriteJSON(s.Out, meta, rep, scaling)
	case "csv":
		err = bench.WriteCSV(s.Out, rep)
	default:
		err = bench.WriteTable(s.Out, meta, rep, scaling)
	}
	if err != nil {
		return failed(err)
	}
	if rep.Abandoned > 0 {
		fmt.Fprintf(s.Err, "coraopt: warning: %d run(s) hit the time limit in a backend that cannot be stopped and kept computing in the background; the times measured after the first of them are inflated (leave that backend out of --solvers for clean numbers)\n", rep.Abandoned)
	}
	switch {
	case rep.Interrupted:
		return failed(fmt.Errorf("bench: interrupted: %d of %d instances finished", rep.Finished, rep.Cases))
	case rep.Disagreements > 0:
		return failed(fmt.Errorf("bench: %d result(s) disagree (AGREE = NO / \"agree\": false with a note)", rep.Disagreements))
	}
	return nil
}

// benchCases builds the cases the flags select (bench.Select), its errors named as flags.
func benchCases(o *benchOptions, suiteSet bool) (*bench.Selected, error) {
	sel := bench.Selection{Suite: o.suite, Instances: o.instances, Seed: o.seed, Scaling: o.scaling, Registry: o.g.registry}
	if o.instances != "" && !suiteSet {
		sel.Suite = "" // the flag's default gives way to --instances
	}
	if o.sizes != "" {
		var err error
		if sel.Sizes, err = bench.ParseSizes(o.sizes); err != nil {
			return nil, usageErrf("--sizes: %v", err)
		}
	}
	if o.cases != "" {
		var err error
		if sel.Cases, err = regexp.Compile(o.cases); err != nil {
			return nil, usageErrf("--cases: %v", err)
		}
	}
	selected, err := bench.Select(sel)
	var se *bench.SelectionError
	switch {
	case errors.As(err, &se):
		return nil, usageErrf("--%v", se) // --sizes: applies to …
	case err != nil:
		return nil, usageErr(err)
	}
	return selected, nil
}

// resolveBackends turns --solvers into backends: unknown or not compiled in is a usage
// error (exit 2) carrying the registry's hint.
func resolveBackends(o *benchOptions) ([]bench.Backend, error) {
	resolve := bench.RegistryBackends
	if o.backends != nil {
		resolve = o.backends
	}
	var names []string
	if o.solvers != "" {
		for _, n := range strings.Split(o.solvers, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			return nil, usageErrf("--solvers %q names no solver", o.solvers)
		}
	}
	bs, err := resolve(names)
	if err != nil {
		var nc *solvers.ErrNotCompiled
		if errors.As(err, &nc) {
			return nil, usageErr(fmt.Errorf("--solvers: %w", err))
		}
		return nil, usageErrf("--solvers: %v", err)
	}
	return bs, nil
}

// benchEnvironment describes this machine and build.
func benchEnvironment() bench.Environment {
	return bench.Environment{Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH,
		CPUs: runtime.NumCPU(), LoadAverage: loadAverage()}
}

// loadAverage reads /proc/loadavg (Linux); nil elsewhere.
func loadAverage() []float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	fields := strings.Fields(string(data))
	if len(fields) < 3 {
		return nil
	}
	out := make([]float64, 3)
	for i := range out {
		v, err := strconv.ParseFloat(fields[i], 64)
		if err != nil {
			return nil
		}
		out[i] = v
	}
	return out
}
