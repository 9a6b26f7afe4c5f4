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

// Two jobs on 2 containers: a needs 4 container-slots in tasks of 2 slots, b needs 2 in
// tasks of 1. The slotted schedule meets a by slot 2 and b by slot 3; the mapping turns it
// into whole tasks per container, each job finishing by T_i + R_i (Theorem 3).
func ExampleMapToQueues() {
	in := &sched.Instance{
		Name: "mapping", Horizon: 4,
		Resources: []sched.Resource{{Name: "containers", Capacity: []int{2, 2, 2, 2}}},
		Jobs: []sched.Job{
			{ID: "a", Demand: []int{4}, Release: 1, TaskSlots: 2, Utility: sched.Step{Value: 1, Deadline: 2}},
			{ID: "b", Demand: []int{2}, Release: 1, TaskSlots: 1, Utility: sched.Step{Value: 1, Deadline: 3}},
		},
	}
	s, v := tas.EDF(in, []int{2, 3})
	if v != nil {
		log.Fatal(v)
	}
	m, err := tas.MapToQueues(in, s, tas.MappingOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for k, q := range m.Queues {
		fmt.Printf("container %d:", k)
		for _, task := range q {
			fmt.Printf(" %s[%d,%d)", in.Jobs[task.Job].ID, task.Start, task.End)
		}
		fmt.Println()
	}
	fmt.Println("completions", m.Completion, "targets", m.Target, "bound holds", m.BoundHolds)
	// Output:
	// container 0: a[0,2) b[2,3)
	// container 1: a[0,2) b[2,3)
	// completions [2 3] targets [2 3] bound holds true
}
