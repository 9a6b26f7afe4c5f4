package sim_test

import (
	"context"
	"fmt"

	"github.com/coraopt/coraopt/policies/all"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// Two jobs on two containers under every baseline, then the offline bound.
func Example() {
	w, err := workload.Parse([]byte(`{
	 "cluster": {"pools": [{"name": "containers", "slots": 2}]},
	 "jobs": [
	  {"id": "big", "arrival": 0, "deadline": 30, "utility": {"type": "step", "value": 1, "deadline": 30},
	   "stages": [{"pool": "containers", "tasks": 4, "runtime": {"type": "fixed", "value": 10}}]},
	  {"id": "small", "arrival": 5, "deadline": 10, "utility": {"type": "step", "value": 2, "deadline": 10},
	   "stages": [{"pool": "containers", "tasks": 1, "runtime": {"type": "fixed", "value": 5}}]}]}`))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	until := 0.0
	for _, name := range []string{"fifo", "edf"} {
		p, _ := all.New(name)
		r, err := sim.Run(ctx, w, p, sim.Options{Seed: 1})
		if err != nil {
			panic(err)
		}
		m := sim.Summarize(w, r)
		fmt.Printf("%-4s big %g, small %g, utilities %v\n", name, r.Jobs[0].Completion, r.Jobs[1].Completion, m.SortedUtilities)
		until = max(until, r.Makespan)
	}
	b, err := sim.Bound(ctx, w, 1, 5, until)
	if err != nil {
		panic(err)
	}
	fmt.Println("bound", b.SortedUtilities)
	// Output:
	// fifo big 20, small 25, utilities [0 1]
	// edf  big 25, small 15, utilities [1 2]
	// bound [1 2]
}
