package simplex

import (
	"github.com/coraopt/coraopt/model/mps"

	"context"
	"github.com/coraopt/coraopt/internal/testmodels"
	"github.com/coraopt/coraopt/solvers"
	"os"
	"testing"
)

func TestDbgModel(t *testing.T) {
	name := os.Getenv("MODEL")
	p, err := mps.ReadFile(testmodels.Path(t, name+".mps"), mps.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := &Solver{}
	sol, err := s.Solve(context.Background(), p, solvers.Options{Verbose: os.Stderr})
	t.Logf("%v %v %v", sol.Status, sol.Objective, sol.Iterations)
}
