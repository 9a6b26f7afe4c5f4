package bench

import (
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coraopt/coraopt/solvers"
)

const sampleGoBench = `goos: linux
goarch: amd64
pkg: github.com/coraopt/coraopt/formulations/tas
cpu: AMD EPYC
BenchmarkOnionPeel/N=1000,T=1000-2         	     100	   4000000 ns/op	   3000000 cpu-ns/op	       812.0 layers
BenchmarkOnionPeel/N=1000,T=1000-2         	     100	   6000000 ns/op	   3100000 cpu-ns/op	       812.0 layers
BenchmarkOnionPeel/N=1000,T=1000-2         	     100	   5000000 ns/op	   2900000 cpu-ns/op	       812.0 layers
BenchmarkOnionPeel/N=100000-2              	       1	3000000000 ns/op
PASS
ok  	github.com/coraopt/coraopt/formulations/tas	12.3s
pkg: github.com/coraopt/coraopt/internal/bench
BenchmarkNetlibVsHiGHS/rows<=300/afiro/simplex-2 	    1000	     20000 ns/op	        12.00 iters
BenchmarkNetlibVsHiGHS/rows<=300/afiro/highs-2   	    1000	     40000 ns/op	        10.00 iters
BenchmarkNetlibVsHiGHS/rows<=300/israel/simplex-2	     100	   2000000 ns/op
BenchmarkNetlibVsHiGHS/rows<=300/israel/highs-2  	     100	   1000000 ns/op
BenchmarkNetlibVsHiGHS/large/25fv47/highs-2      	      10	 100000000 ns/op
BenchmarkVsGonum/afiro/simplex-2                 	    1000	     20000 ns/op
BenchmarkVsGonum/afiro/gonum-2                   	     100	   6000000 ns/op
pkg: github.com/coraopt/coraopt/sim
BenchmarkSimulate/fifo/jobs=100000-2       	       1	5000000000 ns/op	   3600000 events/cpu-s	   9877900 events/op	   1900000 events/s
BenchmarkSimulate/fifo/jobs=100000-2       	       1	5000000000 ns/op	   3600000 events/cpu-s	   9877900 events/op	   2100000 events/s
BenchmarkSimulate/fifo/jobs=100000-2       	       1	5000000000 ns/op	   3600000 events/cpu-s	   9877900 events/op	   2000000 events/s
pkg: github.com/coraopt/coraopt/policies/all
BenchmarkDecision/cora/jobs=1000-2         	     300	   3500000 ns/op	      4600 p99-µs	   3300000 cpu-ns/op
BenchmarkDecision/cora/jobs=1000-2         	     300	   3600000 ns/op	     11000 p99-µs	   3100000 cpu-ns/op
BenchmarkDecision/rush/jobs=100-2          	     300	    400000 ns/op	      1030 p99-µs
`

func TestParseGoBench(t *testing.T) {
	g, err := ParseGoBench(strings.NewReader(sampleGoBench), "github.com/coraopt/coraopt")
	if err != nil {
		t.Fatal(err)
	}
	key := "formulations/tas.BenchmarkOnionPeel/N=1000,T=1000"
	if got := g[key]["ns/op"]; len(got) != 3 {
		t.Fatalf("%s: %v", key, g[key])
	}
	if m, ok := g.Median(key, "ns/op"); !ok || m != 5e6 {
		t.Errorf("median ns/op %g %v, want 5e6", m, ok)
	}
	if m, _ := g.Median(key, "cpu-ns/op"); m != 3e6 {
		t.Errorf("median cpu-ns/op %g", m)
	}
	if _, ok := g.Median(key, "nosuch"); ok {
		t.Error("a missing metric has a median")
	}
	if _, ok := g["internal/bench.BenchmarkVsGonum/afiro/gonum"]; !ok {
		t.Errorf("keys %v", g.Keys(""))
	}
	if got := g.Keys("internal/bench.BenchmarkNetlibVsHiGHS/rows<=300/"); len(got) != 4 {
		t.Errorf("keys %v", got)
	}
}

func TestEvaluate(t *testing.T) {
	g, err := ParseGoBench(strings.NewReader(sampleGoBench), "github.com/coraopt/coraopt")
	if err != nil {
		t.Fatal(err)
	}
	evs := Evaluate(Targets(), g)
	by := map[string]Evaluation{}
	for _, e := range evs {
		by[e.Target.What] = e
	}
	cases := []struct {
		what     string
		ok       bool
		measured float64
		meets    bool
	}{
		{"onion peeling, 1,000 jobs", true, 0.005, false},  // 5 ms > 1 ms
		{"onion peeling, 100,000 jobs", true, 3, false},    // 3 s > 200 ms
		{"WCDE, 1,000 jobs × 1,000 bins", false, 0, false}, // not in the run
		// afiro 0.5, israel 2: geometric mean 1, exactly on the target.
		{"built-in simplex vs HiGHS, Netlib ≤ 300 rows", true, 1, true},
		// 25fv47 has HiGHS but no simplex: not measured, and it says so.
		{"built-in simplex vs HiGHS, 25fv47 / 80bau3b", false, 0, false},
		// gonum/simplex = 300 ≥ 50.
		{"built-in simplex vs gonum lp.Simplex", true, 300, true},
		// On one core: events per CPU-second, 3.6 M < 5 M (events/s would be 2.0 M).
		{"simulator, FIFO, 100,000-job workload", true, 3.6e6, false},
		// p99-µs: the median of 4.6 and 11 ms is 7.8 ms ≤ 10 ms; 1.03 ms > 1 ms.
		{"online decision p99, cora, 1,000 active jobs", true, 0.0078, true},
		{"online decision p99, rush, 100 active jobs", true, 0.00103, false},
		{"online decision p99, cora, 100 active jobs", false, 0, false},
		{"WOHA AssignTask, 10,000 workflows (double skip list)", false, 0, false},
	}
	for _, c := range cases {
		e, found := by[c.what]
		if !found {
			t.Fatalf("no target %q", c.what)
		}
		if e.Ok != c.ok || (c.ok && (math.Abs(e.Measured-c.measured) > 1e-9*c.measured || e.Meets != c.meets)) {
			t.Errorf("%s: ok %v measured %g meets %v (%s); want %v %g %v", c.what, e.Ok, e.Measured, e.Meets, e.Detail, c.ok, c.measured, c.meets)
		}
		if c.ok && math.Abs(e.Ratio-e.Measured/e.Target.Limit) > 1e-12 {
			t.Errorf("%s: ratio %g", c.what, e.Ratio)
		}
	}
	if d := by["built-in simplex vs HiGHS, 25fv47 / 80bau3b"].Detail; !strings.Contains(d, "25fv47") || !strings.Contains(d, "simplex not in this run") {
		t.Errorf("detail %q", d)
	}
	if d := by["onion peeling, 1,000 jobs"].Detail; !strings.Contains(d, "CPU 3 ms") {
		t.Errorf("detail %q", d)
	}
	// A decision's note: the medians of its mean wall time and its CPU time.
	if d := by["online decision p99, cora, 1,000 active jobs"].Detail; !strings.Contains(d, "mean 3.55 ms") || !strings.Contains(d, "CPU 3.2 ms") {
		t.Errorf("detail %q", d)
	}
	if d := by["online decision p99, rush, 100 active jobs"].Detail; strings.Contains(d, "CPU") {
		t.Errorf("detail %q names a CPU time the run did not report", d)
	}
}

// TestTargetsHaveBenchmarks checks that every benchmark the targets name is declared in
// its package's tests, and that every target but WOHA's names one.
func TestTargetsHaveBenchmarks(t *testing.T) {
	for _, tg := range Targets() {
		if tg.NotImplemented != "" {
			if tg.Measure != nil || len(tg.Benchmarks) > 0 {
				t.Errorf("%s: not implemented but measured", tg.What)
			}
			continue
		}
		if len(tg.Benchmarks) == 0 || tg.Measure == nil {
			t.Errorf("%s: no benchmark", tg.What)
		}
		for _, key := range tg.Benchmarks {
			pkg, rest, ok := strings.Cut(key, ".")
			if !ok {
				t.Errorf("%s: key %q", tg.What, key)
				continue
			}
			fn, _, _ := strings.Cut(rest, "/")
			dir := filepath.Join("..", "..", pkg)
			if !declares(t, dir, fn) {
				t.Errorf("%s: %s declares no %s", tg.What, dir, fn)
			}
		}
	}
}

// declares reports whether a _test.go file in dir declares function fn.
func declares(t *testing.T, dir, fn string) bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Errorf("%s: no test files (%v)", dir, err)
		return false
	}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == fn {
				return true
			}
		}
	}
	return false
}

func TestWritePerformance(t *testing.T) {
	g, err := ParseGoBench(strings.NewReader(sampleGoBench), "github.com/coraopt/coraopt")
	if err != nil {
		t.Fatal(err)
	}
	clk := newFakeClock()
	a := &script{clock: clk, steps: []step{opt(7, ms(2))}}
	b := &script{clock: clk, steps: []step{opt(7, ms(4))}}
	rep := Run(context.Background(), []Case{fixedCase("afiro", LP, &Instance{Problem: tinyLP(), Reference: &Reference{Status: solvers.Optimal, Objective: 7}})},
		Config{Backends: []Backend{fakeBackend("highs", lpOnly, a), fakeBackend("simplex", lpOnly, b)}, Clock: clk})
	var js bytes.Buffer
	meta := Meta{Suite: "netlib", Started: time.Date(2026, 11, 21, 4, 0, 0, 0, time.UTC),
		Environment: Environment{LoadAverage: []float64{1.5, 2, 2.5}, Solvers: map[string]string{"highs": "1.10.0", "simplex": "dev"}},
		Settings:    Settings{Solvers: []string{"highs", "simplex"}, Repeat: 1, TimeLimitSeconds: 60}}
	if err := WriteJSON(&js, meta, rep, nil); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = WritePerformance(&out, PerfDoc{Date: "2026-11-21", Machine: "2 cores", Load: "Load 1.5.", Count: 3,
		Evaluations: Evaluate(Targets(), g), Runs: []PerfRun{{Title: "Netlib LPs", Command: "coraopt bench --suite netlib", JSON: js.Bytes()}},
		Commands: []string{"make bench"}})
	if err != nil {
		t.Fatal(err)
	}
	doc := out.String()
	// A block of docs/performance.md under its "The benchmark run": no title of its own.
	if !strings.HasPrefix(doc, "Measured on 2026-11-21 on 2 cores.") || strings.Contains(doc, "\n# ") || strings.Contains(doc, "\n## ") {
		t.Errorf("not a level-3 block:\n%s", doc)
	}
	for _, want := range []string{
		"| onion peeling, 1,000 jobs | RUSH: 7.34 s | ≤ 1 ms | 5 ms | 5 | **no** |",
		"| onion peeling, 100,000 jobs | — | ≤ 200 ms | 3 s | 15 | **no** |",
		"| simulator, FIFO, 100,000-job workload | SimPy ≈ 240k events/s | ≥ 5,000,000 events/s on one core | 3.6e+06 events/cpu-s | 0.72 | **no** |",
		"not measured: not in this run: policies/woha.BenchmarkAssignTask/gap=1us/workflows=10000/order=dsl calls/s",
		"not measured: not in this run: formulations/rs.BenchmarkWCDE/jobs=1000,bins=1000",
		"\n### Netlib LPs\n", "load average 1.50 / 2.00 / 2.50", "Backends: highs 1.10.0, simplex dev.",
		"| test | LP | simplex | 1 / 1 | 1 |", "| afiro | - | 2 ms (1) | 4 ms (2) |",
		"### Regenerating this file\n\n```sh\nmake bench\n```",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("missing %q in:\n%s", want, doc)
		}
	}
}
