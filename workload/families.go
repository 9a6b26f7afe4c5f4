package workload

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A generator family is a named workload generator shaped like a paper's evaluation
// (`coraopt gen --family NAME`). The Registry holds
// the families by name with the options each takes, so that the command line's help,
// its flags and their validation come from one table: Families are this package's,
// workload/hadoop1.Families WOHA's and RTMR's.

// MaxGeneratedJobs bounds the jobs of the cora, rush and rds families: some 120 MB of
// workload file (gen --family cora --jobs 200000 wrote 118 MB in 12 s), within what
// simulate reads (MaxInputBytes); more would run for minutes and then be refused.
const MaxGeneratedJobs = 200_000

// FamilyOption is an option some family takes: `coraopt gen --NAME VALUE`.
type FamilyOption struct {
	Name string
	// Type is how the value parses: "int", "uint", "float", "bool" or "string".
	Type string
	// Default is the value when the option is not given.
	Default string
	// Usage says what it is, without naming the families that take it (the Registry
	// adds them).
	Usage string
}

// FamilyArgs are the values of every option; a family reads the ones it takes.
type FamilyArgs struct {
	Jobs        int
	Seed        uint64
	BudgetRatio float64
	// Mix is cora's and rush's class mix: "c,s,i" (ParseCORAMix) in exact counts, ""
	// for the paper's 20/60/20 in exact counts, or "drawn" (each job draws its class).
	Mix string
	// Standalone is how cora and rush find a job's standalone runtime: "measured" or
	// "waves" (StandaloneMode).
	Standalone string
	// AtOnce makes every job arrive at time 0 (NoArrivals), for every generated family.
	AtOnce bool
	// Workflows, RuntimeModel and BeyondFactor are the Hadoop-1 families' (hadoop1).
	Workflows    int
	RuntimeModel string
	BeyondFactor float64
	// Trace names the trace a converting family reads (the caller opens it); the SWF
	// options follow.
	Trace          string
	DeadlineFactor float64
	Decay          float64
}

// familyOptions are every option, in the order help lists them.
var familyOptions = []FamilyOption{
	{"jobs", "int", "100", "number of jobs, at most " + strconv.Itoa(MaxGeneratedJobs) + " (swf: the trace's first jobs, 0: all of them)"},
	{"seed", "uint", "1", "seed"},
	{"budget-ratio", "float", "2", "time budget as a multiple of the standalone runtime (the paper uses 2, 1.5, 1)"},
	{"mix", "string", "", "shares of critical,sensitive,insensitive jobs in exact counts (default 0.2,0.6,0.2), or \"drawn\": each job draws its class with those probabilities (before issue 28)"},
	{"standalone", "string", "measured", "the standalone runtime deadlines and budgets are multiples of: measured (the job alone on the cluster, true runtimes of --seed) or waves (waves × mean task time, before issue 28)"},
	{"at-once", "bool", "false", "every job arrives at time 0, its deadline and utility kept at their absolute times (no arrivals after the first plan)"},
	{"workflows", "int", "20", "number of workflows"},
	{"runtime-model", "string", "within", "true task times within the estimates, or beyond them"},
	{"beyond-factor", "float", "1.3", "with --runtime-model beyond: true task times up to this multiple of the estimates"},
	{"swf", "string", "", "the trace to read"},
	{"deadline-factor", "float", "3", "deadline as a multiple of the runtime"},
	{"decay", "float", "0", "sigmoid decay per minute (0: step utilities)"},
}

// Set parses value into the option name.
func (a *FamilyArgs) Set(name, value string) error {
	i := slices.IndexFunc(familyOptions, func(o FamilyOption) bool { return o.Name == name })
	if i < 0 {
		return fmt.Errorf("workload: no generator option %q", name)
	}
	var err error
	parseInt := func(p *int) {
		var v int64
		if v, err = strconv.ParseInt(value, 0, 64); err == nil {
			*p = int(v)
		}
	}
	parseFloat := func(p *float64) {
		var v float64
		if v, err = strconv.ParseFloat(value, 64); err == nil {
			*p = v
		}
	}
	switch name {
	case "jobs":
		parseInt(&a.Jobs)
	case "seed":
		var v uint64
		if v, err = strconv.ParseUint(value, 0, 64); err == nil {
			a.Seed = v
		}
	case "budget-ratio":
		parseFloat(&a.BudgetRatio)
	case "mix":
		a.Mix = value
	case "standalone":
		a.Standalone = value
	case "at-once":
		var v bool
		if v, err = strconv.ParseBool(value); err == nil {
			a.AtOnce = v
		}
	case "workflows":
		parseInt(&a.Workflows)
	case "runtime-model":
		a.RuntimeModel = value
	case "beyond-factor":
		parseFloat(&a.BeyondFactor)
	case "swf":
		a.Trace = value
	case "deadline-factor":
		parseFloat(&a.DeadlineFactor)
	case "decay":
		parseFloat(&a.Decay)
	}
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) {
			err = ne.Err
		}
		return fmt.Errorf("not %s %s: %w", article(familyOptions[i].Type), familyOptions[i].Type, err)
	}
	return nil
}

func article(typ string) string {
	if typ == "int" || typ == "uint" {
		return "an"
	}
	return "a"
}

// OptionError is an option value a family refuses; the caller names the option as its
// user spells it (--jobs, workloads[0].jobs).
type OptionError struct {
	Option string // the option's name, as FamilyOption.Name
	Value  string
	Msg    string
}

func (e *OptionError) Error() string { return fmt.Sprintf("%s %s: %s", e.Option, e.Value, e.Msg) }

func optionErrorf(option string, value any, format string, args ...any) error {
	return &OptionError{Option: option, Value: fmt.Sprint(value), Msg: fmt.Sprintf(format, args...)}
}

// Family is one generator family.
type Family struct {
	Name string
	// Doc is the family's paragraph of help: the paper's section and what it draws.
	Doc string
	// Options are the names of the options it takes.
	Options []string
	// Check refuses option values the family cannot use (an *OptionError) before any
	// work, such as opening a trace. Generate and Convert check again.
	Check func(a FamilyArgs) error
	// Generate draws the workload. Exactly one of Generate and Convert is set.
	Generate func(a FamilyArgs) (*Workload, error)
	// Convert streams the trace the caller opened from a.Trace into a workload file on
	// out, as it reads (swf: a trace may be larger than memory).
	Convert func(a FamilyArgs, trace io.Reader, out io.Writer) (*SWFReport, error)
}

// Takes says whether the family reads the option.
func (f Family) Takes(option string) bool { return slices.Contains(f.Options, option) }

// Draw is Generate followed, with a.AtOnce, by NoArrivals: the families' workload with
// every job arriving at time 0.
func (f Family) Draw(a FamilyArgs) (*Workload, error) {
	w, err := f.Generate(a)
	if err != nil || !a.AtOnce {
		return w, err
	}
	if w, err = NoArrivals(w); err != nil {
		return nil, &OptionError{Option: "at-once", Value: "true", Msg: err.Error()}
	}
	return w, nil
}

// Registry holds generator families by name.
type Registry struct {
	families []Family
}

// NewRegistry registers families in order; names must be unique and every option one
// of the table's.
func NewRegistry(families ...Family) (*Registry, error) {
	r := &Registry{}
	for _, f := range families {
		if f.Name == "" || slices.ContainsFunc(r.families, func(g Family) bool { return g.Name == f.Name }) {
			return nil, fmt.Errorf("workload: family %q: empty or registered twice", f.Name)
		}
		if (f.Generate == nil) == (f.Convert == nil) {
			return nil, fmt.Errorf("workload: family %q: want exactly one of Generate and Convert", f.Name)
		}
		for _, o := range f.Options {
			if !slices.ContainsFunc(familyOptions, func(x FamilyOption) bool { return x.Name == o }) {
				return nil, fmt.Errorf("workload: family %q: unknown option %q", f.Name, o)
			}
		}
		r.families = append(r.families, f)
	}
	return r, nil
}

// Family returns the family of that name.
func (r *Registry) Family(name string) (Family, bool) {
	i := slices.IndexFunc(r.families, func(f Family) bool { return f.Name == name })
	if i < 0 {
		return Family{}, false
	}
	return r.families[i], true
}

// Families lists the families in registration order.
func (r *Registry) Families() []Family { return slices.Clone(r.families) }

// Names lists the family names in registration order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.families))
	for i, f := range r.families {
		out[i] = f.Name
	}
	return out
}

// Options lists the options some family takes, in table order.
func (r *Registry) Options() []FamilyOption {
	var out []FamilyOption
	for _, o := range familyOptions {
		if len(r.Takers(o.Name)) > 0 {
			out = append(out, o)
		}
	}
	return out
}

// Takers lists the families that take the option.
func (r *Registry) Takers(option string) []string {
	var out []string
	for _, f := range r.families {
		if f.Takes(option) {
			out = append(out, f.Name)
		}
	}
	return out
}

// Usage is the option's help: the families that take it, then what it is.
func (r *Registry) Usage(o FamilyOption) string {
	return strings.Join(r.Takers(o.Name), ", ") + ": " + o.Usage
}

// DefaultArgs are every option at its default.
func DefaultArgs() FamilyArgs {
	var a FamilyArgs
	for _, o := range familyOptions {
		if err := a.Set(o.Name, o.Default); err != nil {
			panic(fmt.Sprintf("workload: option %s: default %q: %v", o.Name, o.Default, err)) // the table's own: a build error every test reports
		}
	}
	return a
}

// checkJobs refuses a generated family's job count outside [1, MaxGeneratedJobs].
func checkJobs(n int) error {
	if n < 1 || n > MaxGeneratedJobs {
		return optionErrorf("jobs", n, "need at least 1 job and at most %d (some 120 MB of workload file; simulate reads up to %d MiB)", MaxGeneratedJobs, MaxInputBytes>>20)
	}
	return nil
}

// genOptions reads the cora and rush families' mix and standalone options.
func genOptions(a FamilyArgs) (GenOptions, error) {
	var opt GenOptions
	switch a.Standalone {
	case "measured":
	case "waves":
		opt.Standalone = StandaloneWaves
	default:
		return opt, &OptionError{Option: "standalone", Value: strconv.Quote(a.Standalone), Msg: "want measured or waves"}
	}
	switch a.Mix {
	case "":
	case "drawn":
		opt.DrawClasses = true
	default:
		mix, err := ParseCORAMix(a.Mix)
		if err != nil {
			return opt, &OptionError{Option: "mix", Value: strconv.Quote(a.Mix), Msg: err.Error()}
		}
		opt.Mix = mix
	}
	return opt, nil
}

// Families are this package's generator families: cora, rush, rds and swf.
func Families() []Family {
	checkCORA := func(a FamilyArgs) error {
		if err := checkJobs(a.Jobs); err != nil {
			return err
		}
		_, err := genOptions(a)
		return err
	}
	checkRUSH := func(a FamilyArgs) error {
		if err := checkCORA(a); err != nil {
			return err
		}
		if !(a.BudgetRatio > 0) || math.IsInf(a.BudgetRatio, 0) {
			return optionErrorf("budget-ratio", a.BudgetRatio, "need a finite number > 0")
		}
		return nil
	}
	checkSWF := func(a FamilyArgs) error {
		switch {
		case a.Trace == "":
			return optionErrorf("swf", `""`, "need a trace to read")
		case a.Jobs < 0:
			return optionErrorf("jobs", a.Jobs, "need 0 (keep every job) or more")
		case !(a.DeadlineFactor > 0) || math.IsInf(a.DeadlineFactor, 0):
			return optionErrorf("deadline-factor", a.DeadlineFactor, "need a finite number > 0")
		case !(a.Decay >= 0) || math.IsInf(a.Decay, 0):
			return optionErrorf("decay", a.Decay, "need a finite number >= 0 (0: step utilities)")
		}
		return nil
	}
	return []Family{
		{Name: "cora", Options: []string{"jobs", "seed", "mix", "standalone", "at-once"}, Check: checkCORA,
			Doc: `cora.txt §III-C: Poisson arrivals (mean 130 s), eight PUMA job templates (up to 100
map and 20 reduce tasks), priority U[1,5], sigmoid utilities in minutes (exactly 20%
critical, 60% sensitive, 20% insensitive, in a seeded order), deadline = standalone
× N(1.25, 0.1) × active jobs at submission; 40 containers. --mix c,s,i gives other
shares (counts by largest remainder; the other draws unchanged), as cora.txt Fig. 5
varies them.`,
			Generate: func(a FamilyArgs) (*Workload, error) {
				if err := checkCORA(a); err != nil {
					return nil, err
				}
				opt, _ := genOptions(a)
				return CORAWorkloadWith(a.Jobs, a.Seed, opt)
			}},
		{Name: "rush", Options: []string{"jobs", "seed", "budget-ratio", "mix", "standalone", "at-once"}, Check: checkRUSH,
			Doc: `rush.txt §V-B: as cora with data sets of U[1,10] GB, priority U{1..5}, budget =
--budget-ratio × standalone runtime; 48 containers.
For both, the standalone runtime is measured: the job alone on the empty cluster in
the simulator, with the true runtimes of --seed — so simulate --seed S on a file
of gen --seed S sees exactly the benchmarked runtimes (under another runtime seed
they vary as a rerun would). Files written before issue 28 used waves × mean task
time and drew each job's class: --standalone waves --mix drawn writes them again.`,
			Generate: func(a FamilyArgs) (*Workload, error) {
				if err := checkRUSH(a); err != nil {
					return nil, err
				}
				opt, _ := genOptions(a)
				return RUSHWorkloadWith(a.Jobs, a.Seed, a.BudgetRatio, opt)
			}},
		{Name: "rds", Options: []string{"jobs", "seed", "at-once"}, Check: func(a FamilyArgs) error { return checkJobs(a.Jobs) },
			Doc: `rds.txt Table 3 (J1–J9 repeated), an arrival every 10 minutes, deadline 2.5 ×
dedicated runtime, RDS utilities; Hadoop-1: 20 workers with 2 map and 1 reduce slot,
half-green capacity trace.`,
			Generate: func(a FamilyArgs) (*Workload, error) {
				if err := checkJobs(a.Jobs); err != nil {
					return nil, err
				}
				return RDSWorkload(a.Jobs, a.Seed)
			}},
		{Name: "swf", Options: []string{"swf", "jobs", "deadline-factor", "decay"}, Check: checkSWF,
			Doc: `a Standard Workload Format trace (--swf FILE, - for stdin, FILE.gz is
decompressed; --jobs caps the count, 0 keeps all): one task per processor,
deadline = --deadline-factor × runtime, step utilities (or sigmoid with --decay).
Jobs the workload file cannot hold (beyond its limits on runtimes, deadlines,
tasks and arrivals) are dropped like unusable lines; how many were dropped for
each reason goes to stderr. The trace is converted as it streams (170 MB
resident for 10^6 job lines); a workload larger than simulate reads (256 MiB,
some 900,000 jobs) is refused, exit 2.`,
			Convert: func(a FamilyArgs, trace io.Reader, out io.Writer) (*SWFReport, error) {
				if err := checkSWF(a); err != nil {
					return nil, err
				}
				return WriteSWF(trace, out, SWFOptions{MaxJobs: a.Jobs, DeadlineFactor: a.DeadlineFactor, Decay: a.Decay})
			}},
	}
}

// ParseCORAMix reads a class mix: three comma-separated non-negative shares of
// critical, sensitive and insensitive jobs summing to 1.
func ParseCORAMix(s string) (CORAMix, error) {
	var m CORAMix
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
