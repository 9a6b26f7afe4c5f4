package sched_test

import (
	"fmt"
	"os"

	"github.com/coraopt/coraopt/sched"
)

func ExampleDecodeFile() {
	in, err := sched.DecodeFile("../testdata/quickstart.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d jobs, %d slots (%s)\n", in.Name, len(in.Jobs), in.Horizon, in.HorizonSource)
	j := in.Jobs[0]
	fmt.Printf("%s needs %d %s; U(3) = %.3f, U(5) = %.3f\n", j.ID, j.Demand[0], in.Resources[0].Name, j.Utility.At(3), j.Utility.At(5))
	// Output:
	// quickstart: 7 jobs, 12 slots (file)
	// etl needs 30 containers; U(3) = 3.270, U(5) = 0.730
}

func ExampleParse_problems() {
	_, err := sched.Parse([]byte(`{
	  "resources": [{"name": "containers", "capacity": 2}],
	  "jobs": [
	    {"id": "a", "demand": {"containers": 10, "gpus": 1},
	     "utility": {"type": "sigmoid", "priority": 1, "deadline": 2, "decay": -1}},
	    {"id": "b", "demand": {"containers": 4}, "release": 2,
	     "utility": {"type": "table", "values": [3, 2, 4]}}]}`))
	fmt.Println(err)
	// Output:
	// jobs[0].demand.gpus: unknown resource "gpus" (resources are "containers")
	// jobs[0].utility.decay: must be >= 0
	// jobs[1].utility: increases from U(2) = 2 to U(3) = 4; utilities must be non-increasing in the completion slot
}

func ExampleEncode() {
	in := &sched.Instance{
		Name:      "tiny",
		Horizon:   3,
		Resources: []sched.Resource{{Name: "containers", Capacity: []int{4, 4, 2}}},
		Jobs: []sched.Job{{
			ID: "a", Demand: []int{6}, Release: 1, TaskSlots: 1, MaxParallel: 3,
			Utility: sched.Step{Value: 2, Deadline: 2},
		}},
	}
	if err := in.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	if err := sched.Encode(os.Stdout, in); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "name": "tiny",
	//   "horizon": 3,
	//   "resources": [
	//     {
	//       "name": "containers",
	//       "capacity": [
	//         4,
	//         4,
	//         2
	//       ]
	//     }
	//   ],
	//   "jobs": [
	//     {
	//       "id": "a",
	//       "demand": {
	//         "containers": 6
	//       },
	//       "max_parallel": 3,
	//       "utility": {
	//         "type": "step",
	//         "value": 2,
	//         "deadline": 2
	//       }
	//     }
	//   ]
	// }
}
