package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

const rdsData = "../../testdata/rds"

// rdsSolveOptions are the solve flags an RDS test sets.
type rdsSolveOptions struct {
	method, solver string
	timeLimit      time.Duration
	verify         bool
}

// runRDS runs `coraopt solve --formulation rds` and returns the exit code and streams.
func runRDS(t *testing.T, stdin, output, path string, o rdsSolveOptions) (code int, stdout, stderr string) {
	t.Helper()
	args := []string{"solve", "--formulation", "rds", "-o", output, path}
	if o.method != "" {
		args = append(args, "--method", o.method)
	}
	if o.solver != "" {
		args = append(args, "--solver", o.solver)
	}
	if o.timeLimit != 0 {
		args = append(args, "--time-limit", o.timeLimit.String())
	}
	if o.verify {
		args = append(args, "--verify")
	}
	return runCLI(context.Background(), stdin, args...)
}

// TestSolveRDS solves every state file of testdata/rds with the built-in QP backend and
// compares the JSON with testdata/rds/golden (go test ./internal/cli -run TestSolveRDS
// -update to rewrite after checking).
func TestSolveRDS(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(rdsData, "*.json"))
	if len(files) < 4 {
		t.Fatalf("%d state files", len(files))
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runRDS(t, "", "json", path, rdsSolveOptions{})
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var res map[string]any
			if err := json.Unmarshal([]byte(stdout), &res); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"status", "formulation", "method", "solver", "exact", "jobs", "sorted_utilities", "verification", "objective"} {
				if _, ok := res[k]; !ok {
					t.Errorf("JSON lacks %q", k)
				}
			}
			if res["status"] != "optimal" || res["verification"].(map[string]any)["ok"] != true {
				t.Errorf("status %v, verification %v", res["status"], res["verification"])
			}
			checkGolden(t, filepath.Join(rdsData, "golden", name+".json"), normalizeRDS(stdout))
		})
	}
}

// normalizeRDS blanks what varies between runs and solver revisions: the solve time,
// the backend version, the iteration count, and KKT residuals below 1e-9
// (rounding-level numbers that differ between machines).
func normalizeRDS(out string) string {
	out = iterations.ReplaceAllString(normalize(out), `"iterations": 0`)
	return residual.ReplaceAllStringFunc(out, func(m string) string {
		sub := residual.FindStringSubmatch(m)
		if v, err := strconv.ParseFloat(sub[2], 64); err == nil && v <= 1e-9 {
			return `"` + sub[1] + `": 0`
		}
		return m
	})
}

var (
	residual   = regexp.MustCompile(`"(primal|dual|complement)": ([0-9.eE+-]+)`)
	iterations = regexp.MustCompile(`"iterations": [0-9]+`)
)

// TestSolveRDSTable1: the answer of minute 10 of rds.txt's case study — J2 gets its 60
// units in minutes 10–30, J1 what is left; both finish on time.
func TestSolveRDSTable1(t *testing.T) {
	code, stdout, stderr := runRDS(t, "", "json", filepath.Join(rdsData, "table1-t10.json"), rdsSolveOptions{})
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res rdsResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	j1, j2 := res.Jobs[0], res.Jobs[1]
	if got := j2.Plan[0].Map + j2.Plan[1].Map; got < 6-1e-6 || got > 6+1e-6 {
		t.Errorf("J2's plan for minutes 10–30 is %g rate-intervals, want 6", got)
	}
	if j1.Completion == nil || j2.Completion == nil || *j1.Completion > 40+1e-3 || *j2.Completion > 30+1e-3 {
		t.Errorf("predicted completions %v, %v", j1.Completion, j2.Completion)
	}
}

func TestSolveRDSTableOutput(t *testing.T) {
	code, stdout, stderr := runRDS(t, "", "table", filepath.Join(rdsData, "table1-t10.json"), rdsSolveOptions{})
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"status        optimal", "JOB", "J1", "J2", "TRAJECTORY", "verification  ok"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
}

// TestSolveRDSStdin reads the state from standard input.
func TestSolveRDSStdin(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(rdsData, "green.json"))
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runRDS(t, string(data), "json", "-", rdsSolveOptions{})
	if code != ExitOK || !strings.Contains(stdout, `"forecast_source": "green"`) {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}

// TestSolveRDSBadInput: a bad state file prints every problem with its JSON path and
// exits 2; so do a bad method, solver or time limit.
func TestSolveRDSBadInput(t *testing.T) {
	code, _, stderr := runRDS(t, "", "json", filepath.Join(rdsData, "bad", "values.json"), rdsSolveOptions{})
	if code != ExitBadUsage {
		t.Errorf("bad file: exit %d, want 2", code)
	}
	for _, want := range []string{"invalid state file (18 problems)", "jobs[1].id: duplicate id", "params.control_horizon: must be <= prediction_horizon"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	// Work 1e308 used to solve "optimal" with allocations of 1e-301.
	code, _, stderr = runRDS(t, "", "json", filepath.Join(rdsData, "bad", "magnitudes.json"), rdsSolveOptions{})
	if code != ExitBadUsage || !strings.Contains(stderr, "jobs[0].work: must be at most 1e+12 in magnitude") {
		t.Errorf("work 1e308: exit %d, want 2 naming jobs[0].work:\n%s", code, stderr)
	}
	good := filepath.Join(rdsData, "table1-t10.json")
	for name, o := range map[string]rdsSolveOptions{
		"unknown solver":     {solver: "nope"},
		"LP-only solver":     {solver: "gonum"},
		"method":             {method: "onion"},
		"negative time":      {timeLimit: -1},
		"missing file first": {},
	} {
		path := good
		if name == "missing file first" {
			path = filepath.Join(rdsData, "no-such-file.json")
		}
		if code, _, stderr := runRDS(t, "", "json", path, o); code != ExitBadUsage {
			t.Errorf("%s: exit %d (%s), want 2", name, code, stderr)
		}
	}
}

// TestSolveCommandRDS runs the real command line: `coraopt solve --formulation rds`.
func TestSolveCommandRDS(t *testing.T) {
	path := filepath.Join(rdsData, "table1-t10.json")
	code, stdout, stderr := runCLI(context.Background(), "", "solve", "--formulation", "rds", path, "-o", "json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkGolden(t, filepath.Join(rdsData, "golden", "table1-t10.json"), normalizeRDS(stdout))
	for _, args := range [][]string{
		{"solve", "--formulation", "rds", path, "--gantt", "x.svg"},
		{"solve", "--formulation", "rds", path, "--method", "onion"},
		{"solve", "--formulation", "rds", filepath.Join(rdsData, "bad", "wrong-types.json")},
	} {
		if code, _, stderr := runCLI(context.Background(), "", args...); code != ExitBadUsage {
			t.Errorf("%v: exit %d (%s), want 2", args, code, stderr)
		}
	}
	code, _, stderr = runCLI(context.Background(), "", "solve", "--help")
	if code != ExitOK {
		t.Fatalf("help: exit %d: %s", code, stderr)
	}
}
