package bench

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/coraopt/coraopt/model"
	"github.com/coraopt/coraopt/solvers"
)

// fakeClock is a Clock whose time moves only when a fake run says how long it took.
type fakeClock struct {
	now time.Time
	cpu time.Duration
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time     { return c.now }
func (c *fakeClock) CPU() time.Duration { return c.cpu }

// advance lets d pass, a fraction 0.9 of it as CPU time.
func (c *fakeClock) advance(d time.Duration) {
	c.now = c.now.Add(d)
	c.cpu += d * 9 / 10
}

// script is what a fake solver or method answers on successive calls; the last entry
// repeats.
type script struct {
	clock *fakeClock
	steps []step
	calls int
}

type step struct {
	took      time.Duration
	status    solvers.Status
	done      bool // answer StatusDone (methods only)
	objective float64
	err       error
	panic     bool
	cancel    context.CancelFunc // called during the run (an interrupt)
}

func (s *script) next(ctx context.Context) (step, error) {
	st := s.steps[min(s.calls, len(s.steps)-1)]
	s.calls++
	s.clock.advance(st.took)
	if st.cancel != nil {
		st.cancel()
	}
	if st.panic {
		panic("fake solver exploded")
	}
	if ctx.Err() != nil && st.status == solvers.Optimal {
		st.status = solvers.Other
	}
	return st, st.err
}

// fakeSolver is a solvers.Solver following a script.
type fakeSolver struct {
	name string
	s    *script
}

func (f *fakeSolver) Name() string { return f.name }

func (f *fakeSolver) Solve(ctx context.Context, p *model.Problem, opt solvers.Options) (*solvers.Solution, error) {
	st, err := f.s.next(ctx)
	if err != nil {
		return nil, err
	}
	sol := &solvers.Solution{Status: st.status, Objective: st.objective, Iterations: 7}
	if st.status != solvers.Optimal {
		sol.Objective = math.NaN()
	}
	return sol, nil
}

func fakeBackend(name string, caps solvers.Capabilities, s *script) Backend {
	return Backend{Name: name, Caps: caps, New: func() (solvers.Solver, error) { return &fakeSolver{name, s}, nil }}
}

func fakeMethod(name string, s *script) Method {
	return Method{Name: name, Run: func(ctx context.Context) (Outcome, error) {
		st, err := s.next(ctx)
		if err != nil {
			return Outcome{}, err
		}
		o := Outcome{Status: st.status.String(), Objective: st.objective}
		if st.done {
			o.Status = StatusDone
		}
		return o, nil
	}}
}

var lpOnly = solvers.Capabilities{LP: true}
var lpMIP = solvers.Capabilities{LP: true, MIP: true}

// tinyLP is a one-variable LP (its content does not matter to fake solvers).
func tinyLP() *model.Problem {
	m := model.New("tiny")
	x := m.Continuous(0, 1, "x")
	m.AddLe(x.E(), 1, "r")
	m.Maximize(x.E())
	p, err := m.Compile()
	if err != nil {
		panic(err)
	}
	return p
}

func tinyMIP() *model.Problem {
	m := model.New("tinymip")
	x := m.Integer(0, 3, "x")
	m.AddLe(x.E(), 2.5, "r")
	m.Maximize(x.E())
	p, err := m.Compile()
	if err != nil {
		panic(err)
	}
	return p
}

func fixedCase(name string, class Class, inst *Instance) Case {
	return Case{Name: name, Family: "test", Class: class, Prepare: func(context.Context) (*Instance, error) { return inst, nil }}
}

var errBoom = errors.New("boom")

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
