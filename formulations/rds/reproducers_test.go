package rds

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/coraopt/coraopt/model/mps"
	"github.com/coraopt/coraopt/solvers"
)

// TestBuiltinQPSolvesHiGHSReproducers: the RDS problems on which HiGHS 1.10's QP solver
// stalls, errs or stops short (testdata/rds/README.md) are solved and certified by the
// built-in backend; on the one where HiGHS reports "optimal" at 2505.3536644, the
// certified optimum is lower — HiGHS stopped short.
func TestBuiltinQPSolvesHiGHSReproducers(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(stateData, "highs-qp-*.mps"))
	if len(files) < 5 {
		t.Fatalf("%d reproducers, want 5", len(files))
	}
	s := qpSolver(t)
	for _, path := range files {
		p, err := mps.ReadFile(path, mps.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sol, err := s.Solve(context.Background(), p, solvers.Options{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		certify(t, filepath.Base(path), p, sol)
		if filepath.Base(path) == "highs-qp-suboptimal.mps" && sol.Objective > 2505.3536644-1e-3 {
			t.Errorf("%s: certified optimum %.10g, HiGHS's answer 2505.3536644 should be worse", path, sol.Objective)
		}
	}
}
