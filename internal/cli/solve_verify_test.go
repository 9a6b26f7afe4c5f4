package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
)

// checkNames returns the verification checks of a solve -o json output by name.
func checkNames(t *testing.T, res map[string]any) map[string]map[string]any {
	t.Helper()
	v, _ := res["verification"].(map[string]any)
	checks, _ := v["checks"].([]any)
	out := map[string]map[string]any{}
	for _, c := range checks {
		m := c.(map[string]any)
		out[m["name"].(string)] = m
	}
	return out
}

// TestSolveVerify: --verify attaches the checks to every formulation's output.
func TestSolveVerify(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string // checks that must be present and pass
	}{
		{"tas onion", []string{quickPath}, []string{"schedule/capacity", "schedule/demand", "schedule/sorted", "lexmax-certificate"}},
		{"cora exact", []string{quickPath, "--formulation", "cora"}, []string{"schedule/demand", "lexmax-certificate"}},
		{"cora-final", []string{filepath.Join(repoData, "cora/agree.json"), "--formulation", "cora-final", "--solver", "simplex"},
			[]string{"schedule/demand", "certificate/rows", "certificate/reduced-costs", "certificate/dual-feasibility", "certificate/complementary-slackness", "certificate/duality-gap"}},
		{"cora-linearized", []string{filepath.Join(repoData, "cora/agree.json"), "--formulation", "cora-linearized", "--solver", "simplex"},
			[]string{"schedule/capacity", "certificate/duality-gap"}},
		{"rs", []string{filepath.Join(repoData, "instances/runtime-robust.json"), "--formulation", "rs"}, []string{"schedule/demand", "lexmax-certificate"}},
		{"rds", []string{filepath.Join(repoData, "rds/table1-t10.json"), "--formulation", "rds"}, []string{"kkt-primal", "kkt-stationarity", "kkt-complementarity", "eq3/rows", "eq3/kkt-stationarity", "eq3/kkt-complementarity", "eq3/duality-gap"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, res, stderr := solveJSON(t, "", append(tc.args, "--verify")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if v := res["verification"].(map[string]any); v["ok"] != true {
				t.Errorf("verification %v", v)
			}
			got := checkNames(t, res)
			for _, n := range tc.want {
				if c, ok := got[n]; !ok || c["ok"] != true {
					t.Errorf("check %s: %v (have %d checks)", n, c, len(got))
				}
			}
			// Without --verify the checks are not listed, the verdict is.
			_, plain, _ := solveJSON(t, "", tc.args...)
			if n := len(checkNames(t, plain)); n != 0 {
				t.Errorf("%d checks without --verify", n)
			}
		})
	}
}

func TestSolveVerifyTable(t *testing.T) {
	code, stdout, stderr := runCLI(context.Background(), "", "solve", quickPath, "--verify", "-o", "table")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"verification  ok", "CHECK", "schedule/capacity", "lexmax-certificate", "ok: 10 checks, 10 passed"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
}

// TestCheckScheduleFails: the solve command's check fails a corrupted schedule, and
// with --verify a schedule that is feasible but not optimal.
func TestCheckScheduleFails(t *testing.T) {
	in, err := sched.DecodeFile(filepath.Join(tasData, "max-parallel.json"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := tas.OnionPeel(context.Background(), in, tas.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := checkSchedule(&solve.Result{Instance: in, Schedule: res.Schedule, LexmaxByFlow: true}, true); !c.OK {
		t.Fatalf("onion's schedule: %v", c.Problems)
	}
	over := sched.NewSchedule(in)
	for j := range in.Jobs {
		over.Jobs[j].Alloc[0][0] = in.Jobs[j].Demand[0]
	}
	over.Finalize(in)
	if c := checkSchedule(&solve.Result{Instance: in, Schedule: over, LexmaxByFlow: true}, false); c.OK || !strings.Contains(strings.Join(c.Problems, ";"), "schedule/capacity") {
		t.Errorf("over capacity: ok %t, %v", c.OK, c.Problems)
	}
	worse := sched.NewSchedule(in)
	worse.Jobs[in.JobIndex("wide")].Alloc[0] = []int{1, 1, 0, 2}
	worse.Jobs[in.JobIndex("narrow")].Alloc[0] = []int{1, 1, 0, 0}
	worse.Finalize(in)
	if c := checkSchedule(&solve.Result{Instance: in, Schedule: worse, LexmaxByFlow: true}, false); !c.OK {
		t.Errorf("a feasible schedule fails the plain check: %v", c.Problems)
	}
	if c := checkSchedule(&solve.Result{Instance: in, Schedule: worse, LexmaxByFlow: true}, true); c.OK || !strings.Contains(strings.Join(c.Problems, ";"), "lexmax-certificate") {
		t.Errorf("--verify passes a schedule that is not optimal: %v", c.Problems)
	}
}
