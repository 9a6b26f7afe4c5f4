//go:build !highs && !lpsolve

package cli

import (
	"strings"
	"testing"
)

// TestSolveMIPPureGo: a pure-Go binary asked for --method mip says that no MIP backend
// is compiled in and how to get one, and names no --solver the user did not pass.
func TestSolveMIPPureGo(t *testing.T) {
	code, res, stderr := solveJSON(t, "", quickPath, "--method", "mip")
	if code != ExitBadUsage || res != nil {
		t.Fatalf("exit %d, stdout %v", code, res)
	}
	for _, want := range []string{"no backend for MIPs is compiled into this binary", "-tags highs", "-tags lpsolve", "make build", "--method onion"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	for _, bad := range []string{"--solver", "simplex"} {
		if strings.Contains(stderr, bad) {
			t.Errorf("stderr %q names %q, which the user never passed", stderr, bad)
		}
	}
}
