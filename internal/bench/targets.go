package bench

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// GoBench holds the results of `go test -bench` runs: for each benchmark (keyed
// "<package>.<Benchmark>/<sub>" without the -GOMAXPROCS suffix, the package relative to
// the module) the samples of each metric ("ns/op", "cpu-ns/op", …), one per -count.
type GoBench map[string]map[string][]float64

var (
	benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.+)$`)
	pkgLine   = regexp.MustCompile(`^pkg:\s+(\S+)`)
)

// ParseGoBench reads `go test -bench` output (any number of packages and -count runs).
// module is stripped from package paths ("github.com/coraopt/coraopt/formulations/tas"
// becomes "formulations/tas").
func ParseGoBench(r io.Reader, module string) (GoBench, error) {
	out := GoBench{}
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if m := pkgLine.FindStringSubmatch(line); m != nil {
			pkg = strings.TrimPrefix(strings.TrimPrefix(m[1], module), "/")
			continue
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		fields := strings.Fields(m[3])
		if len(fields)%2 != 0 {
			continue
		}
		key := pkg + "." + m[1]
		if out[key] == nil {
			out[key] = map[string][]float64{}
		}
		for i := 0; i < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return nil, fmt.Errorf("bench: %q: %w", line, err)
			}
			out[key][fields[i+1]] = append(out[key][fields[i+1]], v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bench: reading benchmark output: %w", err)
	}
	return out, nil
}

// Median is the median of a benchmark's metric over its runs, and whether it was there.
func (g GoBench) Median(key, unit string) (float64, bool) {
	v := g[key][unit]
	if len(v) == 0 {
		return 0, false
	}
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2], true
	}
	return (s[n/2-1] + s[n/2]) / 2, true
}

// Keys lists the benchmarks whose key starts with prefix, sorted.
func (g GoBench) Keys(prefix string) []string {
	var out []string
	for k := range g {
		if strings.HasPrefix(k, prefix) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// Target is one row of the performance table of docs/design.md (the product's targets)
// and how it is measured.
type Target struct {
	What   string // "onion peeling, 1,000 jobs"
	Paper  string // the paper's figure, or "—"
	Goal   string // "≤ 10 ms"
	Limit  float64
	AtMost bool   // the measure must be ≤ Limit (else ≥)
	Unit   string // of Limit and the measure: "s", "×", "calls/s"
	// Benchmarks are the Go benchmarks that measure it, as "<package>.<Benchmark>/<sub>"
	// keys of GoBench (sub-benchmark patterns for sets), with the build tags they need.
	Benchmarks []string
	Tags       string
	// Measure computes the measured value from the results, with a line on how.
	Measure func(GoBench) (value float64, detail string, ok bool)
	// NotImplemented says why there is nothing to measure.
	NotImplemented string
}

// Evaluation is a target against a benchmark run.
type Evaluation struct {
	Target   Target
	Measured float64
	Detail   string
	Ok       bool // measured
	// Ratio is Measured / Limit; Meets says whether it is on the right side of 1.
	Ratio float64
	Meets bool
}

// Evaluate measures every target on g.
func Evaluate(targets []Target, g GoBench) []Evaluation {
	out := make([]Evaluation, len(targets))
	for i, t := range targets {
		e := Evaluation{Target: t, Measured: math.NaN(), Ratio: math.NaN()}
		if t.Measure != nil && t.NotImplemented == "" {
			e.Measured, e.Detail, e.Ok = t.Measure(g)
			if e.Ok {
				e.Ratio = e.Measured / t.Limit
				e.Meets = (t.AtMost && e.Ratio <= 1) || (!t.AtMost && e.Ratio >= 1)
			}
		}
		out[i] = e
	}
	return out
}

// timeOf measures one benchmark's median wall time per op, in seconds, and mentions its
// CPU time per op when the benchmark reports it (cpu-ns/op or cpu-ms/op).
func timeOf(key string) func(GoBench) (float64, string, bool) {
	return func(g GoBench) (float64, string, bool) {
		ns, ok := g.Median(key, "ns/op")
		if !ok {
			return 0, "not in this run: " + key, false
		}
		detail := fmt.Sprintf("%s: median of %d", key, len(g[key]["ns/op"]))
		if cpu, ok := g.Median(key, "cpu-ns/op"); ok {
			detail += fmt.Sprintf("; CPU %s", FormatSeconds(cpu/1e9))
		} else if cpu, ok := g.Median(key, "cpu-ms/op"); ok {
			detail += fmt.Sprintf("; CPU %s", FormatSeconds(cpu/1e3))
		}
		return ns / 1e9, detail, true
	}
}

// metricOf measures one benchmark's median of a metric it reports with
// b.ReportMetric (events/s, calls/s).
func metricOf(key, unit string) func(GoBench) (float64, string, bool) {
	return func(g GoBench) (float64, string, bool) {
		v, ok := g.Median(key, unit)
		if !ok {
			return 0, "not in this run: " + key + " " + unit, false
		}
		return v, fmt.Sprintf("%s: median %s of %d", key, unit, len(g[key][unit])), true
	}
}

// ratioOver measures the geometric mean over the models under prefix of
// time(num)/time(den), sub-benchmarks named <prefix><model>/<num> and <prefix><model>/<den>.
func ratioOver(prefix, num, den string) func(GoBench) (float64, string, bool) {
	return func(g GoBench) (float64, string, bool) {
		var logs []float64
		var models, missing []string
		worst, worstModel := 0.0, ""
		for _, k := range g.Keys(prefix) {
			if !strings.HasSuffix(k, "/"+den) {
				continue
			}
			model := strings.TrimSuffix(strings.TrimPrefix(k, prefix), "/"+den)
			d, _ := g.Median(k, "ns/op")
			n, ok := g.Median(prefix+model+"/"+num, "ns/op")
			if !ok || d <= 0 {
				missing = append(missing, model)
				continue
			}
			r := n / d
			logs = append(logs, math.Log(r))
			models = append(models, model)
			if r > worst {
				worst, worstModel = r, model
			}
		}
		if len(logs) == 0 {
			msg := fmt.Sprintf("no %s/%s pairs under %s", num, den, prefix)
			if len(missing) > 0 {
				msg = fmt.Sprintf("%s measured on %s, %s not in this run", den, strings.Join(missing, ", "), num)
			}
			return 0, msg, false
		}
		gm := math.Exp(mean(logs))
		return gm, fmt.Sprintf("geometric mean of %s/%s over %d model(s) (%s); largest %.3g× on %s",
			num, den, len(logs), strings.Join(models, ", "), worst, worstModel), true
	}
}

// p99Of measures one benchmark's reported 99th percentile (p99-µs), in seconds, and
// mentions its mean wall and CPU time per operation when reported (ns/op, cpu-ns/op):
// on a shared machine the CPU time says more about the code than the wall-clock p99.
func p99Of(key string) func(GoBench) (float64, string, bool) {
	return func(g GoBench) (float64, string, bool) {
		us, ok := g.Median(key, "p99-µs")
		if !ok {
			return 0, "not in this run: " + key + " p99-µs", false
		}
		detail := fmt.Sprintf("%s: median p99 of %d runs", key, len(g[key]["p99-µs"]))
		if ns, ok := g.Median(key, "ns/op"); ok {
			detail += fmt.Sprintf("; mean %s", FormatSeconds(ns/1e9))
		}
		if cpu, ok := g.Median(key, "cpu-ns/op"); ok {
			detail += fmt.Sprintf("; CPU %s", FormatSeconds(cpu/1e9))
		}
		return us / 1e6, detail, true
	}
}

// Targets is the performance table of docs/design.md with the benchmark measuring each
// row: the product's targets, whose values are the design's, and those the harness adds
// (the built-in simplex on Netlib subsets and against gonum, onion peeling with release
// times).
func Targets() []Target {
	return []Target{
		{What: "onion peeling, 1,000 jobs", Paper: "RUSH: 7.34 s", Goal: "≤ 1 ms", Limit: 0.001, AtMost: true, Unit: "s",
			Benchmarks: []string{"formulations/tas.BenchmarkOnionPeel/N=1000,T=1000"},
			Measure:    timeOf("formulations/tas.BenchmarkOnionPeel/N=1000,T=1000")},
		{What: "onion peeling, 100,000 jobs", Paper: "—", Goal: "≤ 200 ms", Limit: 0.2, AtMost: true, Unit: "s",
			Benchmarks: []string{"formulations/tas.BenchmarkOnionPeel/N=100000"},
			Measure:    timeOf("formulations/tas.BenchmarkOnionPeel/N=100000")},
		{What: "WCDE, 1,000 jobs × 1,000 bins", Paper: "—", Goal: "≤ 5 ms", Limit: 0.005, AtMost: true, Unit: "s",
			Benchmarks: []string{"formulations/rs.BenchmarkWCDE/jobs=1000,bins=1000"},
			Measure:    timeOf("formulations/rs.BenchmarkWCDE/jobs=1000,bins=1000")},
		{What: "FINAL LP, 100 jobs × 40 slots, HiGHS", Paper: "CORA (Mosek): mean 347 ms", Goal: "≤ 300 ms", Limit: 0.300, AtMost: true, Unit: "s",
			Benchmarks: []string{"formulations/cora.BenchmarkSolveFinal/HiGHS", "formulations/cora.BenchmarkSolveFinalSizes/jobs=100,slots=40"}, Tags: "highs",
			Measure: timeOf("formulations/cora.BenchmarkSolveFinal/HiGHS")},
		{What: "built-in simplex vs HiGHS, Netlib ≤ 300 rows", Paper: "pure-Rust microlp beats HiGHS here", Goal: "≤ 1×", Limit: 1, AtMost: true, Unit: "×",
			Benchmarks: []string{"internal/bench.BenchmarkNetlibVsHiGHS/rows<=300/*/{simplex,highs}"}, Tags: "highs",
			Measure: ratioOver("internal/bench.BenchmarkNetlibVsHiGHS/rows<=300/", "simplex", "highs")},
		{What: "built-in simplex vs HiGHS, 25fv47 / 80bau3b", Paper: "—", Goal: "≤ 5×", Limit: 5, AtMost: true, Unit: "×",
			Benchmarks: []string{"internal/bench.BenchmarkNetlibVsHiGHS/large/*/{simplex,highs}"}, Tags: "highs",
			Measure: ratioOver("internal/bench.BenchmarkNetlibVsHiGHS/large/", "simplex", "highs")},
		{What: "built-in simplex vs gonum lp.Simplex", Paper: "dense, re-solves each iteration", Goal: "≥ 50× faster", Limit: 50, AtMost: false, Unit: "×",
			Benchmarks: []string{"internal/bench.BenchmarkVsGonum/*/{simplex,gonum}"},
			Measure:    ratioOver("internal/bench.BenchmarkVsGonum/", "gonum", "simplex")},
		{What: "RDS QP, 100 jobs × H=3, built-in QP", Paper: "RDS (MATLAB quadprog): 1.2 s", Goal: "≤ 5 ms", Limit: 0.005, AtMost: true, Unit: "s",
			Benchmarks: []string{"solvers/qp.BenchmarkRDSShapedQP/jobs=100,H=3,cold"},
			Measure:    timeOf("solvers/qp.BenchmarkRDSShapedQP/jobs=100,H=3,cold")},
		{What: "WOHA AssignTask, 10,000 workflows (double skip list)", Paper: "naive: < 2 calls/s", Goal: "≥ 1,000,000 calls/s", Limit: 1e6, AtMost: false, Unit: "calls/s",
			Benchmarks: []string{"policies/woha.BenchmarkAssignTask/gap=1us/workflows=10000/order=dsl"},
			Measure:    metricOf("policies/woha.BenchmarkAssignTask/gap=1us/workflows=10000/order=dsl", "calls/s")},
		// "On one core": events per CPU-second of the process, which a shared machine's
		// other work does not dilute as it does events per wall-clock second.
		{What: "simulator, FIFO, 100,000-job workload", Paper: "SimPy ≈ 240k events/s", Goal: "≥ 5,000,000 events/s on one core", Limit: 5e6, AtMost: false, Unit: "events/cpu-s",
			Benchmarks: []string{"sim.BenchmarkSimulate/fifo/jobs=100000"},
			Measure:    metricOf("sim.BenchmarkSimulate/fifo/jobs=100000", "events/cpu-s")},
		{What: "RTMR admission decision, 1,000 queued jobs, 130 slots", Paper: "—", Goal: "< 1 ms", Limit: 0.001, AtMost: true, Unit: "s",
			Benchmarks: []string{"policies/rtmr.BenchmarkAdmissionDecision/workload1/place"},
			Measure:    timeOf("policies/rtmr.BenchmarkAdmissionDecision/workload1/place")},
		{What: "online decision p99, cora, 100 active jobs", Paper: "CORA (Mosek FINAL): 347 ms mean", Goal: "≤ 1 ms", Limit: 0.001, AtMost: true, Unit: "s",
			Benchmarks: []string{"policies/all.BenchmarkDecision/cora/jobs=100"},
			Measure:    p99Of("policies/all.BenchmarkDecision/cora/jobs=100")},
		{What: "online decision p99, cora, 1,000 active jobs", Paper: "—", Goal: "≤ 10 ms", Limit: 0.010, AtMost: true, Unit: "s",
			Benchmarks: []string{"policies/all.BenchmarkDecision/cora/jobs=1000"},
			Measure:    p99Of("policies/all.BenchmarkDecision/cora/jobs=1000")},
		{What: "online decision p99, rush, 100 active jobs", Paper: "RUSH: 0.32 s at 20 jobs", Goal: "≤ 1 ms", Limit: 0.001, AtMost: true, Unit: "s",
			Benchmarks: []string{"policies/all.BenchmarkDecision/rush/jobs=100"},
			Measure:    p99Of("policies/all.BenchmarkDecision/rush/jobs=100")},
		{What: "online decision p99, rush, 1,000 active jobs", Paper: "RUSH: 7.34 s", Goal: "≤ 10 ms", Limit: 0.010, AtMost: true, Unit: "s",
			Benchmarks: []string{"policies/all.BenchmarkDecision/rush/jobs=1000"},
			Measure:    p99Of("policies/all.BenchmarkDecision/rush/jobs=1000")},
		{What: "onion peeling with release times, 100,000 jobs", Paper: "—", Goal: "≤ 2 s", Limit: 2, AtMost: true, Unit: "s",
			Benchmarks: []string{"formulations/tas.BenchmarkOnionPeelArrivals/release/N=100000"},
			Measure:    timeOf("formulations/tas.BenchmarkOnionPeelArrivals/release/N=100000")},
		{What: "onion peeling with release times and max_parallel, 10,000 jobs", Paper: "—", Goal: "≤ 10 s", Limit: 10, AtMost: true, Unit: "s",
			Benchmarks: []string{"formulations/tas.BenchmarkOnionPeelArrivals/release-maxpar/N=10000"},
			Measure:    timeOf("formulations/tas.BenchmarkOnionPeelArrivals/release-maxpar/N=10000")},
	}
}

// FormatSeconds prints a time in s, ms or µs with three significant digits.
func FormatSeconds(s float64) string {
	switch {
	case math.IsNaN(s):
		return "—"
	case s >= 1:
		return strconv.FormatFloat(s, 'g', 3, 64) + " s"
	case s >= 1e-3:
		return strconv.FormatFloat(s*1e3, 'g', 3, 64) + " ms"
	}
	return strconv.FormatFloat(s*1e6, 'g', 3, 64) + " µs"
}

// FormatMeasure prints a measured value in the target's unit.
func (t Target) FormatMeasure(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case t.Unit == "s":
		return FormatSeconds(v)
	case t.Unit == "×":
		return strconv.FormatFloat(v, 'g', 3, 64) + "×"
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + " " + t.Unit
}
