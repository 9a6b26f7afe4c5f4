package rtmr_test

import (
	"fmt"

	"github.com/coraopt/coraopt/policies/rtmr"
)

// A simulator's view of RTMR: admit at arrival, ask for a task per free slot, report
// finishes. Two map slots and one reduce slot; c_m^max = c_r^max = η = 1.
func Example() {
	c := rtmr.Cluster{Workers: []rtmr.Worker{{MapSlots: 2, ReduceSlots: 1, MapSpeed: 1, ReduceSpeed: 1}}}
	s, err := rtmr.NewRTMR(c, rtmr.SchedulerConfig{Feedback: true, Initial: rtmr.Estimates{Eta: 1, CmMax: 1, CrMax: 1}})
	if err != nil {
		panic(err)
	}
	for _, j := range []rtmr.Job{
		{ID: "a", Deadline: 20, MapSizes: []float64{2, 2, 2}, Reduces: 1}, // maps end by 4, reduce by 10
		{ID: "b", Deadline: 5, MapSizes: []float64{3}, Reduces: 1},        // 3 + 3 > 5
	} {
		ok, err := s.Arrive(0, j)
		fmt.Println(j.ID, "admitted:", ok, err)
	}
	for range 3 {
		a, ok := s.Assign(0, rtmr.Map, 0)
		fmt.Println("map slot:", a, ok)
	}
	// Output:
	// a admitted: true <nil>
	// b admitted: false <nil>
	// map slot: {a 0} true
	// map slot: {a 1} true
	// map slot: {a 2} true
}
