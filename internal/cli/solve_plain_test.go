//go:build !highs && !lpsolve

package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestSolveMIPPureGo: a pure-Go binary asked for --method mip, with no --solver, solves
// the TAS MIP with the built-in branch and bound (backend "mip") and reaches onion
// peeling's sorted utilities. (What the selector says when no MIP backend is compiled in
// at all is solvers.TestSelect's business: since solvers/mip landed, every binary has one.)
func TestSolveMIPPureGo(t *testing.T) {
	code, mip, stderr := solveJSON(t, "", quickPath, "--method", "mip")
	if code != ExitOK || mip == nil {
		t.Fatalf("--method mip: exit %d, stderr %s", code, stderr)
	}
	if got := mip["solver"]; got != "mip" {
		t.Errorf("solver %v, want the built-in mip", got)
	}
	code, onion, stderr := solveJSON(t, "", quickPath)
	if code != ExitOK || onion == nil {
		t.Fatalf("onion: exit %d, stderr %s", code, stderr)
	}
	if d := cmp.Diff(onion["sorted_utilities"], mip["sorted_utilities"], cmpopts.EquateApprox(0, 1e-6)); d != "" {
		t.Errorf("mip sorted utilities differ from onion peeling's (-onion +mip):\n%s", d)
	}
}
