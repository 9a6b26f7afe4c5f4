package tas

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/sched"
	"github.com/coraopt/coraopt/sched/schedtest"
)

// pointViolation reports the first row, bound or integrality the point x violates.
func pointViolation(p *model.Problem, x []float64) string {
	const tol = 1e-9
	for j, v := range x {
		if v < p.ColLower[j]-tol || v > p.ColUpper[j]+tol {
			return "bound of " + p.ColNames[j]
		}
		if p.Integrality != nil && p.Integrality[j] && math.Abs(v-math.Round(v)) > tol {
			return "integrality of " + p.ColNames[j]
		}
	}
	for i, a := range p.RowActivity(x) {
		if a < p.RowLower[i]-tol || a > p.RowUpper[i]+tol {
			return "row " + p.RowNames[i]
		}
	}
	return ""
}

var mipConfig = schedtest.Config{MaxJobs: 5, MaxSlots: 6, MaxResources: 2, MaxCapacity: 4,
	VaryingCapacity: true, Release: true, MaxParallel: true}

// Every schedule is a point of the MIP with outcomes equal to its utilities, Decode
// inverts Encode, and claiming a completion earlier than the real one is infeasible.
func TestMIPEncodesSchedules(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		in, witness := schedtest.Feasible(rt, mipConfig)
		res, err := OnionPeel(context.Background(), in, Options{})
		if err != nil {
			rt.Fatal(err)
		}
		m, err := BuildMIP(in)
		if err != nil {
			rt.Fatal(err)
		}
		prob, err := m.Model.Compile()
		if err != nil {
			rt.Fatal(err)
		}
		for _, s := range []*sched.Schedule{res.Schedule, witness} {
			x, err := m.Encode(s)
			if err != nil {
				rt.Fatal(err)
			}
			if v := pointViolation(prob, x); v != "" {
				rt.Fatalf("schedule's point violates %s", v)
			}
			for j, o := range m.Outcomes {
				if got := o.Eval(x); got != s.Jobs[j].Utility {
					rt.Fatalf("outcome %d = %g, utility %g", j, got, s.Jobs[j].Utility)
				}
			}
			back, err := m.Decode(x)
			if err != nil {
				rt.Fatal(err)
			}
			for j := range s.Jobs {
				if !slices.EqualFunc(back.Jobs[j].Alloc, s.Jobs[j].Alloc, slices.Equal) {
					rt.Fatalf("job %d: decoded allocation differs", j)
				}
			}
		}
		// Claim an earlier completion for a job that holds something in its last slot.
		s := res.Schedule
		for j, js := range s.Jobs {
			c := js.Completion
			for e := c - 1; e >= 1; e-- {
				if !m.W[j][e-1].Valid() {
					continue
				}
				x, _ := m.Encode(s)
				x[m.W[j][c-1].Index()] = 0
				x[m.W[j][e-1].Index()] = 1
				if pointViolation(prob, x) == "" {
					rt.Fatalf("job %d completes in %d but the point claiming %d is feasible", j, c, e)
				}
				return
			}
		}
	})
}

func TestBuildMIPRejectsImpossibleJob(t *testing.T) {
	in := spec{caps: constCaps(2, 1), demand: [][]int{{3}}, util: []sched.Utility{table(1, 0)}}.instance()
	if _, err := BuildMIP(in); !errors.Is(err, ErrInfeasible) {
		t.Fatalf("err = %v, want ErrInfeasible", err)
	}
	m, err := BuildMIP(spec{caps: constCaps(2, 1), demand: [][]int{{1}}, util: []sched.Utility{table(1, 0)}}.instance())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Decode([]float64{1}); err == nil {
		t.Fatal("Decode accepted a short vector")
	}
}
