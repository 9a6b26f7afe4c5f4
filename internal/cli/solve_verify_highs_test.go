//go:build highs

package cli

import (
	"path/filepath"
	"testing"
)

// TestSolveVerifyMIP: --method mip --verify certifies the MIP point (integrality, rows)
// and checks the decoded schedule; coraopt verify runs the MIP cross-checks.
func TestSolveVerifyMIP(t *testing.T) {
	code, res, stderr := solveJSON(t, "", filepath.Join(tasData, "max-parallel.json"), "--method", "mip", "--solver", "highs", "--verify")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := checkNames(t, res)
	for _, n := range []string{"schedule/capacity", "certificate/bounds", "certificate/rows", "certificate/integrality", "certificate/objective"} {
		if c, ok := got[n]; !ok || c["ok"] != true {
			t.Errorf("check %s: %v", n, c)
		}
	}
	code, out, stderr := verifyJSON(t, quickPath, "--solvers", "highs")
	if code != 0 || out["ok"] != true {
		t.Fatalf("verify with highs: exit %d: %s", code, stderr)
	}
	for _, c := range out["checks"].([]any) {
		m := c.(map[string]any)
		// info is a measurement that holds (alg3-vs-onion: Alg. 3 as printed against
		// the lexmax); anything else but pass is a failure here.
		if m["ok"] != true || (m["status"] != "pass" && m["status"] != "info") {
			t.Errorf("quickstart with highs: %v", m)
		}
	}
}
