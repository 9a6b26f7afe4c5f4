package verify

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/formulations/rds"
)

func loadState(t *testing.T, name string) *rds.StateFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "rds", name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := rds.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestState: every RDS state file of testdata verifies with the built-in QP backend —
// RunStep's KKT residuals, the eq. 3 certificate recomputed, and the backends' agreement.
func TestState(t *testing.T) {
	for _, name := range []string{"table1-t10.json", "table1-t10-eq3.json", "green.json", "mapreduce-ar.json"} {
		rep, err := State(context.Background(), loadState(t, name), Options{Solvers: []string{"qp"}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !rep.OK() {
			t.Errorf("%s: %s", name, rep.Summary())
		}
		for _, want := range []string{"rds/qp/kkt-primal", "rds/qp/eq3/rows", "rds/qp/eq3/kkt-stationarity", "rds/qp/eq3/duality-gap", "rds/backends"} {
			if _, ok := rep.Find(want); !ok {
				t.Errorf("%s: no check %s", name, want)
			}
		}
	}
	// A backend that solves no QP leaves the agreement skipped, not passed.
	rep, err := State(context.Background(), loadState(t, "table1-t10.json"), Options{Solvers: []string{"simplex"}})
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := rep.Find("rds/backends"); !ok || c.Status() != "skip" {
		t.Errorf("simplex only: %+v", rep.Checks)
	}
}
