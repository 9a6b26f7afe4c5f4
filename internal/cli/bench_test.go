package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"github.com/coraopt/coraopt/internal/testmodels"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/coraopt/coraopt/internal/bench"
	"github.com/coraopt/coraopt/internal/modelcache"
	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solve"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/netlib/models"
)

const (
	benchTiny   = "../bench/testdata/tiny"
	benchGolden = "../bench/testdata/cli"
	// tinyCases leaves out the tiny suite's FINAL, which gonum's dense simplex needs a
	// second for: the goldens run every remaining case with gonum and qp, four runs each.
	tinyCases = `\.(mps|lp)$|tas-mip`
)

// stepClock is a fake bench.Clock: every reading advances it by the next of a cycle of
// steps, so the timings of a run depend only on the order of the readings.
type stepClock struct {
	now   time.Time
	steps []time.Duration
	i     int
	cpu   time.Duration
}

func newStepClock() *stepClock {
	return &stepClock{now: time.Date(2026, 11, 21, 3, 0, 0, 0, time.UTC),
		steps: []time.Duration{3 * time.Millisecond, 1 * time.Millisecond, 7 * time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond}}
}

func (c *stepClock) Now() time.Time {
	t := c.now
	c.now = c.now.Add(c.steps[c.i%len(c.steps)])
	c.i++
	return t
}

func (c *stepClock) CPU() time.Duration {
	c.cpu += time.Millisecond
	return c.cpu
}

func fixedEnvironment() bench.Environment {
	return bench.Environment{Go: "go1.26", OS: "linux", Arch: "amd64", CPUs: 2, LoadAverage: []float64{0.5, 0.25, 0.125}}
}

// versionless resolves backends with the registry and blanks their versions, which a
// test binary may not know.
func versionless(names []string) ([]bench.Backend, error) {
	bs, err := bench.RegistryBackends(names)
	for i := range bs {
		bs[i].Version = "VERSION"
	}
	return bs, err
}

// benchRoot is a root command holding only bench with injected options, for the tests
// that need a fake clock, fake solvers or a context they cancel.
func benchRoot(s Streams, o *benchOptions) *cobra.Command {
	root := &cobra.Command{Use: "coraopt", SilenceUsage: true, SilenceErrors: true}
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.PersistentFlags().StringVarP(&o.g.output, "output", "o", "", "")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageErr(err) })
	root.AddCommand(newBenchCmdWith(s, o))
	return root
}

// runBenchWith runs `coraopt bench args…` with the injections of inject and returns the
// exit code as Main computes it.
func runBenchWith(ctx context.Context, inject func(*benchOptions), args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	s := Streams{In: strings.NewReader(""), Out: &out, Err: &errOut}
	o := &benchOptions{g: &globalOptions{registry: solve.Default()}, clock: newStepClock(), env: fixedEnvironment, backends: versionless}
	if inject != nil {
		inject(o)
	}
	root := benchRoot(s, o)
	root.SetArgs(append([]string{"bench"}, args...))
	err := root.ExecuteContext(ctx)
	code = ExitOK
	if err != nil {
		code = ExitBadUsage
		var ee *ExitError
		if errors.As(err, &ee) {
			code = ee.Code
		}
		errOut.WriteString("coraopt: " + err.Error() + "\n")
	}
	return code, out.String(), errOut.String()
}

func checkBenchGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(benchGolden, name)
	if *update {
		if err := os.MkdirAll(benchGolden, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// TestBenchGolden runs the tiny suite with gonum and qp on a fake clock and compares the
// three output formats with golden files.
func TestBenchGolden(t *testing.T) {
	for _, format := range []string{"table", "csv", "json"} {
		t.Run(format, func(t *testing.T) {
			code, out, errOut := runBenchWith(context.Background(), nil, "--instances", benchTiny, "--cases", tinyCases,
				"--solvers", "gonum,qp", "--repeat", "3", "--warmup", "1", "-o", format)
			if code != ExitOK {
				t.Fatalf("exit %d, stderr %s", code, errOut)
			}
			if errOut != "" {
				t.Errorf("stderr not empty without a terminal: %q", errOut)
			}
			checkBenchGolden(t, "tiny."+format, out)
		})
	}
}

type benchRowJSON struct {
	Instance  string   `json:"instance"`
	Solver    string   `json:"solver"`
	Status    string   `json:"status"`
	Objective *float64 `json:"objective"`
	Runs      int      `json:"runs"`
	Seconds   struct {
		Min, Median, Max float64
	} `json:"seconds"`
	Ratio   *float64 `json:"ratio"`
	Fastest bool     `json:"fastest"`
	Agree   *bool    `json:"agree"`
	Solved  bool     `json:"solved"`
}

type benchDocJSON struct {
	Suite    string `json:"suite"`
	Settings struct {
		Solvers []string `json:"solvers"`
		Repeat  int      `json:"repeat"`
	} `json:"settings"`
	Rows    []benchRowJSON `json:"rows"`
	Summary []struct {
		Family     string   `json:"family"`
		Class      string   `json:"class"`
		Solver     string   `json:"solver"`
		Solved     int      `json:"solved"`
		Attempted  int      `json:"attempted"`
		SGMSeconds *float64 `json:"sgm_seconds"`
		Relative   *float64 `json:"relative"`
	} `json:"summary"`
	Interrupted   bool `json:"interrupted"`
	Cases         int  `json:"cases"`
	Finished      int  `json:"finished"`
	Disagreements int  `json:"disagreements"`
}

// TestBenchFormatsAgree checks the formats structurally against each other and against
// what the tiny suite's files say: the same rows in JSON and CSV, the hand-derived
// optima, min ≤ median ≤ max, exactly one fastest row per instance with ratio 1, and a
// summary entry per solver and group.
func TestBenchFormatsAgree(t *testing.T) {
	args := []string{"--instances", benchTiny, "--cases", tinyCases, "--solvers", "gonum,qp", "--repeat", "3"}
	code, js, errOut := runBenchWith(context.Background(), nil, append(args, "-o", "json")...)
	if code != ExitOK {
		t.Fatalf("json: exit %d: %s", code, errOut)
	}
	var doc benchDocJSON
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	code, cs, errOut := runBenchWith(context.Background(), nil, append(args, "-o", "csv")...)
	if code != ExitOK {
		t.Fatalf("csv: exit %d: %s", code, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(cs)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(doc.Rows)+1 || strings.Join(recs[0], ",") != strings.Join(bench.CSVHeader, ",") {
		t.Fatalf("CSV has %d records for %d JSON rows; header %v", len(recs), len(doc.Rows), recs[0])
	}
	if doc.Suite != "instances:"+benchTiny || doc.Settings.Repeat != 3 || strings.Join(doc.Settings.Solvers, ",") != "gonum,qp" {
		t.Errorf("meta: suite %q settings %+v", doc.Suite, doc.Settings)
	}
	wantObj := map[string]float64{"two-var.lp": 11}
	fastest := map[string]int{}
	for i, r := range doc.Rows {
		rec := recs[i+1]
		if rec[0] != r.Instance || rec[9] != r.Solver || rec[10] != r.Status {
			t.Errorf("row %d: CSV %v, JSON %+v", i, rec, r)
		}
		if w, ok := wantObj[r.Instance]; ok && (r.Objective == nil || math.Abs(*r.Objective-w) > 1e-9) {
			t.Errorf("%s/%s: objective %v, want %g", r.Instance, r.Solver, r.Objective, w)
		}
		if r.Instance == "infeasible.mps" && (r.Status != "infeasible" || r.Objective != nil) {
			t.Errorf("infeasible.mps/%s: %s %v", r.Solver, r.Status, r.Objective)
		}
		if r.Solver == "-" {
			if r.Status != "skipped" || r.Agree != nil {
				t.Errorf("%s: %+v, want skipped with nothing to agree", r.Instance, r)
			}
			continue
		}
		if !(r.Seconds.Min <= r.Seconds.Median && r.Seconds.Median <= r.Seconds.Max && r.Seconds.Min > 0) || r.Runs != 3 {
			t.Errorf("%s/%s: seconds %+v runs %d", r.Instance, r.Solver, r.Seconds, r.Runs)
		}
		if r.Fastest {
			fastest[r.Instance]++
			if r.Ratio == nil || *r.Ratio != 1 {
				t.Errorf("%s/%s: fastest with ratio %v", r.Instance, r.Solver, r.Ratio)
			}
		}
		if r.Ratio != nil && *r.Ratio < 1 {
			t.Errorf("%s/%s: ratio %g below 1", r.Instance, r.Solver, *r.Ratio)
		}
		if !r.Solved || (r.Agree != nil && !*r.Agree) {
			t.Errorf("%s/%s: solved %v agree %v", r.Instance, r.Solver, r.Solved, r.Agree)
		}
	}
	for _, inst := range []string{"infeasible.mps", "two-var.lp", "quickstart.json/tas-mip"} {
		if fastest[inst] < 1 {
			t.Errorf("%s: no fastest row", inst)
		}
	}
	groups := map[string]bool{}
	for _, s := range doc.Summary {
		groups[s.Family+"/"+s.Class+"/"+s.Solver] = true
		if s.SGMSeconds == nil || s.Relative == nil || *s.Relative < 1 {
			t.Errorf("summary %+v", s)
		}
	}
	for _, g := range []string{"file/LP/gonum", "file/LP/qp", "file/MIP/onion"} {
		if !groups[g] {
			t.Errorf("no summary for %s: %v", g, groups)
		}
	}
	code, table, _ := runBenchWith(context.Background(), nil, append(args, "-o", "table")...)
	if code != ExitOK || !strings.Contains(table, "INSTANCE") || !strings.Contains(table, "Summary per family and class") ||
		strings.Count(table, "\n") < len(doc.Rows)+len(doc.Summary)+2 {
		t.Errorf("table (exit %d):\n%s", code, table)
	}
}

// wrongSolver answers every LP with objective 12 (two-var.lp's optimum is 11).
type wrongSolver struct{}

func (wrongSolver) Name() string { return "wrong" }
func (wrongSolver) Solve(ctx context.Context, p *model.Problem, _ solvers.Options) (*solvers.Solution, error) {
	return &solvers.Solution{Status: solvers.Optimal, Objective: 12}, nil
}

// stuckSolver always stops at the time limit.
type stuckSolver struct{}

func (stuckSolver) Name() string { return "stuck" }
func (stuckSolver) Solve(ctx context.Context, p *model.Problem, _ solvers.Options) (*solvers.Solution, error) {
	return &solvers.Solution{Status: solvers.TimeLimit}, nil
}

// cancellingSolver cancels the run's context on its second solve, as Ctrl-C would.
type cancellingSolver struct {
	cancel context.CancelFunc
	calls  *int
}

func (cancellingSolver) Name() string { return "cancelling" }
func (c cancellingSolver) Solve(ctx context.Context, p *model.Problem, _ solvers.Options) (*solvers.Solution, error) {
	*c.calls++
	if *c.calls == 2 {
		c.cancel()
		return &solvers.Solution{Status: solvers.Other}, nil
	}
	return &solvers.Solution{Status: solvers.Optimal, Objective: 11}, nil
}

func withBackends(extra ...bench.Backend) func(*benchOptions) {
	return func(o *benchOptions) {
		o.backends = func(names []string) ([]bench.Backend, error) {
			var real []string
			var out []bench.Backend
			for _, n := range names {
				found := false
				for _, b := range extra {
					if b.Name == n {
						out = append(out, b)
						found = true
					}
				}
				if !found {
					real = append(real, n)
				}
			}
			if len(real) == 0 {
				return out, nil
			}
			bs, err := versionless(real)
			return append(bs, out...), err
		}
	}
}

func TestBenchExitCodes(t *testing.T) {
	missing := func(o *benchOptions) {
		o.backends = func([]string) ([]bench.Backend, error) {
			return nil, &solvers.ErrNotCompiled{Name: "highs", Hint: "build with -tags highs (make build)"}
		}
	}
	wrong := withBackends(bench.Backend{Name: "wrong", Caps: solvers.Capabilities{LP: true},
		New: func() (solvers.Solver, error) { return wrongSolver{}, nil }})
	stuck := withBackends(bench.Backend{Name: "stuck", Caps: solvers.Capabilities{LP: true}, TimeoutNote: "runs on",
		New: func() (solvers.Solver, error) { return stuckSolver{}, nil }})
	cases := []struct {
		name   string
		inject func(*benchOptions)
		args   []string
		code   int
		stderr string
	}{
		{"success", nil, []string{"--instances", benchTiny, "--cases", "two-var", "--solvers", "qp"}, 0, ""},
		{"disagreement", wrong, []string{"--instances", benchTiny, "--cases", "two-var", "--solvers", "qp,wrong", "-o", "json"}, 1, "disagree"},
		{"time-out in a backend that cannot stop", stuck, []string{"--instances", benchTiny, "--cases", "two-var", "--solvers", "stuck,qp"}, 0, "kept computing in the background"},
		{"bad output", nil, []string{"--instances", benchTiny, "-o", "yaml"}, 2, "--output"},
		{"bad suite", nil, []string{"--suite", "bogus"}, 2, "--suite"},
		{"unknown solver", nil, []string{"--instances", benchTiny, "--solvers", "nosuch"}, 2, "nosuch"},
		{"empty solver list", nil, []string{"--instances", benchTiny, "--solvers", ","}, 2, "--solvers"},
		{"not compiled in", missing, []string{"--instances", benchTiny, "--solvers", "highs"}, 2, "-tags highs"},
		{"repeat 0", nil, []string{"--instances", benchTiny, "--repeat", "0"}, 2, "--repeat"},
		{"negative warm-up", nil, []string{"--instances", benchTiny, "--warmup", "-1"}, 2, "--warmup"},
		{"negative time limit", nil, []string{"--instances", benchTiny, "--time-limit", "-1s"}, 2, "--time-limit"},
		{"scaling without fastpaths", nil, []string{"--suite", "formulations", "--scaling"}, 2, "--scaling"},
		{"sizes with netlib", nil, []string{"--suite", "netlib", "--sizes", "10"}, 2, "--sizes"},
		{"bad sizes", nil, []string{"--suite", "formulations", "--sizes", "ten"}, 2, "--sizes"},
		{"missing directory", nil, []string{"--instances", "nonexistent-dir"}, 2, "--instances"},
		{"suite and instances", nil, []string{"--suite", "netlib", "--instances", benchTiny}, 2, "choose one"},
		{"bad case filter", nil, []string{"--instances", benchTiny, "--cases", "("}, 2, "--cases"},
		{"case filter matching nothing", nil, []string{"--instances", benchTiny, "--cases", "^nothing$"}, 2, "matches no instance"},
		{"an argument", nil, []string{"extra"}, 2, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := runBenchWith(context.Background(), c.inject, c.args...)
			if code != c.code || !strings.Contains(errOut, c.stderr) {
				t.Errorf("exit %d, stderr %q; want %d with %q", code, errOut, c.code, c.stderr)
			}
		})
	}
	// The real registry: every backend this build lacks is exit 2 with its hint.
	for name, hint := range solvers.Missing() {
		code, _, errOut := runCLI(context.Background(), "", "bench", "--instances", benchTiny, "--solvers", name)
		if code != ExitBadUsage || !strings.Contains(errOut, hint) {
			t.Errorf("--solvers %s: exit %d, stderr %q; want 2 with the hint %q", name, code, errOut, hint)
		}
	}
}

// TestBenchInterrupted cancels the context during the second solve: bench prints the
// rows that finished, says it was interrupted, and exits 1.
func TestBenchInterrupted(t *testing.T) {
	for _, format := range []string{"json", "table", "csv"} {
		t.Run(format, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			calls := 0
			inject := withBackends(bench.Backend{Name: "cancelling", Caps: solvers.Capabilities{LP: true},
				New: func() (solvers.Solver, error) { return cancellingSolver{cancel, &calls}, nil }})
			code, out, errOut := runBenchWith(ctx, inject, "--instances", benchTiny, "--cases", `\.lp$|\.mps$`,
				"--solvers", "cancelling", "--repeat", "1", "-o", format)
			if code != ExitFailed || !strings.Contains(errOut, "interrupted") {
				t.Fatalf("exit %d, stderr %q; want 1 and a note that the run was interrupted", code, errOut)
			}
			switch format {
			case "json":
				var doc benchDocJSON
				if err := json.Unmarshal([]byte(out), &doc); err != nil {
					t.Fatal(err)
				}
				// Cases in name order: infeasible.mps (solved: call 1), knapsack.mps (no
				// LP-only solver: skipped), two-var.lp (call 2: interrupted, dropped).
				if !doc.Interrupted || doc.Finished != 2 || doc.Cases != 3 || len(doc.Rows) != 2 ||
					doc.Rows[0].Instance != "infeasible.mps" || doc.Rows[1].Status != "skipped" {
					t.Errorf("interrupted %v, finished %d of %d, rows %+v", doc.Interrupted, doc.Finished, doc.Cases, doc.Rows)
				}
			case "table":
				if !strings.Contains(out, "Interrupted: 2 of 3 instances finished") || strings.Contains(out, "two-var") {
					t.Errorf("table:\n%s", out)
				}
			case "csv":
				if recs, err := csv.NewReader(strings.NewReader(out)).ReadAll(); err != nil || len(recs) != 3 {
					t.Errorf("csv: %d records, %v:\n%s", len(recs), err, out)
				}
			}
		})
	}
}

// TestBenchProgress: no bar when stderr is not a terminal; --progress forces one.
func TestBenchProgress(t *testing.T) {
	args := []string{"--instances", benchTiny, "--cases", "two-var", "--solvers", "qp", "-o", "json"}
	_, _, errOut := runBenchWith(context.Background(), nil, args...)
	if errOut != "" {
		t.Errorf("stderr without a terminal: %q", errOut)
	}
	code, out, errOut := runBenchWith(context.Background(), nil, append(args, "--progress")...)
	if code != ExitOK || !strings.Contains(errOut, "two-var.lp") || !strings.Contains(errOut, "(0/1)") {
		t.Errorf("--progress: exit %d, stderr %q", code, errOut)
	}
	if !json.Valid([]byte(out)) {
		t.Errorf("the progress bar leaked into stdout: %q", out)
	}
}

// TestBenchCommandRegistered checks that the root command has bench, with its help.
func TestBenchCommandRegistered(t *testing.T) {
	code, out, _ := runCLI(context.Background(), "", "bench", "--help")
	if code != ExitOK || !strings.Contains(out, "--suite") || !strings.Contains(out, "shifted geometric mean") {
		t.Errorf("bench --help: exit %d\n%s", code, out)
	}
}

// TestBenchMIPLIB runs the miplib suite's two quickest models on the built-in MIP, which
// every binary has: both reach the check set's reference optima (AGREE against the
// reference, so the exit is 0), and the rows name the suite and the class.
func TestBenchMIPLIB(t *testing.T) {
	testmodels.RequireDir(t)
	code, stdout, stderr := runCLI(context.Background(), "", "bench", "--suite", "miplib", "--cases", "^(small_mip|2171)$", "--solvers", "mip", "-o", "json")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	var rep struct {
		Suite string `json:"suite"`
		Rows  []struct {
			Instance, Solver, Status, Class string
			Agree                           bool
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if rep.Suite != "miplib" || len(rep.Rows) != 2 {
		t.Fatalf("suite %q, %d rows, want miplib with 2:\n%s", rep.Suite, len(rep.Rows), stdout)
	}
	for _, r := range rep.Rows {
		if r.Solver != "mip" || r.Status != "optimal" || !r.Agree || r.Class != "MIP" {
			t.Errorf("row %+v, want mip, optimal, agreeing with the reference, class MIP", r)
		}
	}
}

// TestBenchNetlibFull runs --suite netlib-full: without the collection it is a usage
// error naming the variable that points at it; with it (when it is there), afiro and
// sc50a agree with their references.
func TestBenchNetlibFull(t *testing.T) {
	src, srcErr := models.FullDir()
	t.Setenv(modelcache.EnvNetlibDir, filepath.Join(t.TempDir(), "none"))
	code, _, stderr := runCLI(context.Background(), "", "bench", "--suite", "netlib-full", "--solvers", "simplex", "-o", "json")
	if code != ExitBadUsage || !strings.Contains(stderr, modelcache.EnvNetlibDir) {
		t.Errorf("no collection: exit %d, stderr %s", code, stderr)
	}
	if srcErr != nil {
		t.Skip(srcErr)
	}
	t.Setenv(modelcache.EnvNetlibDir, src)
	code, stdout, stderr := runCLI(context.Background(), "", "bench", "--suite", "netlib-full", "--cases", "^(afiro|sc50a)$", "--solvers", "simplex", "-o", "json")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	var rep struct {
		Suite string `json:"suite"`
		Rows  []struct {
			Instance, Status string
			Agree            bool
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if rep.Suite != "netlib-full" || len(rep.Rows) != 2 {
		t.Fatalf("suite %q, %d rows:\n%s", rep.Suite, len(rep.Rows), stdout)
	}
	for _, r := range rep.Rows {
		if r.Status != "optimal" || !r.Agree {
			t.Errorf("row %+v, want optimal in agreement with the reference", r)
		}
	}
}
