package solve_test

import (
	"context"
	"errors"
	"testing"

	"github.com/coraopt/coraopt/formulations/tas"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/solve"
)

func alg3Inst(T int, caps []int, demand []int, utils ...[]float64) *sched.Instance {
	in := &sched.Instance{Name: "alg3", Horizon: T, HorizonSource: "file", Resources: []sched.Resource{{Name: "c", Capacity: caps}}}
	for j, d := range demand {
		in.Jobs = append(in.Jobs, sched.Job{ID: string(rune('a' + j)), Demand: []int{d}, Release: 1, TaskSlots: 1, Utility: sched.Table{Values: utils[j]}})
	}
	return in
}

// TestAlg3Method: tas --method alg3 returns Alg. 3's schedule (never claimed exact), its
// infeasible targets as an Alg3InfeasibleError inside a MethodError (the README's
// two-job counterexample), and refuses an instance outside Alg. 3's model.
func TestAlg3Method(t *testing.T) {
	ctx := context.Background()
	ok := alg3Inst(3, []int{2, 2, 2}, []int{2, 2}, []float64{5, 1, 0}, []float64{4, 4, 1})
	res, err := solve.Solve(ctx, solve.Request{Formulation: "tas", Method: "alg3", Instance: ok})
	if err != nil {
		t.Fatal(err)
	}
	if res.Exact || res.Schedule.Exact || res.Method != "alg3" || res.Schedule.Sorted[0] != 4 {
		t.Fatalf("got exact %v/%v method %s sorted %v", res.Exact, res.Schedule.Exact, res.Method, res.Schedule.Sorted)
	}
	bad := alg3Inst(3, []int{1, 1, 1}, []int{1, 2}, []float64{9, 3, 3}, []float64{6, 5, 0})
	_, err = solve.Solve(ctx, solve.Request{Formulation: "tas", Method: "alg3", Instance: bad})
	var me *solve.MethodError
	var inf *solve.Alg3InfeasibleError
	if !errors.As(err, &me) || !errors.As(err, &inf) || !errors.Is(err, tas.ErrAlg3Infeasible) || inf.Result.Deadlines[0] != 1 || inf.Result.Deadlines[1] != 2 {
		t.Fatalf("err %v", err)
	}
	varying := alg3Inst(3, []int{1, 2, 2}, []int{1}, []float64{1, 1, 1})
	_, err = solve.Solve(ctx, solve.Request{Formulation: "tas", Method: "alg3", Instance: varying})
	var re *solve.RequestError
	if !errors.As(err, &re) {
		t.Fatalf("varying capacity: err %v, want a RequestError", err)
	}
}
