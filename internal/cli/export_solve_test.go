//go:build highs || lpsolve

package cli

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/formulations/cora"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
)

// An exported FINAL model, written as MPS and as CPLEX-LP and solved by `coraopt lp` with
// each cgo backend in this binary, has the optimum of the FINAL model solved in memory.
func TestExportedFinalSolves(t *testing.T) {
	var backends []string
	for _, name := range []string{"highs", "lpsolve"} {
		if _, err := solvers.Get(name); err == nil {
			backends = append(backends, name)
		}
	}
	if len(backends) == 0 {
		t.Fatal("no cgo backend compiled in")
	}
	dir := t.TempDir()
	for _, file := range []string{
		filepath.Join(coraData, "agree.json"),
		filepath.Join(coraData, "spread-two-resources.json"),
		quickPath, // weights that underflow: written as 0, solved the same way
	} {
		in, err := sched.DecodeFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lp, err := cora.BuildFinal(in, cora.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sv, err := solvers.Get(backends[0])
		if err != nil {
			t.Fatal(err)
		}
		direct, err := lp.Solve(context.Background(), sv, solvers.Options{})
		if err != nil || direct.Status != solvers.Optimal {
			t.Fatalf("%s: in memory with %s: %v %v", file, backends[0], err, direct)
		}
		for _, format := range []string{"mps", "lp"} {
			out := filepath.Join(dir, filepath.Base(file)+"."+format)
			if code, _, stderr := runCLI(context.Background(), "", "export", file, "--format", format, "--out", out); code != 0 {
				t.Fatalf("export %s: exit %d: %s", file, code, stderr)
			}
			for _, b := range backends {
				got := lpObjective(t, "", out, "--solver", b)
				if math.Abs(got-direct.Objective) > 1e-9*math.Max(1, math.Abs(direct.Objective)) {
					t.Errorf("%s exported as %s, solved by coraopt lp --solver %s: %.12g; in memory: %.12g", file, format, b, got, direct.Objective)
				}
			}
		}
	}
}
