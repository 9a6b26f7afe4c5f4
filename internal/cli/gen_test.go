package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/coraopt/coraopt/workload"
	"github.com/coraopt/coraopt/workload/hadoop1"
)

// gen bounds its size flags and refuses a flag its family does not read, exit 2 naming
// the flag, before it draws anything (issue 27: a size without a bound).
func TestGenRefusesFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--family", "cora", "--jobs", "200001"}, "--jobs 200001: need at least 1 job and at most 200000"},
		{[]string{"--family", "rush", "--jobs", "1000000000"}, "--jobs 1000000000"},
		{[]string{"--family", "rds", "--jobs", "-3"}, "--jobs -3"},
		{[]string{"--family", "woha", "--workflows", "20001"}, "--workflows 20001: need at least 1 workflow and at most 20000"},
		{[]string{"--family", "woha", "--workflows", "0"}, "--workflows 0"},
		{[]string{"--family", "rush", "--budget-ratio", "0"}, "--budget-ratio 0"},
		{[]string{"--family", "swf", "--swf", "x.swf", "--jobs", "-1"}, "--jobs -1"},
		{[]string{"--family", "woha", "--jobs", "5"}, "--jobs: the woha family does not take it (it is for cora, rush, rds, swf)"},
		{[]string{"--family", "rds", "--mix", "1,0,0"}, "--mix: the rds family does not take it (it is for cora, rush)"},
		{[]string{"--family", "swf", "--swf", "x.swf", "--at-once"}, "--at-once: the swf family does not take it"},
		{[]string{"--family", "rush", "--standalone", "mean"}, `--standalone "mean": want measured or waves`},
		{[]string{"--family", "woha-fig2", "--seed", "2"}, "--seed: the woha-fig2 family does not take it"},
		{[]string{"--family", "woha", "--jobs", "5", "--mix", "drawn"}, "--jobs: the woha family does not take it (it is for cora, rush, rds, swf)\n--mix: the woha family does not take it (it is for cora, rush)"},
		{[]string{"--family", "cora", "--workflows", "3"}, "--workflows: the cora family does not take it (it is for woha)"},
		{[]string{"--family", "cora", "--jobs", "many"}, `invalid argument "many" for "--jobs" flag: not an int`},
		{[]string{"--family", "rtmr-1", "--beyond-factor", "x"}, `"--beyond-factor" flag: not a float`},
		{[]string{"--family", "cora", "--mix", "0.5,0.5"}, `--mix "0.5,0.5": want three shares`},
	} {
		code, out, errOut := runCLI(context.Background(), "", append([]string{"gen"}, tc.args...)...)
		if code != ExitBadUsage || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("gen %v: exit %d, %d bytes out, stderr %q; want exit 2 saying %q", tc.args, code, len(out), errOut, tc.want)
		}
	}
}

// gen's help lists every registered family with its paragraph, and every option with the
// families that take it.
func TestGenHelpListsFamilies(t *testing.T) {
	code, out, errOut := runCLI(context.Background(), "", "gen", "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range append(workload.Families(), hadoop1.Families()...) {
		first, _, _ := strings.Cut(f.Doc, "\n")
		if !strings.Contains(out, f.Name) || !strings.Contains(out, first) {
			t.Errorf("help lacks family %s (%q)", f.Name, first)
		}
	}
	for _, want := range []string{"rush: time budget", "woha: number of workflows", "rtmr-1, rtmr-2  rtmr.txt §V"} {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q:\n%s", want, out)
		}
	}
}
