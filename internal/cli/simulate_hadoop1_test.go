package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSimulateWorkflows: gen --family woha-fig2, then simulate: the per-policy JSON has
// the workflow outcomes, and --plots writes the workspan bars.
func TestSimulateWorkflows(t *testing.T) {
	path := genWorkload(t, "--family", "woha-fig2")
	dir := t.TempDir()
	code, out, errOut := runCLI(context.Background(), "", "simulate", path, "--policies", "woha-hlf,oozie-fair", "-o", "json", "--check", "--plots", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Policies []struct {
			Name      string `json:"name"`
			Workflows []struct {
				ID                   string
				Arrival              float64
				Deadline, Completion *float64
				Workspan, Tardiness  *float64
				Met                  *bool
			} `json:"workflows"`
			Violation *float64 `json:"deadline_violation_ratio"`
			MaxTard   *float64 `json:"max_tardiness"`
			TotalTard *float64 `json:"total_tardiness"`
			Accepted  *int     `json:"accepted"`
		} `json:"policies"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	hlf, fair := res.Policies[0], res.Policies[1]
	if len(hlf.Workflows) != 3 || *hlf.Violation != 0 || *hlf.TotalTard != 0 || hlf.Accepted != nil {
		t.Fatalf("woha-hlf: %+v", hlf)
	}
	// Oozie + Fair: each job's tasks share the slots evenly, and W1, W2 end at 12 > 9.
	if *fair.Violation != 2.0/3 || *fair.MaxTard != 3 || *fair.TotalTard != 6 || *fair.Workflows[0].Met {
		t.Fatalf("oozie-fair: violation %v, tardiness %v / %v", *fair.Violation, *fair.MaxTard, *fair.TotalTard)
	}
	if _, err := os.Stat(filepath.Join(dir, "workspan.png")); err != nil {
		t.Fatal(err)
	}
}

// TestSimulateRTMR: gen --family rtmr-1, then simulate: admission measures for the
// admitting policies, none for FIFO.
func TestSimulateRTMR(t *testing.T) {
	path := genWorkload(t, "--family", "rtmr-1", "--seed", "2", "--runtime-model", "within")
	code, out, errOut := runCLI(context.Background(), "", "simulate", path, "--policies", "rtmr,dc,fifo", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Policies []struct {
			Name     string   `json:"name"`
			Accepted *int     `json:"accepted"`
			Rejected int      `json:"rejected"`
			Success  *float64 `json:"success_ratio"`
			Jobs     []any    `json:"jobs"`
		} `json:"policies"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	r := res.Policies[0]
	if r.Accepted == nil || *r.Accepted+r.Rejected != len(r.Jobs) || *r.Success != 1 {
		t.Fatalf("rtmr: %+v", r)
	}
	if res.Policies[1].Accepted == nil || res.Policies[2].Accepted != nil {
		t.Fatal("admission measures on the wrong policies")
	}
	code, out, _ = runCLI(context.Background(), "", "simulate", path, "--policies", "rtmr-nofeedback", "-o", "table")
	if code != 0 || !strings.Contains(out, "admission (rtmr.txt §V)") || !strings.Contains(out, "success ratio") {
		t.Fatalf("table: exit %d\n%s", code, out)
	}
}

// TestHadoop1BadInput: bad flags and a workload a policy cannot model exit 2 with the
// reason.
func TestHadoop1BadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"gen", "--family", "rtmr-1", "--runtime-model", "sometimes"}, "--runtime-model"},
		{[]string{"gen", "--family", "woha", "--workflows", "0"}, "--workflows"},
		{[]string{"gen", "--family", "rtmr-2", "--runtime-model", "beyond", "--beyond-factor", "0.5"}, "--beyond-factor"},
	} {
		code, _, errOut := runCLI(context.Background(), "", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %s", tc.args, code, errOut)
		}
	}
	path := genWorkload(t, "--family", "woha-fig2")
	code, _, errOut := runCLI(context.Background(), "", "simulate", path, "--policies", "rtmr")
	if code != 2 || !strings.Contains(errOut, "input size > 0") {
		t.Errorf("rtmr on workflows: exit %d, %s", code, errOut)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	data, _ := os.ReadFile(path)
	doc := strings.Replace(string(data), `"workflow": "W2"`, `"workflow": "W9"`, 1)
	if err := os.WriteFile(bad, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(context.Background(), "", "simulate", bad, "--policies", "woha-hlf")
	if code != 2 || !strings.Contains(errOut, `].workflow: unknown workflow "W9"`) {
		t.Errorf("unknown workflow: exit %d, %s", code, errOut)
	}
}

// TestSimulateHadoop1Deterministic: the WOHA and RTMR policies give the same JSON (timing
// removed) whatever the number of workers, run after run.
func TestSimulateHadoop1Deterministic(t *testing.T) {
	for _, tc := range []struct {
		gen      []string
		policies string
	}{
		{[]string{"--family", "woha", "--workflows", "3", "--seed", "2"}, "woha-hlf,woha-lpf,woha-mpf,oozie-fifo,oozie-fair,oozie-edf"},
		{[]string{"--family", "rtmr-2", "--seed", "5", "--runtime-model", "beyond"}, "rtmr,rtmr-nofeedback,dc,rtmr-fifo"},
	} {
		path := genWorkload(t, tc.gen...)
		var first any
		for _, workers := range []string{"1", "2", "1"} {
			code, out, errOut := runCLI(context.Background(), "", "simulate", path, "--policies", tc.policies, "--replications", "2", "--workers", workers, "-o", "json", "--check")
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", tc.gen, code, errOut)
			}
			got := stripTiming(t, out)
			if first == nil {
				first = got
			} else if !reflect.DeepEqual(first, got) {
				t.Fatalf("%v: output depends on the run or the number of workers", tc.gen)
			}
		}
	}
}
