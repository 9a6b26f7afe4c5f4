package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

const rsInstance = "../../testdata/instances/runtime-robust.json"

func TestSolveRSGolden(t *testing.T) {
	code, stdout, stderr := runCLI(context.Background(), "", "solve", "--formulation", "rs", rsInstance, "-o", "json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkGolden(t, filepath.Join(rsData, "solve-runtime-robust.json"), solveTime.ReplaceAllString(stdout, `"solve_seconds": 0`))
}

// The schedule gives every job its η (what rs-demands reports), the output carries
// jobs[].eta and jobs[].reference_quantile, and the self-check is against the η.
func TestSolveRSGivesEta(t *testing.T) {
	code, res, stderr := solveJSON(t, "", "--formulation", "rs", rsInstance)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if res["formulation"] != "rs" || res["status"] != "optimal" || res["exact"] != true {
		t.Fatalf("%v %v %v", res["formulation"], res["status"], res["exact"])
	}
	ver := res["verification"].(map[string]any)
	if ver["ok"] != true || !strings.Contains(ver["checked"].(string), "36 WCDE cross-checks") {
		t.Errorf("verification %v", ver)
	}
	want := map[string]float64{"a": 139, "b": 75, "c": 51, "d": 50} // testdata/rs/demands-runtime-robust.table
	for _, j := range res["jobs"].([]any) {
		job := j.(map[string]any)
		id := job["id"].(string)
		var got float64
		for _, x := range job["allocation"].(map[string]any)["containers"].([]any) {
			got += x.(float64)
		}
		if job["eta"] != want[id] || got < want[id] || job["reference_quantile"].(float64) > want[id] {
			t.Errorf("job %s: eta %v, reference %v, allocated %v; want eta %v", id, job["eta"], job["reference_quantile"], got, want[id])
		}
	}
	mapping := res["details"].(map[string]any)["mapping"].(map[string]any)
	if mapping["bound_holds"] != true {
		t.Errorf("mapping %v", mapping)
	}
}

// δ = 0 schedules the reference quantiles; a larger δ never lowers an η.
func TestSolveRSOverrides(t *testing.T) {
	_, zero, _ := solveJSON(t, "", "--formulation", "rs", rsInstance, "--delta", "0")
	_, big, _ := solveJSON(t, "", "--formulation", "rs", rsInstance, "--delta", "1.5", "--theta", "0.95", "--bins", "64")
	for i, j := range zero["jobs"].([]any) {
		z, b := j.(map[string]any), big["jobs"].([]any)[i].(map[string]any)
		if z["eta"] != z["reference_quantile"] {
			t.Errorf("delta 0, job %v: eta %v, reference %v", z["id"], z["eta"], z["reference_quantile"])
		}
		if b["eta"].(float64) < z["eta"].(float64) {
			t.Errorf("job %v: eta %v at (0.95, 1.5), %v at (0.9, 0)", z["id"], b["eta"], z["eta"])
		}
	}
	d := big["details"].(map[string]any)
	if d["theta"] != 0.95 || d["delta"] != 1.5 || d["bins"] != 64.0 {
		t.Errorf("details %v %v %v", d["theta"], d["delta"], d["bins"])
	}
	// Jobs without a runtime keep their demand; no eta is printed for them.
	code, q, stderr := solveJSON(t, "", "--formulation", "rs", "../../testdata/quickstart.json", "--theta", "0.9", "--delta", "0.5")
	if code != ExitOK {
		t.Fatalf("quickstart: exit %d: %s", code, stderr)
	}
	if _, ok := q["jobs"].([]any)[0].(map[string]any)["eta"]; ok {
		t.Error("quickstart: eta printed for a job without a runtime")
	}
}

func TestSolveRSErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--formulation", "rs", "../../testdata/instances/two-resources.json", "--theta", "0.9", "--delta", "1"}, ExitBadUsage, "2 resources"},
		{[]string{"--formulation", "rs", "../../testdata/quickstart.json"}, ExitBadUsage, "robust"},
		{[]string{"--formulation", "rs", rsInstance, "--theta", "1"}, ExitBadUsage, "theta"},
		{[]string{"--formulation", "rs", rsInstance, "--delta", "-1"}, ExitBadUsage, "delta"},
		{[]string{"--formulation", "tas", rsInstance, "--theta", "0.5"}, ExitBadUsage, "--theta applies to --formulation rs"},
		// 90 container-slots fit in 10 slots × 10; the worst-case demand does not.
		{[]string{"--formulation", "rs", filepath.Join(rsData, "tight.json")}, ExitFailed, "infeasible"},
	} {
		code, _, stderr := runCLI(context.Background(), "", append([]string{"solve"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
	// The nominal instance is feasible as TAS.
	if code, _, stderr := runCLI(context.Background(), "", "solve", filepath.Join(rsData, "tight.json")); code != ExitOK {
		t.Errorf("tight.json as tas: exit %d: %s", code, stderr)
	}
}
