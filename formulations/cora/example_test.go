package cora_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/coraopt/coraopt/formulations/cora"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solvers"
	"github.com/coraopt/coraopt/solvers/gonumlp"
)

// Build FINAL for testdata/cora/spread.json, solve it and read the schedule: both jobs
// get one unit in each slot, because eq. (6) charges 1 for every empty cell.
func ExampleBuildFinal() {
	in, err := sched.Decode(strings.NewReader(`{
	  "horizon": 2,
	  "resources": [{"name": "containers", "capacity": 2}],
	  "jobs": [
	    {"id": "a", "demand": {"containers": 2}, "utility": {"type": "table", "values": [9, 1]}},
	    {"id": "b", "demand": {"containers": 2}, "utility": {"type": "table", "values": [9, 1]}}
	  ]
	}`))
	if err != nil {
		log.Fatal(err)
	}
	lp, err := cora.BuildFinal(in, cora.Options{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := lp.Solve(context.Background(), gonumlp.New(), solvers.Options{})
	if err != nil || res.Status != solvers.Optimal {
		log.Fatal(err, res.Status)
	}
	s := res.Decoded.Schedule
	fmt.Printf("k = %g, scale = %g, warnings: %d\n", lp.K, lp.Utilities.Scale, len(lp.Warnings))
	fmt.Printf("objective %.6f\n", res.Objective)
	for _, j := range s.Jobs {
		fmt.Printf("%s: %v, completes in slot %d with utility %g\n", j.ID, j.Alloc[0], j.Completion, j.Utility)
	}
	fmt.Println("sorted utilities", s.Sorted, "cell vector", lp.CellVector(s))
	// Output:
	// k = 4, scale = 1, warnings: 0
	// objective 0.500008
	// a: [1 1], completes in slot 2 with utility 1
	// b: [1 1], completes in slot 2 with utility 1
	// sorted utilities [1 1] cell vector [1 1 9 9]
}
