package tas_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
)

// RUSH's Alg. 3 as printed, on one container and three slots: it peels b first
// (deadline 2), then lets a rise to utility 9 (deadline 1), because its line 7 looks only
// at the deadlines of the jobs not yet peeled. Slots 1–2 cannot carry the 3 units due by
// then. The exact lexmax keeps a at slot 3.
func ExampleAlg3() {
	in := &sched.Instance{
		Name: "line7", Horizon: 3,
		Resources: []sched.Resource{{Name: "containers", Capacity: []int{1, 1, 1}}},
		Jobs: []sched.Job{
			{ID: "a", Demand: []int{1}, Release: 1, TaskSlots: 1, Utility: sched.Table{Values: []float64{9, 3, 3}}},
			{ID: "b", Demand: []int{2}, Release: 1, TaskSlots: 1, Utility: sched.Table{Values: []float64{6, 5, 0}}},
		},
	}
	res, err := tas.Alg3(context.Background(), in, tas.Alg3Options{})
	fmt.Println("Alg. 3 targets:", res.Deadlines, "infeasible:", errors.Is(err, tas.ErrAlg3Infeasible))
	fmt.Println(err)
	ex, err := tas.OnionPeel(context.Background(), in, tas.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("exact targets:", ex.Deadlines, "sorted utilities:", ex.Schedule.Sorted)
	// Output:
	// Alg. 3 targets: [1 2] infeasible: true
	// tas: Alg. 3's target completion times cannot all be met: tas: slots 1..2: demand 3 of resource 0 exceeds capacity 2
	// exact targets: [3 2] sorted utilities: [3 5]
}
