package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/coraopt/coraopt/sched"
)

const (
	tasData   = "../../testdata/tas"
	quickPath = "../../testdata/quickstart.json"
)

var solveTime = regexp.MustCompile(`"solve_seconds": [0-9.eE+-]+`)

// solveJSON runs solve with -o json and decodes the output.
func solveJSON(t *testing.T, stdin string, args ...string) (code int, res map[string]any, stderr string) {
	t.Helper()
	code, stdout, stderr := runCLI(context.Background(), stdin, append(append([]string{"solve"}, args...), "-o", "json")...)
	if stdout != "" {
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, stdout)
		}
	}
	if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine") {
		t.Fatalf("stderr shows a panic:\n%s", stderr)
	}
	return code, res, stderr
}

func floats(v any) []float64 {
	var out []float64
	for _, x := range v.([]any) {
		out = append(out, x.(float64))
	}
	return out
}

func TestSolveQuickstartGolden(t *testing.T) {
	code, stdout, stderr := runCLI(context.Background(), "", "solve", quickPath, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkGolden(t, filepath.Join(tasData, "golden", "quickstart.json"), solveTime.ReplaceAllString(stdout, `"solve_seconds": 0`))
	var res map[string]any
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"status", "formulation", "method", "solver", "exact", "horizon", "horizon_source",
		"jobs", "sorted_utilities", "min_utility", "sum_utility", "layers", "verification"} {
		if _, ok := res[k]; !ok {
			t.Errorf("key %q missing", k)
		}
	}
	if res["status"] != "optimal" || res["solver"] != nil || res["exact"] != true || res["method"] != "onion" {
		t.Errorf("status %v solver %v exact %v method %v", res["status"], res["solver"], res["exact"], res["method"])
	}
	if v := res["verification"].(map[string]any); v["ok"] != true {
		t.Errorf("verification %v", v)
	}
	job := res["jobs"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "completion", "utility", "allocation"} {
		if _, ok := job[k]; !ok {
			t.Errorf("jobs[0] lacks %q", k)
		}
	}
	if a := job["allocation"].(map[string]any)["containers"].([]any); len(a) != 12 {
		t.Errorf("allocation has %d slots, horizon 12", len(a))
	}
}

// The command gives the hand-derived answers of testdata/tas/README.md.
func TestSolveHandSolved(t *testing.T) {
	cases := []struct {
		file   string
		args   []string
		code   int
		sorted []float64
		exact  bool
		stderr string
	}{
		{file: "lawler.json", sorted: []float64{4, 6, 8}, exact: true},
		{file: "stall.json", sorted: []float64{2, 9}, exact: true},
		{file: "stall.json", args: []string{"--budget", "0"}, sorted: []float64{2, 8}, exact: false},
		{file: "release.json", sorted: []float64{4, 6}, exact: true},
		{file: "max-parallel.json", sorted: []float64{5, 5}, exact: true},
		{file: "two-resources.json", sorted: []float64{6, 9}, exact: true},
		{file: "varying-capacity.json", sorted: []float64{2, 4}, exact: true},
		{file: "zero-utility.json", sorted: []float64{0, 3, 5}, exact: true},
		{file: "infeasible.json", code: 1, stderr: "infeasible"},
	}
	for _, c := range cases {
		t.Run(c.file+strings.Join(c.args, ""), func(t *testing.T) {
			code, res, stderr := solveJSON(t, "", append([]string{filepath.Join(tasData, c.file)}, c.args...)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d: %s", code, c.code, stderr)
			}
			if !strings.Contains(stderr, c.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, c.stderr)
			}
			if c.code != 0 {
				if res["status"] != "infeasible" || res["message"] == "" {
					t.Errorf("output %v", res)
				}
				return
			}
			if got := floats(res["sorted_utilities"]); !slices.Equal(got, c.sorted) {
				t.Errorf("sorted %v, want %v", got, c.sorted)
			}
			if res["exact"] != c.exact {
				t.Errorf("exact %v, want %v", res["exact"], c.exact)
			}
		})
	}
}

func TestSolveStdinAndTable(t *testing.T) {
	data, err := os.ReadFile(quickPath)
	if err != nil {
		t.Fatal(err)
	}
	_, fromFile, _ := solveJSON(t, "", quickPath)
	code, fromStdin, stderr := solveJSON(t, string(data), "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !slices.Equal(floats(fromFile["sorted_utilities"]), floats(fromStdin["sorted_utilities"])) {
		t.Errorf("stdin gives %v, file %v", fromStdin["sorted_utilities"], fromFile["sorted_utilities"])
	}
	// On a terminal the default output is the table.
	var out, errOut strings.Builder
	code = Main(context.Background(), []string{"solve", quickPath}, Streams{In: strings.NewReader(""), Out: &out, Err: &errOut, IsTerminal: true})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	table := out.String()
	for _, want := range []string{"instance  quickstart, 7 jobs, horizon 12 (file)", "tas by onion: optimal, exact",
		"JOB        COMPLETION  DEADLINE  UTILITY", "verification  ok"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	// Jobs from the worst utility up: etl (deadline 4) first on quickstart.
	lines := strings.Split(table, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "JOB") {
			if !strings.HasPrefix(lines[i+1], "etl ") || !strings.Contains(lines[i+1], " 4 ") {
				t.Errorf("first job row %q, want etl with deadline 4", lines[i+1])
			}
		}
	}
}

func TestSolveGantt(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"g.svg", "g.png"} {
		path := filepath.Join(dir, name)
		code, _, stderr := solveJSON(t, "", quickPath, "--gantt", path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() < 1000 {
			t.Fatalf("%s: %v, %v", name, fi, err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "g.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"etl", "train", "analytics"} {
		if !strings.Contains(string(data), id) {
			t.Errorf("chart lacks job %q", id)
		}
	}
}

func TestSolveErrors(t *testing.T) {
	bad := filepath.Join("..", "..", "testdata", "instances", "bad", "capacity-negative.json")
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"invalid instance", []string{bad}, 2, []string{"resources[0].capacity: must be >= 0", "resources[1].capacity[2]: must be >= 0"}},
		{"missing file", []string{"no-such.json"}, 2, []string{"no-such.json"}},
		{"not JSON", []string{filepath.Join(tasData, "README.md")}, 2, []string{"invalid instance"}},
		{"unknown formulation", []string{quickPath, "--formulation", "nosuch"}, 2, []string{`--formulation "nosuch": unknown (this binary solves: tas, rs, cora, cora-final, cora-linearized, rds)`}},
		{"unknown method", []string{quickPath, "--method", "magic"}, 2, []string{`--method "magic"`}},
		{"solver with onion", []string{quickPath, "--solver", "highs"}, 2, []string{"--solver applies to --method mip"}},
		{"negative budget", []string{quickPath, "--budget", "-1"}, 2, []string{"must not be negative"}},
		{"gantt format", []string{quickPath, "--gantt", "x.bmp"}, 2, []string{`unknown image format "bmp"`}},
		{"mip with an LP solver", []string{quickPath, "--method", "mip", "--solver", "gonum"}, 2, []string{`--solver "gonum" cannot solve MIPs`}},
		{"mip with an unknown solver", []string{quickPath, "--method", "mip", "--solver", "nosuch"}, 2, []string{`unknown solver "nosuch"`}},
		{"no file", nil, 2, []string{"accepts 1 arg"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, res, stderr := solveJSON(t, "", c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstderr: %s", code, c.code, stderr)
			}
			for _, want := range c.stderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr %q lacks %q", stderr, want)
				}
			}
			if res != nil {
				t.Errorf("stdout %v, want nothing", res)
			}
		})
	}
}

func TestSolveHelp(t *testing.T) {
	code, stdout, _ := runCLI(context.Background(), "", "solve", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"time-aware scheduling", "lexicographically", "onion", "mip", "--budget", "--gantt", "Exit codes", "coraopt solve testdata/quickstart.json"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

// TestSolveAllocationRuns: --allocation runs writes each job's allocation as runs of
// equal units, which read back (sched.ScheduleJSON) to the dense output's schedule;
// auto keeps small instances dense; a bad value exits 2.
func TestSolveAllocationRuns(t *testing.T) {
	in, err := sched.DecodeFile("../../testdata/quickstart.json")
	if err != nil {
		t.Fatal(err)
	}
	read := func(args ...string) *sched.Schedule {
		t.Helper()
		code, out, errOut := runCLI(context.Background(), "", append([]string{"solve", "../../testdata/quickstart.json", "-o", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var doc sched.ScheduleJSON
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		for _, j := range doc.Jobs {
			if runs := len(args) > 0 && args[1] == "runs"; (j.Runs != nil) != runs || (j.Allocation != nil) == runs {
				t.Fatalf("%v: job %s has runs %v, allocation %v", args, j.ID, j.Runs, j.Allocation)
			}
		}
		s, err := doc.Schedule(in)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	dense, runs := read(), read("--allocation", "runs")
	if d := cmp.Diff(dense, runs); d != "" {
		t.Fatalf("runs read back differently (-dense +runs):\n%s", d)
	}
	if code, _, _ := runCLI(context.Background(), "", "solve", "../../testdata/quickstart.json", "--allocation", "sparse"); code != 2 {
		t.Fatalf("--allocation sparse: exit %d, want 2", code)
	}
}
