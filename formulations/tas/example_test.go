package tas_test

import (
	"context"
	"fmt"
	"log"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
)

// Three jobs share 4 containers per slot for 4 slots. Utilities are given per completion
// slot. Lawler's backward rule would give the sorted vector (4, 6, 6); the lexicographic
// max-min is (4, 6, 8): c first, b by slot 2, a last.
func ExampleOnionPeel() {
	in := &sched.Instance{
		Name: "lawler", Horizon: 4,
		Resources: []sched.Resource{{Name: "containers", Capacity: []int{4, 4, 4, 4}}},
		Jobs: []sched.Job{
			{ID: "a", Demand: []int{8}, Release: 1, TaskSlots: 1, Utility: sched.Table{Values: []float64{9, 8, 6, 6}}},
			{ID: "b", Demand: []int{4}, Release: 1, TaskSlots: 1, Utility: sched.Table{Values: []float64{4, 4, 3, 1}}},
			{ID: "c", Demand: []int{2}, Release: 1, TaskSlots: 1, Utility: sched.Table{Values: []float64{8, 6, 3, 0}}},
		},
	}
	if err := in.Validate(); err != nil {
		log.Fatal(err)
	}
	res, err := tas.OnionPeel(context.Background(), in, tas.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for _, js := range res.Schedule.Jobs {
		fmt.Printf("%s completes in slot %d (utility %g), holds %v\n", js.ID, js.Completion, js.Utility, js.Alloc[0])
	}
	fmt.Println("sorted utilities", res.Schedule.Sorted, "exact", res.Exact)
	for _, l := range res.Layers {
		fmt.Println("layer", l.Level, "jobs", l.Jobs)
	}
	// Output:
	// a completes in slot 4 (utility 6), holds [0 2 4 2]
	// b completes in slot 2 (utility 4), holds [2 2 0 0]
	// c completes in slot 1 (utility 8), holds [2 0 0 0]
	// sorted utilities [4 6 8] exact true
	// layer 4 jobs [1]
	// layer 6 jobs [0]
	// layer 8 jobs [2]
}
