package rds

import (
	"context"
	"math"
	"testing"

	frds "github.com/coraopt/coraopt/formulations/rds"
	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/policies/fair"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// table1 is the case study of rds.txt §2.2 (Table 1, Fig. 2) as a workload. J1: 120
// units of work, arrival minute 0, deadline 40; J2: 60 units, arrival 10, deadline
// 30. The paper gives no capacity numbers; ours (the README's Findings) are 3 units per
// minute, doubled in minutes 10–20 and 30–40: exactly the 180 units the jobs need.
// A unit per minute is 10 slots running 1-minute tasks (so J1 is 1,200 tasks and J2
// 600): the 10 slots per unit let Fair split 3 units evenly, as the paper's fluid
// Fig. 2c does, and every task, tick and capacity step falls on a whole minute.
func table1() *workload.Workload {
	const unit = 10 // slots per unit of the paper's capacity
	job := func(id string, arrival, work, deadline float64) workload.Job {
		return workload.Job{ID: id, Arrival: arrival * 60, Priority: 1, Deadline: (deadline - arrival) * 60,
			Utility: sched.RDS{Priority: 1, Soft: deadline - arrival, Hard: deadline - arrival},
			Stages:  []workload.Stage{{Pool: "slots", Tasks: int(work) * unit, Runtime: &workload.Runtime{Type: "fixed", Value: 60}}}}
	}
	w := &workload.Workload{Name: "rds-table1", TimeUnit: 60,
		Cluster: workload.Cluster{Pools: []workload.Pool{{Name: "slots", Slots: 6 * unit}}},
		Jobs:    []workload.Job{job("J1", 0, 120, 40), job("J2", 10, 60, 30)}}
	for k, c := range []int{3, 6, 3, 6, 3} {
		w.Cluster.Capacity = append(w.Cluster.Capacity, workload.CapacityStep{Time: float64(k) * 600, Slots: map[string]int{"slots": c * unit}})
	}
	if err := w.Validate(); err != nil {
		panic(err)
	}
	return w
}

// runTable1 runs p on the Table 1 workload, checks the simulator's invariants, and
// returns J1's and J2's completion in minutes.
func runTable1(t *testing.T, p policies.Policy) (j1, j2 float64) {
	t.Helper()
	j1, j2, _ = runTable1Held(t, p)
	return j1, j2
}

// runTable1Held is runTable1 that also returns the slot-minutes each job held in each
// 10-minute interval.
func runTable1Held(t *testing.T, p policies.Policy) (j1, j2 float64, held [2][8]float64) {
	t.Helper()
	w := table1()
	res, err := sim.Run(context.Background(), w, p, sim.Options{Seed: 1, Record: true})
	if err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	if err := sim.CheckInvariants(w, 1, res); err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	held = heldPerInterval(res)
	t.Logf("%s: J1 slot-minutes per interval %v, J2 %v", p.Name(), held[0], held[1])
	return res.Jobs[0].Completion / 60, res.Jobs[1].Completion / 60, held
}

// heldPerInterval is the slot-minutes each job held in each 10-minute interval.
func heldPerInterval(res *sim.Result) (held [2][8]float64) {
	for _, pl := range res.Placements {
		for k := range 8 {
			a, b := float64(k)*600, float64(k+1)*600
			if o := min(pl.Finish, b) - max(pl.Start, a); o > 0 {
				held[pl.Job][k] += o / 60
			}
		}
	}
	return held
}

// TestTable1RHCMeetsBothDeadlines: RDS with a perfect forecast gives J2 all its 60
// units (600 slot-minutes) in minutes 10–30 and leaves no slot idle while work
// remains: the capacity of minutes 0–40 is 300, 600, 300 and 600 slot-minutes, and the
// jobs use all of it.
func TestTable1RHCMeetsBothDeadlines(t *testing.T) {
	j1, j2, held := runTable1Held(t, mustNew(t, Config{Forecast: Ideal}))
	if j1 > 40 || j2 > 30 {
		t.Errorf("J1 completes at %g (deadline 40), J2 at %g (deadline 30)", j1, j2)
	}
	if got := held[1][1] + held[1][2]; got != 600 {
		t.Errorf("J2 held %g slot-minutes in minutes 10–30, want 600", got)
	}
	for k, c := range []float64{300, 600, 300, 600} {
		if used := held[0][k] + held[1][k]; math.Abs(used-c) > 1e-9 {
			t.Errorf("minutes %d–%d: %g of %g slot-minutes used", 10*k, 10*k+10, used, c)
		}
	}
}

// TestTable1Completions pins the completion times the README's Findings quote for the
// Table 1 case study in the simulator: RDS with a perfect forecast (rds-ideal) and the
// deadline-first stage meets both deadlines; eq. 3 alone finishes J2 ten minutes late;
// Fair five (rds.txt Fig. 2c); RDS with the AR(3) predictor, given the periodic
// history before minute 0, meets both like the ideal one (the minimum-norm fit
// forecasts the pattern exactly, see formulations/rds.TestFitARConstantAndPeriodic).
func TestTable1Completions(t *testing.T) {
	eq3 := frds.DefaultParams()
	eq3.Deadlines = frds.DeadlinesOff
	for _, tc := range []struct {
		name   string
		p      policies.Policy
		j1, j2 float64
	}{
		{"rhc deadlines first", mustNew(t, Config{Forecast: Ideal}), 40, 30},
		{"rhc deadlines first, AR(3)", mustNew(t, Config{History: []float64{30, 60, 30, 60, 30, 60}}), 40, 30},
		{"eq. 3 alone", mustNew(t, Config{Forecast: Ideal, Params: &eq3}), 40, 40},
		{"fair", fair.New(), 40, 35},
	} {
		j1, j2 := runTable1(t, tc.p)
		if math.Abs(j1-tc.j1) > 1e-9 || math.Abs(j2-tc.j2) > 1e-9 {
			t.Errorf("%s: J1 completes at %.4f, J2 at %.4f; the README says %g and %g", tc.name, j1, j2, tc.j1, tc.j2)
		}
		if r, ok := tc.p.(*Policy); ok && r.Fallbacks() != 0 {
			t.Errorf("%s: %d fallbacks (%v)", tc.name, r.Fallbacks(), r.LastError())
		}
	}
}
