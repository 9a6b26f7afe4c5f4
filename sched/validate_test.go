package sched

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidateHandBuilt(t *testing.T) {
	good := func() *Instance {
		return &Instance{
			Horizon:   3,
			Resources: []Resource{{Name: "c", Capacity: []int{2, 2, 2}}},
			Jobs: []Job{
				{ID: "a", Demand: []int{2}, Release: 1, TaskSlots: 1, Utility: Constant{Value: 1}},
				{ID: "b", Demand: []int{2}, Release: 2, TaskSlots: 1, Utility: Table{Values: []float64{3, 2}},
					Runtime: &Runtime{Type: "gaussian", Mean: 1, Std: 0.5, Tasks: 2}},
			},
		}
	}
	tests := []struct {
		name   string
		mutate func(in *Instance)
		want   []Problem
	}{
		{"valid", func(*Instance) {}, nil},
		{"horizon", func(in *Instance) { in.Horizon = 0 }, []Problem{{"horizon", "must be between 1 and 1000000, got 0"}}},
		{"capacity length", func(in *Instance) { in.Resources[0].Capacity = []int{2, 2} },
			[]Problem{{"resources[0].capacity", "array has 2 entries, horizon is 3"}}},
		{"demand length and missing utility", func(in *Instance) { in.Jobs[0].Demand = nil; in.Jobs[1].Utility = nil },
			[]Problem{{"jobs[0].demand", "has 0 entries, there are 1 resources"}, {"jobs[1].utility", "required"}}},
		{"NaN", func(in *Instance) { in.Jobs[0].Utility = Sigmoid{Priority: math.NaN(), Deadline: 1, Decay: 1} },
			[]Problem{{"jobs[0].utility.priority", "must be a finite number, got NaN"}}},
		{"runtime fields of another type", func(in *Instance) { in.Jobs[1].Runtime.Samples = []float64{1, 2} },
			[]Problem{{"jobs[1].runtime.samples", `not used by runtime type "gaussian"`}}},
		{"increasing", func(in *Instance) { in.Jobs[1].Utility = Table{Values: []float64{1, 2}} },
			[]Problem{{"jobs[1].utility", "increases from U(1) = 1 to U(2) = 2; utilities must be non-increasing in the completion slot"}}},
		{"no room", func(in *Instance) { in.Jobs[1].Demand[0] = 5 },
			[]Problem{
				{"resources[0]", `total demand 7 of "c" exceeds total capacity 6 over horizon 3`},
				{"jobs[1]", `cannot finish by the horizon: 5 units of "c" at most 2 per slot from release 2 need 4 slots, horizon is 3`},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := good()
			tt.mutate(in)
			err := in.Validate()
			var got []Problem
			var ve *ValidationError
			if errors.As(err, &ve) {
				got = ve.Problems
			} else if err != nil {
				t.Fatalf("err = %v, want *ValidationError", err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("problems (-want +got):\n%s", d)
			}
		})
	}
}
