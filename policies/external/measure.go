package external

import (
	"context"

	"github.com/coraopt/coraopt/policies"
	"github.com/coraopt/coraopt/sim"
	"github.com/coraopt/coraopt/workload"
)

// With starts the program of c for one run on w, calls run with its policy and ends
// the program (it is reaped on every path). run's error comes first; then a failure
// of the end exchange (Close). A program that cannot start or answer hello is an
// *Error before run is called.
func With(ctx context.Context, c Command, w *workload.Workload, opt Options, run func(policies.Policy) error) error {
	s, err := Start(ctx, c, w, opt)
	if err != nil {
		return err
	}
	err = run(s.Policy())
	cerr := s.Close()
	switch {
	case err != nil:
		return err
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return cerr
}

// Measure is sim.Measure with the program of c as the policy (With). A program that
// breaks the protocol, fails or falls silent ends the run with an *Error naming the
// round, the simulated time and the field; one that refuses the workload gives a
// *sim.UnsupportedError, as a built-in policy's Refuser does.
func Measure(ctx context.Context, c Command, w *workload.Workload, seed uint64, check bool, opt Options) (*sim.Metrics, error) {
	var m *sim.Metrics
	err := With(ctx, c, w, opt, func(p policies.Policy) error {
		var err error
		m, err = sim.Measure(ctx, w, p, seed, check)
		return err
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}
