package rds_test

import (
	"context"
	"fmt"
	"log"
	"math"

	"github.com/coraopt/coraopt/formulations/rds"
	"github.com/coraopt/coraopt/solvers"
	_ "github.com/coraopt/coraopt/solvers/all"
)

// One control step of rds.txt's case study at minute 10: J1 (120 units, 30 done,
// deadline 40) and J2 (60 units, just arrived, deadline 30), capacity 6, 3 and 6 units
// per minute in the next three 10-minute intervals — exactly enough. SolveRHC plans so
// that both deadlines are met; the first interval's allocation is the control action.
func ExampleSolveRHC() {
	inf := math.Inf(1)
	st := &rds.State{Time: 10, Interval: 10, Jobs: []rds.Job{
		{ID: "J1", Work: 120, Progress: 30, Phase: rds.PhaseMap, Gain: rds.Gain{Map: 10},
			Soft: 40, Hard: 40, Priority: 1, Prev: rds.Alloc{Map: 3}, MaxMap: inf, MaxReduce: inf},
		{ID: "J2", Arrival: 10, Work: 60, Phase: rds.PhaseMap, Gain: rds.Gain{Map: 10},
			Soft: 30, Hard: 30, Priority: 1, MaxMap: inf, MaxReduce: inf},
	}}
	qp, err := solvers.Get("qp")
	if err != nil {
		log.Fatal(err)
	}
	res, err := rds.SolveRHC(context.Background(), qp, st, []float64{6, 3, 6}, rds.DefaultParams(), solvers.Options{})
	if err != nil {
		log.Fatal(err)
	}
	plan := res.Handles.Plan(res.Solution.X)
	traj := res.Handles.Trajectory(res.Solution.X, st)
	for j, job := range st.Jobs {
		fmt.Printf("%s: rates %.2f %.2f %.2f, progress %.1f %.1f %.1f of %g\n", job.ID,
			plan[j][0].Map, plan[j][1].Map, plan[j][2].Map, traj[j][0], traj[j][1], traj[j][2], job.Work)
	}
	// Output:
	// J1: rates 3.00 0.00 6.00, progress 60.0 60.0 120.0 of 120
	// J2: rates 3.00 3.00 0.00, progress 30.0 60.0 60.0 of 60
}

// Algorithm 1 of rds.txt: six slots go, one at a time, to the job whose adjustment is
// largest; ties go to the earlier job.
func ExampleDispatch() {
	slots, err := rds.Dispatch([]float64{5, 3, -1}, nil, 6, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(slots)
	// Output: [4 2 0]
}

// Table 2 of rds.txt: a 3-step forecast by iterating the AR model of eq. 16, each
// prediction fed back as an input.
func ExampleAR_Forecast() {
	m := rds.AR{Coef: []float64{0.5, 0.3, 0.2}}
	f, err := m.Forecast([]float64{10, 20, 30}, 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.2f\n", f)
	// Output: [23.00 24.50 25.15]
}
