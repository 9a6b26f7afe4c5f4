package woha_test

import (
	"fmt"
	"github.com/coraopt/coraopt/workload/hadoop1"

	"github.com/coraopt/coraopt/policies/woha"
)

// A simulator adapter submits each workflow at its arrival, reports jobs as their
// prerequisites finish, and asks for a job whenever a slot frees; a policy whose Pick
// also starts the task calls AssignTask, which is Pick followed by TaskStarted.
func ExampleScheduler() {
	ws := hadoop1.Fig2() // three workflows, D = 9, 9, 50; 3 map + 3 reduce slots
	s, err := woha.NewScheduler(woha.SchedulerConfig{Rule: woha.HLF, Slots: 6})
	if err != nil {
		panic(err)
	}
	for i := range ws {
		h, err := s.Submit(0, &ws[i])
		if err != nil {
			panic(err)
		}
		plan, met := s.PlanOf(h)
		fmt.Printf("%s: cap %d, planned workspan %v, meets its deadline alone: %v\n", ws[i].ID, plan.Cap, plan.Makespan, met)
		if err := s.JobReady(0, woha.Choice{Workflow: h, Job: 0}); err != nil {
			panic(err)
		}
	}
	// Three map slots free at t=0: every lag is 0, and each start lowers the winner's.
	for k := 0; k < 3; k++ {
		c, _ := s.AssignTask(0, woha.MapPool)
		fmt.Printf("map slot %d → workflow %d job %d\n", k, c.Workflow, c.Job)
	}
	// Output:
	// W1: cap 2, planned workspan 7, meets its deadline alone: true
	// W2: cap 2, planned workspan 7, meets its deadline alone: true
	// W3: cap 1, planned workspan 12, meets its deadline alone: true
	// map slot 0 → workflow 0 job 0
	// map slot 1 → workflow 1 job 0
	// map slot 2 → workflow 2 job 0
}
