package solve_test

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
	_ "github.com/coraopt/coraopt/solvers/all" // the backends this binary has
)

// Solve an instance with TAS by onion peeling (no solver needed) and read the answer.
func Example() {
	in, err := sched.DecodeFile("../testdata/quickstart.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := solve.Solve(context.Background(), solve.Request{Formulation: "tas", Instance: in})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s by %s, exact %v, %d layers\n", res.Formulation, res.Method, res.Exact, len(res.Layers))
	fmt.Printf("lowest utility %.4g\n", solve.LowestLevel(res))
	// The LP formulations pick a backend by problem class (solvers.Select) unless the
	// request names one.
	res, err = solve.Solve(context.Background(), solve.Request{Formulation: "cora-final", Instance: in, Solver: "simplex"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s by %s with %s; %d solver point(s) to certify\n", res.Formulation, res.Method, res.Backend, len(res.Points))
	// Output:
	// tas by onion, exact true, 7 layers
	// lowest utility 0.7297
	// cora-final by lp with simplex; 1 solver point(s) to certify
}
